//! 64-bit bitboards: move generation and flips by shifts and masks in the eight directions.
//!
//! Square `sq` (0..=63) is bit `sq`, with `sq = 8 * row + col`; column 0 is `a`, row 0 is `1`.
//! A shift by 1 moves one column right (towards `h`), a shift by 8 one row down (towards
//! row 8). Horizontal and diagonal shifts would wrap from column `h` to column `a` of the next
//! row, so the fills below mask the opponent's discs with [`INNER_COLUMNS`] first: a run of
//! opponent discs in those directions never contains column `a` or `h`, and the bracketing
//! disc after it is found by one more shift from columns `b`..`g`, which cannot wrap.
//!
//! Move generation is loop-free over squares: each direction is a fixed sequence of six
//! shift-and-mask steps (a run of opponent discs is at most six long). Flips for one move use
//! the eight precomputed rays of its square and isolate the first non-opponent square of each.

/// A set of squares, bit `sq` for square `sq`.
pub type Bitboard = u64;

/// Columns `b`..`g`: the squares a horizontal or diagonal run of flipped discs can occupy.
pub const INNER_COLUMNS: Bitboard = 0x7E7E_7E7E_7E7E_7E7E;
/// The four corners `a1`, `h1`, `a8`, `h8`.
pub const CORNERS: Bitboard = 0x8100_0000_0000_0081;
/// The 28 edge squares (rows 1 and 8, columns `a` and `h`), corners included.
pub const EDGES: Bitboard = 0xFF81_8181_8181_81FF;
/// Column `a`.
pub const COLUMN_A: Bitboard = 0x0101_0101_0101_0101;
/// Column `h`.
pub const COLUMN_H: Bitboard = 0x8080_8080_8080_8080;
/// Row 1.
pub const ROW_1: Bitboard = 0x0000_0000_0000_00FF;
/// Row 8.
pub const ROW_8: Bitboard = 0xFF00_0000_0000_0000;

/// The bitboard of one square; `sq` is taken modulo 64.
#[inline]
pub const fn square_bit(sq: u8) -> Bitboard {
    1u64 << (sq & 63)
}

/// Legal move targets towards higher indices along shift `s` (1, 7, 8 or 9), before masking
/// with the empties: squares reached from `me` over a run of one to six discs of `m` (the
/// opponent's discs that a run in this direction may cross).
///
/// The run is filled by doubling: two single steps find runs of one and two, then two double
/// steps over `pre` (discs of `m` whose neighbour against the direction is in `m` too) extend
/// them to four and six.
#[inline(always)]
fn moves_up(me: Bitboard, m: Bitboard, s: u32) -> Bitboard {
    let mut f = m & (me << s);
    f |= m & (f << s);
    let pre = m & (m << s);
    f |= pre & (f << (2 * s));
    f |= pre & (f << (2 * s));
    f << s
}

/// [`moves_up`] towards lower indices.
#[inline(always)]
fn moves_down(me: Bitboard, m: Bitboard, s: u32) -> Bitboard {
    let mut f = m & (me >> s);
    f |= m & (f >> s);
    let pre = m & (m >> s);
    f |= pre & (f >> (2 * s));
    f |= pre & (f >> (2 * s));
    f >> s
}

/// The legal moves of the side owning `me` against `opp` (`me & opp` must be empty).
#[inline]
pub fn moves(me: Bitboard, opp: Bitboard) -> Bitboard {
    let inner = opp & INNER_COLUMNS;
    let all = moves_up(me, inner, 1)
        | moves_down(me, inner, 1)
        | moves_up(me, opp, 8)
        | moves_down(me, opp, 8)
        | moves_up(me, inner, 7)
        | moves_down(me, inner, 7)
        | moves_up(me, inner, 9)
        | moves_down(me, inner, 9);
    all & !(me | opp)
}

/// The squares beyond each square in each direction, nearest first: rays 0..4 go towards
/// higher indices (`+1`, `+7`, `+8`, `+9`), rays 4..8 towards lower ones (`-1`, `-7`, `-8`,
/// `-9`). 64 x 8 words = 4 KiB of read-only data.
static RAYS: [[Bitboard; 8]; 64] = build_rays();

const fn build_rays() -> [[Bitboard; 8]; 64] {
    // (row step, column step) per ray, in the order documented on RAYS.
    const STEPS: [(i32, i32); 8] = [
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
        (0, -1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
    ];
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = STEPS[d];
            let (mut r, mut c) = (sq as i32 / 8 + dr, sq as i32 % 8 + dc);
            let mut ray = 0u64;
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                ray |= 1u64 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            rays[sq][d] = ray;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// The two diagonals through `sq`, without `sq`: `[a1-h8 direction, h1-a8 direction]` (`sq`
/// is taken modulo 64).
#[inline]
pub(crate) fn diagonals(sq: u8) -> [Bitboard; 2] {
    let rays = &RAYS[usize::from(sq & 63)];
    [rays[3] | rays[7], rays[1] | rays[5]]
}

/// The opponent discs flipped when the side owning `me` plays on `sq` (0 if the move flips
/// nothing, i.e. is illegal; the emptiness of `sq` is not checked; `sq` is taken modulo 64).
///
/// Per direction: the first square along the ray that is not an opponent disc is isolated
/// (lowest set bit on rays towards higher indices, highest on the others); if it holds one of
/// our discs, the ray's squares before it (all opponent discs) flip.
#[inline]
pub fn flips(me: Bitboard, opp: Bitboard, sq: u8) -> Bitboard {
    let rays = &RAYS[usize::from(sq & 63)];
    let not_opp = !opp;
    let mut all = 0;
    for &ray in &rays[..4] {
        let blockers = ray & not_opp;
        let first = blockers & blockers.wrapping_neg();
        if first & me != 0 {
            all |= ray & first.wrapping_sub(1);
        }
    }
    for &ray in &rays[4..] {
        // `| 1` keeps the bit scan defined; a ray without a blocker then "ends" on bit 0,
        // which the `& ray & me` test rejects (bit 0 on the ray is then an opponent disc).
        let blockers = ray & not_opp;
        let first = (1u64 << 63) >> ((blockers | 1).leading_zeros() & 63);
        if first & ray & me != 0 {
            all |= ray & (first.wrapping_neg() ^ first);
        }
    }
    all
}

/// The empty squares next to at least one disc of `discs` (in any of the eight directions).
#[inline]
pub const fn neighbours(discs: Bitboard) -> Bitboard {
    let h = (discs & !COLUMN_H) << 1 | (discs & !COLUMN_A) >> 1 | discs;
    (h << 8 | h >> 8 | h) & !discs
}

/// The squares adjacent to each square (in any of the eight directions). 512 bytes.
pub static ADJACENT: [Bitboard; 64] = build_adjacent();

const fn build_adjacent() -> [Bitboard; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = neighbours(1u64 << sq);
        sq += 1;
    }
    t
}

/// Iterates the squares of a bitboard in increasing order.
#[derive(Clone, Copy, Debug)]
pub struct Squares(pub Bitboard);

impl Iterator for Squares {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as u8;
        self.0 &= self.0.wrapping_sub(1);
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slow per-square reference: walk each ray square by square.
    fn flips_slow(me: u64, opp: u64, sq: u8) -> u64 {
        let (r0, c0) = (i32::from(sq / 8), i32::from(sq % 8));
        let mut all = 0;
        for (dr, dc) in [
            (0, 1),
            (0, -1),
            (1, 0),
            (-1, 0),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let (mut r, mut c, mut run) = (r0 + dr, c0 + dc, 0u64);
            while (0..8).contains(&r) && (0..8).contains(&c) {
                let b = 1u64 << (r * 8 + c);
                if opp & b != 0 {
                    run |= b;
                } else {
                    if me & b != 0 {
                        all |= run;
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        all
    }

    #[test]
    fn shifts_agree_with_ray_walking() {
        let mut rng = crate::common::rng::Rng::new(7);
        for _ in 0..20_000 {
            let a = rng.next_u64();
            let b = rng.next_u64();
            let (me, opp) = (a & b, a & !b);
            let mut expect_moves = 0;
            for sq in 0..64u8 {
                let f = flips_slow(me, opp, sq);
                let empty = (me | opp) & square_bit(sq) == 0;
                if empty {
                    assert_eq!(flips(me, opp, sq), f, "sq {sq} me {me:#x} opp {opp:#x}");
                    if f != 0 {
                        expect_moves |= square_bit(sq);
                    }
                }
            }
            assert_eq!(moves(me, opp), expect_moves, "me {me:#x} opp {opp:#x}");
        }
    }

    #[test]
    fn neighbours_are_adjacent_empties() {
        assert_eq!(neighbours(square_bit(0)), 0x0302);
        assert_eq!(neighbours(square_bit(63)), 0x40C0_0000_0000_0000);
        assert_eq!(neighbours(square_bit(7)), 0xC040);
        let mid = neighbours(square_bit(27));
        assert_eq!(mid.count_ones(), 8);
    }

    #[test]
    fn squares_iterate_in_order() {
        let v: [u8; 3] = {
            let mut it = Squares(square_bit(3) | square_bit(40) | square_bit(63));
            [it.next().unwrap(), it.next().unwrap(), it.next().unwrap()]
        };
        assert_eq!(v, [3, 40, 63]);
    }
}
