//! Late-move reductions: how much shallower a quiet move late in the ordering is searched
//! first, as a table computed at compile time in integer arithmetic.

/// A quiet move searched as move `i` (from 0) of a node at `depth` is first searched
/// `LMR[depth][i]` plies shallower: 0.75 + ln(depth) ln(i) / 2.25, rounded down.
static LMR: [[u8; 64]; 64] = lmr_table();

/// log2(x) in 8.8 fixed point (0 for x = 0), from the integer part and 8 squarings of the
/// normalised mantissa.
const fn log2_q8(x: u32) -> i32 {
    if x == 0 {
        return 0;
    }
    let int = 31 - x.leading_zeros();
    // x / 2^int in 1.16 fixed point: 1.0 <= m < 2.0.
    let mut m = ((x as u64) << 16) >> int;
    let mut frac = 0;
    let mut bit = 128;
    while bit > 0 {
        m = (m * m) >> 16;
        if m >= 2 << 16 {
            m >>= 1;
            frac |= bit;
        }
        bit >>= 1;
    }
    (int as i32) * 256 + frac
}

const fn lmr_table() -> [[u8; 64]; 64] {
    let mut t = [[0u8; 64]; 64];
    let mut d = 1;
    while d < 64 {
        let mut i = 1;
        while i < 64 {
            // (ln 2)^2 / 2.25 = 0.2135 ~ 55 / 256; 0.75 = 192 / 256.
            let r = (192 + ((log2_q8(d as u32) * log2_q8(i as u32) * 55) >> 16)) >> 8;
            t[d][i] = r as u8;
            i += 1;
        }
        d += 1;
    }
    t
}

/// The reduction of the quiet move `index` (from 0) of a node at `depth` (both clamped to
/// the table: depth 0-63, index 0-63).
pub(crate) fn late_move_reduction(depth: i32, index: usize) -> i32 {
    LMR.get(depth.clamp(0, 63) as usize)
        .and_then(|row| row.get(index.min(63)))
        .map_or(0, |&r| i32::from(r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log2_in_fixed_point() {
        assert_eq!(log2_q8(1), 0);
        assert_eq!(log2_q8(2), 256);
        assert_eq!(log2_q8(64), 6 * 256);
        // log2(3) = 1.58496: 405.75 / 256.
        assert_eq!(log2_q8(3), 405);
        assert_eq!(log2_q8(0), 0);
    }

    #[test]
    fn reductions_follow_the_formula() {
        // 0.75 + ln(d) ln(i) / 2.25, rounded down.
        for (depth, index, want) in [(3, 2, 1), (3, 3, 1), (6, 8, 2), (10, 10, 3), (20, 40, 5)] {
            assert_eq!(
                late_move_reduction(depth, index),
                want,
                "depth {depth} move {index}"
            );
        }
        assert_eq!(late_move_reduction(1, 1), 0);
        // Out of the table: clamped, never a panic.
        assert_eq!(late_move_reduction(-5, 10), 0);
        assert_eq!(late_move_reduction(1000, 1000), late_move_reduction(63, 63));
        // Never smaller for a later move or a deeper node.
        for d in 1..63 {
            for i in 1..63 {
                assert!(late_move_reduction(d, i + 1) >= late_move_reduction(d, i));
                assert!(late_move_reduction(d + 1, i) >= late_move_reduction(d, i));
            }
        }
    }
}
