//! The command line of reversi-client: `--help`, `--version`, an unknown option refused
//! with the usage and status 2, and a missing device reported with status 1.

const EXE: &str = env!("CARGO_BIN_EXE_reversi-client");

#[test]
fn answers_help_version_and_a_bad_option() {
    kgames_test_support::cli::check_standard_options(
        EXE,
        "reversi-client",
        &["classic-protocol reversi client", "--cpu-both", "--budget"],
    );
}

#[test]
fn a_missing_device_is_named_with_status_1() {
    let o = std::process::Command::new(EXE)
        .args(["--cpu-both", "/nonexistent/reversi"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("reversi-client: /nonexistent/reversi: ") && err.contains("insmod"),
        "{err}"
    );
}
