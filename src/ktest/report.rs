// SPDX-License-Identifier: GPL-2.0

//! Deliberate kernel reports at load (`test_report=N`), so the test runner's detector is
//! proven to catch each kind (scripts/vm-run.sh; `make check` and `make check-debug`).
//!
//! Only root loads modules, so none of this is reachable by a user of the devices.

use kernel::{bindings, prelude::*};

/// `test_report` values.
pub(crate) const WARNING: u32 = 1;
/// Allocations whose addresses are forgotten (kmemleak reports them at the next scans).
pub(crate) const LEAK: u32 = 2;
/// An armed hrtimer freed with its memory (debug objects: "free active"; its fix-up cancels
/// the timer before the memory goes).
pub(crate) const FREE_ACTIVE_TIMER: u32 = 3;
/// A failing Rust `debug_assert!` (a panic with `CONFIG_RUST_DEBUG_ASSERTIONS`, nothing
/// without).
pub(crate) const DEBUG_ASSERT: u32 = 4;

/// Makes the report `kind` asks for (0: none).
pub(crate) fn report(kind: u32) -> Result {
    match kind {
        WARNING => {
            kernel::warn_on!(true);
        }
        LEAK => {
            leak()?;
            // The allocator's frames below this one held the address: overwrite them, or
            // kmemleak finds it there (a freed task stack is cached, and scanned).
            scrub_stack();
        }
        FREE_ACTIVE_TIMER => free_active_timer()?,
        DEBUG_ASSERT => {
            debug_assert!(
                core::hint::black_box(false),
                "test_report=4: a deliberate Rust debug assertion"
            );
        }
        _ => {}
    }
    Ok(())
}

/// Allocates a 128-byte block, a 16 KiB block and a 256 KiB vmalloc area, and forgets their
/// addresses.
#[inline(never)]
fn leak() -> Result {
    core::mem::forget(KBox::new([0x6bu8; 128], GFP_KERNEL)?);
    core::mem::forget(KVec::<u8>::with_capacity(16 << 10, GFP_KERNEL)?);
    core::mem::forget(VVec::<u8>::with_capacity(256 << 10, GFP_KERNEL)?);
    Ok(())
}

/// Zeroes 4 KiB of stack below the caller's frame (the kernel stack is 16 KiB, 32 with KASAN).
#[inline(never)]
fn scrub_stack() {
    let mut buf = [0u8; 4096];
    core::hint::black_box(&mut buf);
}

/// The armed timer's callback (it never runs: the timer is cancelled first).
///
/// # Safety
///
/// Called by the hrtimer core only, with the timer it was set up for.
unsafe extern "C" fn never(_t: *mut bindings::hrtimer) -> bindings::hrtimer_restart {
    crate::kmod::compat::HRTIMER_NORESTART
}

fn free_active_timer() -> Result {
    let mut b = KBox::<bindings::hrtimer>::new_uninit(GFP_KERNEL)?;
    let t = b.as_mut_ptr();
    // SAFETY: `t` points to memory owned by `b`, valid for a `hrtimer`; `hrtimer_setup`
    // initialises it.
    unsafe {
        bindings::hrtimer_setup(
            t,
            Some(never),
            bindings::CLOCK_MONOTONIC as i32,
            bindings::hrtimer_mode_HRTIMER_MODE_REL,
        )
    };
    // SAFETY: `t` was initialised just above and stays allocated until `b` is dropped; the
    // timer expires in an hour, long after it is cancelled below (or by the debug-objects
    // fix-up on the free).
    unsafe {
        bindings::hrtimer_start_range_ns(
            t,
            3_600_000_000_000,
            0,
            bindings::hrtimer_mode_HRTIMER_MODE_REL,
        )
    };
    if !cfg!(CONFIG_DEBUG_OBJECTS_TIMERS) || !cfg!(CONFIG_DEBUG_OBJECTS_FREE) {
        // Without debug objects nobody would cancel it: no report, and no dangling timer.
        // SAFETY: `t` is an initialised hrtimer, still allocated.
        unsafe { bindings::hrtimer_cancel(t) };
    }
    drop(b);
    Ok(())
}
