//! The time each side has spent on its moves in this game, as a chess clock shows it: the
//! clock of the side to move runs, the other stands; none runs once the game is over. Play
//! has no time control: the clocks only tell.

use std::time::{Duration, Instant};

/// Two clocks, indexed like [`crate::kind::Kind::sides`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Clocks {
    spent: [Duration; 2],
    running: Option<(usize, Instant)>,
}

impl Clocks {
    /// Both at zero, none running.
    pub fn new() -> Clocks {
        Clocks::default()
    }

    /// Follows the game at `now`: the clock of side `to_move` runs (`None`: none runs). The
    /// clock that ran until now keeps what it counted.
    pub fn follow(&mut self, to_move: Option<usize>, now: Instant) {
        match (self.running, to_move) {
            (Some((a, _)), Some(b)) if a == b => {}
            (running, next) => {
                if let Some((side, since)) = running {
                    if let Some(s) = self.spent.get_mut(side) {
                        *s += now.saturating_duration_since(since);
                    }
                }
                self.running = next.map(|b| (b, now));
            }
        }
    }

    /// The time side `side` has spent, at `now`.
    pub fn spent(&self, side: usize, now: Instant) -> Duration {
        let mut d = self.spent.get(side).copied().unwrap_or_default();
        if let Some((s, since)) = self.running {
            if s == side {
                d += now.saturating_duration_since(since);
            }
        }
        d
    }
}

/// `m:ss` (`h:mm:ss` from an hour on).
pub fn clock_text(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_of_the_side_to_move_runs() {
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        let mut c = Clocks::new();
        c.follow(Some(0), at(0));
        c.follow(Some(0), at(5)); // the same side: the clock keeps running
        assert_eq!(c.spent(0, at(7)), Duration::from_secs(7));
        c.follow(Some(1), at(10));
        assert_eq!(c.spent(0, at(30)), Duration::from_secs(10));
        assert_eq!(c.spent(1, at(30)), Duration::from_secs(20));
        c.follow(None, at(40)); // over: both stand
        assert_eq!(c.spent(1, at(99)), Duration::from_secs(30));
        assert_eq!(c.spent(0, at(99)), Duration::from_secs(10));
        assert_eq!(clock_text(Duration::from_secs(83)), "1:23");
        assert_eq!(clock_text(Duration::from_secs(3723)), "1:02:03");
    }
}
