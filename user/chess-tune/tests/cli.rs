//! The command lines of chess-datagen, chess-tune, chess-label and chess-nnue: `--help` (each its own
//! text), `--version`, and an unknown option refused with the usage and status 2.

use kgames_client::cli_test::check_standard_options;

#[test]
fn every_program_answers_help_version_and_a_bad_option() {
    check_standard_options(
        env!("CARGO_BIN_EXE_chess-datagen"),
        "chess-datagen",
        &["Self-play games", "--nodes"],
    );
    check_standard_options(
        env!("CARGO_BIN_EXE_chess-tune"),
        "chess-tune",
        &["Texel tuning", "--data"],
    );
    check_standard_options(
        env!("CARGO_BIN_EXE_chess-nnue"),
        "chess-nnue",
        &["Trains the chess network", "--hidden"],
    );
    check_standard_options(
        env!("CARGO_BIN_EXE_chess-label"),
        "chess-label",
        &["reference UCI engine", "--depth"],
    );
}
