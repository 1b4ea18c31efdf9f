//! libFuzzer driver of the `search_deep` target (see the crate documentation).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    kgames_fuzz::run("search_deep", data);
});
