// SPDX-License-Identifier: GPL-2.0

//! A workqueue owned by the module: allocated at load, destroyed (drained first) when dropped,
//! so no work item of the module outlives it. The kxo machine has two: its games'
//! (`kgames_kxo`) and the TD trainer's (`kgames_td`).

use core::ptr::NonNull;

use kernel::{bindings, prelude::*, workqueue::Queue};

/// A workqueue owned by the module.
///
/// Invariant: `0` is a live workqueue from `alloc_workqueue`, destroyed exactly once in `drop`.
pub(crate) struct OwnedQueue(NonNull<bindings::workqueue_struct>);

// SAFETY: a workqueue may be used and destroyed from any thread.
unsafe impl Send for OwnedQueue {}
// SAFETY: queueing work is thread safe.
unsafe impl Sync for OwnedQueue {}

impl OwnedQueue {
    /// An unbound workqueue named `name` running at most `max_active` items at once.
    pub(crate) fn new(name: &'static CStr, max_active: usize) -> Result<Self> {
        Self::with_flags(name, max_active, 0)
    }

    /// An unbound workqueue whose workers run at high priority (nice -20).
    pub(crate) fn new_highpri(name: &'static CStr, max_active: usize) -> Result<Self> {
        Self::with_flags(name, max_active, bindings::wq_flags_WQ_HIGHPRI)
    }

    fn with_flags(name: &'static CStr, max_active: usize, flags: u32) -> Result<Self> {
        let max = i32::try_from(max_active).map_err(|_| EINVAL)?;
        // SAFETY: the name is a NUL-terminated string without format conversions (the
        // callers pass literals without `%`), so no variadic arguments are read.
        let p = unsafe {
            bindings::alloc_workqueue_noprof(
                name.as_char_ptr(),
                bindings::wq_flags_WQ_UNBOUND | flags,
                max,
            )
        };
        NonNull::new(p).map(OwnedQueue).ok_or(ENOMEM)
    }

    /// Waits until no work of this queue is queued or running (work queued by that work
    /// included).
    pub(crate) fn drain(&self) {
        // SAFETY: by the type invariant the workqueue is live; `drain_workqueue` may sleep
        // and its callers are in process context (module unload).
        unsafe { bindings::drain_workqueue(self.0.as_ptr()) };
    }

    /// The queue, to enqueue work on.
    pub(crate) fn queue(&self) -> &Queue {
        // SAFETY: by the type invariant the pointer is a live workqueue for as long as `self`.
        unsafe { Queue::from_raw(self.0.as_ptr()) }
    }
}

impl Drop for OwnedQueue {
    fn drop(&mut self) {
        // SAFETY: by the type invariant the workqueue is live and destroyed only here;
        // `destroy_workqueue` drains the work still queued first.
        unsafe { bindings::destroy_workqueue(self.0.as_ptr()) };
    }
}
