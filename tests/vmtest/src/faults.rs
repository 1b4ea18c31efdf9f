//! The `faults` suite (debug kernel only, `make check-debug`): every allocation the module
//! makes is failed in turn, with the per-task `fail-nth` control of the kernel's fault
//! injection (failslab and fail_page_alloc, sleeping allocations included).
//!
//! For one operation, the sweep sets `/proc/thread-self/fail-nth` to n = 1, 2, ... before the
//! operation's system call(s): the n-th allocation fails. When the value reads back non-zero
//! afterwards the operation made fewer than n allocations and the sweep is complete: n - 1
//! injection points were covered. Each injected failure must be clean: the call fails with
//! `ENOMEM` (or succeeds, if the allocation was optional), nothing is half-created (no module
//! left loaded, no device node after a failed load; a load that absorbed the failure works on
//! all three devices), the game is unchanged (its `01` and `11`), and the same operation
//! succeeds once injection is off. Leaks are found by kmemleak, which
//! scripts/vm-run.sh runs after the suite; the module must still unload.
//!
//! `insmod` is swept over every slab allocation of the load and sampled page allocations (the
//! loader's own included);
//! the operations on the devices only with allocations made from the module's code (the
//! debugfs `require-start`/`require-end` stack filter set to the module's text).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::time::Instant;

use kgames_uapi::ioctl::KGAMES_IOC_PRIVATE;
use kgames_uapi::user::{ioctl_none, kxo_loads, kxo_state};

use crate::dev::{sh, Dev};
use crate::procs::{pipe, spawn_as, wait_ok};
use crate::{ensure, module_path, Outcome, Test, NODES_0666};

/// The fault-injection controls.
const DEBUGFS: &str = "/sys/kernel/debug";
/// Module parameters of the insmod sweep: the smallest tables (every allocating path is still
/// taken, with fewer pages).
const SMALL: &str =
    "tt_entries=1024 search_contexts=1 max_games=16 kxo_games=2 kxo_td_kb=16 kxo_td_games=10";
/// The most injection points swept per operation.
const MAX_POINTS: u32 = 20_000;

/// The suite.
pub fn tests() -> Vec<Test> {
    vec![
        Test {
            suite: "faults",
            name: "device operations with each module allocation failing in turn: ENOMEM, game unchanged",
            uid: 0,
            run: |_| ops_sweep(),
        },
        Test {
            suite: "faults_trace",
            name: "one injected failure printed with its stack trace (the detector must not count it)",
            uid: 0,
            run: |_| traced_fault(),
        },
        Test {
            suite: "faults",
            name: "insmod with each allocation failing in turn: a clean failure, nothing left loaded",
            uid: 0,
            run: |_| insmod_sweep(),
        },
    ]
}

fn write_ctl(path: &str, value: &str) -> Outcome {
    fs::write(format!("{DEBUGFS}/{path}"), value).map_err(|e| format!("{path} <- {value}: {e}"))
}

/// Which allocations `fail-nth` counts and fails.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Slab allocations (failslab), sleeping ones included.
    Slab,
    /// Page allocations (fail_page_alloc), order 0 and sleeping ones included.
    Pages,
    /// Both.
    Both,
}

/// Aims failslab and fail_page_alloc at `kind`, with a one-line message each (the
/// stack-trace form is the detector's self-test), only from code in `range` (none: anywhere).
fn aim(kind: Kind, range: Option<(u64, u64)>) -> Outcome {
    aim_verbose(kind, range, 1)
}

/// [`aim`] with the message's `verbose` level (2: with a stack trace).
fn aim_verbose(kind: Kind, range: Option<(u64, u64)>, verbose: u8) -> Outcome {
    let (start, end) = range.unwrap_or((0, u64::MAX));
    for attr in ["failslab", "fail_page_alloc"] {
        write_ctl(&format!("{attr}/verbose"), &verbose.to_string())?;
        write_ctl(&format!("{attr}/require-start"), &start.to_string())?;
        write_ctl(&format!("{attr}/require-end"), &end.to_string())?;
    }
    let slab = kind != Kind::Pages;
    let pages = kind != Kind::Slab;
    write_ctl("failslab/ignore-gfp-wait", if slab { "N" } else { "Y" })?;
    write_ctl(
        "fail_page_alloc/ignore-gfp-wait",
        if pages { "N" } else { "Y" },
    )?;
    write_ctl("fail_page_alloc/ignore-gfp-highmem", "N")?;
    // Above the largest order: no page allocation fails.
    write_ctl("fail_page_alloc/min-order", if pages { "0" } else { "11" })
}

/// The module's text: from its `.text` section over its size in /proc/modules.
fn module_range() -> Result<(u64, u64), String> {
    let text =
        fs::read_to_string("/sys/module/kgames/sections/.text").map_err(|e| e.to_string())?;
    let start = u64::from_str_radix(text.trim().trim_start_matches("0x"), 16)
        .map_err(|e| format!(".text {text:?}: {e}"))?;
    let modules = fs::read_to_string("/proc/modules").map_err(|e| e.to_string())?;
    let size: u64 = modules
        .lines()
        .find_map(|l| l.strip_prefix("kgames "))
        .and_then(|l| l.split(' ').next())
        .and_then(|s| s.parse().ok())
        .ok_or("kgames is not in /proc/modules")?;
    Ok((start, start + size))
}

/// Runs `op` with the `n`-th injection point of this thread failing; returns its result and
/// whether the fault was injected (fewer than `n` points: not).
fn nth<T>(n: u32, op: impl FnOnce() -> T) -> Result<(T, bool), String> {
    const CTL: &str = "/proc/thread-self/fail-nth";
    let open = || {
        OpenOptions::new()
            .read(true)
            .write(true)
            .open(CTL)
            .map_err(|e| format!("{CTL}: {e}"))
    };
    // Every file is opened before the operation (an open allocates), so that only the
    // operation's own calls count.
    let (mut set, mut get, mut reset) = (open()?, open()?, open()?);
    set.write_all(n.to_string().as_bytes())
        .map_err(|e| format!("fail-nth <- {n}: {e}"))?;
    let r = op();
    let mut left = [0u8; 16];
    let got = get.read(&mut left).map_err(|e| format!("fail-nth: {e}"))?;
    reset
        .write_all(b"0")
        .map_err(|e| format!("fail-nth <- 0: {e}"))?;
    let left = String::from_utf8_lossy(left.get(..got).unwrap_or_default()).into_owned();
    Ok((r, left.trim() == "0"))
}

/// An injected failure must be ENOMEM.
fn enomem(what: &str, e: &io::Error) -> Outcome {
    ensure!(
        e.raw_os_error() == Some(libc::ENOMEM),
        "{what}: {e} (want ENOMEM)"
    );
    Ok(())
}

fn loaded() -> bool {
    fs::read_to_string("/proc/modules").is_ok_and(|m| m.lines().any(|l| l.starts_with("kgames ")))
}

/// `init_module(2)` from the image in memory: a load that reads no file, so that the
/// injected failures hit the loader and the module, not the 9p file system under the guest.
fn init_module(image: &[u8], params: &str) -> io::Result<()> {
    let params =
        std::ffi::CString::new(params).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))?;
    // SAFETY: the image and the NUL-terminated parameter string outlive the call.
    let r = unsafe {
        libc::syscall(
            libc::SYS_init_module,
            image.as_ptr(),
            image.len(),
            params.as_ptr(),
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// One insmod with the `n`-th allocation failing: whether a fault was injected. A failed
/// load leaves nothing behind; a load that absorbed the failure is unloaded.
fn insmod_at(image: &[u8], n: u32, counts: &mut [u32; 2]) -> Result<bool, String> {
    let (r, injected) = nth(n, || init_module(image, SMALL))?;
    if !injected {
        r.map_err(|e| format!("insmod without injection: {e}"))?;
        sh("rmmod kgames").map_err(|e| format!("rmmod: {e}"))?;
        return Ok(false);
    }
    match r {
        Err(e) => {
            counts[0] += 1;
            ensure!(
                !loaded(),
                "insmod failed at point {n} ({e}) but kgames is loaded"
            );
            ensure!(
                !fs::read_to_string("/proc/misc").is_ok_and(|m| m.contains(" reversi")),
                "insmod failed at point {n} but /dev/reversi is registered"
            );
        }
        Ok(()) => {
            // The load absorbed the failure: it must work as a whole.
            counts[1] += 1;
            works().map_err(|e| format!("insmod absorbed point {n} but: {e}"))?;
            sh("rmmod kgames").map_err(|e| format!("rmmod after point {n}: {e}"))?;
        }
    }
    Ok(true)
}

/// A loaded module answers on its three devices (as root: the nodes are still 0600).
fn works() -> Outcome {
    for (path, line) in [
        ("/dev/reversi", "00 O"),
        ("/dev/chess", "00 B"),
        ("/dev/kxo", "00 X"),
    ] {
        let mut d = Dev::open(path)?;
        d.make_private()?;
        d.expect(line, b"OK\n")?;
    }
    let mut f = File::open("/dev/kxo").map_err(|e| format!("/dev/kxo: {e}"))?;
    let mut buf = [0u8; 64];
    let n = f
        .read(&mut buf)
        .map_err(|e| format!("/dev/kxo read: {e}"))?;
    ensure!(n > 0, "/dev/kxo: no record");
    Ok(())
}

/// `insmod` with every slab allocation failing in turn (the loader's and the module's), then
/// page allocations at points 1, 2, 3, 4, 6, 9, 13, ... (x1.5: one error path, vmalloc's).
fn insmod_sweep() -> Outcome {
    // SAFETY: re-arms this test's own alarm for the long sweep.
    unsafe { libc::alarm(3000) };
    ensure!(
        sh("rmmod kgames").is_ok() || !loaded(),
        "rmmod before the sweep"
    );
    let image = fs::read(module_path()).map_err(|e| format!("{}: {e}", module_path()))?;
    for kind in [Kind::Slab, Kind::Pages] {
        aim(kind, None)?;
        let t0 = Instant::now();
        let mut counts = [0u32; 2];
        let (mut n, mut tried) = (1u32, 0u32);
        while insmod_at(&image, n, &mut counts)? {
            ensure!(n <= MAX_POINTS, "insmod: over {MAX_POINTS} allocations");
            tried += 1;
            if tried % 100 == 0 {
                println!(
                    "# insmod: {tried} points so far ({:.0} s)",
                    t0.elapsed().as_secs_f64()
                );
            }
            n = if kind == Kind::Slab {
                n + 1
            } else {
                (n + n / 2).max(n + 1)
            };
        }
        let what = if kind == Kind::Slab {
            format!("all {tried} slab allocation points")
        } else {
            format!("{tried} page allocation points of fewer than {n}")
        };
        println!(
            "# insmod: {what} failed in turn ({:.0} s): {} loads failed cleanly, {} absorbed the failure",
            t0.elapsed().as_secs_f64(),
            counts[0],
            counts[1]
        );
    }
    aim(Kind::Both, None)?;
    // The defaults again, for the sweeps that follow.
    sh(&format!("insmod {} && {NODES_0666}", module_path()))?;
    Ok(())
}

/// One device operation to sweep: `run(n, uid)` makes its files as `uid`, runs each of its
/// steps with injection point `n` failing, checks the state, and returns how many of its
/// steps had a fault injected.
struct Op {
    name: &'static str,
    run: fn(u32, u32) -> Result<u32, String>,
}

/// The sweep of `op` in children of fresh uids (so every creation path is new): returns the
/// points covered.
fn sweep(op: &Op, base_uid: u32) -> Result<u32, String> {
    let (mut n, mut points) = (1, 0);
    loop {
        ensure!(
            n <= MAX_POINTS,
            "{}: over {MAX_POINTS} allocations",
            op.name
        );
        match sweep_one(op, base_uid, n)? {
            0 => return Ok(points),
            k => points += k,
        }
        n += 1;
    }
}

/// `op` at injection point `n`, in a child of uid `base_uid + n`: the faults injected.
fn sweep_one(op: &Op, base_uid: u32, n: u32) -> Result<u32, String> {
    let fds = pipe()?;
    let run = op.run;
    let child = spawn_as(0, move || {
        let injected = run(n, base_uid + n)?;
        let b = [u8::try_from(injected).unwrap_or(u8::MAX)];
        // SAFETY: one byte to the pipe's write end.
        unsafe { libc::write(fds[1], b.as_ptr().cast(), 1) };
        Ok(())
    })?;
    let r = wait_ok(child);
    let mut b = [0u8; 1];
    // SAFETY: closes this process's write end, then reads the child's byte.
    let got = unsafe {
        libc::close(fds[1]);
        let got = libc::read(fds[0], b.as_mut_ptr().cast(), 1);
        libc::close(fds[0]);
        got
    };
    r.map_err(|e| format!("{} at point {n}: {e}", op.name))?;
    ensure!(got == 1, "{} at point {n}: no answer", op.name);
    Ok(u32::from(b[0]))
}

/// Switches this (child) process to `uid`.
fn become_uid(uid: u32) -> Outcome {
    // Dumpable again after the switch, so that the process still owns its
    // /proc/thread-self/fail-nth.
    // SAFETY: plain libc calls on this process.
    let ok = unsafe {
        libc::setgid(uid) == 0
            && libc::setuid(uid) == 0
            && libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0) == 0
    };
    ensure!(ok, "setuid({uid})");
    Ok(())
}

/// `line` as one write under injection point `n`, then its reply; a failed write must be
/// ENOMEM and (with `game`, for a game that exists) leave `01` and `11` as they were, and the
/// command must then succeed.
fn command(d: &mut Dev, n: u32, line: &str, want_prefix: &[u8], game: bool) -> Result<u32, String> {
    let before = if game {
        (d.cmd("01")?, d.cmd("11")?)
    } else {
        Default::default()
    };
    let (r, injected) = nth(n, || d.write_raw(format!("{line}\n").as_bytes()))?;
    match r {
        Ok(_) => {
            let reply = d
                .read_max(1024)
                .map_err(|e| format!("read after {line:?}: {e}"))?;
            ensure!(
                reply.starts_with(want_prefix),
                "{line:?} -> {:?}",
                String::from_utf8_lossy(&reply)
            );
        }
        Err(e) => {
            enomem(line, &e)?;
            let after = if game {
                (d.cmd("01")?, d.cmd("11")?)
            } else {
                Default::default()
            };
            ensure!(
                after == before,
                "{line:?} failed with ENOMEM but the game changed"
            );
            let reply = d.cmd(line)?;
            ensure!(
                reply.starts_with(want_prefix),
                "{line:?} without injection -> {:?}",
                String::from_utf8_lossy(&reply)
            );
        }
    }
    Ok(u32::from(injected))
}

/// Opening `path` under injection: ENOMEM or a working file.
fn open_op(path: &str, n: u32, uid: u32) -> Result<u32, String> {
    become_uid(uid)?;
    let (r, injected) = nth(n, || OpenOptions::new().read(true).write(true).open(path))?;
    let mut d = match r {
        Ok(f) => Dev { f },
        Err(e) => {
            enomem(&format!("open {path}"), &e)?;
            Dev::open(path)?
        }
    };
    // A private game, so that no shared game is left behind in the table.
    d.make_private()?;
    ensure!(!d.cmd("99")?.is_empty(), "{path}: no reply after the open");
    Ok(u32::from(injected))
}

/// A private file (ioctl) and its first command under injection.
fn private_op(path: &str, n: u32, uid: u32, first: &str) -> Result<u32, String> {
    become_uid(uid)?;
    let mut d = Dev::open(path)?;
    let (r, injected) = nth(n, || ioctl_none(&d.f, KGAMES_IOC_PRIVATE))?;
    if let Err(e) = r {
        enomem("ioctl private", &e)?;
        d.make_private()?;
    }
    Ok(u32::from(injected) + first_command(&mut d, n, first)?)
}

/// The first command of a file (it creates the game) under injection point `n`: a failed
/// write must be ENOMEM, and the same command must then work.
fn first_command(d: &mut Dev, n: u32, line: &str) -> Result<u32, String> {
    command(d, n, line, b"OK\n", false)
}

/// A private game of `uid` on `path`, set up (no injection) by `setup`, each answered `OK`.
fn private_game(path: &str, uid: u32, setup: &[&str]) -> Result<Dev, String> {
    become_uid(uid)?;
    let mut d = Dev::open(path)?;
    d.make_private()?;
    for line in setup {
        d.expect(line, b"OK\n")?;
    }
    Ok(d)
}

const OPS: &[Op] =
    &[
        Op {
            name: "open /dev/reversi",
            run: |n, uid| open_op("/dev/reversi", n, uid),
        },
        Op {
            name: "open /dev/chess",
            run: |n, uid| open_op("/dev/chess", n, uid),
        },
        Op {
            name: "open /dev/kxo",
            run: |n, uid| open_op("/dev/kxo", n, uid),
        },
        Op {
            name: "reversi: a user's first command creates the shared game",
            run: |n, uid| {
                become_uid(uid)?;
                first_command(&mut Dev::open("/dev/reversi")?, n, "00 O")
            },
        },
        Op {
            name: "reversi: private game",
            run: |n, uid| private_op("/dev/reversi", n, uid, "00 O"),
        },
        Op {
            name: "chess: private game",
            run: |n, uid| private_op("/dev/chess", n, uid, "00 B"),
        },
        Op {
            name: "kxo: private N x N game",
            run: |n, uid| private_op("/dev/kxo", n, uid, "00 X"),
        },
        Op {
            name: "reversi: CPU move 03",
            run: |n, uid| {
                let mut d = private_game("/dev/reversi", uid, &["00 O", "05 N2000"])?;
                command(&mut d, n, "03", b"OK", true)
            },
        },
        Op {
            name: "chess: CPU move 03 and a human move",
            run: |n, uid| {
                let mut d = private_game("/dev/chess", uid, &["00 B", "05 N2000"])?;
                Ok(command(&mut d, n, "03", b"OK", true)?
                    + command(&mut d, n, "12 e7e5", b"OK", true)?)
            },
        },
        Op {
            name: "kxo: Monte Carlo CPU move 03",
            run: |n, uid| {
                let mut d = private_game("/dev/kxo", uid, &["00 X"])?;
                command(&mut d, n, "03", b"OK", true)
            },
        },
        Op {
            name: "kxo: a watcher's first read and the state/loads ioctls",
            run: |n, uid| {
                become_uid(uid)?;
                let mut f = File::open("/dev/kxo").map_err(|e| e.to_string())?;
                let mut buf = [0u8; 64];
                let (r, injected) = nth(n, || {
                    let r = f.read(&mut buf);
                    let s = kxo_state(&f);
                    let l = kxo_loads(&f);
                    (r, s, l)
                })?;
                match r {
                    (Ok(_), Ok(_), Ok(_)) => {}
                    (r, s, l) => {
                        for e in [r.err(), s.err(), l.err()].into_iter().flatten() {
                            enomem("kxo read/ioctl", &e)?;
                        }
                    }
                }
                let n = f
                    .read(&mut buf)
                    .map_err(|e| format!("read without injection: {e}"))?;
                ensure!(n > 0, "kxo: no record without injection");
                Ok(u32::from(injected))
            },
        },
    ];

/// The first allocation of a user's first reversi command fails, with fault injection's
/// stack-trace message (`make check-debug` checks that the run still passes).
fn traced_fault() -> Outcome {
    aim_verbose(Kind::Both, Some(module_range()?), 2)?;
    let op = OPS
        .iter()
        .find(|o| o.name.starts_with("reversi: a user's first command"))
        .ok_or("no such operation")?;
    let r = sweep_one(op, 900_000, 1);
    aim(Kind::Both, None)?;
    ensure!(r? == 1, "no fault was injected");
    Ok(())
}

fn ops_sweep() -> Outcome {
    // SAFETY: re-arms this test's own alarm for the long sweep.
    unsafe { libc::alarm(1800) };
    if !loaded() {
        sh(&format!("insmod {} && {NODES_0666}", module_path()))?;
    }
    aim(Kind::Both, Some(module_range()?))?;
    let mut total = 0;
    for (i, op) in OPS.iter().enumerate() {
        let t0 = Instant::now();
        let base = 100_000 * (1 + u32::try_from(i).unwrap_or(0));
        let points = sweep(op, base)?;
        println!(
            "# {}: {points} injection points ({:.1} s)",
            op.name,
            t0.elapsed().as_secs_f64()
        );
        total += points;
    }
    aim(Kind::Both, None)?;
    println!("# device operations: {total} injection points in all, each failed cleanly");
    ensure!(sh("rmmod kgames").is_ok(), "rmmod after the sweeps");
    sh(&format!("insmod {} && {NODES_0666}", module_path()))?;
    Ok(())
}
