//! What the match tools share: a wall clock for the meter and the result line (wins, draws,
//! losses, score, Elo with its 95% margin, mean disc margin). Included by path (`#[path]`)
//! by `reversi_match` and `reversi_peer_match`; host-only statistics with floats.

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
    let (w, d, l) = results
        .iter()
        .fold((0, 0, 0), |(w, d, l), &r| match r.signum() {
            1 => (w + 1, d, l),
            0 => (w, d + 1, l),
            _ => (w, d, l + 1),
        });
    let n = results.len().max(1) as f64;
    let score = (f64::from(w) + f64::from(d) / 2.0) / n;
    let var = results
        .iter()
        .map(|&r| {
            let x = match r.signum() {
                1 => 1.0,
                0 => 0.5,
                _ => 0.0,
            };
            (x - score) * (x - score)
        })
        .sum::<f64>()
        / n;
    let se = (var / n).sqrt();
    let elo = |s: f64| -400.0 * (1.0 / s.clamp(0.001, 0.999) - 1.0).log10();
    format!(
        "{w} wins, {d} draws, {l} losses: score {:.1}% (95%: {:.1} .. {:.1}), Elo {:+.0} \
         (95%: {:+.0} .. {:+.0}), mean disc margin {:+.1}",
        100.0 * score,
        100.0 * (score - 1.96 * se).max(0.0),
        100.0 * (score + 1.96 * se).min(1.0),
        elo(score),
        elo(score - 1.96 * se),
        elo(score + 1.96 * se),
        f64::from(results.iter().sum::<i32>()) / n,
    )
}
