//! The exact solver's last four empties: dedicated code without table, move list or meter.
//!
//! Scores are final disc differences for `me` (empties to the winner), fail-soft within
//! `alpha..beta`. The empties are passed as squares: four in parity order (squares alone in
//! their quadrant or with two others first, [`parity_order`]), three and two in the order the
//! caller keeps. A square is only tried when it touches an opponent disc ([`ADJACENT`]), which
//! skips most illegal squares before computing flips. Every `sq` is a square index taken
//! modulo 64 by the functions it reaches, so no input can index out of bounds.

use super::bitboard::{diagonals, flips, square_bit, Bitboard, ADJACENT, COLUMN_A};
use super::position::final_score;

/// No move found yet (below every score).
const NONE: i32 = -65;

/// The quadrant (0..4) of a square.
#[inline]
const fn quadrant(sq: u8) -> u8 {
    ((sq >> 2) & 1) | ((sq >> 4) & 2)
}

/// The four empties with those in an odd quadrant (one or three empties there) first.
#[inline]
pub(crate) fn parity_order(sq: [u8; 4]) -> [u8; 4] {
    let q = sq.map(quadrant);
    let odd = |i: usize| q.iter().filter(|&&x| x == q[i]).count() & 1 == 1;
    let mut out = sq;
    let mut k = 0;
    for pass in [true, false] {
        for (i, &s) in sq.iter().enumerate() {
            if odd(i) == pass {
                if let Some(slot) = out.get_mut(k) {
                    *slot = s;
                }
                k += 1;
            }
        }
    }
    out
}

/// True when `sq` may be a move for `me`: it touches one of `opp`'s discs.
#[inline(always)]
fn touches(opp: Bitboard, sq: u8) -> bool {
    ADJACENT[usize::from(sq & 63)] & opp != 0
}

/// The flips of `me` playing `sq`, 0 when it is not a move.
#[inline(always)]
fn try_move(me: Bitboard, opp: Bitboard, sq: u8) -> Bitboard {
    if touches(opp, sq) {
        flips(me, opp, sq)
    } else {
        0
    }
}

/// Negamax over the empties `sq` (tried in order): each move's child is scored by `child`
/// with the other empties in their order. Shared by [`solve_4`] and [`solve_3`].
#[inline(always)]
fn solve_n<const N: usize, const M: usize>(
    me: Bitboard,
    opp: Bitboard,
    mut alpha: i32,
    beta: i32,
    passed: bool,
    sq: [u8; N],
    child: impl Fn(Bitboard, Bitboard, i32, i32, [u8; M]) -> i32 + Copy,
) -> i32 {
    let mut best = NONE;
    for (i, &s) in sq.iter().enumerate() {
        let f = try_move(me, opp, s);
        if f == 0 {
            continue;
        }
        let mut rest = [0u8; M];
        let others = sq.iter().enumerate().filter(|&(j, _)| j != i);
        for (slot, (_, &o)) in rest.iter_mut().zip(others) {
            *slot = o;
        }
        let v = -child(opp & !f, me | f | square_bit(s), -beta, -alpha, rest);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    return v;
                }
            }
        }
    }
    if best > NONE {
        return best;
    }
    if passed {
        return final_score(me, opp);
    }
    -solve_n(opp, me, -beta, -alpha, true, sq, child)
}

/// Four empties.
pub(crate) fn solve_4(
    me: Bitboard,
    opp: Bitboard,
    alpha: i32,
    beta: i32,
    passed: bool,
    sq: [u8; 4],
) -> i32 {
    solve_n(me, opp, alpha, beta, passed, sq, |m, o, a, b, rest| {
        solve_3(m, o, a, b, false, rest)
    })
}

/// Three empties.
pub(crate) fn solve_3(
    me: Bitboard,
    opp: Bitboard,
    alpha: i32,
    beta: i32,
    passed: bool,
    sq: [u8; 3],
) -> i32 {
    solve_n(me, opp, alpha, beta, passed, sq, |m, o, a, b, [x, y]| {
        solve_2(m, o, a, b, x, y, false)
    })
}

/// Two empties, `a` and `b`.
#[inline]
pub(crate) fn solve_2(
    me: Bitboard,
    opp: Bitboard,
    alpha: i32,
    beta: i32,
    a: u8,
    b: u8,
    passed: bool,
) -> i32 {
    let mut best = NONE;
    let f = try_move(me, opp, a);
    if f != 0 {
        best = -solve_last(opp & !f, me | f | square_bit(a), b);
        if best >= beta {
            return best;
        }
    }
    let f = try_move(me, opp, b);
    if f != 0 {
        best = best.max(-solve_last(opp & !f, me | f | square_bit(b), a));
    }
    if best > NONE {
        return best;
    }
    if passed {
        return final_score(me, opp);
    }
    -solve_2(opp, me, -beta, -alpha, a, b, true)
}

/// One empty square `sq` left, `me` to move.
#[inline]
pub(crate) fn solve_last(me: Bitboard, opp: Bitboard, sq: u8) -> i32 {
    // With one empty, mine + theirs = 63: d = mine - theirs is odd.
    let d = me.count_ones() as i32 * 2 - 63;
    let f = last_flip_count(me, sq);
    if f != 0 {
        return d + 1 + 2 * f;
    }
    let g = last_flip_count(opp, sq);
    if g != 0 {
        return d - 1 - 2 * g;
    }
    // Nobody can play the last square: it goes to the winner (d is never 0).
    if d > 0 {
        d + 1
    } else {
        d - 1
    }
}

/// How many discs `own` flips by playing `sq` on a board whose only empty square is `sq`
/// (every other square not in `own` is the opponent's).
///
/// Each of the four lines through `sq` is gathered into one byte (bit `i` for the line's
/// square in column `i`, or row `i` for the column) and looked up in [`LAST_FLIPS`]. A
/// diagonal's byte has 0 for the columns the diagonal does not reach: those count as
/// opponent discs, but they lie beyond the diagonal's ends, where no disc of `own` can
/// bracket them, so they never add to the count.
#[inline(always)]
pub(crate) fn last_flip_count(own: Bitboard, sq: u8) -> i32 {
    let sq = sq & 63;
    let (row, col) = (sq >> 3, sq & 7);
    let [diagonal, anti] = diagonals(sq);
    let r = (own >> (8 * row)) as u8;
    let c = (((own >> col) & COLUMN_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
    let d = ((own & diagonal).wrapping_mul(COLUMN_A) >> 56) as u8;
    let a = ((own & anti).wrapping_mul(COLUMN_A) >> 56) as u8;
    let by_col = &LAST_FLIPS[usize::from(col)];
    let by_row = &LAST_FLIPS[usize::from(row)];
    i32::from(by_col[usize::from(r)])
        + i32::from(by_row[usize::from(c)])
        + i32::from(by_col[usize::from(d)])
        + i32::from(by_col[usize::from(a)])
}

/// `LAST_FLIPS[i][line]`: the discs flipped by playing position `i` (0..8) of a line of eight
/// whose own discs are the bits of `line` and every other position but `i` is the opponent's.
/// 2 KiB.
static LAST_FLIPS: [[u8; 256]; 8] = build_last_flips();

const fn build_last_flips() -> [[u8; 256]; 8] {
    let mut t = [[0u8; 256]; 8];
    let mut i = 0;
    while i < 8 {
        let mut line = 0;
        while line < 256 {
            let mut n = 0;
            // Towards higher positions, then lower: a run of others closed by an own disc.
            let mut j = i + 1;
            while j < 8 && line & (1 << j) == 0 {
                j += 1;
            }
            if j < 8 {
                n += j - i - 1;
            }
            let mut j = i as i32 - 1;
            while j >= 0 && line & (1 << j) == 0 {
                j -= 1;
            }
            if j >= 0 {
                n += i - j as usize - 1;
            }
            t[i][line] = n as u8;
            line += 1;
        }
        i += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_square() {
        // X everywhere but a1 (empty) and b1 (O).
        let o = square_bit(1);
        let x = !(o | 1);
        // X at a1 flips b1 (c1 is X): 64-0.
        assert_eq!(solve_last(x, o, 0), 64);
        // O to move at a1 flips nothing (b1 is its own); X then plays it.
        assert_eq!(solve_last(o, x, 0), -64);
    }

    #[test]
    fn last_flip_count_agrees_with_flips() {
        let mut rng = crate::common::rng::Rng::new(11);
        for _ in 0..20_000 {
            let sq = rng.below(64) as u8;
            let own = rng.next_u64() & !square_bit(sq);
            let opp = !own & !square_bit(sq);
            assert_eq!(
                last_flip_count(own, sq),
                flips(own, opp, sq).count_ones() as i32,
                "own {own:#x} sq {sq}"
            );
        }
    }

    #[test]
    fn parity_puts_lone_squares_first() {
        // a1 and b1 share a quadrant, h8 and a8 are alone in theirs.
        assert_eq!(parity_order([0, 1, 63, 56]), [63, 56, 0, 1]);
        // Two pairs: order kept.
        assert_eq!(parity_order([0, 1, 62, 63]), [0, 1, 62, 63]);
        // Three and one: all odd, order kept.
        assert_eq!(parity_order([0, 1, 2, 63]), [0, 1, 2, 63]);
    }
}
