//! What the reversi lab's tools share: a wall clock for the meter, the result line of the
//! match tools (wins, draws, losses, score, Elo with its 95% margin, mean disc margin, from
//! the lab's one statistics crate `kgames-lab-stats`), the self-play tools' engine move, and
//! the trainers' reading of training data ([`data`]).

pub mod data;

use kgames_lab_stats::{elo_of, Tally};
use kgames_reversi::common::budget::{Budget, Clock, Meter, NeverInterrupt, NodeClock};
use kgames_reversi::eval::EvalKind;
use kgames_reversi::search::Outcome;
use kgames_reversi::{best_move, solve, Position, SearchContext, TtEntry};
use std::time::Instant;

/// The engine's move in `p` for self-play data, on a cleared table: an exact solve at `exact`
/// empties or fewer, else `best_move` at `nodes`. `(move, score, exact)`, the score as the
/// search gives it (final discs when exact); `None` when the side to move must pass.
pub fn engine_move(
    p: &Position,
    nodes: u64,
    exact: u32,
    eval: EvalKind,
    tt: &mut [TtEntry],
) -> Option<(u8, i32, bool)> {
    let mut ctx = SearchContext::new(tt);
    ctx.clear();
    ctx.set_eval(eval);
    let (mut clock, mut intr) = (NodeClock { ns_per_node: 0 }, NeverInterrupt);
    if p.count_empty() <= exact {
        let mut meter = Meter::new(Budget::Nodes(Budget::MAX_NODES), &mut clock, &mut intr);
        if let Ok(s) = solve(p, &mut ctx, &mut meter) {
            return s.best.map(|sq| (sq, s.score, true));
        }
    }
    let mut meter = Meter::new(Budget::Nodes(nodes), &mut clock, &mut intr);
    let r = best_move(p, &mut ctx, &mut meter);
    match r.outcome {
        Outcome::Move(sq) => Some((sq, r.score, r.exact)),
        Outcome::Pass | Outcome::Interrupted => None,
    }
}

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
