//! libFuzzer driver of the `othello_line` target (see the crate documentation).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    kgames_fuzz::run("othello_line", data);
});
