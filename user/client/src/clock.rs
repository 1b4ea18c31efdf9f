//! The host's wall clock for searches run in this process.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use kgames_common::budget::Clock;

/// Monotonic nanoseconds since the clock was made ([`Instant`]), for a
/// [`Meter`](kgames_common::budget::Meter) on the host. A stoppable clock jumps to the end of
/// time once its flag is set, so the meter ends the search as if the budget were spent and
/// the best move so far is played (what `KGAMES_IOC_STOP_SEARCH` does on the device).
pub struct WallClock<'a> {
    start: Instant,
    stop: Option<&'a AtomicBool>,
}

impl WallClock<'static> {
    /// A clock starting now.
    pub fn new() -> Self {
        WallClock {
            start: Instant::now(),
            stop: None,
        }
    }
}

impl Default for WallClock<'static> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> WallClock<'a> {
    /// A clock starting now that reads `u64::MAX` once `stop` is set.
    pub fn stoppable(stop: &'a AtomicBool) -> Self {
        WallClock {
            start: Instant::now(),
            stop: Some(stop),
        }
    }
}

impl Clock for WallClock<'_> {
    fn now_ns(&mut self, _nodes: u64) -> u64 {
        if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return u64::MAX;
        }
        // Below u64::MAX: only a stop reads as the end of time.
        u64::try_from(self.start.elapsed().as_nanos()).map_or(u64::MAX - 1, |n| n.min(u64::MAX - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kgames_common::budget::{Budget, Meter, NeverInterrupt, SearchEnd};

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
