//! The `xo-user` binary: arguments, bad input, and (with tmux) a real terminal against a
//! replayed recording: exits on a bad stream, a closed device and SIGTERM with the terminal restored, SIGTSTP and SIGCONT, a
//! FIFO standing in for the device, and `--record` of a stream read back.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use kgames_test_support::tmux::Tmux;
use kgames_uapi::agent::AgentKind;
use kgames_uapi::record::Record;
use xo_user::msg::Msg;
use xo_user::{recfile, synth};

const XO: &str = env!("CARGO_BIN_EXE_xo-user");

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

/// Every record of the recording `path`, in order.
fn recorded(path: &std::path::Path) -> Vec<Record> {
    let msgs = recfile::read_all(fs::File::open(path).unwrap()).unwrap();
    msgs.iter()
        .flat_map(|m| match m {
            Msg::Records { records, .. } => records.clone(),
            _ => Vec::new(),
        })
        .collect()
}

fn tmux_or_skip() -> bool {
    let ok = Tmux::available();
    if !ok {
        eprintln!("skipped: tmux is not installed (scripts/setup-toolchain.sh installs it)");
    }
    ok
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
    let got = recorded(&rec);
    assert_eq!(got, vec![good; 3]);
    let _ = fs::remove_dir_all(&d);
}

/// A demo recording of `secs` seconds replayed by xo-user in an 80x24 tmux, once its boards
/// show: the test's folder and the pane.
fn replay_in_tmux(name: &str, secs: u64) -> (PathBuf, Tmux) {
    let d = dir(name);
    let file = d.join("demo.kxorec");
    demo(&file, secs);
    let argv = vec![
        XO.to_string(),
        "--replay".into(),
        file.to_string_lossy().into(),
    ];
    let t = Tmux::start_watched(&d.join("tmux"), 80, 24, &argv).unwrap();
    t.wait_for(Duration::from_secs(20), |s| s.contains("┌───┬"))
        .unwrap();
    (d, t)
}

#[test]
fn tmux_sigterm_restores_the_terminal() {
    if !tmux_or_skip() {
        return;
    }
    let (d, t) = replay_in_tmux("sigterm", 30);
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

/// The state letter of process `pid` (`/proc/PID/stat`: R, S, T, ...).
fn proc_state(pid: u32) -> char {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    stat.rfind(')')
        .and_then(|i| stat[i + 1..].trim_start().chars().next())
        .unwrap_or('?')
}

/// `stty -g` of the pane's terminal, read from outside.
fn pane_stty(d: &Path) -> String {
    let out = Command::new("tmux")
        .arg("-S")
        .arg(d.join("tmux/sock"))
        .args(["display-message", "-p", "-t", "t:0.0", "#{pane_tty}"])
        .output()
        .unwrap();
    let tty = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let out = Command::new("stty")
        .args(["-g", "-F", &tty])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn wait_until(what: &str, mut f: impl FnMut() -> bool) {
    let t0 = std::time::Instant::now();
    while !f() {
        assert!(t0.elapsed() < Duration::from_secs(20), "{what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn tmux_sigtstp_gives_the_terminal_back_and_sigcont_takes_it_again() {
    if !tmux_or_skip() {
        return;
    }
    let (d, t) = replay_in_tmux("sigtstp", 60);
    let before = fs::read_to_string(d.join("tmux/before")).unwrap();
    let pid = t.program_pids()[0];
    assert_ne!(pane_stty(&d), before.trim(), "raw mode while running");
    let kill = |sig: &str| {
        let ok = Command::new("kill")
            .args([sig, &pid.to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
    };
    kill("-TSTP");
    wait_until("stopped", || proc_state(pid) == 'T');
    assert_eq!(
        pane_stty(&d),
        before.trim(),
        "the settings are back while stopped"
    );
    let s = t.capture().unwrap();
    assert!(
        !s.contains("┌───┬"),
        "the main screen is back while stopped\n{s}"
    );
    kill("-CONT");
    t.wait_for(Duration::from_secs(20), |s| s.contains("┌───┬"))
        .unwrap();
    assert_ne!(pane_stty(&d), before.trim(), "raw mode again");
    t.keys(&["q"]).unwrap();
    let o = t.wait_outcome(Duration::from_secs(20)).unwrap();
    assert_eq!(o.status, 0);
    assert!(o.restored(), "{o:?}");
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn tmux_a_fifo_device_is_watched_and_the_history_matches_what_was_recorded() {
    if !tmux_or_skip() {
        return;
    }
    let d = dir("fifo");
    let fifo = d.join("kxo");
    let _ = fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    // Two games: game 0 finishes (O wins) then starts round 1, game 5 is at its second move.
    let mut records = Vec::new();
    let mut r = Record::start(0, 0, AgentKind::Mcts, AgentKind::Negamax);
    records.push(r);
    for c in [0, 4, 1, 5, 2] {
        r = played(r, c);
        records.push(r);
    }
    assert_eq!(r.state, Record::O_WON);
    records.push(Record::start(
        0,
        1,
        AgentKind::TdLearning,
        AgentKind::Random,
    ));
    let g5 = Record::start(5, 7, AgentKind::MonteCarlo, AgentKind::Mcts);
    records.extend([g5, played(g5, 15), played(played(g5, 15), 10)]);
    for (i, r) in records.iter_mut().enumerate() {
        r.seq = i as u64;
    }
    let bytes: Vec<u8> = records.iter().flat_map(|r| r.to_bytes()).collect();
    let rec = d.join("seen.kxorec");
    let argv = vec![
        XO.to_string(),
        "--device".into(),
        fifo.to_string_lossy().into(),
        "--record".into(),
        rec.to_string_lossy().into(),
    ];
    let t = Tmux::start_watched(&d.join("tmux"), 100, 30, &argv).unwrap();
    // The writer keeps the FIFO open, so the stream does not end.
    let mut w = fifo_writer(&fifo);
    std::io::Write::write_all(&mut w, &bytes).unwrap();
    t.wait_for(Duration::from_secs(20), |s| {
        s.contains("#5 r7 MC vs MCTS") && s.contains("2 moves, last C3")
    })
    .unwrap();
    t.keys(&["q"]).unwrap();
    let o = t.wait_outcome(Duration::from_secs(20)).unwrap();
    assert_eq!(o.status, 0);
    assert!(o.restored());
    let screen = t.capture_all().unwrap();
    let lines: Vec<&str> = screen.lines().filter(|l| l.starts_with('#')).collect();
    assert_eq!(
        lines,
        [
            "#0 r0 MCTS vs NEGA (O won): Moves: A1 -> A2 -> B1 -> B2 -> C1",
            "#0 r1 TD vs RAND (playing): Moves: (none)",
            "#5 r7 MC vs MCTS (playing): Moves: D4 -> C3",
        ],
        "{screen}"
    );
    drop(w);
    let got = recorded(&rec);
    assert_eq!(got, records);
    drop(t);
    // --no-history: nothing printed.
    let argv = vec![
        XO.to_string(),
        "--device".into(),
        fifo.to_string_lossy().into(),
        "--no-history".into(),
    ];
    let t = Tmux::start_watched(&d.join("tmux"), 100, 30, &argv).unwrap();
    let mut w = fifo_writer(&fifo);
    std::io::Write::write_all(&mut w, &bytes).unwrap();
    t.wait_for(Duration::from_secs(20), |s| s.contains("#5 r7"))
        .unwrap();
    t.keys(&["q"]).unwrap();
    assert_eq!(t.wait_outcome(Duration::from_secs(20)).unwrap().status, 0);
    let screen = t.capture_all().unwrap();
    assert!(!screen.lines().any(|l| l.starts_with('#')), "{screen}");
    let _ = fs::remove_dir_all(&d);
}

/// The FIFO opened for writing once its reader (xo-user in tmux) has opened it.
fn fifo_writer(fifo: &Path) -> fs::File {
    use std::os::unix::fs::OpenOptionsExt;
    let nonblock = rustix::fs::OFlags::NONBLOCK.bits() as i32;
    let t0 = std::time::Instant::now();
    loop {
        // ENXIO until there is a reader.
        match fs::OpenOptions::new()
            .write(true)
            .custom_flags(nonblock)
            .open(fifo)
        {
            Ok(f) => return f,
            Err(e) => assert!(t0.elapsed() < Duration::from_secs(20), "{e}"),
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn played(r: Record, cell: u8) -> Record {
    use kgames_kxo::kxo::record::RecordBoard;
    r.played(cell).unwrap()
}

/// CPU time of process `pid` so far (`/proc/PID/schedstat`, every thread), in milliseconds.
fn cpu_ms(pid: u32) -> u64 {
    let tasks = fs::read_dir(format!("/proc/{pid}/task")).unwrap();
    tasks
        .filter_map(|t| fs::read_to_string(t.ok()?.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum::<u64>()
        / 1_000_000
}

#[test]
fn tmux_a_long_paste_is_read_without_spinning_and_keys_still_work() {
    if !tmux_or_skip() {
        return;
    }
    let (d, t) = replay_in_tmux("paste", 60);
    let pid = t.program_pids()[0];
    assert_eq!(
        fs::read_dir(format!("/proc/{pid}/task")).unwrap().count(),
        1,
        "one thread"
    );
    // 5000 bytes at once: more than one read's worth.
    t.keys(&["-l", &"x".repeat(5000)]).unwrap();
    std::thread::sleep(Duration::from_secs(1));
    let before = cpu_ms(pid);
    std::thread::sleep(Duration::from_secs(2));
    let used = cpu_ms(pid) - before;
    assert!(
        used < 1000,
        "{used} ms of CPU in 2 s after a paste: a busy loop"
    );
    t.keys(&["?"]).unwrap();
    t.wait_for(Duration::from_secs(20), |s| s.contains("xo-user help"))
        .unwrap();
    t.keys(&["q"]).unwrap();
    let o = t.wait_outcome(Duration::from_secs(20)).unwrap();
    assert_eq!(o.status, 0);
    assert!(o.restored());
    let _ = fs::remove_dir_all(&d);
}
