// SPDX-License-Identifier: GPL-2.0

//! The engines' view of time and signals inside the kernel.

use kernel::time::{Instant, Monotonic};

use crate::common::budget::{Clock, Interrupt};

/// Nanoseconds since the clock was made, from the monotonic clock.
pub(crate) struct KernelClock {
    start: Instant<Monotonic>,
}

impl KernelClock {
    /// A clock starting now.
    pub(crate) fn new() -> Self {
        KernelClock {
            start: Instant::now(),
        }
    }
}

impl Clock for KernelClock {
    fn now_ns(&mut self, _nodes: u64) -> u64 {
        u64::try_from(self.start.elapsed().as_nanos()).unwrap_or(0)
    }
}

/// Stops a search when the current task has a signal pending.
pub(crate) struct SignalInterrupt;

impl Interrupt for SignalInterrupt {
    fn pending(&mut self) -> bool {
        kernel::current!().signal_pending()
    }
}
