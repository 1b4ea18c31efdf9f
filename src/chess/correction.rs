//! Correction history: how far the searches of positions with the same pawns ended above or
//! below their static evaluation lately, added to the static evaluation where the search
//! prunes by it.
//!
//! A table of `i16` in caller-owned memory ([`CORRECTION_ENTRIES`] by default, 32 KiB),
//! half for each side to move, indexed by a hash of the pawns. Each entry is a moving
//! average of `(search score - static evaluation)` in units of 1/[`GRAIN`] centipawn,
//! weighted by the depth of the search that produced it, bounded by +-[`CORRECTION_MAX`].

use super::position::Position;
use super::square::{Color, Role};

/// The entries a search context is usually given (both sides: 32 KiB of `i16`).
pub const CORRECTION_ENTRIES: usize = 16_384;
/// Units of an entry per centipawn.
pub const GRAIN: i32 = 256;
/// The weight of all of an update (the new value's weight is `min(depth + 1, 16)` of it).
const WEIGHT_SCALE: i32 = 256;
/// The bound of an entry: a correction of at most 96 centipawns either way.
pub const CORRECTION_MAX: i32 = GRAIN * 96;

/// The index of `pos`'s entry in a table of `len` entries (`None` when `len` < 2): the side
/// to move picks the half, a multiplicative hash of both colours' pawns the entry in it.
#[inline]
fn index(pos: &Position, len: usize) -> Option<usize> {
    let half = len / 2;
    if half == 0 {
        return None;
    }
    let pawns = pos.by_role(Role::Pawn);
    let white = (pawns & pos.by_color(Color::White)).0;
    let black = (pawns & pos.by_color(Color::Black)).0;
    let h = white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    let h = (h ^ (h >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9) >> 32;
    let side = match pos.turn() {
        Color::White => 0,
        Color::Black => half,
    };
    Some(side + (h as usize) % half)
}

/// The correction of `pos`'s static evaluation in centipawns, from `table` (0 when empty).
#[inline]
pub(crate) fn correction(table: &[i16], pos: &Position) -> i32 {
    index(pos, table.len())
        .and_then(|i| table.get(i))
        .map_or(0, |&c| i32::from(c) / GRAIN)
}

/// Moves `pos`'s entry of `table` towards `score - eval` (centipawns), with the weight of a
/// search of `depth`.
#[inline]
pub(crate) fn update(table: &mut [i16], pos: &Position, depth: i32, score: i32, eval: i32) {
    let Some(entry) = index(pos, table.len()).and_then(|i| table.get_mut(i)) else {
        return;
    };
    let bound = CORRECTION_MAX / GRAIN;
    let target = (score - eval).clamp(-bound, bound) * GRAIN;
    let weight = (depth + 1).clamp(1, 16);
    let v = (i32::from(*entry) * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
    *entry = v.clamp(-CORRECTION_MAX, CORRECTION_MAX) as i16;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen.as_bytes()).unwrap()
    }

    /// Repeated searches that end 100 cp above the evaluation pull the entry up to the
    /// bound of +96 cp (and 2,000 cp below, down to -96); positions with the same pawns and
    /// side to move share it, another pawn structure or the other side to move does not.
    #[test]
    fn moves_towards_the_search_and_shares_by_pawns() {
        let mut table = [0i16; CORRECTION_ENTRIES];
        let a = pos("4k3/pp6/8/8/8/8/PP6/4K2R w - - 0 1");
        let same_pawns = pos("4k3/pp6/8/8/8/8/PP6/R3K3 w - - 0 1");
        let other_pawns = pos("4k3/p7/1p6/8/8/8/PP6/4K2R w - - 0 1");
        let other_side = pos("4k3/pp6/8/8/8/8/PP6/4K2R b - - 0 1");
        assert_eq!(correction(&table, &a), 0);
        update(&mut table, &a, 10, 40, 0);
        let first = correction(&table, &a);
        assert!((1..40).contains(&first), "{first}");
        for _ in 0..200 {
            update(&mut table, &a, 10, 100, 0);
        }
        // Within a centipawn of the bound (the average approaches it from below).
        let bound = CORRECTION_MAX / GRAIN;
        assert!((bound - 1..=bound).contains(&correction(&table, &a)));
        assert_eq!(correction(&table, &same_pawns), correction(&table, &a));
        assert_eq!(correction(&table, &other_pawns), 0);
        assert_eq!(correction(&table, &other_side), 0);
        for _ in 0..200 {
            update(&mut table, &a, 15, -1000, 1000);
        }
        assert!((-bound..=-bound + 1).contains(&correction(&table, &a)));
        // No table: nothing to read or write, no panic.
        update(&mut [], &a, 5, 100, 0);
        assert_eq!(correction(&[], &a), 0);
        assert_eq!(correction(&[7], &a), 0);
    }
}
