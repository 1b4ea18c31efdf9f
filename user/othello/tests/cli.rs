//! The command lines of othello-link and othello-match: `--help`, `--version`, and an
//! unknown option refused with the usage and status 2.

#[test]
fn every_program_answers_help_version_and_a_bad_option() {
    kgames_test_support::cli::check_standard_options(
        env!("CARGO_BIN_EXE_othello-link"),
        "othello-link",
        &["serial Othello protocol"],
    );
    kgames_test_support::cli::check_standard_options(
        env!("CARGO_BIN_EXE_othello-match"),
        "othello-match",
        &["two participants"],
    );
}
