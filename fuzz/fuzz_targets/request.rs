#![no_main]
//! A request (target line, then headers) through the whole router, on
//! tests/data/client-friendly.json.
use std::sync::LazyLock;

static SERVER: LazyLock<confapi::fuzz::Requests> = LazyLock::new(|| {
    confapi::fuzz::Requests::new(include_str!("../../tests/data/client-friendly.json"))
});

libfuzzer_sys::fuzz_target!(|data: &[u8]| SERVER.send(data));
