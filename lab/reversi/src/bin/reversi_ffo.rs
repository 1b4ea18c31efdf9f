//! Solves the FFO endgame positions #40-#49 exactly and prints scores, moves, nodes and times:
//! `cargo run --release -p reversi-lab --bin reversi_ffo [-- <table entries, default 2^22>
//! [<first> <last>]]` (default #40-#44; e.g. `-- 4194304 40 49` for all ten).
//!
//! With `ZEBRA=/path/to/scrzebra` in the environment, each position is also solved by Zebra
//! right after ours, in the same run (`scrzebra -n 1 -h 22 -b 0 -script`: one thread, a
//! 2^22-entry table, no book), checked for the same score, and the line ends with Zebra's time
//! and the ratio ours/Zebra; the last line gives the totals. Zebra's time is the wall-clock time
//! of its process minus its start-up (coefficients loaded, an empty script solved), measured
//! once before the first position. Zebra reads `coeffs2.bin` from its working directory: the
//! directory of the `scrzebra` given.

#[path = "../../../../src/reversi/tests/data/ffo.rs"]
mod ffo;

use kgames_reversi::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
use kgames_reversi::{solve, square_name, Position, SearchContext, TtEntry};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// A peer solver run as a program.
struct Zebra {
    program: PathBuf,
    dir: PathBuf,
    scratch: PathBuf,
    startup: Duration,
}

impl Zebra {
    /// Zebra at `program`, its start-up time measured with an empty script.
    fn new(program: PathBuf) -> Result<Zebra, String> {
        let program = program
            .canonicalize()
            .map_err(|e| format!("ZEBRA={}: {e}", program.display()))?;
        let dir = program.parent().unwrap_or(Path::new(".")).to_path_buf();
        let scratch = std::env::temp_dir().join(format!("reversi-ffo-{}", std::process::id()));
        std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
        let mut z = Zebra {
            program,
            dir,
            scratch,
            startup: Duration::ZERO,
        };
        let (_, t) = z.solve("")?;
        z.startup = t;
        Ok(z)
    }

    /// Solves the positions of `script` (one a line, Zebra's script form); the score lines of
    /// its output file and the elapsed time less the start-up.
    fn solve(&self, script: &str) -> Result<(String, Duration), String> {
        let input = self.scratch.join("in.scr");
        let output = self.scratch.join("out.txt");
        std::fs::write(&input, script).map_err(|e| format!("{}: {e}", input.display()))?;
        let t = Instant::now();
        let status = Command::new(&self.program)
            .current_dir(&self.dir)
            .args(["-n", "1", "-h", "22", "-b", "0", "-script"])
            .arg(&input)
            .arg(&output)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| format!("{}: {e}", self.program.display()))?;
        let elapsed = t.elapsed();
        if !status.success() {
            return Err(format!("{} failed: {status}", self.program.display()));
        }
        let out = std::fs::read_to_string(&output).unwrap_or_default();
        let lines = out
            .lines()
            .filter(|l| !l.starts_with('%'))
            .collect::<Vec<_>>();
        Ok((lines.join("\n"), elapsed.saturating_sub(self.startup)))
    }
}

impl Drop for Zebra {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

fn main() -> ExitCode {
    let entries: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1 << 22);
    let arg = |i: usize, d: usize| {
        std::env::args()
            .nth(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or(d)
    };
    let (first, last) = (arg(2, 40), arg(3, 44));
    let zebra = match std::env::var_os("ZEBRA").map(PathBuf::from) {
        Some(p) => match Zebra::new(p) {
            Ok(z) => {
                println!(
                    "peer: {} -n 1 -h 22 -b 0 (start-up {} s, subtracted)",
                    z.program.display(),
                    secs(z.startup)
                );
                Some(z)
            }
            Err(e) => {
                eprintln!("reversi_ffo: {e}");
                return ExitCode::FAILURE;
            }
        },
        None => None,
    };
    let mut tt = vec![TtEntry::EMPTY; entries];
    let (mut total_nodes, mut total_time, mut total_peer) = (0u64, Duration::ZERO, Duration::ZERO);
    let mut failed = false;
    for (i, case) in ffo::FFO_40_44.iter().chain(&ffo::FFO_45_49).enumerate() {
        if !(first..=last).contains(&(40 + i)) {
            continue;
        }
        let pos = Position::parse_setup(case.setup).expect("FFO board");
        let mut ctx = SearchContext::new(&mut tt);
        ctx.clear();
        let (mut clock, mut intr) = (NodeClock { ns_per_node: 0 }, NeverInterrupt);
        let mut meter = Meter::new(Budget::Nodes(Budget::MAX_NODES), &mut clock, &mut intr);
        let t = Instant::now();
        let sol = solve(&pos, &mut ctx, &mut meter).expect("solved");
        let time = t.elapsed();
        let mv = sol.best.map(square_name).unwrap_or(*b"--");
        let ok = sol.score == case.score && case.best.iter().any(|b| **b == mv);
        failed |= !ok;
        let mut line = format!(
            "FFO {} ({} empties): {:+3} {} (expected {:+3}) {}  {:>11} nodes {} s {} Mn/s",
            case.name,
            pos.count_empty(),
            sol.score,
            std::str::from_utf8(&mv).unwrap_or("??"),
            case.score,
            if ok { "ok" } else { "WRONG" },
            meter.nodes(),
            secs(time),
            rate(meter.nodes(), time)
        );
        if let Some(z) = &zebra {
            let setup = std::str::from_utf8(case.setup).unwrap_or("");
            match z.solve(&format!("{setup}\n")) {
                Ok((result, t)) => {
                    // Zebra prints black's and white's discs, "51 - 13"; the side to move is
                    // the setup's last character.
                    let discs = result
                        .split('-')
                        .map(|s| s.trim().parse::<i32>().unwrap_or(-1))
                        .collect::<Vec<_>>();
                    let peer_score = match discs[..] {
                        [b, w] if b >= 0 && w >= 0 => {
                            Some(if setup.ends_with('X') { b - w } else { w - b })
                        }
                        _ => None,
                    };
                    let agree = peer_score == Some(case.score);
                    failed |= !agree;
                    line += &format!(
                        " | Zebra {} s{} ours/Zebra {}",
                        secs(t),
                        if agree {
                            ""
                        } else {
                            " (Zebra's score differs)"
                        },
                        ratio(time, t)
                    );
                    total_peer += t;
                }
                Err(e) => {
                    eprintln!("reversi_ffo: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        println!("{line}");
        total_nodes += meter.nodes();
        total_time += time;
    }
    let mut line = format!(
        "total: {total_nodes} nodes {} s {} Mn/s",
        secs(total_time),
        rate(total_nodes, total_time)
    );
    if zebra.is_some() {
        line += &format!(
            " | Zebra {} s ours/Zebra {}",
            secs(total_peer),
            ratio(total_time, total_peer)
        );
    }
    println!("{line}");
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `s.mmm` without floating point.
fn secs(d: Duration) -> String {
    format!("{:>3}.{:03}", d.as_secs(), d.subsec_millis())
}

/// `ours / theirs` with three decimals, without floating point.
fn ratio(ours: Duration, theirs: Duration) -> String {
    let r = ours.as_micros() * 1000 / theirs.as_micros().max(1);
    format!("{}.{:03}", r / 1000, r % 1000)
}

/// Millions of nodes per second, two decimals, without floating point.
fn rate(nodes: u64, d: Duration) -> String {
    let per_us_x100 = u128::from(nodes) * 100 / d.as_micros().max(1);
    format!("{:>3}.{:02}", per_us_x100 / 100, per_us_x100 % 100)
}
