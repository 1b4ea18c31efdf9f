//! The network's two inner loops in AVX2, written in `asm!` so that they are the same
//! instructions in the kernel's build (no SSE or AVX for the compiler, soft-float) and on the
//! host: the accumulator update (`dst = src - gone + came`, 16 i16 lanes a step) and the
//! output dot product (`vpmaxsw`/`vpminsw` to `0..=QA`, then `vpmaddwd` into eight i32
//! lanes, or squared: `vpmullw`, then `vpmaddwd` of half the squares and of their low bits).
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
pub(super) unsafe fn dot<const SQUARED: bool>(_: &[i16], _: &[u8], _: i16) -> Option<i64> {
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

/// The output dot product's loop in `asm!`: `$setup`, then `vmovdqu` 16 i16 sums into ymm0
/// and clip them to `0..=qa` (`vpmaxsw`, `vpminsw`), then `$step` (which adds ymm0's terms
/// into the eight i32 lanes of ymm3, and may keep a second set in ymm2, using ymm0-ymm2 and
/// ymm6-ymm7), then `$finish` (which leaves the sum's lanes in ymm3), and at the end the lanes widened to i64 (`vpmovsxdq`)
/// and folded into `$sum`. Expands to an `unsafe` block's contents: the caller's checks and
/// SAFETY text cover it.
#[cfg(target_arch = "x86_64")]
macro_rules! clipped_dot {
    (
        $side:expr, $w:expr, $qa:expr, $bytes:expr, $sum:ident,
        [$($setup:literal),* $(,)?], [$($step:literal),+ $(,)?], [$($finish:literal),* $(,)?]
    ) => {
        asm!(
            "vpxor xmm3, xmm3, xmm3",
            "vpxor xmm4, xmm4, xmm4",
            "vmovd xmm5, {qa:e}",
            "vpbroadcastw ymm5, xmm5",
            $($setup,)*
            "xor {i:e}, {i:e}",
            "2:",
            "vmovdqu ymm0, ymmword ptr [{a} + {i}]",
            "vpmaxsw ymm0, ymm0, ymm4",
            "vpminsw ymm0, ymm0, ymm5",
            $($step,)+
            "add {i}, 32",
            "cmp {i}, {n}",
            "jb 2b",
            $($finish,)*
            "vextracti128 xmm1, ymm3, 1",
            "vpmovsxdq ymm0, xmm3",
            "vpmovsxdq ymm1, xmm1",
            "vpaddq ymm0, ymm0, ymm1",
            "vextracti128 xmm1, ymm0, 1",
            "vpaddq xmm0, xmm0, xmm1",
            "vpshufd xmm1, xmm0, 0x4e",
            "vpaddq xmm0, xmm0, xmm1",
            "vmovq {sum}, xmm0",
            "vzeroupper",
            qa = in(reg) u32::from($qa as u16),
            i = out(reg) _,
            a = in(reg) $side.as_ptr(),
            w = in(reg) $w.as_ptr(),
            n = in(reg) $bytes,
            sum = lateout(reg) $sum,
            out("ymm0") _,
            out("ymm1") _,
            out("ymm2") _,
            out("ymm3") _,
            out("ymm4") _,
            out("ymm5") _,
            out("ymm6") _,
            out("ymm7") _,
            options(nostack, readonly),
        )
    };
}

/// `sum(clamp(side[i], 0, qa) * w[i])` over `side.len()` lanes, or with `SQUARED`
/// `sum(clamp(side[i], 0, qa)^2 * w[i])`, `w` little-endian i16 bytes; `None` unless
/// `side.len()` is a non-zero multiple of 16, at most `MAX_HIDDEN`, and `w` is long enough.
///
/// - Clipped: `vpmaddwd` multiplies by the weights and adds pairs into eight i32 lanes.
///   Exact for `qa <= 255` and any weights: at most `MAX_HIDDEN` terms of at most
///   `255 * 2^15` each, 2,139,095,040 < 2^31 together.
/// - Squared: `vpmullw` squares the 16 clipped values in i16 lanes (a square is at most
///   `255^2` = 65025, exact as an unsigned 16-bit value). A square does not fit a signed
///   i16, half of it does: `v^2 = 2 * (v^2 >> 1) + (v & 1)` (a square is odd exactly when
///   `v` is), so `vpmaddwd` multiplies `v^2 >> 1` (at most 32512) by the weights into the
///   i32 lanes of ymm3 and `v & 1` into those of ymm2, and the lanes end as `2 * ymm3 +
///   ymm2`. Exact for `qa <= 255` and every weight within `+-SQUARED_LANE_WEIGHT`
///   ([`super::nnue::SQUARED_LANE_WEIGHT`], which the caller checks): a lane of ymm3 gets
///   at most `MAX_HIDDEN / 8` = 32 terms of at most `32512 * 1024`, so doubled it is at
///   most 2,130,706,432, and with ymm2's at most 32 x 1024 the lane is at most
///   2,130,739,200 < 2^31 (the bound of the exact sum of `v^2 * w`, which it is).
///
/// The lanes are summed in i64.
///
/// # Safety
///
/// The CPU has AVX2 and the vector registers may be used here (see the module's text).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(super) unsafe fn dot<const SQUARED: bool>(side: &[i16], w: &[u8], qa: i16) -> Option<i64> {
    let bytes = 2 * side.len();
    if bytes == 0
        || bytes & (STEP - 1) != 0
        || side.len() > super::nnue::MAX_HIDDEN
        || w.len() < bytes
    {
        return None;
    }
    let sum: i64;
    // SAFETY: the caller's AVX2 and FPU section; `side` and `w` are valid for `bytes` bytes
    // (checked above), `bytes` is a non-zero multiple of 32 and the loop reads bytes
    // `0..bytes` of each; ymm0-ymm7 are declared clobbered.
    unsafe {
        if SQUARED {
            clipped_dot!(
                side,
                w,
                qa,
                bytes,
                sum,
                // ymm7: 1 in every i16 lane; ymm2: the odd squares' lanes.
                [
                    "vpxor xmm2, xmm2, xmm2",
                    "vpcmpeqw ymm7, ymm7, ymm7",
                    "vpsrlw ymm7, ymm7, 15"
                ],
                [
                    "vpmullw ymm1, ymm0, ymm0",
                    "vpsrlw ymm1, ymm1, 1",
                    "vpand ymm0, ymm0, ymm7",
                    "vmovdqu ymm6, ymmword ptr [{w} + {i}]",
                    "vpmaddwd ymm1, ymm1, ymm6",
                    "vpmaddwd ymm0, ymm0, ymm6",
                    "vpaddd ymm3, ymm3, ymm1",
                    "vpaddd ymm2, ymm2, ymm0",
                ],
                ["vpslld ymm3, ymm3, 1", "vpaddd ymm3, ymm3, ymm2"]
            );
        } else {
            clipped_dot!(
                side,
                w,
                qa,
                bytes,
                sum,
                [],
                [
                    "vpmaddwd ymm0, ymm0, ymmword ptr [{w} + {i}]",
                    "vpaddd ymm3, ymm3, ymm0",
                ],
                []
            );
        }
    }
    Some(sum)
}
