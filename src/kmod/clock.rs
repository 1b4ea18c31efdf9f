// SPDX-License-Identifier: GPL-2.0

//! The engines' view of time and signals inside the kernel.

use core::sync::atomic::{AtomicBool, Ordering};

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

/// A [`KernelClock`] that jumps past every deadline once `stop` is set, so the meter ends the
/// search as if its budget were spent: the best move so far is played
/// (`KGAMES_IOC_STOP_SEARCH`).
pub(crate) struct StopClock<'a> {
    clock: KernelClock,
    stop: &'a AtomicBool,
}

impl<'a> StopClock<'a> {
    /// A clock starting now, watching `stop`.
    pub(crate) fn new(stop: &'a AtomicBool) -> Self {
        StopClock {
            clock: KernelClock::new(),
            stop,
        }
    }
}

impl Clock for StopClock<'_> {
    fn now_ns(&mut self, nodes: u64) -> u64 {
        if self.stop.load(Ordering::Relaxed) {
            u64::MAX
        } else {
            self.clock.now_ns(nodes)
        }
    }
}

/// Stops a search when the current task has a signal pending.
pub(crate) struct SignalInterrupt;

impl Interrupt for SignalInterrupt {
    fn pending(&mut self) -> bool {
        kernel::current!().signal_pending()
    }
}
