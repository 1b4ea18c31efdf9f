//! The CPU player on a few positions with a real clock: depth reached, nodes/s, move and score.
//! `cargo run --release -p reversi-lab --bin reversi_think [-- <ms per move, default 1000>
//! [<setup: 64 cells, space, side>]]`.

use kgames_reversi::common::budget::{Budget, Clock, Meter, NeverInterrupt};
use kgames_reversi::search::Outcome;
use kgames_reversi::{best_move, square_name, Position, SearchContext, TtEntry};
use std::time::Instant;

/// The host's monotonic clock.
struct WallClock(Instant);

impl Clock for WallClock {
    fn now_ns(&mut self, _nodes: u64) -> u64 {
        u64::try_from(self.0.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

fn main() {
    let ms: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    // The start, and the position after a common ten-ply opening line.
    let mut line = Position::start();
    for mv in ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7"] {
        let sq = kgames_reversi::parse_square(mv.as_bytes()).expect("square");
        line = line.play(sq).expect("legal opening move");
    }
    let mut positions = vec![Position::start(), line];
    if let Some(arg) = std::env::args().nth(2) {
        positions = vec![Position::parse_setup(arg.as_bytes()).expect("a 66-byte setup")];
    }
    let mut tt = vec![TtEntry::EMPTY; 1 << 20];
    for pos in positions {
        let mut ctx = SearchContext::new(&mut tt);
        ctx.clear();
        let (mut clock, mut intr) = (WallClock(Instant::now()), NeverInterrupt);
        let mut meter = Meter::new(Budget::TimeMs(ms), &mut clock, &mut intr);
        let t = Instant::now();
        let r = best_move(&pos, &mut ctx, &mut meter);
        let us = t.elapsed().as_micros().max(1);
        let mv = match r.outcome {
            Outcome::Move(sq) => String::from_utf8_lossy(&square_name(sq)).into_owned(),
            Outcome::Pass => "PASS".into(),
            Outcome::Interrupted => "interrupted".into(),
        };
        println!(
            "{}: {mv} score {} ({}) depth {} nodes {} in {} ms = {} kn/s",
            String::from_utf8_lossy(&pos.setup()),
            r.score,
            if r.exact { "exact" } else { "eval" },
            r.depth,
            r.nodes,
            us / 1000,
            u128::from(r.nodes) * 1000 / us
        );
    }
}
