//! `kxo-cat`: the `/dev/kxo` record stream as text, a stream checker, and the control ioctls.
//!
//! ```text
//! kxo-cat [--count N] [--nonblock] [--timeout S] [--check] [DEVICE]
//! kxo-cat pause|resume|stop|restart|loads|state [DEVICE]
//! ```
//! One line per record: `seq game round moves state o-agent x-agent lost board`, the board as
//! 16 cells `O`, `X`, `.` row by row. `--check` verifies that every record is a legal successor
//! of its game's previous one (or the start of a new round) and prints a summary line
//! `games=G records=R rounds=N lost=L bad=B pairings=P seconds=S moves=negamax:N,...` (P: the
//! distinct (O agent, X agent) pairs seen playing; moves: the moves seen per agent); the exit
//! status is 1 if any record was bad.
//! `kxo-cat state` prints the machine's state (`KXO_IOC_STATE`). The record layout, the ioctl
//! numbers and the agent names are `kgames_uapi`'s, the same definitions the module uses.

use std::collections::{BTreeSet, HashMap};
use std::fs::OpenOptions;
use std::io::{self, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use kgames_kxo::kxo::record::{is_successor, RecordBoard};
use kgames_uapi::agent::AgentKind;
use kgames_uapi::ioctl::{KXO_IOC_PAUSE, KXO_IOC_RESTART, KXO_IOC_RESUME, KXO_IOC_STOP};
use kgames_uapi::load::hundredths;
use kgames_uapi::record::Record;
use kgames_uapi::user::{ioctl_none, kxo_loads, kxo_state};

fn agent(id: u8) -> &'static str {
    AgentKind::from_id(id).map_or("?", AgentKind::name)
}

fn board_text(r: &Record) -> String {
    (0..16)
        .map(|i| match (r.board >> (2 * i)) & 3 {
            1 => 'O',
            2 => 'X',
            0 => '.',
            _ => '?',
        })
        .collect()
}

fn control(cmd: &str, path: &str) -> io::Result<()> {
    let f = OpenOptions::new().read(true).open(path)?;
    let req = match cmd {
        "pause" => KXO_IOC_PAUSE,
        "resume" => KXO_IOC_RESUME,
        "stop" => KXO_IOC_STOP,
        "restart" => KXO_IOC_RESTART,
        "state" => {
            let s = kxo_state(&f)?;
            let agents: Vec<&str> = AgentKind::ALL
                .iter()
                .filter(|k| s.agents & (1 << k.id()) != 0)
                .map(|k| k.name())
                .collect();
            println!(
                "games={} period_ms={} watchers={} paused={} stopped={} always={} seq={} agents={}",
                s.games,
                s.period_ms,
                s.watchers,
                s.paused,
                s.stopped,
                s.always,
                s.seq,
                agents.join(",")
            );
            return Ok(());
        }
        _ => {
            let loads = kxo_loads(&f)?;
            for (id, l) in loads.iter().enumerate() {
                let h = hundredths;
                println!(
                    "{:<10} {}.{:02} {}.{:02} {}.{:02}",
                    agent(id as u8),
                    h(l[0]) / 100,
                    h(l[0]) % 100,
                    h(l[1]) / 100,
                    h(l[1]) % 100,
                    h(l[2]) / 100,
                    h(l[2]) % 100
                );
            }
            return Ok(());
        }
    };
    ioctl_none(&f, req)?;
    Ok(())
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1).peekable();
    let (mut count, mut nonblock, mut timeout, mut check, mut path) =
        (u64::MAX, false, None, false, "/dev/kxo".to_string());
    if let Some(cmd) = args.peek().cloned() {
        if ["pause", "resume", "stop", "restart", "loads", "state"].contains(&cmd.as_str()) {
            args.next();
            let p = args.next().unwrap_or(path);
            return match control(&cmd, &p) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("kxo-cat {cmd}: {e}");
                    ExitCode::FAILURE
                }
            };
        }
    }
    while let Some(a) = args.next() {
        match a.as_str() {
            "--count" => count = args.next().and_then(|v| v.parse().ok()).unwrap_or(u64::MAX),
            "--nonblock" => nonblock = true,
            "--timeout" => {
                timeout = args
                    .next()
                    .and_then(|v| v.parse::<u64>().ok())
                    .map(Duration::from_secs)
            }
            "--check" => check = true,
            _ => path = a,
        }
    }
    let flags = if nonblock { libc::O_NONBLOCK } else { 0 };
    let mut f = match OpenOptions::new()
        .read(true)
        .custom_flags(flags)
        .open(&path)
    {
        Ok(f) => f,
        Err(e) => {
            eprintln!("kxo-cat: {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let t0 = Instant::now();
    let mut last: HashMap<u16, Record> = HashMap::new();
    let mut pairings = BTreeSet::new();
    // Moves seen per agent id (the mover of a record's last ply), snapshots excepted.
    let mut moves = [0u64; AgentKind::COUNT];
    let (mut n, mut bad, mut rounds, mut lost) = (0u64, 0u64, 0u64, 0u64);
    let mut buf = [0u8; Record::SIZE * 16];
    let out = io::stdout();
    let mut out = out.lock();
    'outer: while n < count && timeout.is_none_or(|t| t0.elapsed() < t) {
        let got = match f.read(&mut buf) {
            Ok(0) => break,
            Ok(g) => g,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                eprintln!("kxo-cat: read: {e}");
                return ExitCode::FAILURE;
            }
        };
        for chunk in buf[..got].chunks(Record::SIZE) {
            let Some(r) = Record::from_bytes(chunk) else {
                bad += 1;
                continue;
            };
            lost = r.lost;
            if r.move_count > 0 {
                pairings.insert((r.o_agent, r.x_agent));
                if !r.is_snapshot() {
                    let mover = if r.move_count % 2 == 1 {
                        r.o_agent
                    } else {
                        r.x_agent
                    };
                    if let Some(m) = moves.get_mut(usize::from(mover)) {
                        *m += 1;
                    }
                }
            }
            if check {
                let ok = match last.get(&r.game) {
                    None => r.is_consistent(),
                    // A snapshot repeats the game's latest record.
                    Some(p) if p.seq == r.seq => {
                        *p == Record {
                            lost: p.lost,
                            flags: p.flags,
                            ..r
                        }
                    }
                    // A resume snapshot may skip the moves played while paused.
                    Some(p) if r.is_snapshot() => {
                        r.is_consistent() && (r.round != p.round || r.move_count >= p.move_count)
                    }
                    // A new round starts from the empty board, unless records were lost.
                    Some(p) if r.round != p.round => {
                        rounds += 1;
                        r.is_consistent() && (r.move_count == 0 || r.lost > p.lost)
                    }
                    Some(p) => is_successor(p, &r) || (r.lost > p.lost && r.is_consistent()),
                };
                if !ok {
                    bad += 1;
                    let _ = writeln!(out, "# bad record after {:?}: {:?}", last.get(&r.game), r);
                }
                last.insert(r.game, r);
            } else {
                let _ = writeln!(
                    out,
                    "{} {} {} {} {} {} {} {} {}",
                    r.seq,
                    r.game,
                    r.round,
                    r.move_count,
                    r.state,
                    agent(r.o_agent),
                    agent(r.x_agent),
                    r.lost,
                    board_text(&r)
                );
            }
            n += 1;
            if n >= count {
                break 'outer;
            }
        }
    }
    if check {
        let per_agent: Vec<String> = AgentKind::ALL
            .iter()
            .map(|k| format!("{}:{}", k.name(), moves[usize::from(k.id())]))
            .collect();
        let _ = writeln!(
            out,
            "games={} records={n} rounds={rounds} lost={lost} bad={bad} pairings={} seconds={} moves={}",
            last.len(),
            pairings.len(),
            t0.elapsed().as_secs(),
            per_agent.join(",")
        );
    }
    if bad > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
