//! Solves the FFO endgame positions #40-#49 exactly and prints scores, moves, nodes and times:
//! `cargo run --release -p kgames-reversi --bin reversi_ffo [-- <table entries, default 2^22>
//! [<first> <last>]]` (default #40-#44; e.g. `-- 4194304 45 49` for #45-#49).

#[path = "../tests/data/ffo.rs"]
mod ffo;

use kgames_reversi::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
use kgames_reversi::{solve, square_name, Position, SearchContext, TtEntry};
use std::time::Instant;

fn main() {
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
    let mut tt = vec![TtEntry::EMPTY; entries];
    let (mut total_nodes, mut total_time) = (0u64, std::time::Duration::ZERO);
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
        println!(
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
        total_nodes += meter.nodes();
        total_time += time;
    }
    println!(
        "total: {total_nodes} nodes {} s {} Mn/s",
        secs(total_time),
        rate(total_nodes, total_time)
    );
}

/// `s.mmm` without floating point.
fn secs(d: std::time::Duration) -> String {
    format!("{:>3}.{:03}", d.as_secs(), d.subsec_millis())
}

/// Millions of nodes per second, two decimals, without floating point.
fn rate(nodes: u64, d: std::time::Duration) -> String {
    let per_us_x100 = u128::from(nodes) * 100 / d.as_micros().max(1);
    format!("{:>3}.{:02}", per_us_x100 / 100, per_us_x100 % 100)
}
