//! Perft from the start position: `cargo run --release -p reversi-lab --bin reversi_perft -- 11`
//! prints the leaf count of every depth up to the given one, with times.

use kgames_reversi::{perft, Position};
use std::time::Instant;

fn main() {
    let max: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(11);
    let start = Position::start();
    for depth in 1..=max {
        let t = Instant::now();
        let n = perft(&start, depth);
        let us = t.elapsed().as_micros().max(1);
        println!(
            "perft({depth:2}) = {n:>12}  {:>6}.{:03} ms  {:>5} M leaves/s",
            us / 1000,
            us % 1000,
            u128::from(n) / us
        );
    }
}
