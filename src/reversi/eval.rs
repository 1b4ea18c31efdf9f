//! The static evaluations: [`EvalKind::Pattern`] (learned pattern weights, [`super::pattern`],
//! the default) and [`EvalKind::Classic`], the first engine's hand-tuned weights over a few
//! classic features ([`classic`]), kept selectable so that matches between both can be
//! replayed.
//!
//! Scores are from the side to move's point of view, in units where 100 is worth about one
//! disc. Every weight has an opening value (60 empties) and an endgame value (0 empties); the
//! evaluation interpolates linearly on the number of empties. The result always lies well
//! inside `-EVAL_LIMIT..=EVAL_LIMIT`.

use super::bitboard::{
    self, neighbours, square_bit, Bitboard, COLUMN_A, COLUMN_H, CORNERS, EDGES, ROW_1, ROW_8,
};

/// Bound on the absolute value of any evaluation (far below the search's win scores).
pub const EVAL_LIMIT: i32 = 20_000;

/// One weight: (opening, endgame).
#[derive(Clone, Copy)]
struct Weight(i32, i32);

/// Per move of mobility difference.
const MOBILITY: Weight = Weight(90, 50);
/// Per square of potential mobility difference (empties next to the other side's discs).
const POTENTIAL: Weight = Weight(35, 10);
/// Per corner.
const CORNER: Weight = Weight(750, 450);
/// Per X square (b2, g2, b7, g7) next to an empty corner.
const X_SQUARE: Weight = Weight(-350, -100);
/// Per C square (a2, b1, ...) next to an empty corner.
const C_SQUARE: Weight = Weight(-120, -30);
/// Per edge disc (corners excluded).
const EDGE: Weight = Weight(8, 20);
/// Per simple stable disc (corners and edge runs from them, full edges).
const STABLE: Weight = Weight(90, 110);
/// Per disc of difference.
const DISCS: Weight = Weight(-6, 70);
/// For the side that gets the last move (odd number of empties), scaled in as the game ends.
const PARITY: Weight = Weight(0, 250);

/// Corner, its X square, its two C squares.
const CORNER_ZONES: [(u8, u8, Bitboard); 4] = [
    (0, 9, square_bit(1) | square_bit(8)),
    (7, 14, square_bit(6) | square_bit(15)),
    (56, 49, square_bit(48) | square_bit(57)),
    (63, 54, square_bit(55) | square_bit(62)),
];

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

/// Signed difference of popcounts.
#[inline]
fn diff(a: Bitboard, b: Bitboard) -> i32 {
    a.count_ones() as i32 - b.count_ones() as i32
}

/// Which static evaluation a search uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// The learned pattern evaluation.
    #[default]
    Pattern,
    /// The hand-tuned classic evaluation.
    Classic,
}

impl EvalKind {
    /// The evaluation of `me` to move against `opp`.
    #[inline]
    pub fn evaluate(self, me: Bitboard, opp: Bitboard) -> i32 {
        match self {
            EvalKind::Pattern => super::pattern::evaluate(me, opp),
            EvalKind::Classic => classic(me, opp),
        }
    }
}

/// The classic evaluation of the position with `me` to move against `opp`.
pub fn classic(me: Bitboard, opp: Bitboard) -> i32 {
    let occupied = me | opp;
    let empty = !occupied;
    let empties = empty.count_ones() as i32;

    let my_moves = bitboard::moves(me, opp);
    let opp_moves = bitboard::moves(opp, me);
    let mobility = diff(my_moves, opp_moves);
    let potential = diff(neighbours(opp) & empty, neighbours(me) & empty);
    let corners = diff(me & CORNERS, opp & CORNERS);

    let (mut x_sq, mut c_sq) = (0i32, 0i32);
    for (corner, x, c) in CORNER_ZONES {
        if empty & square_bit(corner) != 0 {
            x_sq += diff(me & square_bit(x), opp & square_bit(x));
            c_sq += diff(me & c, opp & c);
        }
    }
    let edges = diff(me & EDGES & !CORNERS, opp & EDGES & !CORNERS);
    let stable = diff(stable_discs(me, occupied), stable_discs(opp, occupied));
    let discs = diff(me, opp);
    let parity = if empties & 1 == 1 { 1 } else { -1 };

    let features: [(Weight, i32); 9] = [
        (MOBILITY, mobility),
        (POTENTIAL, potential),
        (CORNER, corners),
        (X_SQUARE, x_sq),
        (C_SQUARE, c_sq),
        (EDGE, edges),
        (STABLE, stable),
        (DISCS, discs),
        (PARITY, parity),
    ];
    let (mut open, mut end) = (0i32, 0i32);
    for (w, f) in features {
        open += w.0 * f;
        end += w.1 * f;
    }
    // Features are bounded by 64 and weights by 1000: no overflow.
    let e = empties.clamp(0, 60);
    let score = (open * e + end * (60 - e)) / 60;
    score.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::position::Position;

    #[test]
    fn start_is_balanced_and_symmetric() {
        let p = Position::start();
        assert_eq!(
            classic(p.mover(), p.opponent()),
            classic(p.opponent(), p.mover())
        );
    }

    #[test]
    fn corners_are_good() {
        // Same disc count; one side has a corner, the other an X square.
        let me = square_bit(0) | square_bit(27);
        let opp = square_bit(9) | square_bit(36);
        assert!(classic(me, opp) > 0);
        assert!(classic(opp, me) < 0);
    }

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
