//! MCTS speed on the host: `cargo run -p kxo-lab --release --bin kxo_mcts_bench [ITERS]`.
//!
//! The first move on the empty 4 x 4 board with 100,000 iterations (or ITERS), five times;
//! prints the median time, iterations per second, and the move with its win rate. The
//! reference figure from the kxo issue: jserv/ttt's C MCTS (gcc -O2) takes 0.22-0.33 s for
//! the same 100,000 iterations on this machine kind; the goal is at most 0.15 s.

use std::time::Instant;

use kgames_kxo::board::{Board4, Side};
use kgames_kxo::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
use kgames_kxo::mcts::{nodes_for, root_value, Mcts, Node};

fn main() {
    let iters: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let mut pool = vec![Node::EMPTY; nodes_for(iters)];
    let mut times = Vec::new();
    let mut last = None;
    for seed in 1..=5u64 {
        let (mut c, mut i) = (NodeClock { ns_per_node: 0 }, NeverInterrupt);
        let mut meter = Meter::new(Budget::Nodes(u64::MAX / 2), &mut c, &mut i);
        let t0 = Instant::now();
        let s = Mcts::new(&mut pool[..], iters, seed)
            .search(&Board4::EMPTY, Side::O, &mut meter)
            .expect("a move");
        times.push(t0.elapsed().as_secs_f64());
        last = Some((s, root_value(&pool)));
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let (s, q) = last.expect("ran");
    println!(
        "mcts {iters} iterations, empty board: median {:.3} s ({:.0} iterations/s, {:.2} us each), \
         move {} (win rate {:.3}), {} nodes; goal 0.15 s, C reference 0.22-0.33 s",
        median,
        f64::from(iters) / median,
        median * 1e6 / f64::from(iters),
        s.cell,
        f64::from(q.unwrap_or(0)) / 65536.0,
        s.nodes
    );
}
