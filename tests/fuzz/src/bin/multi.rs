//! libFuzzer driver of the `multi` target (see the crate documentation).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    kgames_fuzz::run("multi", data);
});
