//! 64 processes over 4 uids hammer `/dev/reversi`, `/dev/chess` and `/dev/kxo` at once.
//!
//! Each worker mixes: moves in its private reversi and chess games (human moves taken from
//! `07`, CPU moves `03`/`08`, passes), each accepted move logged from `06`; random valid and
//! invalid commands on its user's shared games; kxo watchers opened and closed, blocking and
//! `O_NONBLOCK`, every record decoded and checked; kxo player games; CPU moves on a file that
//! another thread closes while the move is in flight. The parent sends SIGUSR1 (no
//! `SA_RESTART`) to random workers, so CPU moves and blocking reads are interrupted (EINTR),
//! pauses and resumes the kxo games with root's control ioctls, and tries `rmmod` while a
//! sentinel descriptor is open (it must be refused every time).
//!
//! Afterwards every private game must be consistent: replaying its logged moves on the host
//! engines gives the device's `11`, checked whenever a game ends and for every live game at
//! the end. Once everything is closed the module must unload; it is then loaded again with
//! its defaults. The module is reloaded with `max_user_games=64` for the run (16 workers of a
//! uid keep 2 private games each besides the shared ones).

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::fd::IntoRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::process::Command;
use std::time::{Duration, Instant};

use kgames_chess::chess::notation::parse_uci;
use kgames_chess::chess::position::Position as ChessPos;
use kgames_kxo::kxo::record::{Record, RecordCheck};
use kgames_reversi::reversi::notation::parse_square;
use kgames_reversi::reversi::position::Position as ReversiPos;
use kgames_session::common::text::BufWriter;
use kgames_uapi::ioctl::{KGAMES_IOC_PRIVATE, KXO_IOC_PAUSE, KXO_IOC_RESUME};
use kgames_uapi::user::ioctl_none;

use crate::procs::{pipe, spawn_as, wait_ok};
use crate::stress::Gen;
use crate::{ensure, module_path, Outcome, Test, NODES_0666};

const WORKERS: u32 = 64;
const UIDS: u32 = 4;

/// The suites: a short run in `stress` (part of `make check`) and the 5-minute run
/// `stress64` (`make stress`).
pub fn tests() -> Vec<Test> {
    vec![
        Test {
            suite: "stress",
            name: "64 processes x 4 uids x 20 s on all devices: private games replay, rmmod refused, clean unload",
            uid: 0,
            run: |_| run(Duration::from_secs(20)),
        },
        Test {
            suite: "stress64",
            name: "64 processes x 4 uids x 300 s on all devices: private games replay, rmmod refused, clean unload",
            uid: 0,
            run: |_| run(Duration::from_secs(300)),
        },
    ]
}

/// What the workers count (summed over all of them).
#[derive(Clone, Copy)]
#[repr(usize)]
enum C {
    Commands,
    Rejected,
    Enospc,
    Interrupted,
    CpuMoves,
    HumanMoves,
    GamesVerified,
    ClosedInFlight,
    WatcherOpens,
    Records,
    Eagain,
    KxoPlayer,
    Junk,
}
const NAMES: [&str; 13] = [
    "commands",
    "rejected",
    "enospc",
    "eintr",
    "cpu_moves",
    "human_moves",
    "games_replayed",
    "closed_in_flight",
    "watcher_opens",
    "records",
    "eagain",
    "kxo_player",
    "junk_writes",
];

#[derive(Default)]
struct Counts([u64; NAMES.len()]);

impl Counts {
    fn add(&mut self, c: C) {
        self.0[c as usize] += 1;
    }
}

fn open(path: &str, nonblock: bool) -> Result<File, String> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(if nonblock { libc::O_NONBLOCK } else { 0 })
        .open(path)
        .map_err(|e| format!("open {path}: {e}"))
}

fn private(f: &File) -> Outcome {
    ioctl_none(f, KGAMES_IOC_PRIVATE).map_err(|e| format!("private: {e}"))
}

/// One command: `Ok(Some(reply))`, `Ok(None)` for EINTR or ENOSPC (counted), or an error.
fn cmd(f: &mut File, line: &str, n: &mut Counts) -> Result<Option<String>, String> {
    n.add(C::Commands);
    let raw = format!("{line}\n");
    match f.write(raw.as_bytes()) {
        Ok(k) => ensure!(k == raw.len(), "short write of {line:?}"),
        Err(e) if e.raw_os_error() == Some(libc::EINTR) => {
            n.add(C::Interrupted);
            return Ok(None);
        }
        Err(e) if e.raw_os_error() == Some(libc::ENOSPC) => {
            n.add(C::Enospc);
            return Ok(None);
        }
        Err(e) => return Err(format!("write {line:?}: {e}")),
    }
    let mut buf = vec![0u8; 4096];
    let k = f
        .read(&mut buf)
        .map_err(|e| format!("read after {line:?}: {e}"))?;
    let reply = String::from_utf8(buf[..k].to_vec()).map_err(|_| format!("{line:?}: not UTF-8"))?;
    ensure!(reply.ends_with('\n'), "reply to {line:?}: {reply:?}");
    if matches!(
        reply.as_str(),
        "UNKCMD\n" | "INVFMT\n" | "NOGAME\n" | "OOT\n" | "ILLMOVE\n"
    ) {
        n.add(C::Rejected);
    }
    Ok(Some(reply))
}

/// A private game with the log of its accepted moves (as `06` names them).
struct Private {
    f: File,
    chess: bool,
    log: Vec<String>,
}

impl Private {
    fn new(chess: bool, n: &mut Counts) -> Result<Private, String> {
        let f = open(if chess { "/dev/chess" } else { "/dev/reversi" }, false)?;
        private(&f)?;
        let mut p = Private {
            f,
            chess,
            log: Vec::new(),
        };
        p.restart(n)?;
        Ok(p)
    }

    fn restart(&mut self, n: &mut Counts) -> Outcome {
        self.log.clear();
        loop {
            let side = if self.chess { "00 W" } else { "00 X" };
            match cmd(&mut self.f, side, n)? {
                Some(r) if r == "OK\n" => break,
                Some(r) => return Err(format!("{side}: {r:?}")),
                None => continue, // ENOSPC (another file of the uid) or EINTR: retry
            }
        }
        cmd(&mut self.f, "05 N2000", n)?;
        Ok(())
    }

    /// Replays the log on the host engine and compares with the device's `11`.
    fn verify(&mut self, n: &mut Counts) -> Outcome {
        let Some(dev) = cmd(&mut self.f, "11", n)? else {
            return Ok(()); // interrupted: verified at the next game end
        };
        let want = if self.chess {
            replay_chess(&self.log)?
        } else {
            replay_reversi(&self.log)?
        };
        ensure!(
            dev.trim_end() == want,
            "replay of {:?}: device {dev:?}, host {want:?}",
            self.log
        );
        n.add(C::GamesVerified);
        Ok(())
    }

    /// One random step: a human move from `07`, a CPU move, or a pass.
    fn step(&mut self, g: &mut Gen, n: &mut Counts) -> Outcome {
        let Some(legal) = cmd(&mut self.f, "07", n)? else {
            return Ok(());
        };
        let moves: Vec<&str> = legal.split_whitespace().collect();
        let line = match g.below(4) {
            0 | 1 if !moves.is_empty() => {
                let m = moves[g.below(moves.len())];
                if self.chess {
                    format!("02 {m}")
                } else {
                    let b = m.as_bytes();
                    format!("02 {} {}", b[0] - b'a', b[1] - b'1')
                }
            }
            2 if !self.chess => "04".into(),
            3 => "08".into(),
            _ => "03".into(),
        };
        let Some(reply) = cmd(&mut self.f, &line, n)? else {
            return Ok(());
        };
        let over = match reply.as_str() {
            "OK\n" | "CHECK\n" => false,
            "WIN\n" | "LOSE\n" | "TIE\n" | "MATE\n" => true,
            _ => return Ok(()), // rejected: nothing changed
        };
        n.add(if line.starts_with("02") {
            C::HumanMoves
        } else {
            C::CpuMoves
        });
        let last = loop {
            if let Some(r) = cmd(&mut self.f, "06", n)? {
                break r;
            }
        };
        // Chess `06` is `WPe2-e4 e2e4`: the UCI form is replayed.
        let mv = last.split_whitespace().last().unwrap_or("").to_string();
        self.log.push(mv);
        if over {
            self.verify(n)?;
            self.restart(n)?;
        }
        Ok(())
    }
}

fn replay_reversi(log: &[String]) -> Result<String, String> {
    let mut p = ReversiPos::start();
    for m in log {
        p = if m == "PASS" {
            p.pass()
        } else {
            parse_square(m.as_bytes()).and_then(|sq| p.play(sq))
        }
        .ok_or(format!("host refuses {m} after {log:?}"))?;
    }
    Ok(String::from_utf8_lossy(&p.setup()).into_owned())
}

fn replay_chess(log: &[String]) -> Result<String, String> {
    let mut p = ChessPos::startpos();
    for m in log {
        let mv = parse_uci(&p, m.as_bytes()).map_err(|_| format!("host refuses {m}"))?;
        p.play(mv);
    }
    let mut buf = [0u8; 128];
    let mut w = BufWriter::new(&mut buf);
    p.write_fen(&mut w)
        .map_err(|_| "FEN too long".to_string())?;
    Ok(String::from_utf8_lossy(w.as_bytes()).into_owned())
}

const SHARED: [&str; 18] = [
    "00 X",
    "00 O",
    "00 W",
    "00 B",
    "01",
    "02 3 2",
    "02 WPe2-e4",
    "03",
    "04",
    "05 N500",
    "06",
    "07",
    "08",
    "09",
    "11",
    "99",
    "42",
    "02 9 9",
];
const DEVICES: [&str; 3] = ["/dev/reversi", "/dev/chess", "/dev/kxo"];

/// A CPU move on a fresh private game whose file another thread closes meanwhile.
fn close_in_flight(n: &mut Counts) -> Outcome {
    let mut f = open("/dev/reversi", false)?;
    private(&f)?;
    if cmd(&mut f, "00 O", n)?.is_none() {
        return Ok(());
    }
    cmd(&mut f, "05 N200000", n)?;
    let fd = f.into_raw_fd();
    let t = std::thread::spawn(move || {
        // SAFETY: writes from a buffer; the descriptor may be closed meanwhile (EBADF is fine).
        unsafe { libc::write(fd, b"03\n".as_ptr().cast(), 3) }
    });
    std::thread::sleep(Duration::from_millis(3));
    // SAFETY: closes the descriptor this function owns; the writer holds the file itself.
    unsafe { libc::close(fd) };
    let _ = t.join();
    n.add(C::ClosedInFlight);
    Ok(())
}

/// Reads records from a watcher; every record must decode and be consistent.
fn watch(w: &mut File, n: &mut Counts) -> Outcome {
    let mut buf = vec![0u8; 8 * Record::SIZE];
    match w.read(&mut buf) {
        Ok(k) => {
            ensure!(k % Record::SIZE == 0 && k > 0, "kxo read of {k} bytes");
            for r in buf[..k].chunks(Record::SIZE) {
                let r = Record::from_bytes(r).ok_or("a record does not decode")?;
                ensure!(r.is_consistent(), "an inconsistent record {r:?}");
                n.add(C::Records);
            }
        }
        Err(e) if e.raw_os_error() == Some(libc::EAGAIN) => n.add(C::Eagain),
        Err(e) if e.raw_os_error() == Some(libc::EINTR) => n.add(C::Interrupted),
        Err(e) => return Err(format!("kxo read: {e}")),
    }
    Ok(())
}

/// Makes SIGUSR1 interrupt a blocking call (a handler that does nothing, without
/// SA_RESTART) instead of ending the process.
fn install_nothing_handler() {
    extern "C" fn nothing(_: libc::c_int) {}
    // SAFETY: installs a handler that does nothing, without SA_RESTART.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = nothing as *const () as usize;
        libc::sigaction(libc::SIGUSR1, &sa, std::ptr::null_mut());
    }
}

fn worker(seed: u64, deadline: Instant, out: libc::c_int) -> Outcome {
    install_nothing_handler();
    let mut g = Gen(seed | 1);
    let mut n = Counts::default();
    let mut rev = Private::new(false, &mut n)?;
    let mut chs = Private::new(true, &mut n)?;
    let mut shared: Vec<File> = DEVICES
        .iter()
        .map(|p| open(p, false))
        .collect::<Result<_, _>>()?;
    let mut watcher: Option<File> = None;
    let mut player: Option<File> = None;
    while Instant::now() < deadline {
        match g.below(100) {
            0..=29 => rev.step(&mut g, &mut n)?,
            30..=49 => chs.step(&mut g, &mut n)?,
            50..=61 => {
                let i = g.below(3);
                let line = SHARED[g.below(SHARED.len())];
                cmd(&mut shared[i], line, &mut n)?;
            }
            62..=63 => {
                let i = g.below(3);
                let junk: Vec<u8> = (0..g.below(400)).map(|_| g.next() as u8).collect();
                let _ = shared[i].write(&junk);
                let _ = shared[i].read(&mut [0u8; 4096]);
                n.add(C::Junk);
            }
            64..=75 => match watcher.as_mut() {
                Some(w) if g.below(8) != 0 => watch(w, &mut n)?,
                _ => {
                    watcher = Some(open("/dev/kxo", g.below(2) == 0)?);
                    n.add(C::WatcherOpens);
                }
            },
            76..=85 => {
                let p = match player.as_mut() {
                    Some(p) => p,
                    None => {
                        let mut f = open("/dev/kxo", false)?;
                        private(&f)?;
                        cmd(&mut f, "00 X 4 3 2", &mut n)?;
                        player.insert(f)
                    }
                };
                let line = match g.below(5) {
                    0 => format!("02 {} {}", g.below(4), g.below(4)),
                    1 => "00 O 4 3 2".into(),
                    2 => "01".into(),
                    3 => "07".into(),
                    _ => "03".into(),
                };
                cmd(p, &line, &mut n)?;
                n.add(C::KxoPlayer);
            }
            86..=88 => close_in_flight(&mut n)?,
            89 => {
                // Reopen a shared file (new file on the same game).
                let i = g.below(3);
                shared[i] = open(DEVICES[i], false)?;
            }
            _ => {
                let p = if g.below(2) == 0 { &mut rev } else { &mut chs };
                let line = ["09", "01", "11", "05 N100", "99", "06"][g.below(6)];
                cmd(&mut p.f, line, &mut n)?;
            }
        }
    }
    rev.verify(&mut n)?;
    chs.verify(&mut n)?;
    let bytes: Vec<u8> = n.0.iter().flat_map(|v| v.to_ne_bytes()).collect();
    // SAFETY: one write of at most PIPE_BUF bytes from a live buffer (atomic on a pipe).
    let w = unsafe { libc::write(out, bytes.as_ptr().cast(), bytes.len()) };
    ensure!(w == bytes.len() as isize, "counts write");
    Ok(())
}

fn sh(cmdline: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(cmdline)
        .status()
        .is_ok_and(|s| s.success())
}

fn run(d: Duration) -> Outcome {
    // SAFETY: re-arms this test's own alarm for the longer run.
    unsafe { libc::alarm(u32::try_from(d.as_secs()).unwrap_or(600) + 240) };
    ensure!(
        sh(&format!(
            "rmmod kgames && insmod {} max_user_games=64 && {NODES_0666}",
            module_path()
        )),
        "reload with max_user_games=64"
    );
    let r = hammer(d);
    // Unload once everything is closed (the workers are gone), then load the defaults again.
    let unloaded = sh("rmmod kgames");
    let reloaded = sh(&format!("insmod {} && {NODES_0666}", module_path()));
    r?;
    ensure!(unloaded, "rmmod after the run failed");
    ensure!(reloaded, "insmod after the run failed");
    Ok(())
}

fn hammer(d: Duration) -> Outcome {
    let sentinel = open("/dev/reversi", false)?;
    let kxo = open("/dev/kxo", true)?;
    let fds = pipe()?;
    let t0 = Instant::now();
    let deadline = t0 + d;
    // The workers' SIGUSR1 handler, installed here before the forks so that each child has
    // it from its first instruction: a child signalled before its own `sigaction` ran would
    // die of the default action (seen once under TCG: 4 of 64 workers gone without a word).
    install_nothing_handler();
    let mut pids = Vec::new();
    for k in 0..WORKERS {
        let uid = 6000 + k % UIDS;
        pids.push(spawn_as(uid, move || {
            worker(u64::from(k) * 7919 + 17, deadline, fds[1])
        })?);
    }
    // SAFETY: the parent's copy of the write end.
    unsafe { libc::close(fds[1]) };
    let mut g = Gen(0x5eed);
    let (mut signals, mut refused, mut ioctls, mut unloaded) = (0u64, 0u64, 0u64, 0u64);
    let mut paused = false;
    let mut tick = 0u64;
    // At least 25 ticks (one rmmod attempt), even when starting the workers took the whole
    // run (the debug kernel on a loaded host took 42 s for a 20 s run).
    while Instant::now() < deadline || tick < 25 {
        std::thread::sleep(Duration::from_millis(20));
        tick += 1;
        // SAFETY: signals a child of this process.
        unsafe { libc::kill(pids[g.below(pids.len())], libc::SIGUSR1) };
        signals += 1;
        if tick.is_multiple_of(10) {
            let req = if paused {
                KXO_IOC_RESUME
            } else {
                KXO_IOC_PAUSE
            };
            ioctl_none(&kxo, req).map_err(|e| format!("kxo control ioctl: {e}"))?;
            paused = !paused;
            ioctls += 1;
        }
        if tick.is_multiple_of(25) {
            if sh("rmmod kgames 2>/dev/null") {
                unloaded += 1;
                break;
            }
            refused += 1;
        }
    }
    if paused {
        ioctl_none(&kxo, KXO_IOC_RESUME).map_err(|e| format!("kxo resume: {e}"))?;
    }
    let mut failed = 0;
    for pid in &pids {
        if let Err(e) = wait_ok(*pid) {
            println!("# {e}");
            failed += 1;
        }
    }
    let ms = u64::try_from(t0.elapsed().as_millis())
        .unwrap_or(u64::MAX)
        .max(1);
    let mut total = [0u64; NAMES.len()];
    let mut buf = vec![0u8; NAMES.len() * 8];
    let mut reports = 0;
    // SAFETY: reads whole count blocks from the pipe into `buf`.
    while unsafe { libc::read(fds[0], buf.as_mut_ptr().cast(), buf.len()) } == buf.len() as isize {
        reports += 1;
        for (i, c) in buf.chunks(8).enumerate() {
            total[i] += u64::from_ne_bytes(c.try_into().unwrap_or([0; 8]));
        }
    }
    drop(sentinel);
    drop(kxo);
    let stats: Vec<String> = NAMES
        .iter()
        .zip(total)
        .map(|(n, v)| format!("{n}={v}"))
        .collect();
    println!(
        "# {WORKERS} processes x {UIDS} uids x {} s: {} commands/s; {}",
        ms / 1000,
        total[C::Commands as usize] * 1000 / ms,
        stats.join(" ")
    );
    println!("# parent: signals={signals} kxo_ioctls={ioctls} rmmod_refused={refused}");
    ensure!(
        unloaded == 0,
        "rmmod succeeded while a sentinel file was open"
    );
    ensure!(
        failed == 0 && reports == WORKERS,
        "{failed} workers failed, {reports} reported"
    );
    ensure!(refused > 0, "no rmmod attempt");
    Ok(())
}
