//! Fits Multi-ProbCut's error table: how far a shallow midgame search's score lies from a deep
//! one's, by depth and empties.
//!
//! `reversi_mpc_fit DIR [--positions N] [--max-depth D] [--every K]`
//!
//! Reads the positions of `reversi_datagen`'s chunk files in `DIR` (every `K`-th record,
//! default 97, with 14 to 53 empties, up to `N`, default 1500), searches each without
//! Multi-ProbCut to depths 1..=`D` (default 10; a 2^20-entry table cleared for each position)
//! and, for each depth `d` from 3, compares the score with the one at the engine's shallow
//! depth for `d` (about half, same parity). Prints, by depth and by empties / 10, the mean
//! and the standard deviation of deep less shallow (eval units, 100 a disc) and the table
//! `MPC_SIGMA` of src/reversi/search.rs (rounded to 10; buckets with fewer than 30
//! positions take the depth's overall figure). Positions whose score is a game's end are
//! skipped.

use kgames_reversi::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
use kgames_reversi::search::{mpc_shallow_depth, WIN};
use kgames_reversi::{midgame_score, Position, SearchContext, TtEntry};
use std::process::ExitCode;

const USAGE: &str = "usage: reversi_mpc_fit DIR [--positions N] [--max-depth D] [--every K]";

/// The engine's shallow depth for a node of `depth` (at most 255).
fn shallow(depth: usize) -> usize {
    usize::from(mpc_shallow_depth(depth.min(255) as u8))
}

/// Sums of one depth and bucket.
#[derive(Clone, Copy, Default)]
struct Moments {
    n: f64,
    sum: f64,
    sq: f64,
}

impl Moments {
    fn add(&mut self, x: f64) {
        self.n += 1.0;
        self.sum += x;
        self.sq += x * x;
    }
    fn merge(&mut self, o: &Moments) {
        self.n += o.n;
        self.sum += o.sum;
        self.sq += o.sq;
    }
    fn mean(&self) -> f64 {
        self.sum / self.n.max(1.0)
    }
    fn sigma(&self) -> f64 {
        (self.sq / self.n.max(1.0) - self.mean().powi(2))
            .max(0.0)
            .sqrt()
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("reversi_mpc_fit: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() || args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return if args.is_empty() {
            Err("no data directory".into())
        } else {
            Ok(())
        };
    }
    let get = |name: &str, default: usize| -> Result<usize, String> {
        match args.iter().position(|a| a == name) {
            Some(i) => args
                .get(i + 1)
                .and_then(|v| v.parse().ok())
                .ok_or(format!("{name} needs a number\n{USAGE}")),
            None => Ok(default),
        }
    };
    let (limit, max_depth, every) = (
        get("--positions", 1500)?,
        get("--max-depth", 10)?.clamp(3, 20),
        get("--every", 97)?.max(1),
    );
    let dir = &args[0];
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{dir}: {e}"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "bin"))
        .collect();
    files.sort();
    let mut positions = Vec::new();
    let mut k = 0usize;
    'files: for f in &files {
        let bytes = std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?;
        for r in bytes.chunks_exact(20) {
            k += 1;
            if !k.is_multiple_of(every) || !(14..=53).contains(&r[18]) {
                continue;
            }
            let me = u64::from_le_bytes(r[0..8].try_into().unwrap_or_default());
            let opp = u64::from_le_bytes(r[8..16].try_into().unwrap_or_default());
            if let Some(p) = Position::from_bitboards(me, opp, kgames_reversi::Color::X) {
                positions.push(p);
            }
            if positions.len() >= limit {
                break 'files;
            }
        }
    }
    let mut tt = vec![TtEntry::EMPTY; 1 << 20];
    let mut ctx = SearchContext::new(&mut tt);
    ctx.set_selective(false);
    // [depth][empties / 10]
    let mut m = vec![[Moments::default(); 6]; max_depth + 1];
    for (i, p) in positions.iter().enumerate() {
        ctx.clear();
        let mut v = vec![0i32; max_depth + 1];
        let mut ok = true;
        for (d, slot) in v.iter_mut().enumerate().skip(1) {
            let (mut clock, mut intr) = (NodeClock { ns_per_node: 0 }, NeverInterrupt);
            let mut meter = Meter::new(Budget::Nodes(Budget::MAX_NODES), &mut clock, &mut intr);
            match midgame_score(p, &mut ctx, &mut meter, d as u8) {
                Some(s) if s.abs() < WIN - 64 => *slot = s,
                _ => ok = false,
            }
        }
        if !ok {
            continue;
        }
        let e = (p.count_empty() / 10).min(5) as usize;
        for d in 3..=max_depth {
            m[d][e].add(f64::from(v[d] - v[shallow(d)]));
        }
        if (i + 1) % 100 == 0 {
            eprintln!("{} of {} positions", i + 1, positions.len());
        }
    }
    println!("depth shallow | by empties / 10: mean sigma (n)");
    let mut table = Vec::new();
    for (d, row) in m.iter().enumerate().skip(3) {
        let mut all = Moments::default();
        row.iter().for_each(|b| all.merge(b));
        let cells: Vec<String> = row
            .iter()
            .map(|b| format!("{:+.0} {:.0} ({})", b.mean(), b.sigma(), b.n))
            .collect();
        println!(
            "{d:>2} {:>2} | {} | all {:+.0} {:.0}",
            shallow(d),
            cells.join(" | "),
            all.mean(),
            all.sigma()
        );
        let sig: Vec<String> = row
            .iter()
            .map(|b| {
                let s = if b.n >= 30.0 { b.sigma() } else { all.sigma() };
                format!("{}", ((s / 10.0).round() as i32) * 10)
            })
            .collect();
        table.push(format!("    [{}],", sig.join(", ")));
    }
    println!(
        "const MPC_SIGMA: [[i32; 6]; {}] = [\n{}\n];",
        table.len(),
        table.join("\n")
    );
    Ok(())
}
