//! The `fairness` suite: one user cannot starve another of the CPU player, and replies carry
//! nothing but game state.
//!
//! What the module guarantees (`ContextPool` in src/kmod/game/search_pool.rs): `search_contexts`
//! contexts per device (default 4) and at most one search in flight per uid, whatever the
//! number of its games. So while fewer than 4 uids search, a new uid's move gets a context at
//! once, and its `05 100` move ends within its 100 ms budget plus scheduling: the bound
//! tested is 2 s (TCG, 2 vCPUs). With 4 other uids searching, every context is taken; the
//! contexts go round robin over the waiting uids (src/session/turns.rs), so the new uid gets
//! the first context given back, ahead of the hogs' other games: the bound tested is one
//! hog move (9 s) plus the same 2 s.

use std::time::{Duration, Instant};

use kgames_fuzz::replies;
use kgames_session::session::{chess_game::Chess, nxn_game::Nxn, reversi_game::Reversi};

use crate::dev::Dev;
use crate::procs::{kill, pipe, spawn_as, wait_ok};
use crate::{ensure, Outcome, Test};

/// The bound on a 100 ms move while a context is free.
pub const FREE_CONTEXT_BOUND: Duration = Duration::from_secs(2);
/// The budget of a hog's move.
const HOG_MOVE: Duration = Duration::from_secs(9);
/// The bound on a 100 ms move while every context is taken by a hog.
pub const TAKEN_CONTEXT_BOUND: Duration = HOG_MOVE.saturating_add(FREE_CONTEXT_BOUND);
/// Games of the hog user (its `max_user_games`).
const HOG_GAMES: usize = 8;

/// The `fairness` suite.
pub fn tests() -> Vec<Test> {
    vec![
        Test {
            suite: "fairness",
            name: "3 uids x 8 private games asking 9 s moves: a 4th uid's 100 ms move ends within 2 s",
            uid: 0,
            run: |_| starve(&[5101, 5102, 5103], 5110, FREE_CONTEXT_BOUND),
        },
        Test {
            suite: "fairness",
            name: "5 uids vs 4 contexts: 4 uids x 8 games of 9 s moves, a 5th uid's 100 ms move ends within 11 s",
            uid: 0,
            run: |_| starve(&[5121, 5122, 5123, 5124], 5130, TAKEN_CONTEXT_BOUND),
        },
        Test {
            suite: "fairness",
            name: "full game tables: every reply of every device has its documented form",
            uid: 0,
            run: full_tables,
        },
    ]
}

/// A private reversi game in which the CPU (X) is to move, with `budget`.
fn cpu_game(budget: &str) -> Result<Dev, String> {
    let mut d = Dev::open("/dev/reversi")?;
    d.make_private()?;
    d.expect("00 O", b"OK\n")?;
    d.expect(&format!("05 {budget}"), b"OK\n")?;
    Ok(d)
}

/// One hog user: `HOG_GAMES` private games, each thread asking for a 9 s move, until killed.
fn hog() -> Outcome {
    let mut threads = Vec::new();
    for _ in 0..HOG_GAMES {
        let mut d = cpu_game(&HOG_MOVE.as_millis().to_string())?;
        threads.push(std::thread::spawn(move || loop {
            let _ = d.cmd("03");
            let _ = d.cmd("00 O");
        }));
    }
    for t in threads {
        let _ = t.join();
    }
    Ok(())
}

fn starve(hogs: &[u32], victim: u32, bound: Duration) -> Outcome {
    let mut pids = Vec::new();
    for &uid in hogs {
        pids.push(spawn_as(uid, hog)?);
    }
    // Let every hog start its searches.
    std::thread::sleep(Duration::from_millis(1500));
    let r = spawn_as(victim, move || {
        let mut d = cpu_game("100")?;
        let t0 = Instant::now();
        let reply = d.cmd("03")?;
        let took = t0.elapsed();
        println!(
            "# {} hog uids x {HOG_GAMES} games of 9 s moves: uid {victim}'s 100 ms move took {} ms",
            hogs.len(),
            took.as_millis()
        );
        ensure!(
            reply == b"OK\n",
            "03: {:?}",
            String::from_utf8_lossy(&reply)
        );
        ensure!(
            took <= bound,
            "the 100 ms move took {took:?}, over {bound:?}"
        );
        Ok(())
    })
    .and_then(wait_ok);
    for pid in pids {
        kill(pid);
    }
    r
}

/// The commands read on every file of [`full_tables`], per device.
const REVERSI: &[&str] = &[
    "01", "02 3 2", "03", "04", "05 N100", "06", "07", "08", "09", "11", "99", "42", "00 Z",
    "10 bad",
];
const CHESS: &[&str] = &[
    "01",
    "02 WPe2-e4",
    "03",
    "04",
    "05 N100",
    "06",
    "07",
    "08",
    "09",
    "11",
    "99",
    "42",
    "02 WPe2",
    "10 8/8/8/8/8/8/8/8 w - - 0 1",
];
const KXO: &[&str] = &[
    "01", "02 0 0", "03", "04", "07", "09", "99", "42", "02 9 9", "00 X 9",
];

fn byte(fd: libc::c_int, write: bool) -> bool {
    let mut b = [0u8; 1];
    // SAFETY: one byte to or from a buffer of one byte.
    let n = unsafe {
        if write {
            libc::write(fd, b.as_ptr().cast(), 1)
        } else {
            libc::read(fd, b.as_mut_ptr().cast(), 1)
        }
    };
    n == 1
}

/// The live games and the cap of the device, from `09` of the shared game of `uid` (which
/// this creates if needed).
fn live_games(path: &'static str, uid: u32) -> Result<(usize, usize), String> {
    let fds = pipe()?;
    let child = spawn_as(uid, move || {
        let s = Dev::open(path)?.cmd("09")?;
        let s = String::from_utf8_lossy(&s).into_owned();
        let games = s
            .split(' ')
            .find_map(|kv| kv.strip_prefix("games="))
            .ok_or(format!("09: {s:?}"))?;
        for b in games.trim().bytes() {
            // SAFETY: one byte from a live buffer.
            unsafe { libc::write(fds[1], (&b as *const u8).cast(), 1) };
        }
        Ok(())
    })?;
    wait_ok(child)?;
    // SAFETY: closes the write end this process holds.
    unsafe { libc::close(fds[1]) };
    let mut text = Vec::new();
    let mut b = [0u8; 1];
    // SAFETY: reads one byte at a time into `b`.
    while unsafe { libc::read(fds[0], b.as_mut_ptr().cast(), 1) } == 1 {
        text.push(b[0]);
    }
    let text = String::from_utf8_lossy(&text).into_owned();
    let (n, m) = text.split_once('/').ok_or(format!("games={text}"))?;
    let n: usize = n.parse().map_err(|_| format!("games={text}"))?;
    let m: usize = m.parse().map_err(|_| format!("games={text}"))?;
    Ok((n, m))
}

/// Users fill the device's table with up to 8 private games each (the free slots counted by
/// `09`); while it is full, a new user's first command fails with ENOSPC, and every file runs
/// every command of `cmds`, each reply checked by `check` (a malformed reply aborts that
/// user's process).
fn check_device(
    path: &'static str,
    start: &'static [&'static str],
    cmds: &'static [&'static str],
    check: fn(&[u8], &[u8]),
) -> Outcome {
    let (live, cap) = live_games(path, 5298)?;
    let mut free = cap.saturating_sub(live);
    println!("# {path}: {live} live games of {cap}: {free} filled by private games");
    let (ready, go) = (pipe()?, pipe()?);
    let mut pids = Vec::new();
    let mut uid = 5200;
    while free > 0 {
        let games = free.min(HOG_GAMES);
        free -= games;
        uid += 1;
        pids.push(spawn_as(uid, move || {
            let mut files = Vec::new();
            for _ in 0..games {
                let mut d = Dev::open(path)?;
                d.make_private()?;
                for c in start {
                    d.expect(c, b"OK\n")?;
                }
                files.push(d);
            }
            ensure!(byte(ready[1], true) && byte(go[0], false), "barrier");
            for (i, d) in files.iter_mut().enumerate() {
                for c in cmds.iter().cycle().skip(i).take(cmds.len()) {
                    let reply = d.cmd(c)?;
                    check(format!("{c}\n").as_bytes(), &reply);
                }
            }
            Ok(())
        })?);
    }
    let all_ready = pids.iter().all(|_| byte(ready[0], false));
    let full = spawn_as(5299, move || {
        let mut d = Dev::open(path)?;
        match d.write_raw(format!("{}\n", start[0]).as_bytes()) {
            Err(e) if e.raw_os_error() == Some(libc::ENOSPC) => Ok(()),
            other => Err(format!("{path} with a full table: {other:?}, want ENOSPC")),
        }
    })
    .and_then(wait_ok);
    for _ in &pids {
        byte(go[1], true);
    }
    let mut failed = 0;
    for pid in pids {
        failed += usize::from(wait_ok(pid).is_err());
    }
    ensure!(all_ready, "{path}: not every user filled its games");
    full?;
    ensure!(
        failed == 0,
        "{path}: {failed} users saw a malformed reply or an error"
    );
    Ok(())
}

fn checked<G: kgames_session::session::game::Game>(raw: &[u8], reply: &[u8]) {
    replies::check::<G>(raw, reply);
}

fn full_tables(_: u32) -> Outcome {
    // SAFETY: re-arms this test's own alarm: 3 x 255 games take longer than 90 s under TCG.
    unsafe { libc::alarm(400) };
    check_device(
        "/dev/reversi",
        &["00 O", "05 N100"],
        REVERSI,
        checked::<Reversi>,
    )?;
    check_device("/dev/chess", &["00 B", "05 N100"], CHESS, checked::<Chess>)?;
    check_device("/dev/kxo", &["00 X 3 1 1"], KXO, checked::<Nxn>)
}
