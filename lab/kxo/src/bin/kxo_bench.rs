//! Rough timings of the kxo engines on the host: `cargo run -p kxo-lab --release --bin kxo_bench`.

use std::time::Instant;

use kgames_kxo::board::{Board4, Side};
use kgames_kxo::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
use kgames_kxo::negamax::{search, History, TtEntry, TT_DEFAULT_LEN};
use kgames_kxo::nxn::{self, BoardN};

fn main() {
    let mut tt = vec![TtEntry::EMPTY; TT_DEFAULT_LEN];
    let mut history = History::EMPTY;
    let (mut clock, mut int) = (NodeClock { ns_per_node: 0 }, NeverInterrupt);
    let reps = 200;
    let start = Instant::now();
    let mut nodes = 0;
    for _ in 0..reps {
        let mut meter = Meter::new(Budget::Nodes(u64::MAX / 2), &mut clock, &mut int);
        let s = search(&Board4::EMPTY, Side::O, &mut tt, &mut history, &mut meter).unwrap();
        assert!(s.solved);
        nodes = meter.nodes();
    }
    let per = start.elapsed() / reps;
    println!("negamax, empty 4x4 board solved: {nodes} nodes, {per:?} per search");

    for len in [0usize, 64, 256, 1024, 4096, 16384] {
        let mut tt = vec![TtEntry::EMPTY; len];
        let mut meter = Meter::new(Budget::Nodes(u64::MAX / 2), &mut clock, &mut int);
        let s = search(&Board4::EMPTY, Side::O, &mut tt, &mut history, &mut meter).unwrap();
        println!(
            "negamax, table of {len} entries: {} nodes, cell {}, score {}, depth {}",
            meter.nodes(),
            s.cell,
            s.score,
            s.depth
        );
    }

    for n in 3..=6u8 {
        let board = BoardN::new(n).unwrap();
        let start = Instant::now();
        let mut meter = Meter::new(Budget::Nodes(u64::MAX / 2), &mut clock, &mut int);
        let t = nxn::choose(&board, Side::O, 100, 1, &mut meter).unwrap();
        println!(
            "monte carlo {n}x{n} empty board, T=100: tile {t}, {} nodes, {:?}",
            meter.nodes(),
            start.elapsed()
        );
    }
}
