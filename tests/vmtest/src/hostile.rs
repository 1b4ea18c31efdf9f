//! The `hostile` suite: what one local user can do to the devices with threads, shared
//! descriptors and signals, and what it must not achieve (docs/architecture.md, "Locks";
//! docs/protocol.md, "/dev/kxo"): no call waits behind a lock held across another task's wait,
//! a killed process frees whoever shares its file, a zero-length read loses nothing, and
//! thousands of /dev/kxo watchers cost little memory and slow no other reader.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use kgames_uapi::record::Record;

use crate::dev::Dev;
use crate::{ensure, procs, same, Outcome, Test};

const R: &str = "/dev/reversi";
const C: &str = "/dev/chess";
const K: &str = "/dev/kxo";

/// The `hostile` suite.
pub fn tests() -> Vec<Test> {
    vec![
        Test { suite: "hostile", name: "reversi: two threads on one file, 09, 01 and a read during the other's 03 return in time", uid: 2401, run: threads_reversi },
        Test { suite: "hostile", name: "chess: two threads on one file, 09, 01 and a read during the other's 03 return in time", uid: 2402, run: threads_chess },
        Test { suite: "hostile", name: "kxo player file: 09 and poll from other threads during the Monte Carlo 03 return in time", uid: 2403, run: threads_kxo },
        Test { suite: "hostile", name: "fork-shared file: SIGKILL of the searching process frees the one waiting in 09", uid: 2404, run: kill_searcher },
        Test { suite: "hostile", name: "fork-shared file: SIGKILL of the waiting process leaves the search to finish in its budget", uid: 2405, run: kill_waiter },
        Test { suite: "hostile", name: "read(fd, buf, 0) with a reply pending returns 0 and the reply stays unread", uid: 2406, run: zero_read },
        Test { suite: "hostile", name: "the deepest searches (forced passes, a lone king, the start) leave at least 4 KiB of kernel stack", uid: 0, run: deep_stacks },
        Test { suite: "ring_size", name: "kxo_ring=64: a sleeping watcher finds the ring's last 64 records and counts the rest lost", uid: 2433, run: ring_size },
        Test { suite: "open_race", name: "opens of /dev/kxo while it is registered (test_open_delay_ms=3000) are refused or poll through the module", uid: 0, run: open_race },
        Test { suite: "hostile", name: "10,000 kxo watchers of one uid: module memory per watcher, another reader's rate and poll cost", uid: 0, run: many_watchers },
    ]
}

/// One command on a shared file: the line in one write, then one read of 1024 bytes.
fn cmd(f: &File, line: &str) -> Result<Vec<u8>, String> {
    let mut w = f;
    w.write_all(format!("{line}\n").as_bytes())
        .map_err(|e| format!("write {line:?}: {e}"))?;
    let mut buf = vec![0u8; 1024];
    let n = w
        .read(&mut buf)
        .map_err(|e| format!("read after {line:?}: {e}"))?;
    buf.truncate(n);
    Ok(buf)
}

/// A call's reply, or what went wrong.
type Reply = Result<Vec<u8>, String>;

/// A call made by one thread of [`race`] on the shared file.
type Call = fn(&File) -> Result<Vec<u8>, String>;

/// What a thread of [`race`] reports: its label, how long its call took, the reply.
type Done = (&'static str, Duration, Result<Vec<u8>, String>);

/// Runs `first` (a CPU move) in one thread and, `gap` later, each of `others` in its own
/// thread on the same file; collects every report or fails naming the calls still blocked
/// after `deadline`.
fn race(
    f: &Arc<File>,
    first: &'static str,
    others: &[(&'static str, Call)],
    gap: Duration,
    deadline: Duration,
) -> Result<Vec<Done>, String> {
    let (tx, rx) = mpsc::channel::<Done>();
    let spawn = |label: &'static str, call: Box<dyn FnOnce(&File) -> Reply + Send>| {
        let (f, tx) = (f.clone(), tx.clone());
        std::thread::spawn(move || {
            let t0 = Instant::now();
            let r = call(&f);
            let _ = tx.send((label, t0.elapsed(), r));
        });
    };
    spawn(first, Box::new(move |f: &File| cmd(f, first)));
    std::thread::sleep(gap);
    for &(label, call) in others {
        spawn(label, Box::new(call));
    }
    let want = 1 + others.len();
    let t0 = Instant::now();
    let mut got: Vec<Done> = Vec::new();
    while got.len() < want {
        let left = deadline.saturating_sub(t0.elapsed());
        match rx.recv_timeout(left) {
            Ok(d) => got.push(d),
            Err(_) => {
                let done: Vec<&str> = got.iter().map(|d| d.0).collect();
                return Err(format!(
                    "still blocked after {deadline:?}: of {first:?} and {:?}, only {done:?} returned",
                    others.iter().map(|o| o.0).collect::<Vec<_>>()
                ));
            }
        }
    }
    Ok(got)
}

fn status(f: &File) -> Result<Vec<u8>, String> {
    cmd(f, "09")
}

fn board(f: &File) -> Result<Vec<u8>, String> {
    cmd(f, "01")
}

fn plain_read(f: &File) -> Result<Vec<u8>, String> {
    let mut buf = vec![0u8; 1024];
    let mut r = f;
    let n = r.read(&mut buf).map_err(|e| format!("read: {e}"))?;
    buf.truncate(n);
    Ok(buf)
}

/// `03` with a 2000 ms budget in one thread; `09`, `01` and a plain read of the same file in
/// others: `01` and the read answer at once, `09` once the move is done, all in time.
fn two_threads(path: &str, new_game: &str) -> Outcome {
    let mut d = Dev::open(path)?;
    d.expect(new_game, b"OK\n")?;
    d.expect("05 2000", b"OK\n")?;
    let f = Arc::new(d.f);
    let first = board_line(&f)?;
    let got = race(
        &f,
        "03",
        &[("09", status), ("01", board), ("read", plain_read)],
        Duration::from_millis(150),
        Duration::from_secs(20),
    )?;
    check_race(&got, Duration::from_secs(8), &first)?;
    // The move was played (the threads share one reply: 03's may be replaced by 09's).
    let last = cmd(&f, "06")?;
    ensure!(
        last.len() > 2 && last.ends_with(b"\n"),
        "06 after the race: {:?}",
        String::from_utf8_lossy(&last)
    );
    Ok(())
}

/// The verdicts of a [`race`]: every call succeeded; the CPU move took less than `move_limit`;
/// the others took under 2 s; `09` and `01` each read a whole reply of one of the race's
/// commands or nothing (the file has one reply, the latest command's, and whichever thread
/// reads first consumes it: `09` may read `01`'s board, `03`'s `OK`, or its own status line).
/// `board` is the first line of a board reply of this file.
fn check_race(got: &[Done], move_limit: Duration, board: &[u8]) -> Outcome {
    let known = |r: &[u8]| {
        r.is_empty()
            || r.starts_with(b"device=")
            || r.starts_with(b"OK")
            || (!board.is_empty() && r.starts_with(board))
    };
    for (label, took, r) in got {
        let r = r.as_ref().map_err(|e| format!("{label} ({took:?}): {e}"))?;
        println!("# {label}: {took:?}, {} bytes", r.len());
        if *label == "03" {
            ensure!(*took < move_limit, "03 took {took:?}");
        } else {
            ensure!(
                *took < Duration::from_secs(2),
                "{label} took {took:?} during the search"
            );
        }
        if *label == "09" || *label == "01" {
            ensure!(known(r), "{label} replied {:?}", String::from_utf8_lossy(r));
        }
    }
    Ok(())
}

/// The first line of the board reply (`01`) on `f`, with its newline.
fn board_line(f: &File) -> Result<Vec<u8>, String> {
    let mut r = board(f)?;
    let end = r
        .iter()
        .position(|&b| b == b'\n')
        .map_or(r.len(), |i| i + 1);
    r.truncate(end);
    ensure!(end > 1, "01 replied {:?}", String::from_utf8_lossy(&r));
    Ok(r)
}

fn threads_reversi(_: u32) -> Outcome {
    two_threads(R, "00 O")
}

fn threads_chess(_: u32) -> Outcome {
    two_threads(C, "00 B")
}

/// A `poll` of the file with a zero timeout, as a "reply".
fn poll_now(f: &File) -> Result<Vec<u8>, String> {
    let mut p = libc::pollfd {
        fd: f.as_raw_fd(),
        events: libc::POLLIN | libc::POLLOUT,
        revents: 0,
    };
    // SAFETY: one valid pollfd for the call.
    let n = unsafe { libc::poll(&mut p, 1, 0) };
    ensure!(n >= 0, "poll failed");
    Ok(format!("{:#x}", p.revents).into_bytes())
}

/// The Monte Carlo move is short (tens of ms even at 6 x 6 with 100 playouts on one work
/// item), so the other threads start 2 ms after it, in 20 new games.
fn threads_kxo(_: u32) -> Outcome {
    let d = Dev::open(K)?;
    let f = Arc::new(d.f);
    for _ in 0..20 {
        let r = cmd(&f, "00 X 6 100 1")?;
        same("00", &r, b"OK\n")?;
        let first = board_line(&f)?;
        let got = race(
            &f,
            "03",
            &[("09", status), ("poll", poll_now), ("01", board)],
            Duration::from_millis(2),
            Duration::from_secs(20),
        )?;
        check_race(&got, Duration::from_secs(5), &first)?;
    }
    Ok(())
}

/// Forks a child running `line` on the shared file `f`; it exits 0 if the reply starts with
/// `want`.
fn child_cmd(
    f: &Arc<File>,
    line: &'static str,
    want: &'static [u8],
) -> Result<libc::pid_t, String> {
    let f = f.clone();
    let _ = std::io::stdout().flush();
    // SAFETY: the child runs one command and exits.
    let pid = unsafe { libc::fork() };
    ensure!(pid >= 0, "fork failed");
    if pid == 0 {
        let ok = cmd(&f, line).is_ok_and(|r| r.starts_with(want));
        // SAFETY: ends the child.
        unsafe { libc::_exit(i32::from(!ok)) };
    }
    Ok(pid)
}

/// Waits up to `limit` for `pid`: its exit status, or `None` (still running: killed then).
fn wait_for(pid: libc::pid_t, limit: Duration) -> Option<i32> {
    let t0 = Instant::now();
    while t0.elapsed() < limit {
        let mut st = 0;
        // SAFETY: polls a child of this process.
        if unsafe { libc::waitpid(pid, &mut st, libc::WNOHANG) } == pid {
            return Some(st);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    procs::kill(pid);
    None
}

/// A file shared by two processes (opened before fork): `03` with the longest budget in one,
/// `09` in the other.
fn shared_pair(budget: &str) -> Result<(Arc<File>, libc::pid_t, libc::pid_t), String> {
    let mut d = Dev::open(R)?;
    d.expect("00 O", b"OK\n")?;
    d.expect(budget, b"OK\n")?;
    let f = Arc::new(d.f);
    let searcher = child_cmd(&f, "03", b"OK")?;
    std::thread::sleep(Duration::from_millis(300));
    let waiter = child_cmd(&f, "09", b"device=")?;
    std::thread::sleep(Duration::from_millis(500));
    Ok((f, searcher, waiter))
}

fn kill_searcher(_: u32) -> Outcome {
    let (f, searcher, waiter) = shared_pair("05 9000")?;
    let t0 = Instant::now();
    procs::kill(searcher);
    let st = wait_for(waiter, Duration::from_secs(8));
    let took = t0.elapsed();
    ensure!(
        st.is_some(),
        "09 still blocked {took:?} after the searcher was killed"
    );
    ensure!(
        st == Some(0),
        "09 failed after the searcher was killed (status {st:?})"
    );
    println!("# 09 returned {took:?} after SIGKILL of the searcher");
    // The game is idle again and unchanged by the cancelled move.
    let r = cmd(&f, "01")?;
    same(
        "01 after the cancelled move",
        &r,
        b"---------------------------OX------XO---------------------------\tX\n",
    )
}

fn kill_waiter(_: u32) -> Outcome {
    let (f, searcher, waiter) = shared_pair("05 3000")?;
    procs::kill(waiter);
    let t0 = Instant::now();
    let st = wait_for(searcher, Duration::from_secs(10));
    ensure!(
        st == Some(0),
        "03 did not end with OK after the waiter was killed (status {st:?}, {:?})",
        t0.elapsed()
    );
    let r = cmd(&f, "06")?;
    ensure!(
        r.len() == 3,
        "06 after the move: {:?}",
        String::from_utf8_lossy(&r)
    );
    Ok(())
}

fn zero_read(_: u32) -> Outcome {
    for (path, new_game) in [(R, "00 X"), (C, "00 W"), (K, "00 X")] {
        let mut d = Dev::open(path)?;
        d.expect(new_game, b"OK\n")?;
        d.write_raw(b"01\n").map_err(|e| e.to_string())?;
        let mut empty = [0u8; 0];
        let n =
            d.f.read(&mut empty)
                .map_err(|e| format!("{path}: read of 0 bytes: {e}"))?;
        ensure!(n == 0, "{path}: read of 0 bytes returned {n}");
        let board = d.read_max(1024).map_err(|e| e.to_string())?;
        ensure!(
            board.len() > 10 && board.ends_with(b"\n"),
            "{path}: the reply after a 0-byte read: {:?}",
            String::from_utf8_lossy(&board)
        );
    }
    Ok(())
}

/// The bytes held by the kmalloc caches (`/proc/slabinfo`: active objects times object size)
/// and vmalloc (`/proc/meminfo`), the memory a module's allocations come from.
///
/// `None` without `/proc/slabinfo` (the test kernel has no `CONFIG_SLUB_DEBUG`).
fn kernel_heap() -> Result<Option<u64>, String> {
    let Ok(slab) = std::fs::read_to_string("/proc/slabinfo") else {
        return Ok(None);
    };
    let mut total = 0u64;
    for line in slab.lines().filter(|l| l.starts_with("kmalloc-")) {
        let f: Vec<u64> = line
            .split_whitespace()
            .skip(1)
            .take(3)
            .filter_map(|x| x.parse().ok())
            .collect();
        if let [active, _, size] = f[..] {
            total += active * size;
        }
    }
    let mem = std::fs::read_to_string("/proc/meminfo").map_err(|e| e.to_string())?;
    let vmalloc = mem
        .lines()
        .find_map(|l| l.strip_prefix("VmallocUsed:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        .unwrap_or(0);
    Ok(Some(total + vmalloc * 1024))
}

/// Another reader's figures: records read in 3 s, and the mean cost in nanoseconds of a
/// zero-timeout `poll` of its file.
fn reader_figures() -> Result<(u64, u64), String> {
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .open(K)
        .map_err(|e| e.to_string())?;
    let mut buf = vec![0u8; 16 * Record::SIZE];
    let _ = f.read(&mut buf).map_err(|e| e.to_string())?; // the snapshot
    let t0 = Instant::now();
    let mut records = 0u64;
    while t0.elapsed() < Duration::from_secs(3) {
        records += (f.read(&mut buf).map_err(|e| e.to_string())? / Record::SIZE) as u64;
    }
    let mut p = libc::pollfd {
        fd: f.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // The cost of a poll: the best of 20 batches of 100, so that one preemption of the
    // guest (milliseconds under TCG) does not pass for a cost that grows with the watchers
    // (which would slow every batch).
    const BATCH: u32 = 100;
    let mut best = u64::MAX;
    for _ in 0..20 {
        let t1 = Instant::now();
        for _ in 0..BATCH {
            // SAFETY: one valid pollfd.
            unsafe { libc::poll(&mut p, 1, 0) };
        }
        let ns = u64::try_from(t1.elapsed().as_nanos()).unwrap_or(u64::MAX);
        best = best.min(ns / u64::from(BATCH));
    }
    Ok((records, best))
}

const WATCHERS: usize = 10_000;

fn many_watchers(_: u32) -> Outcome {
    // Opening and closing 10,000 files takes about a minute under TCG: more than the 90 s
    // alarm every test gets.
    // SAFETY: re-arms this test process's alarm.
    unsafe { libc::alarm(400) };
    let t0 = Instant::now();
    let (rate0, poll0) = reader_figures()?;
    let before = kernel_heap()?;
    let [ready_r, ready_w] = procs::pipe()?;
    let [stop_r, stop_w] = procs::pipe()?;
    let _ = std::io::stdout().flush();
    // SAFETY: the child raises its file limit (as root), becomes uid 2407 and opens the
    // watchers; it exits when the parent closes the stop pipe.
    let pid = unsafe { libc::fork() };
    ensure!(pid >= 0, "fork failed");
    if pid == 0 {
        // SAFETY: the child's copies of the parent's ends: without this the stop pipe never
        // reads end of file.
        unsafe {
            libc::close(ready_r);
            libc::close(stop_w);
        }
        let lim = libc::rlimit {
            rlim_cur: (WATCHERS + 100) as u64,
            rlim_max: (WATCHERS + 100) as u64,
        };
        let mut opened = Vec::with_capacity(WATCHERS);
        let mut byte = [b'n'];
        // SAFETY: plain libc calls in the child.
        unsafe {
            if libc::setrlimit(libc::RLIMIT_NOFILE, &lim) == 0
                && libc::setgid(2407) == 0
                && libc::setuid(2407) == 0
            {
                let mut buf = vec![0u8; 16 * Record::SIZE];
                for _ in 0..WATCHERS {
                    let Ok(mut f) = std::fs::OpenOptions::new()
                        .read(true)
                        .custom_flags(libc::O_NONBLOCK)
                        .open(K)
                    else {
                        break;
                    };
                    // The first read registers the watcher and takes its snapshot.
                    let _ = f.read(&mut buf);
                    opened.push(f);
                }
                if opened.len() == WATCHERS {
                    byte[0] = b'y';
                }
            }
            libc::write(ready_w, byte.as_ptr().cast(), 1);
            libc::read(stop_r, byte.as_mut_ptr().cast(), 1);
            libc::_exit(0);
        }
    }
    // SAFETY: the parent's copies of the child's ends.
    unsafe {
        libc::close(ready_w);
        libc::close(stop_r);
    }
    let mut byte = [0u8];
    // SAFETY: reads one byte into `byte`.
    unsafe { libc::read(ready_r, byte.as_mut_ptr().cast(), 1) };
    let outcome = (|| -> Outcome {
        ensure!(
            byte[0] == b'y',
            "uid 2407 could not open {WATCHERS} watchers of {K}"
        );
        println!(
            "# {WATCHERS} watchers opened and registered in {:?}",
            t0.elapsed()
        );
        match (before, kernel_heap()?) {
            (Some(before), Some(after)) => {
                let grown = after.saturating_sub(before);
                println!(
                    "# {WATCHERS} watchers: kmalloc + vmalloc grew by {grown} bytes, {} bytes a watcher",
                    grown / WATCHERS as u64
                );
                // Lock debugging (lockdep) makes every mutex several times larger.
                let limit: u64 = if std::path::Path::new("/proc/lockdep").exists() {
                    3 << 20
                } else {
                    1 << 20
                };
                ensure!(
                    grown < limit,
                    "{WATCHERS} watchers cost {grown} bytes of kernel heap (limit {limit})"
                );
            }
            _ => println!("# no /proc/slabinfo on this kernel: the memory is measured on Debian's"),
        }
        let (rate1, poll1) = reader_figures()?;
        println!("# another reader: {rate0} records in 3 s alone, {rate1} with the watchers; poll {poll0} ns alone, {poll1} ns with them");
        ensure!(
            rate1 * 2 >= rate0,
            "the reader's records in 3 s fell from {rate0} to {rate1}"
        );
        ensure!(
            poll1 <= 2 * poll0 + 2000,
            "poll cost rose from {poll0} to {poll1} ns"
        );
        Ok(())
    })();
    // SAFETY: closing the stop pipe ends the child.
    unsafe { libc::close(stop_w) };
    procs::wait_ok(pid)?;
    println!("# closed after {:?}", t0.elapsed());
    outcome
}

/// Loads the module (unloaded by the caller, tests/selftests/kgames/module.sh) with a 3 s pause between the
/// registration of /dev/kxo and its switch to the module's `file_operations`, and opens the
/// node as fast as it can meanwhile: every open in the window must fail with `EAGAIN`, and
/// every file that opens must poll through the module (a fresh watcher is readable, never
/// writable; the VFS's default for a file without `poll` is both), so no file holds the
/// kernel crate's table, which has no owner on 7.2.
fn open_race(_: u32) -> Outcome {
    let mut insmod = std::process::Command::new("insmod")
        .arg(crate::module_path())
        .arg("test_open_delay_ms=3000")
        .spawn()
        .map_err(|e| format!("insmod: {e}"))?;
    let (mut refused, mut opened) = (0u32, 0u32);
    let t0 = Instant::now();
    let result = loop {
        if let Ok(Some(st)) = insmod.try_wait() {
            if !st.success() {
                break Err(format!("insmod test_open_delay_ms=3000 failed: {st}"));
            }
            if opened > 0 {
                break Ok(());
            }
        }
        if t0.elapsed() > Duration::from_secs(60) {
            let _ = insmod.kill();
            break Err("insmod did not end in 60 s".into());
        }
        match std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(K)
        {
            Ok(f) => {
                opened += 1;
                let mut p = libc::pollfd {
                    fd: f.as_raw_fd(),
                    events: libc::POLLIN | libc::POLLOUT,
                    revents: 0,
                };
                // SAFETY: one valid pollfd.
                unsafe { libc::poll(&mut p, 1, 0) };
                if p.revents & libc::POLLOUT != 0 {
                    break Err(format!("a file opened {:?} into the load polls as writable ({:#x}): it has the kernel crate's table", t0.elapsed(), p.revents));
                }
            }
            Err(e) if e.raw_os_error() == Some(libc::EAGAIN) => refused += 1,
            Err(_) => std::thread::sleep(Duration::from_millis(1)),
        }
    };
    let _ = insmod.wait();
    println!("# {refused} opens refused with EAGAIN in the window, {opened} after it");
    result?;
    ensure!(
        refused > 0,
        "no open fell in the 3 s window (the test proves nothing)"
    );
    Ok(())
}

/// Runs `cmds` on `path` in a child process as `uid` and returns the child's pid once it has
/// exited (with status 0: every reply began with `OK`).
fn deep_search(path: &str, uid: u32, cmds: &[&str]) -> Result<libc::pid_t, String> {
    let (path, cmds): (String, Vec<String>) =
        (path.into(), cmds.iter().map(|c| c.to_string()).collect());
    let _ = std::io::stdout().flush();
    // SAFETY: the child switches uid, runs the commands and exits.
    let pid = unsafe { libc::fork() };
    ensure!(pid >= 0, "fork failed");
    if pid == 0 {
        let ok = (|| -> Outcome {
            // SAFETY: plain libc calls in the child.
            let switched = unsafe { libc::setgid(uid) == 0 && libc::setuid(uid) == 0 };
            ensure!(switched, "setuid");
            let d = Dev::open(&path)?;
            for c in &cmds {
                let r = cmd(&d.f, c)?;
                ensure!(
                    r.starts_with(b"OK"),
                    "{c}: {:?}",
                    String::from_utf8_lossy(&r)
                );
            }
            Ok(())
        })();
        if let Err(e) = &ok {
            println!("# {e}");
        }
        // SAFETY: ends the child.
        unsafe { libc::_exit(i32::from(ok.is_err())) };
    }
    procs::wait_ok(pid)?;
    Ok(pid)
}

/// What `CONFIG_DEBUG_STACK_USAGE` said of `pid` at its exit: the bytes its kernel stack never
/// used, if it set a new low for the boot (the kernel prints only those).
fn stack_left(pid: libc::pid_t) -> Option<u64> {
    let out = std::process::Command::new("dmesg").output().ok()?;
    let log = String::from_utf8_lossy(&out.stdout);
    let key = format!("({pid}) used greatest stack depth: ");
    log.lines()
        .find_map(|l| l.split_once(key.as_str()))
        .and_then(|(_, rest)| rest.split_whitespace().next()?.parse().ok())
}

/// The lowest stack reserve the kernel has printed this boot (`None` without
/// `CONFIG_DEBUG_STACK_USAGE`).
fn lowest_stack_left() -> Option<u64> {
    let out = std::process::Command::new("dmesg").output().ok()?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_once("used greatest stack depth: "))
        .filter_map(|(_, rest)| rest.split_whitespace().next()?.parse().ok())
        .min()
}

/// A reversi board where every X move is followed by an O pass (16 of them): each row is
/// `-OXXXXO-`, X to move. O never has a move: every line from an O disc ends at an edge or
/// an O disc, or meets an empty square first.
const PASS_CHAIN: &str = "-OXXXXO--OXXXXO--OXXXXO--OXXXXO--OXXXXO--OXXXXO--OXXXXO--OXXXXO- X";

/// The deepest searches a user can ask for, each run by a process that then exits; on a kernel
/// with `CONFIG_DEBUG_STACK_USAGE` (the test kernel) the stack each left unused is printed when
/// the kernel reports it, and must be at least 4 KiB. Every kernel checks the end of the stack
/// at each schedule (`CONFIG_SCHED_STACK_END_CHECK`, Debian's and the test kernel's).
fn deep_stacks(_: u32) -> Outcome {
    let pass_chain = format!("10 {PASS_CHAIN}");
    let cases: [(&str, &str, Vec<&str>); 4] = [
        (
            "reversi: 16 forced passes, 3 s",
            R,
            vec!["00 O", &pass_chain, "05 3000", "03"],
        ),
        (
            "reversi: the start, 3 s midgame",
            R,
            vec!["00 O", "05 3000", "03"],
        ),
        (
            "chess: king and pawn against king, 3 s",
            C,
            vec![
                "00 B",
                "10 8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
                "05 3000",
                "03",
            ],
        ),
        ("chess: the start, 3 s", C, vec!["00 B", "05 3000", "03"]),
    ];
    for (i, (what, path, cmds)) in cases.iter().enumerate() {
        let pid = deep_search(path, 2420 + i as u32, cmds)?;
        match stack_left(pid) {
            Some(left) => {
                println!("# {what}: {left} bytes of the kernel stack left unused");
                ensure!(left >= 4096, "{what}: only {left} bytes of the stack left");
            }
            None => match lowest_stack_left() {
                Some(low) => {
                    println!("# {what}: more than {low} bytes left (the boot's lowest so far)")
                }
                None => println!("# {what}: no stack figure (no CONFIG_DEBUG_STACK_USAGE)"),
            },
        }
    }
    Ok(())
}

/// With the module loaded with `kxo_ring=64` (tests/selftests/kgames/module.sh, for the fuzzer): a watcher that
/// sleeps while more than 64 records are published finds exactly the ring's last records
/// waiting (64, and the few published while it reads), and counts the rest as lost.
fn ring_size(_: u32) -> Outcome {
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(K)
        .map_err(|e| format!("open {K}: {e}"))?;
    let mut buf = vec![0u8; 16 * Record::SIZE];
    let _ = f.read(&mut buf).map_err(|e| format!("the snapshot: {e}"))?;
    std::thread::sleep(Duration::from_secs(3));
    let mut records = Vec::new();
    while let Ok(n) = f.read(&mut buf) {
        records.extend(buf[..n].chunks(Record::SIZE).filter_map(Record::from_bytes));
    }
    let lost = records.first().map_or(0, |r| r.lost);
    println!(
        "# kxo_ring=64: {} records waiting after 3 s, {lost} lost",
        records.len()
    );
    ensure!(
        (64..=80).contains(&records.len()),
        "{} records waiting, not the ring's 64",
        records.len()
    );
    ensure!(lost > 0, "nothing counted as lost");
    Ok(())
}
