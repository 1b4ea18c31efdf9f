//! Host only: what the tests and tools use and `kgames.ko` never does (the one `not(MODULE)`
//! gate in `mod.rs` leaves it out of the module): a fake clock and interrupt that make a
//! search's time deterministic, re-exported where they belong ([`budget`](super::budget)).

use super::budget::{Clock, Interrupt};

/// A fake clock for tests: `ns_per_node` nanoseconds elapse per searched node.
pub struct NodeClock {
    /// Simulated nanoseconds per node.
    pub ns_per_node: u64,
}

impl Clock for NodeClock {
    fn now_ns(&mut self, nodes: u64) -> u64 {
        nodes.saturating_mul(self.ns_per_node)
    }
}

/// An interrupt that is always pending (tests: a search stopped by a signal at once).
pub struct AlwaysInterrupt;

impl Interrupt for AlwaysInterrupt {
    fn pending(&mut self) -> bool {
        true
    }
}
