//! The `kxo` suite (docs/protocol.md, "/dev/kxo"), with the module's default parameters (9 games,
//! 100 ms period, games running while a watcher is open).

use std::collections::{BTreeSet, HashMap};
use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use kgames_kxo::kxo::record::{is_successor, RecordBoard, RecordCheck};
use kgames_uapi::ioctl::{
    KXO_IOC_PAUSE as IOC_PAUSE, KXO_IOC_RESTART as IOC_RESTART, KXO_IOC_RESUME as IOC_RESUME,
    KXO_IOC_STOP as IOC_STOP,
};
use kgames_uapi::record::Record;

use crate::{ensure, Outcome, Test};

const K: &str = "/dev/kxo";
const GAMES: u16 = 9;

/// The `kxo` suite.
pub fn tests() -> Vec<Test> {
    vec![
        Test { suite: "kxo", name: "records arrive for every game id; a snapshot first", uid: 2301, run: every_game },
        Test { suite: "kxo", name: "each record is a legal successor (lost == 0); finished games restart with a new round", uid: 2302, run: successors },
        Test { suite: "kxo", name: "two watchers both see every record", uid: 2303, run: two_watchers },
        Test { suite: "kxo", name: "whole records only: EINVAL below 48 bytes, multiples of 48", uid: 2304, run: whole_records },
        Test { suite: "kxo", name: "O_NONBLOCK gives EAGAIN, also when set after open", uid: 2305, run: nonblock },
        Test { suite: "kxo", name: "an N x N human game against the Monte Carlo player on one descriptor", uid: 2308, run: human_game },
        Test { suite: "kxo", name: "a player file reads text replies", uid: 2306, run: player_file },
        Test { suite: "kxo", name: "non-root cannot control (EPERM); anyone reads the loads", uid: 2307, run: non_root },
        Test { suite: "kxo", name: "pause, resume (snapshot), stop, restart (new rounds)", uid: 0, run: control },
        Test { suite: "kxo", name: "a signal interrupts a blocking read (EINTR)", uid: 0, run: signal_read },
    ]
}

pub(crate) fn open(nonblock: bool) -> Result<File, String> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(if nonblock { libc::O_NONBLOCK } else { 0 })
        .open(K)
        .map_err(|e| format!("open {K}: {e}"))
}

pub(crate) fn read_records(f: &mut File, max: usize) -> Result<Vec<Record>, std::io::Error> {
    let mut buf = vec![0u8; max * Record::SIZE];
    let n = f.read(&mut buf)?;
    if n % Record::SIZE != 0 {
        return Err(std::io::Error::other(format!(
            "read {n} bytes, not whole records"
        )));
    }
    Ok(buf[..n]
        .chunks(Record::SIZE)
        .filter_map(Record::from_bytes)
        .collect())
}

/// Reads for `dur` (blocking reads of up to 16 records).
fn collect(f: &mut File, dur: Duration) -> Result<Vec<Record>, String> {
    let t0 = Instant::now();
    let mut all = Vec::new();
    while t0.elapsed() < dur {
        all.extend(read_records(f, 16).map_err(|e| e.to_string())?);
    }
    Ok(all)
}

fn every_game(_: u32) -> Outcome {
    let mut f = open(false)?;
    let first = read_records(&mut f, 64).map_err(|e| e.to_string())?;
    let ids: BTreeSet<u16> = first.iter().map(|r| r.game).collect();
    ensure!(
        first.len() == usize::from(GAMES) && ids.len() == usize::from(GAMES),
        "snapshot: {} records for {} games",
        first.len(),
        ids.len()
    );
    let more = collect(&mut f, Duration::from_secs(3))?;
    let ids: BTreeSet<u16> = more.iter().map(|r| r.game).collect();
    ensure!(ids == (0..GAMES).collect(), "games seen in 3 s: {ids:?}");
    ensure!(
        more.iter()
            .all(|r| r.version == Record::VERSION && usize::from(r.size) == Record::SIZE),
        "version/size"
    );
    Ok(())
}

fn successors(_: u32) -> Outcome {
    let mut f = open(false)?;
    // The snapshot: the latest record of every game (in game order, so seq is not sorted).
    let snap = read_records(&mut f, usize::from(GAMES)).map_err(|e| e.to_string())?;
    ensure!(
        snap.len() == usize::from(GAMES),
        "snapshot of {} records",
        snap.len()
    );
    let recs = collect(&mut f, Duration::from_secs(8))?;
    let mut last: HashMap<u16, Record> = snap.iter().map(|r| (r.game, *r)).collect();
    let mut rounds = 0;
    let mut seq = snap.iter().map(|r| r.seq).max().unwrap_or(0);
    for r in &recs {
        ensure!(r.lost == 0, "lost {} records", r.lost);
        ensure!(r.seq > seq, "seq not increasing: {} after {seq}", r.seq);
        seq = r.seq;
        ensure!(r.is_consistent(), "inconsistent record {r:?}");
        if let Some(p) = last.get(&r.game) {
            if r.round != p.round {
                ensure!(
                    r.round == p.round.wrapping_add(1) && r.move_count == 0,
                    "restart {p:?} -> {r:?}"
                );
                ensure!(
                    p.game_state().is_some_and(|s| s.is_over()),
                    "restart before the end: {p:?}"
                );
                rounds += 1;
            } else {
                ensure!(is_successor(p, r), "not a successor: {p:?} -> {r:?}");
            }
        }
        last.insert(r.game, *r);
    }
    ensure!(
        rounds >= 1,
        "no game restarted in 8 s ({} records)",
        recs.len()
    );
    println!("# {} records in 8 s, {rounds} restarts", recs.len());
    Ok(())
}

fn two_watchers(_: u32) -> Outcome {
    let mut a = open(false)?;
    let mut b = open(false)?;
    read_records(&mut a, 64).map_err(|e| e.to_string())?;
    read_records(&mut b, 64).map_err(|e| e.to_string())?;
    let t = std::thread::spawn(move || collect(&mut b, Duration::from_secs(3)));
    let ra = collect(&mut a, Duration::from_secs(3))?;
    let rb = t.join().map_err(|_| "thread")??;
    let sa: BTreeSet<u64> = ra.iter().map(|r| r.seq).collect();
    let sb: BTreeSet<u64> = rb.iter().map(|r| r.seq).collect();
    let lo = *sa.first().max(sb.first()).ok_or("no records")?;
    let hi = *sa.last().min(sb.last()).ok_or("no records")?;
    let wa: BTreeSet<u64> = sa.range(lo..=hi).copied().collect();
    let wb: BTreeSet<u64> = sb.range(lo..=hi).copied().collect();
    ensure!(
        wa.len() > 20,
        "too few records in the common window: {}",
        wa.len()
    );
    ensure!(
        wa == wb,
        "the watchers differ: {} vs {} records",
        wa.len(),
        wb.len()
    );
    Ok(())
}

fn whole_records(_: u32) -> Outcome {
    let mut f = open(false)?;
    let mut small = [0u8; 47];
    let e = f.read(&mut small).err().and_then(|e| e.raw_os_error());
    ensure!(e == Some(libc::EINVAL), "47-byte read: {e:?}");
    let mut odd = [0u8; 100];
    let n = f.read(&mut odd).map_err(|e| e.to_string())?;
    ensure!(n == 96, "a 100-byte read returned {n}");
    Ok(())
}

fn nonblock(_: u32) -> Outcome {
    let mut f = open(true)?;
    let mut saw_eagain = false;
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(2) && !saw_eagain {
        match read_records(&mut f, 64) {
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::WouldBlock => saw_eagain = true,
            Err(e) => return Err(e.to_string()),
        }
    }
    ensure!(saw_eagain, "no EAGAIN with O_NONBLOCK");
    // Flags set after open count too.
    let mut g = open(false)?;
    read_records(&mut g, 64).map_err(|e| e.to_string())?;
    // SAFETY: fcntl on an open descriptor.
    unsafe { libc::fcntl(g.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK) };
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(2) {
        match read_records(&mut g, 64) {
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(()),
            Err(e) => return Err(e.to_string()),
        }
    }
    Err("no EAGAIN after F_SETFL O_NONBLOCK".into())
}

fn player_file(_: u32) -> Outcome {
    let mut f = open(false)?;
    f.write_all(b"09\n").map_err(|e| e.to_string())?;
    let mut buf = [0u8; 1024];
    let n = f.read(&mut buf).map_err(|e| e.to_string())?;
    let s = String::from_utf8_lossy(&buf[..n]);
    ensure!(
        s.starts_with("device=kxo ") && s.ends_with('\n'),
        "09: {s:?}"
    );
    f.write_all(b"42\n").map_err(|e| e.to_string())?;
    let n = f.read(&mut buf).map_err(|e| e.to_string())?;
    crate::same("42", &buf[..n], b"UNKCMD\n")
}

pub(crate) fn ioctl(f: &File, req: u32) -> Result<(), i32> {
    kgames_uapi::user::ioctl_none(f, req).map_err(|e| e.raw_os_error().unwrap_or(0))
}

fn non_root(_: u32) -> Outcome {
    let f = open(false)?;
    for req in [IOC_PAUSE, IOC_RESUME, IOC_STOP, IOC_RESTART] {
        ensure!(
            ioctl(&f, req) == Err(libc::EPERM),
            "ioctl {req:#x} by non-root"
        );
    }
    kgames_uapi::user::kxo_loads(&f).map_err(|e| format!("loads ioctl: {e}"))?;
    Ok(())
}

/// `09`'s `seq=` value from a player file.
pub(crate) fn seq_now() -> Result<u64, String> {
    let mut f = open(false)?;
    f.write_all(b"09").map_err(|e| e.to_string())?;
    let mut buf = [0u8; 256];
    let n = f.read(&mut buf).map_err(|e| e.to_string())?;
    let s = String::from_utf8_lossy(&buf[..n]).into_owned();
    s.split_whitespace()
        .find_map(|kv| kv.strip_prefix("seq="))
        .and_then(|v| v.parse().ok())
        .ok_or(format!("no seq in {s:?}"))
}

fn drain(f: &mut File) {
    // SAFETY: fcntl on an open descriptor.
    unsafe { libc::fcntl(f.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK) };
    while read_records(f, 64).is_ok() {}
    // SAFETY: as above.
    unsafe { libc::fcntl(f.as_raw_fd(), libc::F_SETFL, 0) };
}

/// A registered watcher `w` with its queue drained, and a control file `c`, publishing paused.
pub(crate) fn paused_watcher() -> Result<(File, File), String> {
    let mut w = open(false)?;
    read_records(&mut w, 64).map_err(|e| e.to_string())?;
    let c = open(false)?;
    ioctl(&c, IOC_PAUSE).map_err(|e| format!("pause: {e}"))?;
    std::thread::sleep(Duration::from_millis(300));
    drain(&mut w);
    Ok((w, c))
}

fn control(_: u32) -> Outcome {
    // Pause: nothing is published, but the games go on (seq grows).
    let (mut w, c) = paused_watcher()?;
    let s0 = seq_now()?;
    std::thread::sleep(Duration::from_millis(1000));
    // SAFETY: fcntl on an open descriptor.
    unsafe { libc::fcntl(w.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK) };
    let r = read_records(&mut w, 64);
    ensure!(
        matches!(&r, Err(e) if e.kind() == ErrorKind::WouldBlock),
        "paused, yet read {:?}",
        r.map(|v| v.len())
    );
    ensure!(seq_now()? > s0, "the games stopped while paused");
    // Resume: a snapshot (one record per game) arrives at once. The timer may publish live
    // records right after it, so read exactly the snapshot's length.
    ioctl(&c, IOC_RESUME).map_err(|e| format!("resume: {e}"))?;
    let snap =
        read_records(&mut w, usize::from(GAMES)).map_err(|e| format!("after resume: {e}"))?;
    ensure!(
        snap.iter().all(Record::is_snapshot),
        "the resume snapshot is not flagged"
    );
    let ids: BTreeSet<u16> = snap.iter().map(|r| r.game).collect();
    ensure!(
        ids.len() == usize::from(GAMES),
        "snapshot after resume covers {} games",
        ids.len()
    );
    // SAFETY: as above.
    unsafe { libc::fcntl(w.as_raw_fd(), libc::F_SETFL, 0) };
    // Stop: no more moves.
    ioctl(&c, IOC_STOP).map_err(|e| format!("stop: {e}"))?;
    std::thread::sleep(Duration::from_millis(400));
    let s1 = seq_now()?;
    std::thread::sleep(Duration::from_millis(1000));
    ensure!(seq_now()? == s1, "games moved after stop");
    // Restart: every game starts a new round from the empty board.
    let mut rounds: HashMap<u16, u32> = HashMap::new();
    drain(&mut w);
    for r in &snap {
        rounds.insert(r.game, r.round);
    }
    ioctl(&c, IOC_RESTART).map_err(|e| format!("restart: {e}"))?;
    let recs = collect(&mut w, Duration::from_secs(2))?;
    let restarted: BTreeSet<u16> = recs
        .iter()
        .filter(|r| r.move_count == 0 && rounds.get(&r.game).is_some_and(|&old| r.round > old))
        .map(|r| r.game)
        .collect();
    ensure!(
        restarted.len() == usize::from(GAMES),
        "restarted games: {restarted:?}"
    );
    ensure!(
        recs.iter().any(|r| r.move_count > 0),
        "no moves after restart"
    );
    Ok(())
}

extern "C" fn on_usr1(_: libc::c_int) {}

fn signal_read(_: u32) -> Outcome {
    let (mut w, c) = paused_watcher()?;
    // SAFETY: installs a handler that does nothing, without SA_RESTART.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_usr1 as *const () as usize;
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(libc::SIGUSR1, &sa, std::ptr::null_mut());
    }
    let (tx, rx) = mpsc::channel();
    let t = std::thread::spawn(move || {
        // SAFETY: this thread's id, for pthread_kill.
        let _ = tx.send(unsafe { libc::pthread_self() });
        read_records(&mut w, 64).map_err(|e| e.kind())
    });
    let tid = rx.recv().map_err(|e| e.to_string())?;
    std::thread::sleep(Duration::from_millis(500));
    // SAFETY: the thread is blocked in read.
    unsafe { libc::pthread_kill(tid, libc::SIGUSR1) };
    let r = t.join().map_err(|_| "thread")?;
    ioctl(&c, IOC_RESUME).map_err(|e| format!("resume: {e}"))?;
    ensure!(
        matches!(r, Err(ErrorKind::Interrupted)),
        "blocking read after a signal: {:?}",
        r.map(|v| v.len())
    );
    Ok(())
}

fn human_game(_: u32) -> Outcome {
    let mut d = crate::dev::Dev::open(K)?;
    d.expect("01", b"NOGAME\n")?;
    d.expect("00 X", b"OK\n")?;
    let grid = d.cmd("01")?;
    crate::same(
        "the empty 4 x 4 grid",
        &grid,
        " --- --- --- ---\n|   |   |   |   |\n --- --- --- ---\n|   |   |   |   |\n --- --- --- ---\n|   |   |   |   |\n --- --- --- ---\n|   |   |   |   |\n --- --- --- ---\n".as_bytes(),
    )?;
    d.expect("02 0 0", b"OOT\n")?;
    d.expect("02 7 0", b"INVFMT\n")?;
    for _ in 0..16 {
        let r = d.cmd("03")?;
        if r != b"OK\n" {
            ensure!(r == b"LOSE\n" || r == b"TIE\n", "03: {r:?}");
            return d.expect("03", b"NOGAME\n");
        }
        d.expect("04", b"ILLMOVE\n")?;
        let legal = d.cmd("07")?;
        let first = legal
            .split(|&b| b == b',' || b == b'\n')
            .next()
            .unwrap_or(b"")
            .to_vec();
        let r = d.cmd(&format!("02 {}", String::from_utf8_lossy(&first)))?;
        if r != b"OK\n" {
            ensure!(
                r == b"WIN\n" || r == b"LOSE\n" || r == b"TIE\n",
                "02: {r:?}"
            );
            return d.expect("02 0 0", b"NOGAME\n");
        }
    }
    Err("the game did not end".into())
}
