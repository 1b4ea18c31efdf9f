//! The exact endgame solver: negascout on final disc differences.
//!
//! Scores are final disc differences for the side to move, empties given to the winner (the
//! FFO convention), in -64..=64. Move ordering: the table's move, then fastest-first (fewest
//! replies for the opponent, corner replies weighted most, then potential mobility), corners,
//! and from [`EVAL_ORDER_EMPTIES`] empties on the evaluation of the position left, from
//! [`SHALLOW_ORDER_EMPTIES`] on its value by a one-ply search (a shallow search). Cutoffs:
//! the table, enhanced transposition cutoffs (children looked up first) and a stability cap
//! (the opponent's stable discs bound our score). The children's table slots are prefetched
//! while the moves are ordered. With few empties the solver drops the table and sorting and
//! only orders by parity; the last two empties are solved by dedicated code, the last one by
//! counting flips.
//!
//! Stack: a sorted node keeps one 88-byte move list; the recursion depth is at most the
//! number of empties plus the passes on the line.

use super::bitboard::{self, square_bit, Bitboard, Squares, ADJACENT, CORNERS};
use super::eval::{stable_discs, EvalKind};
use super::lastmoves::{parity_order, solve_2, solve_3, solve_4, solve_last};
use super::movelist::MoveList;
use super::position::final_score;
use super::search::Searcher;
use super::tt::{self, Bound, NO_MOVE};

/// At or below this many empties: no table, no sorting, parity order only (and at or below
/// four, the dedicated code of `lastmoves`).
const SMALL_EMPTIES: u32 = 6;
/// At or above this many empties the table is probed and updated.
const TT_MIN_EMPTIES: u32 = 7;
/// At or above this many empties, children are looked up before searching (ETC). (FFO
/// #40-#49, round 8's weights: 10 against 12, 2% fewer nodes and 2% less time; with 14,
/// 2% more nodes.)
const ETC_MIN_EMPTIES: u32 = 10;

/// At or above this many empties, a move's ordering score also counts the evaluation of the
/// position it leaves (Edax and Zebra order by the evaluation far from the end).
const EVAL_ORDER_EMPTIES: u32 = 12;
/// The evaluation (100 a disc) is divided by this before it joins the ordering score (FFO
/// #40-#49: 16 against 25, 10% fewer nodes and 6% less time; 12 and 40 cost nodes).
const EVAL_ORDER_DIV: i32 = 16;
/// At or above this many empties, the ordering uses a one-ply search instead of the
/// evaluation (FFO #40-#49 against the evaluation alone: 17% fewer nodes and about 9% less
/// time; from 18 empties 10% and 7%, from 21 4% and 3%).
const SHALLOW_ORDER_EMPTIES: u32 = 15;

/// The stability cutoff is tried when alpha is at least this.
const STABILITY_MIN_ALPHA: i32 = 16;

/// The four quadrants, for parity ordering.
const QUADRANTS: [Bitboard; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// The evaluation of `me` to move, for move ordering. Out of line, so that its buffers live
/// only during the call and not in every [`Searcher::solve`] frame of the recursion.
#[inline(never)]
fn order_eval(eval: EvalKind, me: Bitboard, opp: Bitboard) -> i32 {
    eval.evaluate(me, opp)
}

/// The value for `me` to move with `moves` of its best move by a one-ply search (the
/// evaluation after each move, negated), or the evaluation when `me` has no move. For move
/// ordering; out of line like [`order_eval`].
#[inline(never)]
fn order_search1(eval: EvalKind, me: Bitboard, opp: Bitboard, moves: Bitboard) -> i32 {
    if moves == 0 {
        return order_eval(eval, me, opp);
    }
    let mut best = i32::MIN;
    for sq in Squares(moves) {
        let f = bitboard::flips(me, opp, sq);
        let v = -eval.evaluate(opp & !f, me | f | square_bit(sq));
        best = best.max(v);
    }
    best
}

/// The quadrants holding an odd number of empties.
#[inline]
pub(crate) fn odd_regions(empty: Bitboard) -> Bitboard {
    let mut odd = 0;
    for q in QUADRANTS {
        if (empty & q).count_ones() & 1 == 1 {
            odd |= q;
        }
    }
    odd
}

impl Searcher<'_, '_, '_> {
    /// The exact score of `me` to move within `alpha..beta` (fail-soft). `passed` tells that
    /// the previous ply was a pass. Returns 0 once stopped (see [`Searcher::stopped`]).
    ///
    /// A pass is taken in this frame, not by a recursive call (as in [`Searcher::pvs`]), so
    /// the recursion is at most one frame per empty square above the small solver's.
    pub(crate) fn solve(
        &mut self,
        mut me: Bitboard,
        mut opp: Bitboard,
        mut alpha: i32,
        mut beta: i32,
        mut passed: bool,
    ) -> i32 {
        let empty = !(me | opp);
        let n = empty.count_ones();
        if n <= SMALL_EMPTIES {
            return self.solve_small(me, opp, alpha, beta, passed);
        }
        let mut negate = false;
        loop {
            if self.tick() {
                return 0;
            }
            let moves = bitboard::moves(me, opp);
            let v = if moves != 0 {
                self.solve_moves(me, opp, moves, n, alpha, beta)
            } else if passed || bitboard::moves(opp, me) == 0 {
                final_score(me, opp)
            } else {
                (me, opp) = (opp, me);
                (alpha, beta) = (beta.wrapping_neg(), alpha.wrapping_neg());
                passed = true;
                negate = !negate;
                continue;
            };
            return if negate { v.wrapping_neg() } else { v };
        }
    }

    /// [`Searcher::solve`] at a node with `n` empties (more than the small solver's) where the
    /// side to move has `moves` (not 0).
    #[inline(always)]
    fn solve_moves(
        &mut self,
        me: Bitboard,
        opp: Bitboard,
        moves: Bitboard,
        n: u32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        // Stability cutoff: the opponent's stable discs cap our final score.
        if alpha >= STABILITY_MIN_ALPHA {
            let cap = 64 - 2 * stable_discs(opp, me | opp).count_ones() as i32;
            if cap <= alpha {
                return cap;
            }
            beta = beta.min(cap);
        }

        let key = tt::hash(me, opp);
        let mut tt_move = NO_MOVE;
        let use_tt = n >= TT_MIN_EMPTIES;
        if use_tt {
            if let Some(h) = self.tt.probe(key, true) {
                tt_move = h.best;
                match h.bound {
                    Some(Bound::Exact) => return h.score,
                    Some(Bound::Lower) => alpha = alpha.max(h.score),
                    Some(Bound::Upper) => beta = beta.min(h.score),
                    None => {}
                }
                if alpha >= beta {
                    return h.score;
                }
            }
        }

        if n >= ETC_MIN_EMPTIES {
            // Prefetch the children's slots for the cutoff's lookups below.
            for sq in Squares(moves) {
                let f = bitboard::flips(me, opp, sq);
                self.tt
                    .prefetch(tt::hash(opp & !f, me | f | square_bit(sq)));
            }
        }
        let mut list = MoveList::new();
        for sq in Squares(moves) {
            let bit = square_bit(sq);
            let score = if sq == tt_move {
                1023
            } else {
                let f = bitboard::flips(me, opp, sq);
                let (nme, nopp) = (me | f | bit, opp & !f);
                if n > TT_MIN_EMPTIES && n < ETC_MIN_EMPTIES {
                    self.tt.prefetch(tt::hash(nopp, nme));
                }
                if n >= ETC_MIN_EMPTIES {
                    // Enhanced transposition cutoff: a child known to score at most `u` for
                    // the opponent gives us at least `-u`.
                    if let Some(h) = self.tt.probe(tt::hash(nopp, nme), true) {
                        if matches!(h.bound, Some(Bound::Upper | Bound::Exact)) && -h.score >= beta
                        {
                            return -h.score;
                        }
                    }
                }
                let replies = bitboard::moves(nopp, nme);
                let mut s = 700 - 24 * replies.count_ones() as i32;
                s -= 36 * (replies & CORNERS).count_ones() as i32;
                s -= 3 * (bitboard::neighbours(nme) & !(nme | nopp)).count_ones() as i32;
                if bit & CORNERS != 0 {
                    s += 20;
                }
                if n >= SHALLOW_ORDER_EMPTIES {
                    // Shallow-search ordering: the opponent's best reply by a one-ply search.
                    s -= order_search1(self.eval, nopp, nme, replies) / EVAL_ORDER_DIV;
                } else if n >= EVAL_ORDER_EMPTIES {
                    // Evaluation ordering: the opponent's evaluation after the move, negated.
                    s -= order_eval(self.eval, nopp, nme) / EVAL_ORDER_DIV;
                }
                s
            };
            list.push(sq, score);
        }

        let Some((best, best_move)) = self.negascout(
            me,
            opp,
            &mut list,
            alpha,
            beta,
            -65,
            |s, nme, nopp, a, b| s.solve(nme, nopp, a, b, false),
        ) else {
            return 0;
        };
        if use_tt {
            self.tt.store(
                key,
                true,
                n as u8,
                Bound::of(best, alpha, beta),
                best,
                best_move,
            );
        }
        best
    }

    /// Plain fail-soft alpha-beta for a few empties, parity order, no table.
    fn solve_small(
        &mut self,
        me: Bitboard,
        opp: Bitboard,
        mut alpha: i32,
        beta: i32,
        passed: bool,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        let empty = !(me | opp);
        let mut sq = [0u8; 4];
        let n = empty.count_ones();
        if n <= 4 {
            for (slot, s) in sq.iter_mut().zip(Squares(empty)) {
                *slot = s;
            }
        }
        let [a, b, c, d] = sq;
        match n {
            0 => return final_score(me, opp),
            1 => return solve_last(me, opp, a),
            2 => return solve_2(me, opp, alpha, beta, a, b, passed),
            3 => return solve_3(me, opp, alpha, beta, passed, [a, b, c]),
            4 => return solve_4(me, opp, alpha, beta, passed, parity_order([a, b, c, d])),
            _ => {}
        }
        let odd = odd_regions(empty);
        let mut best = -65;
        for set in [empty & odd, empty & !odd] {
            for sq in Squares(set) {
                if ADJACENT[usize::from(sq & 63)] & opp == 0 {
                    continue;
                }
                let f = bitboard::flips(me, opp, sq);
                if f == 0 {
                    continue;
                }
                let v = -self.solve_small(opp & !f, me | f | square_bit(sq), -beta, -alpha, false);
                if self.stopped {
                    return 0;
                }
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            return best;
                        }
                    }
                }
            }
        }
        if best == -65 {
            // No move.
            if passed || bitboard::moves(opp, me) == 0 {
                return final_score(me, opp);
            }
            return -self.solve_small(opp, me, -beta, -alpha, true);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-ply ordering value is the best of the side to move's moves by the evaluation
    /// of the position each leaves, negated (the evaluation itself without a move).
    #[test]
    fn one_ply_ordering_value() {
        use crate::reversi::position::Position;
        let eval = EvalKind::default();
        let mut p = Position::start();
        for sq in [37u8, 43, 34, 29, 20] {
            p = p.play(sq).unwrap();
            let (me, opp) = (p.mover(), p.opponent());
            let moves = bitboard::moves(me, opp);
            let best = Squares(moves)
                .map(|m| {
                    let q = p.play(m).unwrap();
                    -eval.evaluate(q.mover(), q.opponent())
                })
                .max()
                .unwrap();
            assert_eq!(order_search1(eval, me, opp, moves), best);
            assert_ne!(best, eval.evaluate(me, opp));
        }
        let (me, opp) = (!1u64 & !2, 1u64);
        assert_eq!(order_search1(eval, me, opp, 0), eval.evaluate(me, opp));
    }

    #[test]
    fn odd_regions_by_quadrant() {
        // One empty in the a1 quadrant, two in the h8 quadrant.
        let empty = square_bit(0) | square_bit(63) | square_bit(62);
        assert_eq!(odd_regions(empty), QUADRANTS[0]);
    }
}
