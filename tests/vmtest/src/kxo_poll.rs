//! `/dev/kxo` and poll(2), select(2), epoll(7) (docs/protocol.md, "/dev/kxo"), and the file
//! roles: a watcher that writes leaves the hub.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::time::{Duration, Instant};

use kgames_uapi::ioctl::KXO_IOC_RESUME;

use crate::kxo::{ioctl, open, paused_watcher, read_records, seq_now};
use crate::{ensure, Outcome, Test};

/// The poll part of the `kxo` suite.
pub fn tests() -> Vec<Test> {
    vec![
        Test { suite: "kxo", name: "poll: an empty queue is not readable (timeout 0); a record wakes poll(-1)", uid: 0, run: poll_wakes },
        Test { suite: "kxo", name: "epoll: a record wakes epoll_wait; a watched file closed meanwhile is clean", uid: 0, run: epoll_wakes },
        Test { suite: "kxo", name: "select on a pipe and the device together", uid: 0, run: select_both },
        Test { suite: "kxo", name: "a file closed while another thread polls it", uid: 0, run: close_while_polling },
        Test { suite: "kxo", name: "poll on a player file: writable, readable while a reply is pending", uid: 2309, run: player_poll },
        Test { suite: "kxo", name: "a watcher that writes becomes a player: 0 watchers, the games pause", uid: 2310, run: watcher_to_player },
        Test { suite: "kxo", name: "an upstream-style C client (select on stdin and the device) reads 10 s, reacts to keys", uid: 2311, run: c_client },
    ]
}

/// poll(2) of one descriptor for `events`; the returned events, or 0 on timeout.
fn poll1(fd: RawFd, events: i16, timeout_ms: i32) -> Result<i16, String> {
    let mut p = libc::pollfd {
        fd,
        events,
        revents: 0,
    };
    // SAFETY: one valid pollfd.
    let n = unsafe { libc::poll(&mut p, 1, timeout_ms) };
    match n {
        0 => Ok(0),
        1 => Ok(p.revents),
        _ => Err(format!("poll: {}", std::io::Error::last_os_error())),
    }
}

/// Resumes publishing from another thread after `delay`; returns when it was sent.
fn resume_later(delay: Duration) -> std::thread::JoinHandle<Result<Instant, String>> {
    std::thread::spawn(move || {
        let c = open(false)?;
        std::thread::sleep(delay);
        let t = Instant::now();
        ioctl(&c, KXO_IOC_RESUME).map_err(|e| format!("resume: {e}"))?;
        Ok(t)
    })
}

fn poll_wakes(_: u32) -> Outcome {
    let (w, _c) = paused_watcher()?;
    let ev = poll1(w.as_raw_fd(), libc::POLLIN, 0)?;
    ensure!(ev == 0, "a drained, paused watcher polls {ev:#x}");
    // Resume queues a snapshot: poll(-1) wakes.
    let h = resume_later(Duration::from_millis(200));
    let ev = poll1(w.as_raw_fd(), libc::POLLIN, -1)?;
    let woke = Instant::now();
    let sent = h.join().map_err(|_| "resume thread panicked")??;
    ensure!(ev & libc::POLLIN != 0, "poll(-1) woke with {ev:#x}");
    ensure!(
        ev & libc::POLLRDNORM != 0 || ev == libc::POLLIN,
        "no RDNORM: {ev:#x}"
    );
    let ev = poll1(w.as_raw_fd(), libc::POLLIN | libc::POLLRDNORM, 0)?;
    ensure!(
        ev == libc::POLLIN | libc::POLLRDNORM,
        "readable watcher polls {ev:#x}"
    );
    println!(
        "# poll latency (resume ioctl -> poll returns): {} us",
        woke.saturating_duration_since(sent).as_micros()
    );
    Ok(())
}

fn epoll_wakes(_: u32) -> Outcome {
    let (w, _c) = paused_watcher()?;
    let (w2, _c2) = paused_watcher()?;
    // SAFETY: plain syscall.
    let ep = unsafe { libc::epoll_create1(libc::EPOLL_CLOEXEC) };
    ensure!(
        ep >= 0,
        "epoll_create1: {}",
        std::io::Error::last_os_error()
    );
    for (f, tag) in [(&w, 1u64), (&w2, 2u64)] {
        let mut ev = libc::epoll_event {
            events: libc::EPOLLIN as u32,
            u64: tag,
        };
        // SAFETY: valid descriptors and event.
        let r = unsafe { libc::epoll_ctl(ep, libc::EPOLL_CTL_ADD, f.as_raw_fd(), &mut ev) };
        ensure!(r == 0, "epoll_ctl: {}", std::io::Error::last_os_error());
    }
    // The second file is closed while it is in the epoll set.
    drop(w2);
    let mut evs = [libc::epoll_event { events: 0, u64: 0 }; 4];
    // SAFETY: valid buffer of 4 events.
    let n = unsafe { libc::epoll_wait(ep, evs.as_mut_ptr(), 4, 0) };
    ensure!(n == 0, "epoll_wait(0) on drained watchers: {n}");
    let h = resume_later(Duration::from_millis(200));
    // SAFETY: as above.
    let n = unsafe { libc::epoll_wait(ep, evs.as_mut_ptr(), 4, 10_000) };
    h.join().map_err(|_| "resume thread panicked")??;
    // SAFETY: closing our epoll descriptor.
    unsafe { libc::close(ep) };
    ensure!(n == 1, "epoll_wait returned {n} events");
    let (events, tag) = (evs[0].events, evs[0].u64);
    ensure!(
        tag == 1 && events & libc::EPOLLIN as u32 != 0,
        "event {events:#x} for file {tag}"
    );
    Ok(())
}

fn select_both(_: u32) -> Outcome {
    let (w, _c) = paused_watcher()?;
    let mut fds = [0; 2];
    // SAFETY: an array of two descriptors.
    ensure!(unsafe { libc::pipe(fds.as_mut_ptr()) } == 0, "pipe");
    // SAFETY: the pipe's descriptors are ours; File closes them.
    let (mut rd, mut wr) = unsafe {
        use std::os::fd::FromRawFd;
        (File::from_raw_fd(fds[0]), File::from_raw_fd(fds[1]))
    };
    let dev = w.as_raw_fd();
    let pipe = rd.as_raw_fd();
    let select = |timeout_ms: i64| -> Result<(bool, bool), String> {
        // SAFETY: fd_set is plain data; FD_ZERO/FD_SET/FD_ISSET on descriptors < FD_SETSIZE.
        unsafe {
            let mut set: libc::fd_set = std::mem::zeroed();
            libc::FD_ZERO(&mut set);
            libc::FD_SET(pipe, &mut set);
            libc::FD_SET(dev, &mut set);
            let mut tv = libc::timeval {
                tv_sec: timeout_ms / 1000,
                tv_usec: (timeout_ms % 1000) * 1000,
            };
            let n = libc::select(
                pipe.max(dev) + 1,
                &mut set,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                &mut tv,
            );
            if n < 0 {
                return Err(format!("select: {}", std::io::Error::last_os_error()));
            }
            Ok((libc::FD_ISSET(pipe, &set), libc::FD_ISSET(dev, &set)))
        }
    };
    ensure!(select(0)? == (false, false), "nothing should be ready");
    wr.write_all(b"q").map_err(|e| e.to_string())?;
    ensure!(
        select(1000)? == (true, false),
        "only the pipe should be ready"
    );
    let mut b = [0u8; 1];
    rd.read_exact(&mut b).map_err(|e| e.to_string())?;
    let h = resume_later(Duration::from_millis(100));
    let got = select(10_000)?;
    h.join().map_err(|_| "resume thread panicked")??;
    ensure!(
        got == (false, true),
        "after resume: (pipe, device) = {got:?}"
    );
    Ok(())
}

fn close_while_polling(_: u32) -> Outcome {
    let (w, _c) = paused_watcher()?;
    let fd = w.as_raw_fd();
    // Another thread polls the descriptor; this one closes it, then resumes. poll holds its own
    // reference to the file: it wakes on the snapshot, and the file is freed after it returns.
    let poller = std::thread::spawn(move || poll1(fd, libc::POLLIN, 10_000));
    std::thread::sleep(Duration::from_millis(200));
    drop(w);
    let h = resume_later(Duration::from_millis(100));
    h.join().map_err(|_| "resume thread panicked")??;
    let r = poller.join().map_err(|_| "poll thread panicked")?;
    // Linux keeps polling the file (POLLIN) or reports the closed slot (POLLNVAL): both clean.
    match r {
        Ok(ev) => ensure!(
            ev & (libc::POLLIN | libc::POLLNVAL) != 0,
            "poll after close: {ev:#x}"
        ),
        Err(e) => return Err(e),
    }
    Ok(())
}

fn player_poll(_: u32) -> Outcome {
    let mut f = open(false)?;
    f.write_all(b"09\n").map_err(|e| e.to_string())?;
    let ev = poll1(f.as_raw_fd(), libc::POLLIN | libc::POLLOUT, 0)?;
    ensure!(
        ev & libc::POLLIN != 0 && ev & libc::POLLOUT != 0,
        "reply pending: {ev:#x}"
    );
    let mut buf = [0u8; 1024];
    let n = f.read(&mut buf).map_err(|e| e.to_string())?;
    ensure!(n > 0, "empty reply");
    let ev = poll1(f.as_raw_fd(), libc::POLLIN | libc::POLLOUT, 0)?;
    ensure!(ev == libc::POLLOUT, "reply read: {ev:#x}");
    Ok(())
}

fn watcher_to_player(_: u32) -> Outcome {
    let mut f = open(false)?;
    let recs = read_records(&mut f, 64).map_err(|e| e.to_string())?;
    ensure!(!recs.is_empty(), "no records");
    let state = kgames_uapi::user::kxo_state(&f).map_err(|e| format!("state: {e}"))?;
    ensure!(
        state.watchers == 1,
        "as a watcher: {} watchers",
        state.watchers
    );
    f.write_all(b"00 X\n").map_err(|e| e.to_string())?;
    let mut buf = [0u8; 64];
    let n = f.read(&mut buf).map_err(|e| e.to_string())?;
    crate::same("00 X", &buf[..n], b"OK\n")?;
    let state = kgames_uapi::user::kxo_state(&f).map_err(|e| format!("state: {e}"))?;
    ensure!(
        state.watchers == 0,
        "as a player: {} watchers",
        state.watchers
    );
    ensure!(state.always == 0, "this test needs kxo_always off");
    // A move in flight may still publish; after that the games stay still.
    std::thread::sleep(Duration::from_millis(500));
    let s0 = seq_now()?;
    std::thread::sleep(Duration::from_millis(1000));
    let s1 = seq_now()?;
    ensure!(
        s1 == s0,
        "the games ran for a player file: seq {s0} -> {s1}"
    );
    Ok(())
}

/// tests/vm/xo-select.c, built by `make tools`.
fn c_client(_: u32) -> Outcome {
    use std::process::{Command, Stdio};
    let bin = crate::sibling("xo-select");
    let mut child = Command::new(&bin)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: {e}", bin.display()))?;
    let mut keys = child.stdin.take().ok_or("no stdin")?;
    // Draw for 5 s, stop drawing (p) for 5 s, then quit (q).
    std::thread::sleep(Duration::from_secs(5));
    keys.write_all(b"p").map_err(|e| e.to_string())?;
    std::thread::sleep(Duration::from_secs(5));
    keys.write_all(b"q").map_err(|e| e.to_string())?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or("").to_string();
    ensure!(
        out.status.success(),
        "exit {:?}: {last} {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    let field = |k: &str| -> u64 {
        last.split_whitespace()
            .find_map(|kv| kv.strip_prefix(k))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    ensure!(field("games=") == 9, "not every game seen: {last}");
    ensure!(field("seconds=") >= 9, "quit too early: {last}");
    // 5 s of 9 games at 100 ms is about 450 records; drawing stopped for the second half.
    ensure!(
        field("records=") > field("boards=") && field("boards=") > 100,
        "records and boards: {last}"
    );
    ensure!(last.contains("key=q"), "did not quit on the key: {last}");
    Ok(())
}
