//! The tmux test programs on the host: `play-tmux-test` over `play --sim` (the session layer
//! in-process) and `xo-user-tmux-test` over a replayed recording; each answers `--help`,
//! `--version` and a bad option. `play` and `xo-user` are found beside these programs in the
//! target directory (`cargo test --workspace` builds them; `cargo build -p play -p xo-user`
//! does alone).

use std::fs;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use kgames_test_support::cli::check_standard_options;
use kgames_test_support::tmux::Tmux;
use xo_user::synth;

const PLAY_SCENARIO: &str = env!("CARGO_BIN_EXE_play-tmux-test");
const XO_SCENARIO: &str = env!("CARGO_BIN_EXE_xo-user-tmux-test");

/// The tool `name` built beside the test programs.
fn tool(name: &str) -> PathBuf {
    let p = PathBuf::from(PLAY_SCENARIO).with_file_name(name);
    assert!(
        p.exists(),
        "{} is not built: cargo build -p {name} (cargo test --workspace builds it)",
        p.display()
    );
    p
}

fn tmux_or_skip() -> bool {
    let ok = Tmux::available();
    if !ok {
        eprintln!("skipped: tmux is not installed (scripts/setup-toolchain.sh installs it)");
    }
    ok
}

#[test]
fn play_scenarios_on_the_simulation() {
    if !tmux_or_skip() {
        return;
    }
    let o = Command::new(PLAY_SCENARIO)
        .arg("--play")
        .arg(tool("play"))
        .args(["--", "--sim"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(!out.contains("not ok"), "{out}");
    assert!(out.matches("\nok - ").count() >= 55, "{out}");
}

#[test]
fn xo_user_replay_scenario() {
    if !tmux_or_skip() {
        return;
    }
    let d = std::env::temp_dir().join(format!("kgames-tmux-{}", std::process::id()));
    fs::create_dir_all(&d).unwrap();
    let file = d.join("demo.kxorec");
    let spec = synth::Spec {
        games: 9,
        period: Duration::from_millis(100),
        length: Duration::from_secs(120),
        seed: 11,
    };
    fs::write(&file, synth::recording(spec)).unwrap();
    let o = Command::new(XO_SCENARIO)
        .arg("--xo-user")
        .arg(tool("xo-user"))
        .arg("--dir")
        .arg(d.join("tmux"))
        .args(["--", "--replay"])
        .arg(&file)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert_eq!(out.matches("\nok - ").count(), 13, "{out}");
    assert!(out.contains("ok - after quitting: a history line per game seen (9)"));
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn every_program_answers_help_version_and_a_bad_option() {
    check_standard_options(PLAY_SCENARIO, "play-tmux-test", &["tmux"]);
    check_standard_options(XO_SCENARIO, "xo-user-tmux-test", &["tmux"]);
}
