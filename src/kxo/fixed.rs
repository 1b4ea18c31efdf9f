//! Fixed-point arithmetic for the agents (no floating point in the kernel): Q16.16 values,
//! `ln` by the binary logarithm's repeated squaring, and `sqrt` by the integer square root.
//!
//! Error bounds: [`ln_q16`] is within 1 unit (1 / 65536) of `ln x` for every `x` up to
//! `u32::MAX` (tested against `f64` in the lab, lab/kxo/tests/fixed.rs); [`sqrt_q16`] is the
//! exact floor of the true square root of its Q16.16 argument (tested here).

/// 1.0 in Q16.16.
pub const ONE: u32 = 1 << 16;
/// `ln 2` in Q0.32 (0.6931471805... * 2^32, rounded).
pub(crate) const LN2_Q32: u64 = 2_977_044_472;

/// `log2 x` with 20 fraction bits: the integer part from the position of the top bit, the
/// fraction bits by squaring the mantissa (each square doubles the logarithm; a square of 2
/// or more means the next bit is 1).
const fn log2_q20(x: u32) -> u32 {
    if x == 0 {
        return 0;
    }
    let k = 31 - x.leading_zeros();
    // The mantissa x / 2^k in [1, 2) as Q2.30.
    let mut y: u64 = ((x as u64) << 30) >> k;
    let mut frac = 0u32;
    let mut bit = 1u32 << 19;
    while bit != 0 {
        y = (y * y) >> 30; // < 4 * 2^30: fits
        if y >= 2 << 30 {
            y >>= 1;
            frac |= bit;
        }
        bit >>= 1;
    }
    (k << 20) | frac
}

/// `ln x` in Q16.16 for `x >= 1` (0 for 0 and 1): `log2 x * ln 2`, rounded.
pub const fn ln_q16(x: u32) -> u32 {
    ((log2_q20(x) as u64 * LN2_Q32 + (1 << 35)) >> 36) as u32
}

/// `sqrt v` for a Q16.16 `v`, in Q16.16 (the floor of the exact root).
pub const fn sqrt_q16(v: u32) -> u32 {
    ((v as u64) << 16).isqrt() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    // The bound of `ln_q16` against `f64` is tested in the lab (lab/kxo/tests/fixed.rs): the
    // product's tests use no floating point.

    #[test]
    fn sqrt_is_the_floor_of_the_root() {
        for v in (0..u32::MAX)
            .step_by(9_973)
            .chain([u32::MAX, ONE, 4 * ONE, ONE / 4])
        {
            // floor(sqrt(v / 2^16) * 2^16) = floor(sqrt(v * 2^16)): r*r <= v*2^16 < (r+1)^2.
            let (r, x) = (u64::from(sqrt_q16(v)), u64::from(v) << 16);
            assert!(r * r <= x && x < (r + 1) * (r + 1), "sqrt {v}: {r}");
        }
        assert_eq!(sqrt_q16(4 * ONE), 2 * ONE);
        assert_eq!(sqrt_q16(ONE / 4), ONE / 2);
    }

    #[test]
    fn ln_of_powers_of_two() {
        assert_eq!(ln_q16(0), 0);
        assert_eq!(ln_q16(1), 0);
        // ln 2^k = k ln 2: 45426 is ln 2 in Q16.16 (0.693147 * 65536 = 45426.1).
        for k in 1..32u32 {
            let want = (u64::from(k) * LN2_Q32 + (1 << 15)) >> 16;
            assert!(u64::from(ln_q16(1 << k)).abs_diff(want) <= 1, "ln 2^{k}");
        }
        assert_eq!(ln_q16(2), 45_426);
    }
}
