//! libFuzzer driver of the `chess_fen` target (see the crate documentation).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    kgames_fuzz::run("chess_fen", data);
});
