// SPDX-License-Identifier: GPL-2.0

//! The vector registers for `/dev/chess`'s network: the kernel's FPU section
//! (`kernel_fpu_begin_mask` and `kernel_fpu_end`) as the engine's [`FpuSection`], offered at
//! load when the boot CPU has AVX2 (docs/engines/chess-nnue.md, "AVX2 in the kernel").
//!
//! Invariant: the engine opens a section around one accumulator update or one output sum,
//! in process context (the searches run in the user's thread or a worker of the search
//! pool), and nothing inside it sleeps, allocates or takes a lock.

use kernel::bindings;

use crate::chess::nnue::{Avx2, FpuSection};

/// `KFPU_MXCSR` of arch/x86/include/asm/fpu/api.h (`_BITUL(1)`): MXCSR set to its default.
/// The network's loops are integer-only, so the x87 state is left alone.
const KFPU_MXCSR: u32 = 1 << 1;

fn begin() {
    // SAFETY: called only by the engine's network, in process context (see the module's
    // invariant), and always paired with `end` before anything that may sleep.
    unsafe { bindings::kernel_fpu_begin_mask(KFPU_MXCSR) }
}

fn end() {
    // SAFETY: closes the section `begin` opened on this CPU (preemption is off in between).
    unsafe { bindings::kernel_fpu_end() }
}

/// Whether the boot CPU has the feature `bit` (`X86_FEATURE_*`): `boot_cpu_has`, a static
/// inline in C, read from `boot_cpu_data.x86_capability`. The kernel clears AVX2 there when
/// it did not enable the AVX state (XSAVE off, `clearcpuid=avx2`).
fn boot_cpu_has(bit: u32) -> bool {
    // SAFETY: `boot_cpu_data` is written during boot, before any module loads, and only
    // read afterwards; the read copies the array (the union's `u32` view of the capability
    // words, which every bit pattern is valid for) through a raw pointer, with no reference
    // to the `static mut`.
    let caps = unsafe {
        core::ptr::addr_of!(bindings::boot_cpu_data.__bindgen_anon_3.x86_capability).read()
    };
    caps.get((bit / 32) as usize)
        .is_some_and(|word| word & (1 << (bit % 32)) != 0)
}

/// The section vouched for AVX2 when the boot CPU has it, else `None` (the plain loops).
pub(crate) fn avx2() -> Option<Avx2> {
    if !boot_cpu_has(bindings::X86_FEATURE_AVX2) {
        return None;
    }
    let section = FpuSection { begin, end };
    // SAFETY: the boot CPU has AVX2 and the kernel enabled its state (checked above), and
    // between `begin` and `end` (the kernel's FPU section) the vector registers may be used.
    Some(unsafe { Avx2::new(section) })
}
