//! Search budgets: a time or node limit per move, checked inside the search.
//!
//! An engine takes a [`Meter`] and calls [`Meter::tick`] once per node. Every
//! [`Meter::CHECK_INTERVAL`] nodes the meter asks its [`Clock`] for the time and its
//! [`Interrupt`] whether the search must stop (in the kernel: a pending signal). Host tests use
//! a fake clock that derives time from the node count, so a time budget is deterministic there.

use core::sync::atomic::{AtomicBool, Ordering};

/// The CPU's budget for one move (`05 <ms>` or `05 N<nodes>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Wall-clock milliseconds, 1..=9000.
    TimeMs(u32),
    /// Searched nodes, at least 1: deterministic play.
    Nodes(u64),
}

impl Budget {
    /// The protocol's default budget: one second.
    pub const DEFAULT: Budget = Budget::TimeMs(1000);
    /// The largest time budget the protocol accepts.
    pub const MAX_MS: u32 = 9000;
    /// The largest node budget accepted (keeps arithmetic far from overflow).
    pub const MAX_NODES: u64 = 1_000_000_000_000;

    /// Parses the argument of `05`: `<ms>` (1-9000) or `N<nodes>` (1..=MAX_NODES), ASCII
    /// digits only, no sign, no leading zero beyond a lone digit, at most 13 digits.
    pub fn parse(arg: &[u8]) -> Option<Budget> {
        let (nodes, digits) = match arg.split_first() {
            Some((b'N', rest)) => (true, rest),
            _ => (false, arg),
        };
        let value = parse_decimal(digits, 13)?;
        if nodes {
            (1..=Self::MAX_NODES)
                .contains(&value)
                .then_some(Budget::Nodes(value))
        } else {
            (1..=u64::from(Self::MAX_MS))
                .contains(&value)
                .then_some(Budget::TimeMs(value as u32))
        }
    }
}

/// Parses 1..=`max_len` ASCII digits without a superfluous leading zero.
pub fn parse_decimal(digits: &[u8], max_len: usize) -> Option<u64> {
    if digits.is_empty() || digits.len() > max_len || max_len > 19 {
        return None;
    }
    if digits.len() > 1 && digits[0] == b'0' {
        return None;
    }
    let mut value: u64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        value = value.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
    }
    Some(value)
}

/// A monotonic clock. `nodes` is the meter's node count so far, which a fake clock may use to
/// advance time per node.
pub trait Clock {
    /// Nanoseconds since an arbitrary fixed origin.
    fn now_ns(&mut self, nodes: u64) -> u64;
}

/// Tells the search to give up (a pending signal in the kernel).
pub trait Interrupt {
    /// True when the search must stop at once and its result be discarded.
    fn pending(&mut self) -> bool;
}

/// An [`Interrupt`] that never fires.
pub struct NeverInterrupt;

impl Interrupt for NeverInterrupt {
    fn pending(&mut self) -> bool {
        false
    }
}

// The tests' fake clock and interrupt (host only).
#[cfg(not(MODULE))]
pub use super::host::{AlwaysInterrupt, NodeClock};

/// A clock that ends a search from outside: it reads `u64::MAX` (past every deadline) once
/// `stop` is set or once the inner clock reaches `cap_ns`, so the meter ends the search as if
/// its budget were spent and the best move so far is played, whatever the budget (a node
/// budget too). The device's `KGAMES_IOC_STOP_SEARCH` and `max_move_ms`, UCI's `stop` on
/// the host. The inner clock counts from the search's start.
pub struct StopClock<'a, C> {
    clock: C,
    stop: &'a AtomicBool,
    cap_ns: u64,
}

impl<'a, C: Clock> StopClock<'a, C> {
    /// `clock`, ended by `stop` or after `cap_ns` nanoseconds (`u64::MAX`: no cap).
    pub const fn new(clock: C, stop: &'a AtomicBool, cap_ns: u64) -> Self {
        StopClock {
            clock,
            stop,
            cap_ns,
        }
    }
}

impl<C: Clock> Clock for StopClock<'_, C> {
    fn now_ns(&mut self, nodes: u64) -> u64 {
        let now = self.clock.now_ns(nodes);
        if self.stop.load(Ordering::Relaxed) || now >= self.cap_ns {
            u64::MAX
        } else {
            now
        }
    }
}

/// Why a search stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchEnd {
    /// The budget is spent: the engine plays its best move so far.
    OutOfBudget,
    /// Interrupted (a signal): the result must be discarded, the game left unchanged.
    Interrupted,
}

/// Counts nodes against a [`Budget`].
///
/// Invariant: once `stop` is `Some`, every later `tick` returns it again (a stopped search
/// unwinds without doing more work).
pub struct Meter<'a> {
    budget: Budget,
    start_ns: u64,
    /// The clock's last reading short of `u64::MAX` (see [`Meter::elapsed_ms`]).
    last_ns: u64,
    deadline_ns: u64,
    nodes: u64,
    stop: Option<SearchEnd>,
    clock: &'a mut dyn Clock,
    interrupt: &'a mut dyn Interrupt,
}

impl<'a> Meter<'a> {
    /// Nodes between two checks of the clock and the interrupt.
    pub const CHECK_INTERVAL: u64 = 1024;

    /// Starts metering `budget` now.
    pub fn new(budget: Budget, clock: &'a mut dyn Clock, interrupt: &'a mut dyn Interrupt) -> Self {
        let start = clock.now_ns(0);
        let deadline_ns = match budget {
            Budget::TimeMs(ms) => start.saturating_add(u64::from(ms).saturating_mul(1_000_000)),
            Budget::Nodes(_) => u64::MAX,
        };
        Meter {
            budget,
            start_ns: start,
            last_ns: start,
            deadline_ns,
            nodes: 0,
            stop: None,
            clock,
            interrupt,
        }
    }

    /// Accounts one node; returns `Some` when the search must stop.
    #[inline]
    pub fn tick(&mut self) -> Option<SearchEnd> {
        if self.stop.is_some() {
            return self.stop;
        }
        self.nodes = self.nodes.saturating_add(1);
        if let Budget::Nodes(max) = self.budget {
            if self.nodes >= max {
                self.stop = Some(SearchEnd::OutOfBudget);
            }
        }
        if self.nodes & (Self::CHECK_INTERVAL - 1) == 0 {
            self.check();
        }
        self.stop
    }

    /// Checks the clock and the interrupt now (engines call it between iterations too).
    pub fn check(&mut self) -> Option<SearchEnd> {
        if self.stop == Some(SearchEnd::Interrupted) {
            return self.stop;
        }
        if self.interrupt.pending() {
            self.stop = Some(SearchEnd::Interrupted);
        } else if self.stop.is_none() {
            let now = self.clock.now_ns(self.nodes);
            if now != u64::MAX {
                self.last_ns = now;
            }
            if now >= self.deadline_ns {
                self.stop = Some(SearchEnd::OutOfBudget);
            }
        }
        self.stop
    }

    /// Why the search stopped, if it did.
    pub fn stopped(&self) -> Option<SearchEnd> {
        self.stop
    }

    /// Nodes counted so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Milliseconds since the meter started, read from its clock now (saturating). A clock
    /// that reads `u64::MAX` has jumped past every deadline to stop the search (the kernel's
    /// stop and `max_move_ms`): the time is then the last reading before the jump.
    pub fn elapsed_ms(&mut self) -> u32 {
        let now = match self.clock.now_ns(self.nodes) {
            u64::MAX => self.last_ns,
            now => now,
        };
        let ns = now.saturating_sub(self.start_ns);
        u32::try_from(ns / 1_000_000).unwrap_or(u32::MAX)
    }

    /// The budget being metered.
    pub fn budget(&self) -> Budget {
        self.budget
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1 ms a node, then past every deadline from node 5000 on (a stop).
    struct JumpClock;

    impl Clock for JumpClock {
        fn now_ns(&mut self, nodes: u64) -> u64 {
            if nodes >= 5000 {
                u64::MAX
            } else {
                nodes * 1_000_000
            }
        }
    }

    #[test]
    fn the_time_of_a_stopped_search_is_the_last_reading() {
        let mut clock = JumpClock;
        let mut never = NeverInterrupt;
        let mut m = Meter::new(Budget::Nodes(1_000_000), &mut clock, &mut never);
        let mut stopped_at = 0;
        for n in 1..=10_000u64 {
            if m.tick().is_some() {
                stopped_at = n;
                break;
            }
        }
        // Checked every 1024 nodes: the stop is seen at 5120, the last reading was 4096.
        assert_eq!(stopped_at, 5120);
        assert_eq!(m.elapsed_ms(), 4096);
    }

    #[test]
    fn parses_budgets() {
        assert_eq!(Budget::parse(b"1"), Some(Budget::TimeMs(1)));
        assert_eq!(Budget::parse(b"9000"), Some(Budget::TimeMs(9000)));
        assert_eq!(Budget::parse(b"N5000"), Some(Budget::Nodes(5000)));
        for bad in [
            &b""[..],
            b"0",
            b"9001",
            b"01",
            b"N",
            b"N0",
            b"-1",
            b"1a",
            b" 1",
            b"n5",
            b"N99999999999999",
        ] {
            assert_eq!(Budget::parse(bad), None, "{:?}", core::str::from_utf8(bad));
        }
    }

    #[test]
    fn node_budget_stops_exactly() {
        let (mut c, mut i) = (NodeClock { ns_per_node: 1 }, NeverInterrupt);
        let mut m = Meter::new(Budget::Nodes(10), &mut c, &mut i);
        for _ in 0..9 {
            assert_eq!(m.tick(), None);
        }
        assert_eq!(m.tick(), Some(SearchEnd::OutOfBudget));
        assert_eq!(m.tick(), Some(SearchEnd::OutOfBudget));
    }

    #[test]
    fn fake_time_budget_stops_after_deadline() {
        // 1 ms at 1000 ns per node = 1000 nodes; noticed at the next check interval.
        let (mut c, mut i) = (NodeClock { ns_per_node: 1000 }, NeverInterrupt);
        let mut m = Meter::new(Budget::TimeMs(1), &mut c, &mut i);
        let mut n = 0;
        while m.tick().is_none() {
            n += 1;
        }
        assert_eq!(n + 1, Meter::CHECK_INTERVAL as usize);
    }

    struct After(u32);
    impl Interrupt for After {
        fn pending(&mut self) -> bool {
            self.0 = self.0.saturating_sub(1);
            self.0 == 0
        }
    }

    #[test]
    fn interrupt_wins_over_budget() {
        let (mut c, mut i) = (NodeClock { ns_per_node: 0 }, After(2));
        let mut m = Meter::new(Budget::Nodes(u64::MAX), &mut c, &mut i);
        let mut n = 0u64;
        while m.tick().is_none() {
            n += 1;
        }
        assert_eq!(m.stopped(), Some(SearchEnd::Interrupted));
        assert_eq!(n + 1, 2 * Meter::CHECK_INTERVAL);
    }

    #[test]
    fn a_stop_clock_ends_the_budget_at_its_cap_or_its_flag() {
        let stop = AtomicBool::new(false);
        let mut c = StopClock::new(NodeClock { ns_per_node: 1000 }, &stop, 5_000_000);
        assert_eq!(c.now_ns(4999), 4_999_000);
        assert_eq!(c.now_ns(5000), u64::MAX, "the cap");
        let mut never = NeverInterrupt;
        let mut uncapped = StopClock::new(NodeClock { ns_per_node: 1 }, &stop, u64::MAX);
        let mut m = Meter::new(Budget::Nodes(Budget::MAX_NODES), &mut uncapped, &mut never);
        assert_eq!(m.check(), None);
        stop.store(true, Ordering::Relaxed);
        assert_eq!(m.check(), Some(SearchEnd::OutOfBudget), "the flag");
    }
}
