//! The command lines of chess-datagen, chess-tune, chess-label, chess-nnue and chess-ladder:
//! `--help` (each its own text), `--version`, and an unknown option refused with the usage and status 2.

use kgames_test_support::cli::check_standard_options;

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
    check_standard_options(
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

/// `chess-datagen --net` with a file that is not a network names it and exits 1, before any
/// game is written.
#[test]
fn datagen_refuses_a_file_that_is_not_a_network() {
    let dir = std::env::temp_dir().join(format!("chess-datagen-net-{}", std::process::id()));
    let bad = dir.join("bad.bin");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(&bad, b"not a network").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chess-datagen"))
        .args(["--games", "1", "--nodes", "100", "--net"])
        .arg(&bad)
        .arg("--out")
        .arg(dir.join("out.txt"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("bad.bin: not a network"), "{stderr}");
    assert!(!dir.join("out.txt").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
