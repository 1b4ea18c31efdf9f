//! libFuzzer driver of the `protocol` target (see the crate documentation).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    kgames_fuzz::run("protocol", data);
});
