//! The static evaluations: [`EvalKind::Pattern`] (learned pattern weights, [`super::pattern`],
//! the default) and, on the host, `EvalKind::Classic`, the first engine's hand-tuned weights
//! over a few classic features (`super::classic`), kept selectable so that matches between
//! both can be replayed.
//!
//! Scores are from the side to move's point of view, in units where 100 is worth about one
//! disc. Every weight has an opening value (60 empties) and an endgame value (0 empties); the
//! evaluation interpolates linearly on the number of empties. The result always lies well
//! inside `-EVAL_LIMIT..=EVAL_LIMIT`.

use super::bitboard::{Bitboard, COLUMN_A, COLUMN_H, CORNERS, ROW_1, ROW_8};

/// Bound on the absolute value of any evaluation (far below the search's win scores).
pub const EVAL_LIMIT: i32 = 20_000;

/// The simple stable discs of `own`: corners, edge runs contiguous with an own corner, and
/// every disc on a completely filled edge. (Edge discs can only be flipped along their edge.)
pub fn stable_discs(own: Bitboard, occupied: Bitboard) -> Bitboard {
    let rows = ROW_1 | ROW_8;
    let cols = COLUMN_A | COLUMN_H;
    let mut s = own & CORNERS;
    if s != 0 {
        // An edge run is at most 7 long: six widening steps reach the far corner's neighbour.
        for _ in 0..6 {
            s |= own & (((s << 1 | s >> 1) & rows) | ((s << 8 | s >> 8) & cols));
        }
    }
    for edge in [ROW_1, ROW_8, COLUMN_A, COLUMN_H] {
        if occupied & edge == edge {
            s |= own & edge;
        }
    }
    s
}

/// Which static evaluation a search uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// The learned pattern evaluation.
    #[default]
    Pattern,
    /// The hand-tuned classic evaluation.
    #[cfg(not(MODULE))]
    Classic,
    /// The pattern evaluation with other weights than the embedded ones (host only: a set
    /// being tried against the shipped one), in `weights.bin`'s layout without its magic.
    #[cfg(not(MODULE))]
    Weights(&'static [i16]),
}

impl EvalKind {
    /// The evaluation of `me` to move against `opp`.
    #[inline]
    pub fn evaluate(self, me: Bitboard, opp: Bitboard) -> i32 {
        match self {
            EvalKind::Pattern => super::pattern::evaluate(me, opp),
            #[cfg(not(MODULE))]
            EvalKind::Classic => super::classic::evaluate(me, opp),
            #[cfg(not(MODULE))]
            EvalKind::Weights(w) => super::host::evaluate_with(w, me, opp),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::bitboard::square_bit;

    #[test]
    fn stable_edges() {
        // a1..d1 own, e1 other: a1-d1 stable; h1 alone is a corner.
        let own = 0b1111 | square_bit(7);
        let s = stable_discs(own, own | square_bit(4));
        assert_eq!(s, own);
        // Without the corner nothing on the edge is stable.
        assert_eq!(stable_discs(0b1110, 0b11110), 0);
        // A full edge is stable for both sides.
        assert_eq!(stable_discs(0b0101_0110, 0xFF), 0b0101_0110);
    }
}
