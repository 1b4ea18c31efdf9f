//! The `base` suite (all three devices) and the `reversi` suite
//! (docs/protocol.md, "Framing and errors", "Reversi").

use std::io::ErrorKind;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::dev::{sh, Dev};
use crate::rules::{parse_square, Board};
use crate::{as_uid, ensure, same, Outcome, Test};

const R: &str = "/dev/reversi";
const START: &[u8] = b"---------------------------OX------XO---------------------------\tX\n";

/// The `base` suite.
pub fn base_tests() -> Vec<Test> {
    vec![
        Test {
            suite: "base",
            name: "/proc/misc lists reversi, chess and kxo",
            uid: 0,
            run: proc_misc,
        },
        Test {
            suite: "base",
            name: "the nodes are character devices with mode 0666",
            uid: 0,
            run: modes,
        },
        Test {
            suite: "base",
            name: "a non-root user opens each device and gets UNKCMD for 42",
            uid: 2001,
            run: unkcmd,
        },
    ]
}

/// The `reversi` suite.
pub fn tests() -> Vec<Test> {
    vec![
        Test {
            suite: "reversi",
            name: "classic client plays a full game to WIN/LOSE/TIE, every board exact",
            uid: 2101,
            run: classic_game,
        },
        Test {
            suite: "reversi",
            name: "exact 67-byte boards before a game, after 00 X and after 02 3 2",
            uid: 2102,
            run: exact_boards,
        },
        Test {
            suite: "reversi",
            name: "every error word in check order; a rejected command leaves 01 unchanged",
            uid: 2103,
            run: errors,
        },
        Test {
            suite: "reversi",
            name: "echo/cat from a shell; cat twice; one open reads the latest reply once",
            uid: 2104,
            run: echo_cat,
        },
        Test {
            suite: "reversi",
            name: "a 1-byte read buffer reads the whole reply then EOF",
            uid: 2105,
            run: one_byte_reads,
        },
        Test {
            suite: "reversi",
            name: "two uids are isolated",
            uid: 0,
            run: uids_isolated,
        },
        Test {
            suite: "reversi",
            name: "a private file game does not touch the shared one",
            uid: 2108,
            run: private_game,
        },
        Test {
            suite: "reversi",
            name: "reply ownership between two files of one user",
            uid: 2109,
            run: reply_ownership,
        },
        Test {
            suite: "reversi",
            name: "writes of 0, 200, 4 KiB, 1 MiB, NUL and non-ASCII bytes",
            uid: 2110,
            run: odd_writes,
        },
        Test {
            suite: "reversi",
            name: "a 3 s 03 blocks while another file's 01 answers at once",
            uid: 2111,
            run: busy_snapshot,
        },
        Test {
            suite: "reversi",
            name: "one user's long 03 does not delay another user's 01",
            uid: 0,
            run: other_user_not_delayed,
        },
        Test {
            suite: "reversi",
            name: "a signal during 03 returns EINTR and leaves the game unchanged",
            uid: 2114,
            run: signal_during_03,
        },
        Test {
            suite: "reversi",
            name: "the game-table cap answers ENOSPC; closing a file frees its slot",
            uid: 2115,
            run: table_cap,
        },
        Test {
            suite: "reversi",
            name: "CPU against CPU through the device (08 and 03) to the end",
            uid: 2116,
            run: cpu_vs_cpu,
        },
        Test {
            suite: "reversi",
            name: "a CPU move overruns a 300 ms budget by at most 50 ms",
            uid: 2118,
            run: time_budget,
        },
        Test {
            suite: "reversi",
            name: "05 budgets: accepted forms, rejected forms, shown by 09",
            uid: 2117,
            run: budgets,
        },
    ]
}

fn proc_misc(_: u32) -> Outcome {
    let m = std::fs::read_to_string("/proc/misc").map_err(|e| e.to_string())?;
    for d in ["reversi", "chess", "kxo"] {
        ensure!(
            m.lines().any(|l| l.split_whitespace().nth(1) == Some(d)),
            "{d} missing from /proc/misc:\n{m}"
        );
    }
    Ok(())
}

fn modes(_: u32) -> Outcome {
    for d in ["/dev/reversi", "/dev/chess", "/dev/kxo"] {
        let md = std::fs::metadata(d).map_err(|e| format!("{d}: {e}"))?;
        ensure!(
            md.file_type().is_char_device(),
            "{d} is not a character device"
        );
        ensure!(
            md.permissions().mode() & 0o777 == 0o666,
            "{d} mode {:o}",
            md.permissions().mode()
        );
    }
    Ok(())
}

fn unkcmd(_: u32) -> Outcome {
    for d in ["/dev/reversi", "/dev/chess", "/dev/kxo"] {
        let mut f = Dev::open(d)?;
        f.expect("42", b"UNKCMD\n")
            .map_err(|e| format!("{d}: {e}"))?;
    }
    Ok(())
}

fn classic_game(_: u32) -> Outcome {
    let mut d = Dev::open(R)?;
    d.expect("05 N3000", b"OK\n")?;
    d.expect("00 X", b"OK\n")?;
    let mut mine = Board::start();
    for _ in 0..200 {
        let shown = d.cmd("01")?;
        same("01 against the referee", &shown, &mine.bytes())?;
        let reply = if mine.to_move == b'X' {
            match mine.moves().first() {
                Some(&sq) => {
                    mine.play(sq);
                    d.cmd(&format!("02 {} {}", sq % 8, sq / 8))?
                }
                None => {
                    mine.pass();
                    d.cmd("04")?
                }
            }
        } else {
            let r = d.cmd("03")?;
            let last = d.cmd("06")?;
            if last == b"PASS\n" {
                ensure!(mine.pass(), "CPU passed with a move available");
            } else {
                let sq = parse_square(last.get(..2).unwrap_or(b""))
                    .ok_or(format!("06 answered {last:?}"))?;
                ensure!(
                    last.len() == 3 && mine.play(sq),
                    "CPU move {last:?} is illegal"
                );
            }
            r
        };
        if mine.over() {
            same("the result word", &reply, mine.result_for(b'X'))?;
            same("final board", &d.cmd("01")?, &mine.bytes())?;
            d.expect("02 3 2", b"NOGAME\n")?;
            d.expect("03", b"NOGAME\n")?;
            d.expect("04", b"NOGAME\n")?;
            return Ok(());
        }
        same("reply in game", &reply, b"OK\n")?;
    }
    Err("the game did not end in 200 turns".into())
}

fn exact_boards(_: u32) -> Outcome {
    let mut d = Dev::open(R)?;
    d.expect("01", START)?;
    d.expect("00 X", b"OK\n")?;
    d.expect("01", START)?;
    d.expect("02 3 2", b"OK\n")?;
    d.expect(
        "01",
        b"-------------------X-------XX------XO---------------------------\tO\n",
    )?;
    d.expect("06", b"d3\n")?;
    d.expect("07", b"c3 e3 c5\n")?;
    d.expect(
        "11",
        b"-------------------X-------XX------XO--------------------------- O\n",
    )
}

fn errors(_: u32) -> Outcome {
    let mut d = Dev::open(R)?;
    // No game yet (fresh uid).
    for (line, want) in [
        ("43", &b"UNKCMD\n"[..]),
        ("ab", b"UNKCMD\n"),
        ("", b"UNKCMD\n"),
        ("00 Z", b"INVFMT\n"),
        ("00", b"INVFMT\n"),
        ("00 x", b"INVFMT\n"),
        ("02 8 3", b"INVFMT\n"),
        ("02 3", b"INVFMT\n"),
        ("02 3  2", b"INVFMT\n"),
        ("01 x", b"INVFMT\n"),
        ("03 1", b"INVFMT\n"),
        ("02 3 2", b"NOGAME\n"),
        ("03", b"NOGAME\n"),
        ("04", b"NOGAME\n"),
        ("08", b"NOGAME\n"),
    ] {
        d.rejected(line, want)?;
    }
    d.expect("00 O", b"OK\n")?;
    d.rejected("02 3 2", b"OOT\n")?;
    d.rejected("04", b"OOT\n")?;
    d.rejected("02 9 2", b"INVFMT\n")?;
    d.expect("00 X", b"OK\n")?;
    d.rejected("03", b"OOT\n")?;
    d.rejected("02 0 0", b"ILLMOVE\n")?;
    d.rejected("02 3 3", b"ILLMOVE\n")?;
    d.rejected("04", b"ILLMOVE\n")?;
    d.rejected("10 XO", b"INVFMT\n")?;
    d.rejected("05 99999", b"INVFMT\n")
}

fn echo_cat(_: u32) -> Outcome {
    same(
        "echo 00 X; cat",
        &sh("echo '00 X' > /dev/reversi; cat /dev/reversi")?,
        b"OK\n",
    )?;
    same(
        "echo 01; cat",
        &sh("echo 01 > /dev/reversi; cat /dev/reversi")?,
        START,
    )?;
    // Every new open (each cat) reads the latest reply once.
    same("cat again", &sh("cat /dev/reversi")?, START)?;
    // One open reads it once, then EOF.
    same(
        "one open, two cats",
        &sh("exec 3</dev/reversi; cat <&3; cat <&3")?,
        START,
    )?;
    // printf without a newline and with \r\n.
    same(
        "printf",
        &sh("printf '02 3 2' > /dev/reversi; cat /dev/reversi")?,
        b"OK\n",
    )?;
    let crlf = sh("printf '01\\r\\n' > /dev/reversi; cat /dev/reversi")?;
    same("crlf", crlf.get(65..67).unwrap_or(b""), b"O\n")
}

fn one_byte_reads(_: u32) -> Outcome {
    let mut d = Dev::open(R)?;
    d.write_raw(b"01\n").map_err(|e| e.to_string())?;
    let mut all = Vec::new();
    loop {
        let b = d.read_max(1).map_err(|e| e.to_string())?;
        if b.is_empty() {
            break;
        }
        ensure!(
            b.len() == 1 && all.len() < 100,
            "read(1) gave {} bytes",
            b.len()
        );
        all.extend(b);
    }
    same("1-byte reads", &all, START)
}

fn uids_isolated(_: u32) -> Outcome {
    as_uid(2106, || {
        let mut d = Dev::open(R)?;
        d.expect("00 X", b"OK\n")?;
        d.expect("02 3 2", b"OK\n")
    })?;
    as_uid(2107, || {
        same("a fresh user's cat", &sh("cat /dev/reversi")?, b"")?;
        let mut d = Dev::open(R)?;
        d.expect("01", START)?;
        d.expect("02 3 2", b"NOGAME\n")
    })?;
    as_uid(2106, || {
        let mut d = Dev::open(R)?;
        d.expect("06", b"d3\n")
    })
}

fn private_game(_: u32) -> Outcome {
    let mut shared = Dev::open(R)?;
    shared.expect("00 X", b"OK\n")?;
    shared.expect("02 3 2", b"OK\n")?;
    let before = shared.cmd("01")?;
    let mut p = Dev::open(R)?;
    p.make_private()?;
    p.expect("02 3 2", b"NOGAME\n")?;
    p.expect("01", START)?;
    p.expect("00 O", b"OK\n")?;
    p.expect("05 N1000", b"OK\n")?;
    p.expect("03", b"OK\n")?;
    same(
        "the shared game after private play",
        &shared.cmd("01")?,
        &before,
    )?;
    same(
        "a new cat reads the shared game's reply",
        &sh("cat /dev/reversi")?,
        &before,
    )
}

fn reply_ownership(_: u32) -> Outcome {
    let mut a = Dev::open(R)?;
    let mut b = Dev::open(R)?;
    a.write_raw(b"01\n").map_err(|e| e.to_string())?;
    b.write_raw(b"00 X\n").map_err(|e| e.to_string())?;
    same(
        "file b reads its own reply",
        &b.read_max(1024).map_err(|e| e.to_string())?,
        b"OK\n",
    )?;
    same(
        "file a reads its own reply",
        &a.read_max(1024).map_err(|e| e.to_string())?,
        START,
    )?;
    same(
        "then EOF on a",
        &a.read_max(1024).map_err(|e| e.to_string())?,
        b"",
    )?;
    // A new command replaces the unread reply.
    a.write_raw(b"01\n").map_err(|e| e.to_string())?;
    a.write_raw(b"09 x\n").map_err(|e| e.to_string())?;
    same(
        "the newer reply",
        &a.read_max(1024).map_err(|e| e.to_string())?,
        b"INVFMT\n",
    )
}

fn odd_writes(_: u32) -> Outcome {
    let mut d = Dev::open(R)?;
    d.expect("00 X", b"OK\n")?;
    d.expect("02 3 2", b"OK\n")?;
    let board = d.cmd("01")?;
    ensure!(
        d.write_raw(b"").map_err(|e| e.to_string())? == 0,
        "0-byte write"
    );
    same(
        "after a 0-byte write the old reply stays",
        &d.read_max(1024).map_err(|e| e.to_string())?,
        b"",
    )?;
    let mut spaces = b"01".to_vec();
    spaces.resize(200, b' ');
    let mut cases: Vec<(&str, Vec<u8>)> = vec![
        ("200 bytes", spaces),
        ("4 KiB", vec![b'0'; 4096]),
        ("1 MiB", vec![b'1'; 1 << 20]),
        ("NUL", b"01\0".to_vec()),
        ("non-ASCII", b"01 \xff".to_vec()),
        ("inner newline", b"01\n01\n".to_vec()),
    ];
    cases.push(("257 bytes", vec![b' '; 257]));
    for (what, bytes) in cases {
        let n = d.write_raw(&bytes).map_err(|e| format!("{what}: {e}"))?;
        ensure!(
            n == bytes.len(),
            "{what}: write returned {n}, not {}",
            bytes.len()
        );
        same(
            what,
            &d.read_max(1024).map_err(|e| e.to_string())?,
            b"INVFMT\n",
        )?;
    }
    same("game intact", &d.cmd("01")?, &board)
}

fn busy_snapshot(_: u32) -> Outcome {
    let mut a = Dev::open(R)?;
    a.expect("00 O", b"OK\n")?;
    a.expect("05 3000", b"OK\n")?;
    let t = std::thread::spawn(move || {
        let t0 = Instant::now();
        let r = a.cmd("03");
        (r, t0.elapsed())
    });
    std::thread::sleep(Duration::from_millis(500));
    let mut b = Dev::open(R)?;
    let t0 = Instant::now();
    let shown = b.cmd("01")?;
    let dt = t0.elapsed();
    same(
        "01 during the search shows the position before the move",
        &shown,
        START,
    )?;
    ensure!(
        dt < Duration::from_millis(500),
        "01 took {dt:?} during a search"
    );
    let (r, took) = t.join().map_err(|_| "thread")?;
    same("the 03", &r?, b"OK\n")?;
    ensure!(
        took >= Duration::from_millis(2500) && took < Duration::from_millis(3500),
        "03 with 3000 ms took {took:?}"
    );
    let after = b.cmd("01")?;
    ensure!(
        after != START && after[65] == b'O',
        "the move was not applied: {:?}",
        String::from_utf8_lossy(&after)
    );
    Ok(())
}

fn other_user_not_delayed(_: u32) -> Outcome {
    // SAFETY: the child runs a long 03 as uid 2112 and exits.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        // SAFETY: plain libc calls in the child.
        let ok = unsafe { libc::setgid(2112) == 0 && libc::setuid(2112) == 0 };
        let r = (|| -> Outcome {
            ensure!(ok, "setuid");
            let mut d = Dev::open(R)?;
            d.expect("00 O", b"OK\n")?;
            d.expect("05 3000", b"OK\n")?;
            d.expect("03", b"OK\n")
        })();
        // SAFETY: ends the child.
        unsafe { libc::_exit(i32::from(r.is_err())) };
    }
    std::thread::sleep(Duration::from_millis(700));
    let r = as_uid(2113, || {
        let mut d = Dev::open(R)?;
        let t0 = Instant::now();
        d.expect("00 X", b"OK\n")?;
        d.expect("01", START)?;
        let dt = t0.elapsed();
        ensure!(
            dt < Duration::from_millis(500),
            "another user's commands took {dt:?}"
        );
        Ok(())
    });
    let mut st = 0;
    // SAFETY: waits for the child.
    unsafe { libc::waitpid(pid, &mut st, 0) };
    r?;
    ensure!(
        libc::WIFEXITED(st) && libc::WEXITSTATUS(st) == 0,
        "the long 03 failed"
    );
    Ok(())
}

extern "C" fn on_usr1(_: libc::c_int) {}

fn signal_during_03(_: u32) -> Outcome {
    // A handler without SA_RESTART: the interrupted write returns EINTR.
    // SAFETY: installs a handler that does nothing.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_usr1 as *const () as usize;
        sa.sa_flags = 0;
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(libc::SIGUSR1, &sa, std::ptr::null_mut());
    }
    let mut a = Dev::open(R)?;
    a.expect("00 O", b"OK\n")?;
    a.expect("05 5000", b"OK\n")?;
    let (tx, rx) = mpsc::channel();
    let t = std::thread::spawn(move || {
        // SAFETY: the id of this thread, for pthread_kill.
        let _ = tx.send(unsafe { libc::pthread_self() });
        let t0 = Instant::now();
        let r = a.write_raw(b"03\n");
        (r.map_err(|e| e.kind()), t0.elapsed(), a)
    });
    let tid = rx.recv().map_err(|e| e.to_string())?;
    std::thread::sleep(Duration::from_millis(800));
    // SAFETY: the thread is alive (it is blocked in write).
    unsafe { libc::pthread_kill(tid, libc::SIGUSR1) };
    let (r, took, mut a) = t.join().map_err(|_| "thread")?;
    ensure!(
        r == Err(ErrorKind::Interrupted),
        "write of 03 returned {r:?}, want EINTR"
    );
    ensure!(
        took < Duration::from_millis(2000),
        "the signal took {took:?} to stop the search"
    );
    same("01 after the interrupted 03", &a.cmd("01")?, START)?;
    a.expect("06", b"NONE\n")?;
    // The game still works: a restarted 03 plays.
    a.expect("05 N2000", b"OK\n")?;
    a.expect("03", b"OK\n")
}

fn table_cap(_: u32) -> Outcome {
    // max_user_games is 8: eight private games of one user are accepted, the ninth is not.
    let mut files = Vec::new();
    for i in 0..9 {
        let mut d = Dev::open(R)?;
        d.make_private()?;
        let r = d.write_raw(b"00 X\n");
        if i < 8 {
            ensure!(r.is_ok(), "game {i}: {r:?}");
            same(
                "reply",
                &d.read_max(1024).map_err(|e| e.to_string())?,
                b"OK\n",
            )?;
        } else {
            let e = r.err().and_then(|e| e.raw_os_error());
            ensure!(
                e == Some(libc::ENOSPC),
                "the ninth game: {e:?}, want ENOSPC"
            );
            // Nothing was created: 01 on it is the start board... but also refused.
        }
        files.push(d);
    }
    files.remove(0);
    let last = files.last_mut().ok_or("no files")?;
    last.expect("00 X", b"OK\n")
}

fn cpu_vs_cpu(_: u32) -> Outcome {
    let mut d = Dev::open(R)?;
    d.expect("05 N2000", b"OK\n")?;
    d.expect("00 X", b"OK\n")?;
    let mut mine = Board::start();
    for _ in 0..130 {
        let cmd = if mine.to_move == b'X' { "08" } else { "03" };
        let r = d.cmd(cmd)?;
        let last = d.cmd("06")?;
        if last == b"PASS\n" {
            ensure!(mine.pass(), "pass with a move");
        } else {
            let sq = parse_square(last.get(..2).unwrap_or(b"")).ok_or("bad 06")?;
            ensure!(mine.play(sq), "illegal CPU move {last:?}");
        }
        same("board", &d.cmd("01")?, &mine.bytes())?;
        if mine.over() {
            return same("result", &r, mine.result_for(b'X'));
        }
        same("reply", &r, b"OK\n")?;
    }
    Err("no end".into())
}

fn budgets(_: u32) -> Outcome {
    let mut d = Dev::open(R)?;
    for ok in ["05 1", "05 9000", "05 N1", "05 N1000000", "05 250"] {
        d.expect(ok, b"OK\n")?;
    }
    for bad in [
        "05", "05 0", "05 9001", "05 N0", "05 -5", "05 1.5", "05 N", "05 010", "05 100 ",
    ] {
        d.expect(bad, b"INVFMT\n")?;
    }
    let st = d.cmd("09")?;
    let s = String::from_utf8_lossy(&st);
    ensure!(
        s.starts_with("device=reversi state=") && s.contains(" budget=250ms ") && s.ends_with('\n'),
        "09: {s:?}"
    );
    let help = d.cmd("99")?;
    ensure!(
        help.starts_with(b"00 X|O") && help.ends_with(b"\n"),
        "99: {:?}",
        String::from_utf8_lossy(&help)
    );
    Ok(())
}

fn time_budget(_: u32) -> Outcome {
    let mut d = Dev::open(R)?;
    d.expect("05 N1000", b"OK\n")?;
    d.expect("00 X", b"OK\n")?;
    // Reach a middle game quickly, then time the CPU's moves.
    for _ in 0..8 {
        d.expect("08", b"OK\n")?;
        d.expect("03", b"OK\n")?;
    }
    d.expect("05 300", b"OK\n")?;
    let mut worst = Duration::ZERO;
    for _ in 0..3 {
        let t0 = Instant::now();
        let r = d.cmd("08")?;
        worst = worst.max(t0.elapsed());
        same("08", &r, b"OK\n")?;
        d.expect("03", b"OK\n")?;
    }
    ensure!(
        worst <= Duration::from_millis(350),
        "a 300 ms move took {worst:?}"
    );
    println!("# worst 300 ms move: {worst:?}");
    Ok(())
}
