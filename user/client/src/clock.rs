//! The host's wall clock for searches run in this process.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use kgames_common::budget::{Clock, StopClock};

/// Monotonic nanoseconds since the clock was made ([`Instant`]), for a
/// [`Meter`](kgames_common::budget::Meter) on the host.
pub struct WallClock {
    start: Instant,
}

impl WallClock {
    /// A clock starting now.
    pub fn new() -> Self {
        WallClock {
            start: Instant::now(),
        }
    }

    /// A clock starting now that reads `u64::MAX` once `stop` is set, so the meter ends the
    /// search as if the budget were spent and the best move so far is played (what
    /// `KGAMES_IOC_STOP_SEARCH` does on the device).
    pub fn stoppable(stop: &AtomicBool) -> StopClock<'_, WallClock> {
        StopClock::new(WallClock::new(), stop, u64::MAX)
    }
}

impl Default for WallClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for WallClock {
    fn now_ns(&mut self, _nodes: u64) -> u64 {
        // Below u64::MAX: only a stop reads as the end of time.
        u64::try_from(self.start.elapsed().as_nanos()).map_or(u64::MAX - 1, |n| n.min(u64::MAX - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kgames_common::budget::{Budget, Meter, NeverInterrupt, SearchEnd};
    use std::sync::atomic::Ordering;

    #[test]
    fn time_passes_and_a_stop_ends_the_budget() {
        let mut c = WallClock::new();
        let a = c.now_ns(0);
        std::thread::sleep(std::time::Duration::from_millis(2));
        assert!(c.now_ns(0) >= a + 1_000_000);

        let stop = AtomicBool::new(false);
        let mut c = WallClock::stoppable(&stop);
        let mut never = NeverInterrupt;
        let mut meter = Meter::new(Budget::Nodes(Budget::MAX_NODES), &mut c, &mut never);
        assert_eq!(meter.check(), None);
        stop.store(true, Ordering::Relaxed);
        assert_eq!(meter.check(), Some(SearchEnd::OutOfBudget));
    }
}
