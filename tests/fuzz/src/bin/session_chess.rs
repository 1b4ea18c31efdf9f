//! libFuzzer driver of the `session_chess` target (see the crate documentation).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    kgames_fuzz::run("session_chess", data);
});
