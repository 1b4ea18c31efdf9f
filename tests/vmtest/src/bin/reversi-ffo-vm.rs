//! `reversi-ffo-vm [--device] [NODES | <MS>ms] [TT_ENTRIES]`: FFO #40 and #41 played by the CPU
//! through the session layer with a node budget (`10` setup, `05 N<NODES>`, `03`) or a time
//! budget (`05 <MS>`, on the real clock on both sides), printing per
//! position the move (`06`), the `score=` of `09` (marked `!` when exact), and the time of the
//! `03`. Without `--device` the session runs in this process (the host side of the bench);
//! with it, on a private game of `/dev/reversi` (the VM side). Under a node budget the search
//! is deterministic, so both sides must print the same moves and scores when the table sizes
//! match (TT_ENTRIES, default 65536, is the module's `tt_entries`). scripts/reversi-vm-bench.sh
//! runs both and prints the time ratio.

#[path = "../../../../src/reversi/ffo_data.rs"]
#[allow(dead_code)]
mod ffo_data;

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::time::{Duration, Instant};

use kgames_session::common::budget::{Budget, Clock, Meter, NeverInterrupt, NodeClock};
use kgames_session::session::game::Game;
use kgames_session::session::reply::Reply;
use kgames_session::session::reversi_game::Reversi;
use kgames_session::session::state::{Action, Env, Session};
use kgames_session::HeapAlloc;
use kgames_uapi::ioctl::KGAMES_IOC_PRIVATE;
use kgames_uapi::user::ioctl_none;

/// The host's monotonic clock, for time budgets on the host side.
struct WallClock(Instant);

impl Clock for WallClock {
    fn now_ns(&mut self, _nodes: u64) -> u64 {
        u64::try_from(self.0.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

/// Where the commands go.
enum Side {
    Host {
        s: Box<Session<Reversi>>,
        scratch: <Reversi as Game>::Scratch<HeapAlloc>,
    },
    Device(File),
}

impl Side {
    /// One command and its reply, with the time it took.
    fn cmd(&mut self, line: &str) -> Result<(String, Duration), String> {
        let t0 = Instant::now();
        let reply = match self {
            Side::Host { s, scratch } => {
                let env = Env {
                    games: 1,
                    max_games: 1,
                    ..Env::default()
                };
                let mut out = Reply::new();
                if let Action::Think(copy) = s.execute(line.as_bytes(), &env, &mut out) {
                    let (mut nodes, mut wall) = (NodeClock { ns_per_node: 1 }, WallClock(t0));
                    let clock: &mut dyn Clock = match s.budget() {
                        Budget::TimeMs(_) => &mut wall,
                        Budget::Nodes(_) => &mut nodes,
                    };
                    let mut never = NeverInterrupt;
                    let mut meter = Meter::new(s.budget(), clock, &mut never);
                    let t = copy.think(scratch, &mut meter);
                    s.finish(t, &mut out);
                }
                out.as_bytes().to_vec()
            }
            Side::Device(f) => {
                f.write_all(format!("{line}\n").as_bytes())
                    .map_err(|e| format!("write {line:?}: {e}"))?;
                let mut buf = vec![0u8; 1024];
                let n = f.read(&mut buf).map_err(|e| format!("read: {e}"))?;
                buf.truncate(n);
                buf
            }
        };
        Ok((
            String::from_utf8_lossy(&reply).trim_end().to_string(),
            t0.elapsed(),
        ))
    }
}

fn run() -> Result<(), String> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let device = args.first().is_some_and(|a| a == "--device");
    if device {
        args.remove(0);
    }
    let budget = match args.first() {
        Some(a) if a.ends_with("ms") => a.trim_end_matches("ms").to_string(),
        Some(a) => format!("N{a}"),
        None => "N200000000".to_string(),
    };
    let entries: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(65_536);
    let where_ = if device { "device" } else { "host" };
    for case in &ffo_data::FFO_40_44[..2] {
        let mut side = if device {
            let f = OpenOptions::new()
                .read(true)
                .write(true)
                .open("/dev/reversi")
                .map_err(|e| format!("/dev/reversi: {e}"))?;
            ioctl_none(&f, KGAMES_IOC_PRIVATE).map_err(|e| format!("private: {e}"))?;
            Side::Device(f)
        } else {
            Side::Host {
                s: Box::new(Session::new()),
                scratch: Reversi::new_scratch(entries).ok_or("no memory for the table")?,
            }
        };
        // The side to move is the CPU: the human takes the other colour.
        let cpu = case.setup[65];
        let human = if cpu == b'X' { "O" } else { "X" };
        for line in [
            format!("00 {human}"),
            format!("10 {}", String::from_utf8_lossy(case.setup)),
            format!("05 {budget}"),
        ] {
            let (r, _) = side.cmd(&line)?;
            if r != "OK" {
                return Err(format!("{line:?} -> {r:?}"));
            }
        }
        let (r, took) = side.cmd("03")?;
        if !r.starts_with("OK") {
            return Err(format!("03 -> {r:?}"));
        }
        let (mv, _) = side.cmd("06")?;
        let (status, _) = side.cmd("09")?;
        let score = status
            .split(' ')
            .find(|kv| kv.starts_with("score="))
            .unwrap_or("score=?");
        println!(
            "{where_} ffo {} ({budget}): move {mv} {score} in {} ms (exact: {:+} {})",
            case.name,
            took.as_millis(),
            case.score,
            String::from_utf8_lossy(case.best[0]),
        );
    }
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("reversi-ffo-vm: {e}");
        std::process::exit(1);
    }
}
