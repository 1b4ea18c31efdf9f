//! The command lines of kgames-uci and chess-ladder: `--help` (each its own text),
//! `--version`, and an unknown option refused with the usage and status 2.

#[test]
fn every_program_answers_help_version_and_a_bad_option() {
    kgames_client::cli_test::check_standard_options(
        env!("CARGO_BIN_EXE_kgames-uci"),
        "kgames-uci",
        &["A UCI chess engine", "--host"],
    );
    kgames_client::cli_test::check_standard_options(
        env!("CARGO_BIN_EXE_chess-ladder"),
        "chess-ladder",
        &["Stockfish's skill levels", "--levels"],
    );
}

#[test]
fn chess_ladder_does_not_call_itself_an_engine() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_chess-ladder"))
        .arg("--help")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!out.contains("A UCI chess engine"), "{out}");
}
