//! libFuzzer driver of the `kxo_record` target (see the crate documentation).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    kgames_fuzz::run("kxo_record", data);
});
