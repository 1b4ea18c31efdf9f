//! The `play` binary: bad arguments, a missing device, a device that answers nonsense, and
//! line mode over a scripted stdin (against the in-process session layer). The tmux
//! scenarios are tests/tmux's.

use std::fs;
use std::io::Write;
use std::process::{Command, Output, Stdio};

const PLAY: &str = env!("CARGO_BIN_EXE_play");

fn play(args: &[&str], stdin: &str) -> Output {
    let mut c = Command::new(PLAY)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    c.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    c.wait_with_output().unwrap()
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn bad_arguments_exit_2_with_the_usage() {
    for bad in [
        &[][..],
        &["go"],
        &["chess", "--bogus"],
        &["chess", "--as", "X"],
        &["reversi", "--size", "4"],
        &["kxo", "--size", "7"],
        &["kxo", "--playouts", "0"],
        &["kxo", "--workers", "11"],
        &["kxo", "--budget", "100"],
        &["chess", "--budget", "0"],
        &["chess", "--budget", "N"],
        &["kxo", "--fen", "x"],
        &["chess", "extra"],
    ] {
        let o = play(bad, "");
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {err}");
        assert!(
            err.contains("Usage") || err.contains("usage"),
            "{bad:?}: {err}"
        );
    }
    let o = play(&["--help"], "");
    let (out, _) = text(&o);
    for w in [
        "--shared",
        "--size",
        "--playouts",
        "--workers",
        "--plain",
        "--budget",
        "Esc",
        "Exit status",
    ] {
        assert!(out.contains(w), "{w}\n{out}");
    }
}

#[test]
fn a_missing_device_says_what_to_load() {
    let o = play(&["chess", "--device", "/nonexistent/chess"], "");
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("insmod kgames.ko"), "{err}");
}

#[test]
fn a_device_answering_nonsense_is_shown_raw_and_play_lives_on() {
    // A regular file: every write appends, every read returns what is there.
    let d = std::env::temp_dir().join(format!("play-cli-{}", std::process::id()));
    fs::create_dir_all(&d).unwrap();
    let f = d.join("dev");
    fs::write(&f, "").unwrap();
    let o = play(
        &[
            "reversi",
            "--plain",
            "--shared",
            "--device",
            f.to_str().unwrap(),
        ],
        "d3\nquit\n",
    );
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(
        out.contains("the device answered something unexpected"),
        "{out}"
    );
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn plain_mode_plays_a_scripted_game() {
    let o = play(
        &["kxo", "--sim", "--plain", "--size", "3", "--playouts", "4"],
        "9 9\nlegal\nstatus\n0 0\n1 0\n2 0\n0 1\n1 1\n2 1\n0 2\n1 2\n2 2\nnew\ngame chess\ne2e4\ne7e5\nresign\nquit\n",
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("\"9 9\" is not a square"), "{out}");
    assert!(out.contains("n=3 playouts=4"), "{out}");
    assert!(out.contains("   0 1 2\n0 "), "{out}");
    assert!(
        out.contains("you played 0 0") || out.contains("illegal move"),
        "{out}"
    );
    assert!(
        out.contains("You win") || out.contains("The CPU wins") || out.contains("A draw"),
        "{out}"
    );
    assert!(out.contains("new game: you play white"), "{out}");
    assert!(out.contains("you played e2e4 (WPe2-e4)"), "{out}");
    assert!(
        out.contains("not your turn (OOT)") || out.contains("illegal move"),
        "{out}"
    );
    assert!(out.contains("You resigned: the CPU wins"), "{out}");
}

#[test]
fn every_program_answers_help_version_and_a_bad_option() {
    kgames_test_support::cli::check_standard_options(PLAY, "play", &["N x N tic-tac-toe"]);
}
