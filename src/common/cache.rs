//! Prefetching: a hint that starts loading a value's cache line before it is read, so that
//! the wait for memory overlaps other work (the engines' transposition-table probes).

/// Starts loading the cache line of `value`. A hint only: x86-64's `prefetcht0`, nothing on
/// other architectures.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `prefetcht0` is part of x86-64's base instructions (no vector or FPU state, so
    // allowed in the kernel anywhere); it only hints the cache: it reads nothing into a
    // register, writes nothing, changes no flag and never faults, and `value` is a live
    // reference besides.
    unsafe {
        core::arch::asm!(
            "prefetcht0 [{0}]",
            in(reg) core::ptr::from_ref(value),
            options(nostack, readonly, preserves_flags),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
