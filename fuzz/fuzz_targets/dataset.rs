#![no_main]
//! The dataset parser and validator (`confapi import`).
libfuzzer_sys::fuzz_target!(|data: &[u8]| confapi::fuzz::dataset(data));
