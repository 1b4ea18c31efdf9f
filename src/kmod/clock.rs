// SPDX-License-Identifier: GPL-2.0

//! The engines' view of time and signals inside the kernel (a search the device may stop wraps
//! [`KernelClock`] in [`StopClock`](crate::common::budget::StopClock)).

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

/// Stops a search when the current task has a signal pending. Its check, which the meter
/// makes every [`Meter::CHECK_INTERVAL`] nodes, is also a reschedule point, so a long search
/// in a write lets other tasks run on a kernel built without preemption.
///
/// [`Meter::CHECK_INTERVAL`]: crate::common::budget::Meter::CHECK_INTERVAL
pub(crate) struct SignalInterrupt;

impl Interrupt for SignalInterrupt {
    fn pending(&mut self) -> bool {
        cond_resched();
        kernel::current!().signal_pending()
    }
}

/// `cond_resched()`: gives the CPU away if a reschedule is due. The C macro becomes a call of
/// `__cond_resched` on kernels where the scheduler does not preempt kernel code by itself (no
/// `CONFIG_PREEMPTION`, or `CONFIG_PREEMPT_DYNAMIC`); elsewhere it is empty, and so is this.
/// The kernel crate of 7.3 has no binding for it.
pub(crate) fn cond_resched() {
    #[cfg(any(not(CONFIG_PREEMPTION), CONFIG_PREEMPT_DYNAMIC))]
    {
        extern "C" {
            fn __cond_resched() -> kernel::ffi::c_int;
        }
        // SAFETY: `__cond_resched` takes no argument and may sleep; this runs in process
        // context (a write's search) with no spinlock held and interrupts enabled.
        unsafe { __cond_resched() };
    }
}
