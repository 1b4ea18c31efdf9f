//! The `xo-user` binary: arguments, bad input, and (with tmux) a real terminal against a
//! replayed recording: the whole pause/quit scenario, exits on a bad stream, a closed device
//! and SIGTERM with the terminal restored, and `--record` of a stream read back.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use kgames_term::tmux::Tmux;
use kgames_uapi::agent::AgentKind;
use kgames_uapi::record::Record;
use xo_user::msg::Msg;
use xo_user::{recfile, synth};

const XO: &str = env!("CARGO_BIN_EXE_xo-user");
const SCENARIO: &str = env!("CARGO_BIN_EXE_xo-user-tmux-test");

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("xo-user-cli-{}-{name}", std::process::id()));
    fs::create_dir_all(&d).unwrap();
    d
}

fn xo(args: &[&str]) -> Output {
    Command::new(XO)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A synthetic recording of `secs` seconds.
fn demo(path: &Path, secs: u64) -> Vec<u8> {
    let spec = synth::Spec {
        games: 9,
        period: Duration::from_millis(100),
        length: Duration::from_secs(secs),
        seed: 11,
    };
    let bytes = synth::recording(spec);
    fs::write(path, &bytes).unwrap();
    bytes
}

#[test]
fn help_and_bad_arguments() {
    let o = xo(&["--help"]);
    assert!(o.status.success());
    let help = String::from_utf8_lossy(&o.stdout);
    for word in [
        "--record",
        "--replay",
        "--speed",
        "--stop-on-quit",
        "Ctrl-P",
        "Exit status",
    ] {
        assert!(help.contains(word), "{word}\n{help}");
    }
    for bad in [
        &["--bogus"][..],
        &["--speed", "2"],
        &["--replay", "f", "--speed", "0"],
        &["--replay", "f", "--speed", "fast"],
        &["--replay", "f", "--record", "g"],
        &["extra"],
    ] {
        let o = xo(bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stderr(&o));
    }
}

#[test]
fn bad_files_are_reported_before_the_screen() {
    let d = dir("bad");
    let good = demo(&d.join("good"), 2);
    let cases: [(&str, Vec<u8>, &str); 4] = [
        ("missing", Vec::new(), "No such file"),
        ("truncated", good[..good.len() - 7].to_vec(), "truncated"),
        (
            "text",
            b"hello, world\n".repeat(4),
            "not an xo-user recording",
        ),
        (
            "v1",
            {
                let mut b = good.clone();
                b[12..14].copy_from_slice(&1u16.to_ne_bytes());
                b
            },
            "record version 1",
        ),
    ];
    for (name, bytes, want) in cases {
        let p = d.join(name);
        if name != "missing" {
            fs::write(&p, bytes).unwrap();
        }
        let o = xo(&["--replay", p.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{name}");
        let e = stderr(&o);
        assert!(
            e.starts_with("xo-user: ") && e.contains(want),
            "{name}: {e}"
        );
    }
    // A good file, but no terminal.
    let o = xo(&["--replay", d.join("good").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("standard input is not a terminal"));
    let o = xo(&["--device", d.join("nodevice").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("nodevice: No such file"));
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn write_demo_writes_a_replayable_recording() {
    let d = dir("demo");
    let p = d.join("demo.kxorec");
    let o = xo(&["--write-demo", p.to_str().unwrap(), "--demo-seconds", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let msgs = recfile::read_all(fs::File::open(&p).unwrap()).unwrap();
    assert!(msgs.iter().any(|m| matches!(m, Msg::Records { .. })));
    let _ = fs::remove_dir_all(&d);
}

fn tmux_or_skip() -> bool {
    let ok = Tmux::available();
    if !ok {
        eprintln!("skipped: tmux is not installed (scripts/setup-toolchain.sh installs it)");
    }
    ok
}

#[test]
fn tmux_replay_scenario() {
    if !tmux_or_skip() {
        return;
    }
    let d = dir("scenario");
    let file = d.join("demo.kxorec");
    demo(&file, 120);
    let o = Command::new(SCENARIO)
        .args(["--xo-user", XO, "--dir"])
        .arg(d.join("tmux"))
        .args(["--", "--replay"])
        .arg(&file)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert_eq!(out.matches("\nok - ").count(), 10, "{out}");
    let _ = fs::remove_dir_all(&d);
}

/// Runs xo-user with `args` in tmux until it exits by itself; (status, restored, screen).
fn run_in_tmux(d: &Path, args: &[&str]) -> (i32, bool, String) {
    let mut argv = vec![XO.to_string()];
    argv.extend(args.iter().map(|s| s.to_string()));
    let t = Tmux::start_watched(&d.join("tmux"), 80, 24, &argv).unwrap();
    let o = t
        .wait_outcome(Duration::from_secs(20))
        .expect("xo-user exits");
    (o.status, o.restored(), t.capture().unwrap())
}

#[test]
fn tmux_a_bad_stream_or_a_closed_device_exits_1_with_the_terminal_restored() {
    if !tmux_or_skip() {
        return;
    }
    let d = dir("stream");
    // A "device" that gives records of layout version 1.
    let mut r = Record::start(0, 0, AgentKind::Negamax, AgentKind::Random);
    r.version = 1;
    let dev = d.join("v1");
    fs::write(&dev, r.to_bytes().repeat(3)).unwrap();
    let (status, restored, screen) = run_in_tmux(&d, &["--device", dev.to_str().unwrap()]);
    assert_eq!(status, 1, "{screen}");
    assert!(restored);
    assert!(
        screen.contains("record version 1, size 48; xo-user reads version 2"),
        "{screen}"
    );
    // A device whose stream ends: good records, then end of file.
    let good = Record::start(0, 0, AgentKind::Negamax, AgentKind::Random);
    fs::write(&dev, good.to_bytes().repeat(3)).unwrap();
    let rec = d.join("out.kxorec");
    let (status, restored, screen) = run_in_tmux(
        &d,
        &[
            "--device",
            dev.to_str().unwrap(),
            "--record",
            rec.to_str().unwrap(),
        ],
    );
    assert_eq!(status, 1, "{screen}");
    assert!(restored);
    assert!(screen.contains("closed the stream"), "{screen}");
    // What was read was recorded.
    let msgs = recfile::read_all(fs::File::open(&rec).unwrap()).unwrap();
    let got: Vec<Record> = msgs
        .iter()
        .flat_map(|m| match m {
            Msg::Records { records, .. } => records.clone(),
            _ => Vec::new(),
        })
        .collect();
    assert_eq!(got, vec![good; 3]);
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn tmux_sigterm_restores_the_terminal() {
    if !tmux_or_skip() {
        return;
    }
    let d = dir("sigterm");
    let file = d.join("demo.kxorec");
    demo(&file, 30);
    let argv = vec![
        XO.to_string(),
        "--replay".into(),
        file.to_string_lossy().into(),
    ];
    let t = Tmux::start_watched(&d.join("tmux"), 80, 24, &argv).unwrap();
    t.wait_for(Duration::from_secs(20), |s| s.contains("┌───┬"))
        .unwrap();
    let pids = t.program_pids();
    assert_eq!(pids.len(), 1, "{pids:?}");
    let kill = Command::new("kill")
        .args(["-TERM", &pids[0].to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let o = t.wait_outcome(Duration::from_secs(20)).unwrap();
    assert_eq!(o.status, 143);
    assert!(o.restored(), "{o:?}");
    assert!(!t.capture().unwrap().contains("┌───┬"), "main screen back");
    let _ = fs::remove_dir_all(&d);
}
