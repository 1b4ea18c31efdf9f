//! The classic evaluation: the first engine's hand-tuned weights over a few classic features
//! (mobility, potential mobility, corners, X and C squares, edges, stable discs, discs,
//! parity), kept so that matches against the pattern evaluation can be replayed
//! ([`super::eval::EvalKind::Classic`]). Host only: the module plays the pattern evaluation.

use super::bitboard::{self, neighbours, square_bit, Bitboard, CORNERS, EDGES};
use super::eval::{stable_discs, EVAL_LIMIT};

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

/// Signed difference of popcounts.
#[inline]
fn diff(a: Bitboard, b: Bitboard) -> i32 {
    a.count_ones() as i32 - b.count_ones() as i32
}

/// The classic evaluation of the position with `me` to move against `opp`.
pub fn evaluate(me: Bitboard, opp: Bitboard) -> i32 {
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
            evaluate(p.mover(), p.opponent()),
            evaluate(p.opponent(), p.mover())
        );
    }

    #[test]
    fn corners_are_good() {
        // Same disc count; one side has a corner, the other an X square.
        let me = square_bit(0) | square_bit(27);
        let opp = square_bit(9) | square_bit(36);
        assert!(evaluate(me, opp) > 0);
        assert!(evaluate(opp, me) < 0);
    }
}
