//! What the reversi lab's match tools share: a wall clock for the meter and the result line
//! (wins, draws, losses, score, Elo with its 95% margin, mean disc margin), from the lab's one
//! statistics crate (`kgames-lab-stats`).

use kgames_lab_stats::{elo_of, Tally};
use kgames_reversi::common::budget::Clock;
use std::time::Instant;

/// The host's monotonic clock, from the move's start.
pub struct WallClock(pub Instant);

impl Clock for WallClock {
    fn now_ns(&mut self, _nodes: u64) -> u64 {
        u64::try_from(self.0.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

/// `A: W wins, D draws, L losses: score S%, Elo E (95%: lo .. hi), mean disc margin M` for
/// A's final disc differences `results` (the normal approximation over per-game scores).
pub fn summary(results: &[i32]) -> String {
    let t = Tally::of_signs(results);
    let (score, (lo, hi)) = (t.score(), t.score_interval());
    let n = results.len().max(1) as f64;
    format!(
        "{} wins, {} draws, {} losses: score {:.1}% (95%: {:.1} .. {:.1}), Elo {:+.0} \
         (95%: {:+.0} .. {:+.0}), mean disc margin {:+.1}",
        t.wins,
        t.draws,
        t.losses,
        100.0 * score,
        100.0 * lo,
        100.0 * hi,
        elo_of(score),
        elo_of(lo),
        elo_of(hi),
        f64::from(results.iter().sum::<i32>()) / n,
    )
}
