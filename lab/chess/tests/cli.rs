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

/// `chess-nnue --king-buckets 4 --checkpoint FILE` writes a network with 4 sets; the same
/// command again continues from the checkpoint after its last epoch and writes the same
/// bytes; other settings are refused with the checkpoint named; `--max-positions` says it
/// stopped reading.
#[test]
fn nnue_trains_king_buckets_and_continues_from_its_checkpoint() {
    let dir = std::env::temp_dir().join(format!("chess-nnue-cli-{}", std::process::id()));
    let data = dir.join("data");
    let ckpt = dir.join("train.ckpt");
    let _ = std::fs::remove_dir_all(&dir);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chess-datagen"))
        .args([
            "--games",
            "6",
            "--nodes",
            "200",
            "--scores",
            "--chunk-games",
            "2",
        ])
        .arg("--dir")
        .arg(&data)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let nnue = |extra: &[&str], net: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_chess-nnue"))
            .arg("--data")
            .arg(&data)
            .args([
                "--hidden",
                "8",
                "--epochs",
                "2",
                "--batch",
                "64",
                "--validation",
                "100",
            ])
            .args(["--king-buckets", "4", "--mirror", "--threads", "1"])
            .args(extra)
            .arg("--out")
            .arg(dir.join(net))
            .output()
            .unwrap()
    };
    let ck = ckpt.to_str().unwrap();
    let first = nnue(&["--checkpoint", ck], "a.bin");
    let stderr = String::from_utf8_lossy(&first.stderr);
    assert!(first.status.success(), "{stderr}");
    assert!(ckpt.exists());
    let a = std::fs::read(dir.join("a.bin")).unwrap();
    assert_eq!(a.len(), kgames_chess::nnue::net_len(8, 4, 1));
    assert_eq!(a[11], 4, "the header's king buckets");
    let again = nnue(&["--checkpoint", ck], "b.bin");
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(again.status.success(), "{stderr}");
    assert!(stderr.contains("after epoch 2"), "{stderr}");
    assert!(
        !stderr.contains("epoch 1:"),
        "no epoch trained again: {stderr}"
    );
    assert!(a == std::fs::read(dir.join("b.bin")).unwrap());
    let other = nnue(&["--checkpoint", ck, "--lr", "0.01"], "c.bin");
    let stderr = String::from_utf8_lossy(&other.stderr);
    assert_eq!(other.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("train.ckpt: made by another run"),
        "{stderr}"
    );
    assert!(!dir.join("c.bin").exists());
    let capped = nnue(&["--max-positions", "200"], "d.bin");
    let stderr = String::from_utf8_lossy(&capped.stderr);
    assert!(capped.status.success(), "{stderr}");
    assert!(
        stderr.contains("read only the first 200 positions"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
