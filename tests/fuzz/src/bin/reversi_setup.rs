//! libFuzzer driver of the `reversi_setup` target (see the crate documentation).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    kgames_fuzz::run("reversi_setup", data);
});
