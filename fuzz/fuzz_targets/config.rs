#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| obi_fuzz::config(data));
