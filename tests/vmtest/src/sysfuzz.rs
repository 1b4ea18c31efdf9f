//! Suite `sysfuzz`: a seeded syscall-sequence fuzzer of the three devices (docs/testing.md,
//! "The syscall fuzzer"). Several processes (root and two unprivileged uids), each with
//! several threads, issue random sequences of open (blocking or not), close, dup, read (0 to
//! 8 KiB, and into a buffer that runs into an unmapped page: a copy to user space that faults
//! part way), write (valid commands, mutated ones, over-long and empty buffers), poll, epoll
//! (descriptors added to the process's epoll set and left there, waits on it), every ioctl
//! number with valid, null and wild arguments, fork with the descriptors shared (the child
//! writes, reads and exits or is killed), and signals to their own threads. Each
//! operation must return within the longest CPU move plus a margin, replies must be framed
//! (at most 2 KiB, ending in a newline) and records whole and consistent; the kernel's log is
//! the runner's (scripts/detect.py). A failure prints the seed, the thread and its last
//! operations, enough to replay it with `KGAMES_SYSFUZZ_SEED`.
//!
//! `KGAMES_SYSFUZZ_SECONDS` (default 20) and `KGAMES_SYSFUZZ_SEED` (default 1) set the run;
//! tests/selftests/kgames/module.sh loads the module with small tables and budgets for it.

use std::collections::{BTreeMap, VecDeque};
use std::fs::OpenOptions;
use std::os::fd::IntoRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use kgames_chess::common::rng::Rng;
use kgames_kxo::kxo::record::RecordCheck;
use kgames_uapi::ioctl::{
    KGAMES_IOC_PRIVATE, KGAMES_IOC_STOP_SEARCH, KXO_IOC_LOADS, KXO_IOC_PAUSE, KXO_IOC_RESTART,
    KXO_IOC_RESUME, KXO_IOC_SET_PAIRING, KXO_IOC_STATE, KXO_IOC_STOP,
};
use kgames_uapi::record::Record;

use crate::{ensure, Outcome, Test};

/// The `sysfuzz` suite.
pub fn tests() -> Vec<Test> {
    vec![Test {
        suite: "sysfuzz",
        name: "seeded syscall sequences from 3 processes x 3 threads on all devices: no hang, framed replies, whole records",
        uid: 0,
        run: sysfuzz,
    }]
}

const DEVICES: [&str; 3] = ["/dev/reversi", "/dev/chess", "/dev/kxo"];
const PROCESSES: u32 = 3;
const THREADS: u32 = 3;
/// The longest an operation may take: `max_move_ms` as module.sh loads it (2 s), the
/// longest budget `05` takes (9 s, capped by it), a margin for TCG.
/// Several CPU moves may queue for the one search context of module.sh's load.
const OP_LIMIT: Duration = Duration::from_secs(40);

/// Commands per device: valid ones, with the arguments filled in at random.
const COMMANDS: [&str; 22] = [
    "00 X",
    "00 O",
    "00 W",
    "00 B",
    "00 X 3",
    "00 O 6 5 3",
    "01",
    "02 3 2",
    "02 WPe2-e4",
    "02 1 1",
    "03",
    "04",
    "05 200",
    "05 N2000",
    "05 N1",
    "06",
    "07",
    "08",
    "09",
    "11",
    "12 e2e4",
    "99",
];
const POSITIONS: [&str; 3] = [
    "10 -OXXXXO--OXXXXO--OXXXXO--OXXXXO--OXXXXO--OXXXXO--OXXXXO--OXXXXO- X",
    "10 8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    "10 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
];
const IOCTLS: [u32; 10] = [
    KGAMES_IOC_PRIVATE,
    KGAMES_IOC_STOP_SEARCH,
    KXO_IOC_PAUSE,
    KXO_IOC_RESUME,
    KXO_IOC_STOP,
    KXO_IOC_RESTART,
    KXO_IOC_LOADS,
    KXO_IOC_STATE,
    KXO_IOC_SET_PAIRING,
    0xdead_beef,
];

/// What the run saw: operations by kind and result.
#[derive(Default)]
struct Tally {
    ops: BTreeMap<String, u64>,
}

fn sysfuzz(_: u32) -> Outcome {
    let seconds: u64 = std::env::var("KGAMES_SYSFUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let seed: u64 = std::env::var("KGAMES_SYSFUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    // SAFETY: re-arms this test's alarm: the run plus the longest operation and the wind-down.
    unsafe { libc::alarm(u32::try_from(seconds + 120).unwrap_or(u32::MAX)) };
    println!("# sysfuzz: seed {seed}, {seconds} s, {PROCESSES} processes x {THREADS} threads");
    let t0 = Instant::now();
    let mut children = Vec::new();
    for p in 0..PROCESSES {
        let uid = [0, 2431, 2432][p as usize % 3];
        let _ = std::io::Write::flush(&mut std::io::stdout());
        // SAFETY: the child runs its threads and exits.
        let pid = unsafe { libc::fork() };
        ensure!(pid >= 0, "fork failed");
        if pid == 0 {
            // SAFETY: plain libc calls in the child.
            let ok = uid == 0 || unsafe { libc::setgid(uid) == 0 && libc::setuid(uid) == 0 };
            let r = if ok {
                process(seed.wrapping_mul(31).wrapping_add(u64::from(p)), seconds)
            } else {
                Err("setuid".into())
            };
            if let Err(e) = &r {
                println!("# sysfuzz: seed {seed}, process {p} (uid {uid}): {e}");
            }
            let _ = std::io::Write::flush(&mut std::io::stdout());
            // SAFETY: ends the child.
            unsafe { libc::_exit(i32::from(r.is_err())) };
        }
        children.push(pid);
    }
    let mut failed = 0;
    for pid in children {
        let mut st = 0;
        // SAFETY: waits for a child of this process.
        unsafe { libc::waitpid(pid, &mut st, 0) };
        if !(libc::WIFEXITED(st) && libc::WEXITSTATUS(st) == 0) {
            failed += 1;
        }
    }
    // Root's process may have stopped or paused the AI games: the suites after this one need
    // them running.
    if let Ok(f) = OpenOptions::new().read(true).open("/dev/kxo") {
        let _ = kgames_uapi::user::ioctl_none(&f, KXO_IOC_RESTART);
        let _ = kgames_uapi::user::ioctl_none(&f, KXO_IOC_RESUME);
    }
    println!("# sysfuzz: {:?} in all", t0.elapsed());
    ensure!(
        failed == 0,
        "{failed} of {PROCESSES} processes failed (seed {seed})"
    );
    Ok(())
}

/// A process: its threads share its descriptors; a watchdog fails the run when an operation
/// takes longer than [`OP_LIMIT`].
fn process(seed: u64, seconds: u64) -> Outcome {
    extern "C" fn nothing(_: libc::c_int) {}
    // SAFETY: a handler that does nothing, without SA_RESTART, so signals interrupt calls.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = nothing as extern "C" fn(libc::c_int) as usize;
        libc::sigaction(libc::SIGUSR1, &sa, std::ptr::null_mut());
    }
    let fds: Arc<Mutex<Vec<i32>>> = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let tids: Arc<Mutex<Vec<i32>>> = Arc::new(Mutex::new(Vec::new()));
    let started: Arc<Vec<AtomicU64>> = Arc::new((0..THREADS).map(|_| AtomicU64::new(0)).collect());
    // Each thread's last operations, published after each one for the watchdog.
    let logs: Arc<Vec<Mutex<String>>> =
        Arc::new((0..THREADS).map(|_| Mutex::new(String::new())).collect());
    let epoch = Instant::now();
    let mut handles = Vec::new();
    for t in 0..THREADS {
        let (fds, stop, tids, started, logs) = (
            fds.clone(),
            stop.clone(),
            tids.clone(),
            started.clone(),
            logs.clone(),
        );
        handles.push(std::thread::spawn(move || {
            // SAFETY: gettid has no preconditions.
            tids.lock().unwrap().push(unsafe { libc::gettid() });
            let mut rng = Rng::new(
                seed.wrapping_mul(0x9E37_79B9)
                    .wrapping_add(u64::from(t) + 1),
            );
            let mut tally = Tally::default();
            let mut log = VecDeque::new();
            while !stop.load(Ordering::Relaxed) {
                let ms = u64::try_from(epoch.elapsed().as_millis())
                    .unwrap_or(0)
                    .max(1);
                started[t as usize].store(ms, Ordering::Relaxed);
                let r = one_op(&mut rng, &fds, &tids, &mut log, &mut tally);
                started[t as usize].store(0, Ordering::Relaxed);
                *logs[t as usize].lock().unwrap() =
                    log.iter().cloned().collect::<Vec<_>>().join(" | ");
                if let Err(e) = r {
                    return Err(format!("thread {t}: {e}"));
                }
            }
            Ok(tally)
        }));
    }
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut verdict: Outcome = Ok(());
    while Instant::now() < deadline && handles.iter().all(|h| !h.is_finished()) {
        std::thread::sleep(Duration::from_millis(200));
        let now = u64::try_from(epoch.elapsed().as_millis()).unwrap_or(0);
        for (t, s) in started.iter().enumerate() {
            let s = s.load(Ordering::Relaxed);
            if s != 0 && now.saturating_sub(s) > OP_LIMIT.as_millis() as u64 {
                let log = logs[t].lock().map(|l| l.clone()).unwrap_or_default();
                verdict = Err(format!(
                    "thread {t}: an operation is still running after {} ms; the operations before it: {log}",
                    now - s,
                ));
            }
        }
        if verdict.is_err() {
            // The replay is printed; killing the process ends the blocked call.
            println!(
                "# sysfuzz: seed {seed}: {}",
                verdict.as_ref().err().cloned().unwrap_or_default()
            );
            // SAFETY: ends this process; the parent sees the failure.
            unsafe { libc::_exit(1) };
        }
    }
    stop.store(true, Ordering::Relaxed);
    let mut all = Tally::default();
    let t0 = Instant::now();
    for h in handles {
        // Signals end the CPU moves still running.
        for &tid in tids.lock().unwrap().iter() {
            // SAFETY: signals a thread of this process.
            unsafe { libc::syscall(libc::SYS_tgkill, libc::getpid(), tid, libc::SIGUSR1) };
        }
        match h.join() {
            Ok(Ok(t)) => {
                for (k, v) in t.ops {
                    *all.ops.entry(k).or_default() += v;
                }
            }
            Ok(Err(e)) => verdict = verdict.and(Err(e)),
            Err(_) => verdict = verdict.and(Err("a thread panicked".into())),
        }
        ensure!(
            t0.elapsed() < OP_LIMIT,
            "threads did not stop within {OP_LIMIT:?}"
        );
    }
    let total: u64 = all.ops.values().sum();
    println!(
        "# sysfuzz process seed {seed}: {total} operations, {} a second; {}",
        total / seconds.max(1),
        all.ops
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    verdict
}

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len() as u32) as usize]
}

fn errno_name(r: isize) -> String {
    if r >= 0 {
        "ok".into()
    } else {
        format!(
            "e{}",
            std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
        )
    }
}

/// The process's epoll set: descriptors are added and never removed (closing them removes
/// them), so it parks watchers the way a user's idle epoll set does.
fn epoll_set() -> i32 {
    static EPOLL: OnceLock<i32> = OnceLock::new();
    // SAFETY: creates an epoll descriptor of this process.
    *EPOLL.get_or_init(|| unsafe { libc::epoll_create1(libc::EPOLL_CLOEXEC) })
}

/// The last 64 bytes of a readable page followed by an inaccessible one: a read into it that
/// wants more than 64 bytes faults part way through its copy to user space.
fn edge_buffer() -> usize {
    static EDGE: OnceLock<usize> = OnceLock::new();
    *EDGE.get_or_init(|| {
        // SAFETY: a private anonymous mapping of two pages, the second made inaccessible.
        unsafe {
            let p = libc::mmap(
                std::ptr::null_mut(),
                8192,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if p == libc::MAP_FAILED {
                return 0;
            }
            libc::mprotect(p.cast::<u8>().add(4096).cast(), 4096, libc::PROT_NONE);
            p as usize + 4096 - 64
        }
    })
}

/// One random operation; `Err` on a broken invariant.
fn one_op(
    rng: &mut Rng,
    fds: &Mutex<Vec<i32>>,
    tids: &Mutex<Vec<i32>>,
    log: &mut VecDeque<String>,
    tally: &mut Tally,
) -> Outcome {
    let fd = {
        let v = fds.lock().unwrap();
        if v.is_empty() {
            -1
        } else {
            v[rng.below(v.len() as u32) as usize]
        }
    };
    let kind = rng.below(100);
    let (name, result): (String, String) = if fd < 0 || kind < 6 {
        let dev = *pick(rng, &DEVICES);
        let nonblock = rng.below(2) == 0;
        let r = OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(if nonblock { libc::O_NONBLOCK } else { 0 })
            .open(dev);
        let res = match r {
            Ok(f) => {
                let raw = f.into_raw_fd();
                let mut v = fds.lock().unwrap();
                if v.len() < 24 {
                    v.push(raw);
                } else {
                    // SAFETY: closes the descriptor just opened.
                    unsafe { libc::close(raw) };
                }
                "ok".into()
            }
            Err(e) => format!("e{}", e.raw_os_error().unwrap_or(0)),
        };
        (
            format!("open {dev}{}", if nonblock { " nb" } else { "" }),
            res,
        )
    } else if kind < 10 {
        let mut v = fds.lock().unwrap();
        if let Some(i) = v.iter().position(|&x| x == fd) {
            v.swap_remove(i);
            // SAFETY: the descriptor was this process's and is no longer in the pool.
            unsafe { libc::close(fd) };
        }
        (format!("close {fd}"), "ok".into())
    } else if kind < 13 {
        // SAFETY: duplicates a descriptor of this process (or fails with EBADF).
        let d = unsafe { libc::dup(fd) };
        if d >= 0 {
            let mut v = fds.lock().unwrap();
            if v.len() < 24 {
                v.push(d);
            } else {
                // SAFETY: closes the duplicate just made.
                unsafe { libc::close(d) };
            }
        }
        (format!("dup {fd}"), errno_name(d as isize))
    } else if kind < 45 {
        let line = match rng.below(10) {
            0 => pick(rng, &POSITIONS).to_string(),
            1 => String::new(),
            2 => "9".repeat(300 + rng.below(5000) as usize),
            3 => {
                let mut b: Vec<u8> = pick(rng, &COMMANDS).bytes().collect();
                for _ in 0..1 + rng.below(3) {
                    let i = rng.below(b.len() as u32 + 1) as usize;
                    let byte = rng.below(256) as u8;
                    if i < b.len() {
                        b[i] = byte
                    } else {
                        b.push(byte)
                    }
                }
                String::from_utf8_lossy(&b).into_owned()
            }
            _ => pick(rng, &COMMANDS).to_string(),
        };
        let bytes = if line.is_empty() {
            Vec::new()
        } else {
            format!("{line}\n").into_bytes()
        };
        // SAFETY: writes a buffer of this thread.
        let r = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        (
            format!("write {fd} {:?}", &line[..line.len().min(40)]),
            errno_name(r),
        )
    } else if kind < 75 {
        let size = *pick(rng, &[0usize, 1, 47, 48, 100, 480, 2048, 8192]);
        let mut buf = vec![0u8; size];
        let mut p = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one pollfd, and the descriptor's flags.
        let (ready, nonblock) = unsafe {
            (
                libc::poll(&mut p, 1, 0) > 0,
                libc::fcntl(fd, libc::F_GETFL) & libc::O_NONBLOCK != 0,
            )
        };
        let edge = edge_buffer();
        if rng.below(5) == 0 && edge != 0 && (ready || nonblock) {
            // A copy that faults after 64 bytes: a short read or EFAULT, nothing lost or hung.
            // SAFETY: reads into 64 mapped bytes followed by an inaccessible page.
            let r = unsafe { libc::read(fd, edge as *mut libc::c_void, size) };
            return record(format!("readfault {fd} {size}"), errno_name(r), log, tally);
        }
        // A blocking read with nothing to read could wait for good (the AI games stopped).
        let r = if ready || nonblock {
            // SAFETY: reads into a buffer of `size` bytes.
            unsafe { libc::read(fd, buf.as_mut_ptr().cast(), size) }
        } else {
            0
        };
        if r > 0 {
            check_read(fd, &buf[..r as usize])?;
        }
        (format!("read {fd} {size}"), errno_name(r))
    } else if kind < 80 {
        let ep = epoll_set();
        if rng.below(2) == 0 {
            let mut ev = libc::epoll_event {
                events: (libc::EPOLLIN | libc::EPOLLOUT) as u32
                    | if rng.below(2) == 0 {
                        libc::EPOLLET as u32
                    } else {
                        0
                    },
                u64: fd as u64,
            };
            // SAFETY: adds a descriptor of this process to its epoll set (EEXIST if there).
            let r = unsafe { libc::epoll_ctl(ep, libc::EPOLL_CTL_ADD, fd, &mut ev) };
            (format!("epolladd {fd}"), errno_name(r as isize))
        } else {
            let mut evs = [libc::epoll_event { events: 0, u64: 0 }; 8];
            // SAFETY: waits on this process's epoll set into 8 events.
            let r = unsafe { libc::epoll_wait(ep, evs.as_mut_ptr(), 8, rng.below(20) as i32) };
            (format!("epollwait {fd}"), errno_name(r as isize))
        }
    } else if kind < 85 {
        let mut p = libc::pollfd {
            fd,
            events: libc::POLLIN | libc::POLLOUT,
            revents: 0,
        };
        // SAFETY: one pollfd.
        let r = unsafe { libc::poll(&mut p, 1, rng.below(50) as i32) };
        (
            format!("poll {fd}"),
            if r < 0 {
                errno_name(-1)
            } else {
                format!("{:#x}", p.revents)
            },
        )
    } else if kind < 95 {
        let nr = *pick(rng, &IOCTLS);
        let mut payload = [0u8; 512];
        let arg: usize = match rng.below(4) {
            0 => 0,
            1 => 0x10,
            2 => usize::MAX - 64,
            _ => payload.as_mut_ptr() as usize,
        };
        // The pairing payload: a slot and two agents, valid or not.
        payload[..4].copy_from_slice(&[
            rng.below(40) as u8,
            0,
            rng.below(7) as u8,
            rng.below(7) as u8,
        ]);
        // SAFETY: `arg` is null, wild or this thread's 512-byte buffer: the kernel checks it.
        let r = unsafe { libc::ioctl(fd, libc::c_ulong::from(nr), arg) };
        (
            format!("ioctl {fd} {nr:#x} {arg:#x}"),
            errno_name(r as isize),
        )
    } else if kind < 97 {
        fork_child(rng, fd)?;
        (format!("fork {fd}"), "ok".into())
    } else {
        let v = tids.lock().unwrap();
        let tid = v[rng.below(v.len() as u32) as usize];
        // SAFETY: signals a thread of this process; its handler does nothing.
        unsafe { libc::syscall(libc::SYS_tgkill, libc::getpid(), tid, libc::SIGUSR1) };
        (format!("signal {tid}"), "ok".into())
    };
    record(name, result, log, tally)
}

/// Counts an operation by kind and result, and keeps it in the thread's log.
fn record(name: String, result: String, log: &mut VecDeque<String>, tally: &mut Tally) -> Outcome {
    let mut words = name.split(' ');
    let key = match (words.next(), words.nth(1)) {
        (Some("ioctl"), Some(nr)) => format!("ioctl{nr}"),
        (Some(op), _) => op.to_string(),
        _ => String::new(),
    };
    *tally.ops.entry(format!("{key}:{result}")).or_default() += 1;
    log.push_back(format!("{name} -> {result}"));
    if log.len() > 20 {
        log.pop_front();
    }
    Ok(())
}

/// A reply is at most 2 KiB of text; anything else must be whole, consistent kxo records.
/// (The data tells which: the descriptor may have been closed and reused by another thread
/// since the read.)
fn check_read(fd: i32, got: &[u8]) -> Outcome {
    let text = got
        .iter()
        .all(|&b| b == b'\n' || b == b'\t' || (0x20..0x7f).contains(&b));
    if text {
        ensure!(got.len() <= 2048, "fd {fd}: a reply of {} bytes", got.len());
    } else {
        ensure!(
            got.len().is_multiple_of(Record::SIZE),
            "fd {fd}: a read of {} bytes, neither text nor whole records: {:?}",
            got.len(),
            String::from_utf8_lossy(got)
        );
        for chunk in got.chunks(Record::SIZE) {
            let r = Record::from_bytes(chunk).ok_or("a record that does not decode")?;
            ensure!(r.is_consistent(), "fd {fd}: an inconsistent record {r:?}");
        }
    }
    Ok(())
}

/// Forks a child sharing every descriptor: it writes a command and reads on `fd`, and exits;
/// one time in four the parent kills it first.
fn fork_child(rng: &mut Rng, fd: i32) -> Outcome {
    let cmd: &[u8] = match rng.below(3) {
        0 => b"03\n",
        1 => b"09\n",
        _ => b"01\n",
    };
    let kill = rng.below(4) == 0;
    // SAFETY: the child makes raw system calls on stack buffers only (no allocation: other
    // threads may hold the allocator's lock at the fork) and exits.
    let pid = unsafe { libc::fork() };
    ensure!(pid >= 0, "fork failed");
    if pid == 0 {
        let mut buf = [0u8; 256];
        // SAFETY: raw calls on stack buffers, then _exit.
        unsafe {
            libc::write(fd, cmd.as_ptr().cast(), cmd.len());
            libc::read(fd, buf.as_mut_ptr().cast(), buf.len());
            libc::_exit(0);
        }
    }
    if kill {
        std::thread::sleep(Duration::from_millis(u64::from(rng.below(30))));
        // SAFETY: signals a child of this process.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    let t0 = Instant::now();
    loop {
        let mut st = 0;
        // SAFETY: polls a child of this process.
        if unsafe { libc::waitpid(pid, &mut st, libc::WNOHANG) } != 0 {
            return Ok(());
        }
        ensure!(
            t0.elapsed() < OP_LIMIT,
            "a forked child writing {:?} on {fd} did not exit in {OP_LIMIT:?}",
            String::from_utf8_lossy(cmd)
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}
