//! The command line of kgames-uci: `--help`, `--version`, and an unknown option refused with the usage and status 2; kgames-uci's
//! `--net` refused with a message and status 1 when the file is not a network or the
//! evaluation is the classic one.

#[test]
fn kgames_uci_answers_help_version_and_a_bad_option() {
    kgames_test_support::cli::check_standard_options(
        env!("CARGO_BIN_EXE_kgames-uci"),
        "kgames-uci",
        &["A UCI chess engine", "--host"],
    );
}

/// `kgames-uci` with `args`: its status and standard error, with nothing on standard input.
fn uci_status(args: &[&str]) -> (Option<i32>, String) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_kgames-uci"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn kgames_uci_refuses_a_net_it_cannot_use() {
    let dir = std::env::temp_dir().join(format!("kgames-uci-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, b"not a network").unwrap();
    let bad = bad.to_string_lossy().into_owned();
    // The default evaluation is the network, so --net alone reads the file.
    let (code, err) = uci_status(&["--host", "--net", &bad]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("bad.bin: not a network"), "{err}");
    // The classic evaluation would ignore the file: refused rather than ignored.
    let (code, err) = uci_status(&["--host", "--eval", "classic", "--net", &bad]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("the classic evaluation uses no network"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
