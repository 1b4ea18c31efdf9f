//! The network's two inner loops in AVX2, written in `asm!` so that they are the same
//! instructions in the kernel's build (no SSE or AVX for the compiler, soft-float) and on the
//! host: the accumulator update (`dst = src - gone + came`, 16 i16 lanes a step) and the
//! clipped-ReLU output dot product (`vpmaxsw`/`vpminsw` to `0..=QA`, `vpmaddwd` into eight
//! i32 lanes).
//!
//! The callers ([`super::nnue`]) guarantee what the `unsafe` needs: the CPU has AVX2 (the
//! network was switched to it by an [`Avx2`](super::nnue::Avx2), whose maker checked), the
//! vector registers may be used (in the kernel, between `kernel_fpu_begin_mask` and
//! `kernel_fpu_end`: [`FpuSection`](super::nnue::FpuSection)),
//! and every pointer is valid for the bytes the loop reads or writes, which the safe
//! wrappers here check from the slices' lengths.

#[cfg(target_arch = "x86_64")]
use core::arch::asm;

/// Bytes a step: one `ymm` register, 16 i16 (a power of two).
#[cfg(target_arch = "x86_64")]
const STEP: usize = 32;

/// A column of zeros as long as the longest (`MAX_HIDDEN` i16), subtracted when one piece
/// is gone.
#[cfg(target_arch = "x86_64")]
static ZEROS: [u8; 2 * super::nnue::MAX_HIDDEN] = [0; 2 * super::nnue::MAX_HIDDEN];

/// Elsewhere there is no AVX2: [`Network::with_avx2`](super::nnue::Network::with_avx2)
/// leaves the network scalar, and these decline.
#[cfg(not(target_arch = "x86_64"))]
pub(super) unsafe fn update(_: &mut [i16], _: &[i16], _: &[&[u8]], _: &[u8]) -> bool {
    false
}

/// See the x86-64 version.
#[cfg(not(target_arch = "x86_64"))]
pub(super) unsafe fn dot_crelu(_: &[i16], _: &[u8], _: i16) -> Option<i64> {
    None
}

/// `dst = src - gone[0] (- gone[1]) + came`, wrapping, i16 by i16, over `dst.len()` lanes.
/// Returns false, and writes nothing, unless `dst.len()` is a non-zero multiple of 16 (at
/// most `MAX_HIDDEN`), `gone` has one or two columns, and `src` and every column
/// (little-endian i16 bytes) are at least as long.
///
/// # Safety
///
/// The CPU has AVX2 and the vector registers may be used here (see the module's text).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(super) unsafe fn update(dst: &mut [i16], src: &[i16], gone: &[&[u8]], came: &[u8]) -> bool {
    let bytes = 2 * dst.len();
    if bytes == 0
        || bytes & (STEP - 1) != 0
        || src.len() < dst.len()
        || came.len() < bytes
        || gone.iter().any(|g| g.len() < bytes)
    {
        return false;
    }
    // One piece gone: the second column subtracted is zeros (one load and one `vpsubw`
    // more a step, against a second copy of the loop).
    let (g0, g1) = match gone {
        [g] if bytes <= ZEROS.len() => (g.as_ptr(), ZEROS.as_ptr()),
        [g0, g1] => (g0.as_ptr(), g1.as_ptr()),
        _ => return false,
    };
    // SAFETY: the caller's AVX2 and FPU section; `dst`, `src`, `came` and both subtracted
    // columns (`gone`'s, or `ZEROS`) are valid for `bytes` bytes (checked above), `bytes`
    // is a non-zero multiple of 32, and the loop touches bytes `0..bytes` of each; ymm0 is
    // declared clobbered.
    unsafe {
        asm!(
            "xor {i:e}, {i:e}",
            "2:",
            "vmovdqu ymm0, ymmword ptr [{s} + {i}]",
            "vpsubw ymm0, ymm0, ymmword ptr [{g0} + {i}]",
            "vpsubw ymm0, ymm0, ymmword ptr [{g1} + {i}]",
            "vpaddw ymm0, ymm0, ymmword ptr [{c} + {i}]",
            "vmovdqu ymmword ptr [{d} + {i}], ymm0",
            "add {i}, 32",
            "cmp {i}, {n}",
            "jb 2b",
            "vzeroupper",
            i = out(reg) _,
            s = in(reg) src.as_ptr(),
            g0 = in(reg) g0,
            g1 = in(reg) g1,
            c = in(reg) came.as_ptr(),
            d = in(reg) dst.as_mut_ptr(),
            n = in(reg) bytes,
            out("ymm0") _,
            options(nostack),
        );
    }
    true
}

/// `sum(clamp(side[i], 0, qa) * w[i])` over `side.len()` lanes, `w` little-endian i16
/// bytes; `None` unless `side.len()` is a non-zero multiple of 16 and `w` is long enough.
/// Exact when the sum fits an i32, which the network's bounds guarantee (at most
/// `MAX_HIDDEN` terms of at most `QA * 2^15` each).
///
/// # Safety
///
/// The CPU has AVX2 and the vector registers may be used here (see the module's text).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(super) unsafe fn dot_crelu(side: &[i16], w: &[u8], qa: i16) -> Option<i64> {
    let bytes = 2 * side.len();
    if bytes == 0 || bytes & (STEP - 1) != 0 || w.len() < bytes {
        return None;
    }
    let sum: i32;
    // SAFETY: the caller's AVX2 and FPU section; `side` and `w` are valid for `bytes` bytes
    // (checked above), `bytes` is a non-zero multiple of 32 and the loop reads bytes
    // `0..bytes` of each; ymm0, ymm1, ymm3-ymm5 are declared clobbered.
    unsafe {
        asm!(
            "vpxor xmm3, xmm3, xmm3",
            "vpxor xmm4, xmm4, xmm4",
            "vmovd xmm5, {qa:e}",
            "vpbroadcastw ymm5, xmm5",
            "xor {i:e}, {i:e}",
            "2:",
            "vmovdqu ymm0, ymmword ptr [{a} + {i}]",
            "vpmaxsw ymm0, ymm0, ymm4",
            "vpminsw ymm0, ymm0, ymm5",
            "vpmaddwd ymm0, ymm0, ymmword ptr [{w} + {i}]",
            "vpaddd ymm3, ymm3, ymm0",
            "add {i}, 32",
            "cmp {i}, {n}",
            "jb 2b",
            "vextracti128 xmm1, ymm3, 1",
            "vpaddd xmm3, xmm3, xmm1",
            "vpshufd xmm1, xmm3, 0x4e",
            "vpaddd xmm3, xmm3, xmm1",
            "vpshufd xmm1, xmm3, 0xb1",
            "vpaddd xmm3, xmm3, xmm1",
            "vmovd {sum:e}, xmm3",
            "vzeroupper",
            qa = in(reg) u32::from(qa as u16),
            i = out(reg) _,
            a = in(reg) side.as_ptr(),
            w = in(reg) w.as_ptr(),
            n = in(reg) bytes,
            sum = lateout(reg) sum,
            out("ymm0") _,
            out("ymm1") _,
            out("ymm3") _,
            out("ymm4") _,
            out("ymm5") _,
            options(nostack, readonly),
        );
    }
    Some(i64::from(sum))
}
