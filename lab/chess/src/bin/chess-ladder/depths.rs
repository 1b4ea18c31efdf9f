//! The opponent's search depth per move (its last `info depth`), so a ladder shows whether
//! Stockfish searched as deep as its Skill Level needs: Skill Level L picks its move when
//! the iteration of depth L + 1 ends, so at a fixed time a loaded or slow machine makes it
//! play below its number.

/// A count of depths: moves, their sum, the least, and how many were below a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Depths {
    /// Moves with a depth.
    moves: u32,
    /// Moves without one (no `info depth` line).
    unknown: u32,
    /// The sum of the depths.
    sum: u64,
    /// The least depth (0 before any).
    min: u32,
    /// Per depth 0..=63, the moves searched to it (deeper counted at 63).
    histogram: [u32; 64],
}

impl Default for Depths {
    fn default() -> Self {
        Depths {
            moves: 0,
            unknown: 0,
            sum: 0,
            min: 0,
            histogram: [0; 64],
        }
    }
}

impl Depths {
    /// Counts one move's depth.
    pub fn add(&mut self, depth: Option<u32>) {
        let Some(d) = depth else {
            self.unknown += 1;
            return;
        };
        self.min = if self.moves == 0 { d } else { self.min.min(d) };
        self.moves += 1;
        self.sum += u64::from(d);
        self.histogram[d.min(63) as usize] += 1;
    }

    /// What was counted after `before` (an earlier copy of this count), as a count of its own
    /// (its `min` is unknown and left 0).
    pub fn since(&self, before: &Depths) -> Depths {
        let mut d = Depths {
            moves: self.moves - before.moves,
            unknown: self.unknown - before.unknown,
            sum: self.sum - before.sum,
            min: 0,
            histogram: [0; 64],
        };
        for (h, (now, then)) in d
            .histogram
            .iter_mut()
            .zip(self.histogram.iter().zip(before.histogram.iter()))
        {
            *h = now - then;
        }
        d
    }

    /// The mean depth, `None` before any move.
    pub fn mean(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.sum as f64 / f64::from(self.moves))
    }

    /// The mean as text (`12.4`, or `-`).
    pub fn mean_text(&self) -> String {
        self.mean().map_or("-".to_string(), |m| format!("{m:.1}"))
    }

    /// Moves searched to less than `depth`.
    pub fn below(&self, depth: u32) -> u32 {
        self.histogram.iter().take(depth.min(64) as usize).sum()
    }

    /// One line: mean, least, and with `needed` the share of moves below it.
    pub fn summary(&self, needed: Option<u32>) -> String {
        let mut s = format!(
            "the opponent's depth: mean {} least {} over {} moves",
            self.mean_text(),
            self.min,
            self.moves
        );
        if self.unknown > 0 {
            s.push_str(&format!(" ({} without an info depth)", self.unknown));
        }
        if let Some(d) = needed {
            let below = self.below(d);
            s.push_str(&format!(
                "; below depth {d} (where its skill picks): {below} ({:.1}%)",
                100.0 * f64::from(below) / f64::from(self.moves.max(1))
            ));
        }
        s
    }

    /// A warning when more than 5% of the moves were searched to less than `needed`.
    pub fn warning(&self, needed: u32) -> Option<String> {
        let below = self.below(needed);
        (u64::from(below) * 20 > u64::from(self.moves)).then(|| {
            format!(
                "Stockfish searched {below} of its {} moves to less than depth {needed}, where \
                 Skill Level {} picks its move: it played weaker than its level (a loaded or \
                 slow machine, or too short a time per move)",
                self.moves,
                needed.saturating_sub(1)
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_means_shares_and_warns_below_the_skill_depth() {
        let mut d = Depths::default();
        for depth in [12, 11, 14, 9] {
            d.add(Some(depth));
        }
        d.add(None);
        assert_eq!(d.mean_text(), "11.5");
        assert_eq!((d.min, d.below(11), d.below(12)), (9, 1, 2));
        let s = d.summary(Some(11));
        assert!(
            s.contains("mean 11.5 least 9 over 4 moves (1 without"),
            "{s}"
        );
        assert!(
            s.contains("below depth 11 (where its skill picks): 1 (25.0%)"),
            "{s}"
        );
        assert!(d.warning(11).is_some_and(|w| w.contains("Skill Level 10")));
        let before = d;
        d.add(Some(20));
        assert_eq!(d.since(&before).mean_text(), "20.0");
        let mut deep = Depths::default();
        (0..100).for_each(|_| deep.add(Some(15)));
        deep.add(Some(3));
        assert_eq!(deep.warning(11), None, "1% below: no warning");
    }
}
