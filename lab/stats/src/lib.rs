//! Match statistics: score, Elo difference and its 95% error margin (normal approximation
//! over the per-game results, as common rating tools report it).
//! One crate for every match tool of the lab (`chess-ladder`, `reversi_match`,
//! `reversi_peer_match`); floating point is fine here (the engines stay integer-only).

/// Wins, draws and losses from our side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games we won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games we lost.
    pub losses: u32,
}

impl Tally {
    /// The tally of signed results, one a game (above 0 a win, 0 a draw, below 0 a loss):
    /// final disc margins, for instance.
    pub fn of_signs(results: &[i32]) -> Tally {
        results
            .iter()
            .fold(Tally::default(), |t, &r| match r.signum() {
                1 => Tally {
                    wins: t.wins + 1,
                    ..t
                },
                0 => Tally {
                    draws: t.draws + 1,
                    ..t
                },
                _ => Tally {
                    losses: t.losses + 1,
                    ..t
                },
            })
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score fraction (a win 1, a draw 1/2).
    pub fn score(&self) -> f64 {
        let n = f64::from(self.games().max(1));
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / n
    }

    /// The score in percent.
    pub fn percent(&self) -> f64 {
        100.0 * self.score()
    }

    /// The standard error of the score (the per-game scores' spread over the root of the
    /// number of games); 0 for no games.
    pub fn standard_error(&self) -> f64 {
        let n = f64::from(self.games());
        if n == 0.0 {
            return 0.0;
        }
        (self.variance() / n).sqrt()
    }

    /// The variance of the per-game scores (a win 1, a draw 1/2, a loss 0); 0 for no games.
    pub fn variance(&self) -> f64 {
        let n = f64::from(self.games().max(1));
        let s = self.score();
        (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n
    }

    /// The score's 95% interval, within 0 and 1.
    pub fn score_interval(&self) -> (f64, f64) {
        let (s, se) = (self.score(), self.standard_error());
        ((s - 1.96 * se).max(0.0), (s + 1.96 * se).min(1.0))
    }

    /// The Elo difference of the score and the half-width of its 95% interval; `None` for
    /// no games. Scores of 0 or 1 are infinite: they show as +-inf.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let n = f64::from(self.games());
        if n == 0.0 {
            return None;
        }
        let (s, se) = (self.score(), self.standard_error());
        let lo = elo_of(s - 1.96 * se);
        let hi = elo_of(s + 1.96 * se);
        Some((elo_of(s), (hi - lo) / 2.0))
    }
}

/// The score the Elo difference `elo` predicts.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The bounds of the sequential probability ratio test at alpha = beta = 0.05: below
/// the first, H0 (the difference is `elo0`) is accepted; above the second, H1 (`elo1`).
pub const SPRT_BOUNDS: (f64, f64) = (-2.944, 2.944);

impl Tally {
    /// The log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`) for these results, in
    /// the normal approximation of the trinomial model (as fishtest's early SPRT).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = f64::from(self.games());
        if n == 0.0 {
            return 0.0;
        }
        let (m, var) = (self.score(), self.variance());
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of(elo0), score_of(elo1));
        n * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * var)
    }
}

/// The Elo difference that predicts the score `s`.
pub fn elo_of(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        assert!(elo_of(0.5).abs() < 1e-9);
        assert!((elo_of(0.75) - 190.85).abs() < 0.01);
        let t = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        let (e, m) = t.elo().unwrap();
        assert!(e.abs() < 1e-9);
        // 20 games, sd 0.5: 0.5 +- 0.219 -> about +-161 Elo.
        assert!((m - 161.0).abs() < 3.0, "{m}");
        let all = Tally {
            wins: 4,
            draws: 0,
            losses: 0,
        };
        assert!(all.elo().unwrap().0.is_infinite());
        // A clear lead accepts H1, a clear deficit H0.
        let good = Tally {
            wins: 240,
            draws: 120,
            losses: 120,
        };
        assert!(good.llr(0.0, 10.0) > SPRT_BOUNDS.1);
        let bad = Tally {
            wins: 120,
            draws: 120,
            losses: 240,
        };
        assert!(bad.llr(0.0, 10.0) < SPRT_BOUNDS.0);
    }
}
