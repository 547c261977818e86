#![no_main]
//! The sync's readers (legacy and versioned) of an upstream's answers.
libfuzzer_sys::fuzz_target!(|data: &[u8]| confapi::fuzz::sync_event(data));
