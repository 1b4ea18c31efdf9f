//! The pattern evaluation: integer weights per game phase for every configuration of the
//! square patterns of Zebra's class (edges with their X-squares, corners, lines, diagonals),
//! for both sides' mobility and for the parity of the empties, learned on the host from
//! search-labelled self-play (the lab's `reversi_datagen` makes the data, `reversi_train` the
//! weights) and embedded as `weights.bin`.
//!
//! Patterns (and their instances: every image under the eight symmetries of the board, one per
//! distinct square set): the edge with its two X-squares (4), the 3x3 corner (4), the 5x2
//! corner (8), rows 2, 3 and 4 (4 each), the diagonals of length 8 (2), 7, 6, 5 and 4 (4
//! each): 46 instances, Zebra's set. A configuration's index is the base-3 number of its cells
//! (0 empty, 1 mover, 2 opponent) in the instance's square order, so each instance reads its
//! squares in the order of the canonical pattern's image and all instances of a pattern share
//! one table.
//!
//! Phases: [`PHASES`], of 5 plies each by empties (59-55, 54-50, ..., 4-0; the start counts
//! with the first), whose bounds include those of the 4 phases of the first layout (45, 30,
//! 15), so that a set of that layout converts exactly. Scores are for the side to move, 100
//! is about one disc (the scale of [`super::eval`]).
//!
//! `weights.bin`: the 8-byte magic `KGRPAT02`, then [`WEIGHTS`] little-endian `i16`s, phase
//! by phase, each phase laid out as the tables in pattern order, then mobility, then parity:
//! 4,015,952 bytes (budget: 4 MiB); the build fails when the length does not match.

use super::bitboard::{self, Bitboard};
use super::eval::EVAL_LIMIT;

/// Game phases.
pub const PHASES: usize = 12;

/// Canonical patterns: squares in reading order (at most 10).
pub(super) const PATTERNS: [&[u8]; 11] = [
    &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
    &[0, 1, 2, 8, 9, 10, 16, 17, 18],
    &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
    &[8, 9, 10, 11, 12, 13, 14, 15],
    &[16, 17, 18, 19, 20, 21, 22, 23],
    &[24, 25, 26, 27, 28, 29, 30, 31],
    &[0, 9, 18, 27, 36, 45, 54, 63],
    &[1, 10, 19, 28, 37, 46, 55],
    &[2, 11, 20, 29, 38, 47],
    &[3, 12, 21, 30, 39],
    &[4, 13, 22, 31],
];

/// The tables of the patterns read square by square or by rows: the edge with its X-squares,
/// the 3x3 corner, the 5x2 corner; then rows 2-4 ([`ROW_TABLE`]) and the diagonals (from
/// [`FIRST_DIAGONAL`] on).
pub(super) const EDGE_X: usize = 0;
/// The 3x3 corner's table.
pub(super) const CORNER_3X3: usize = 1;
/// The 5x2 corner's table (a pattern without a symmetry of its own).
pub(super) const CORNER_5X2: usize = 2;
/// The first diagonal's table.
const FIRST_DIAGONAL: usize = 6;

/// Pattern instances on the board.
pub const INSTANCES: usize = 46;
/// Mobility entries per side (0..=31 moves, more counts as 31).
const MOBILITY: usize = 32;
/// Features per position: one per instance, two for mobility, one for parity.
pub const FEATURES: usize = INSTANCES + 3;

/// One instance: its squares in reading order and its table.
#[derive(Clone, Copy)]
struct Instance {
    squares: [u8; 10],
    len: u8,
    table: u8,
}

const fn pow3(n: usize) -> usize {
    let mut p = 1;
    let mut i = 0;
    while i < n {
        p *= 3;
        i += 1;
    }
    p
}

/// Each table's offset in a phase (pattern tables, then mobility and parity).
pub const OFFSETS: [usize; 12] = {
    let mut o = [0; 12];
    let mut i = 0;
    while i < 11 {
        o[i + 1] = o[i] + pow3(PATTERNS[i].len());
        i += 1;
    }
    o
};
/// Offset of the mover's mobility table, then the opponent's.
pub(super) const MOBILITY_OFFSET: usize = OFFSETS[11];
/// Offset of the parity table: even, odd empties.
const PARITY_OFFSET: usize = MOBILITY_OFFSET + 2 * MOBILITY;
/// Weights per phase.
pub const PHASE_WEIGHTS: usize = PARITY_OFFSET + 2;
/// Weights in all.
pub const WEIGHTS: usize = PHASES * PHASE_WEIGHTS;

/// Square `sq` under symmetry `s` (0..8: optional transpose, then optional flips).
const fn symmetry(sq: u8, s: u8) -> u8 {
    let (mut r, mut c) = (sq / 8, sq % 8);
    if s & 4 != 0 {
        (r, c) = (c, r);
    }
    if s & 1 != 0 {
        c = 7 - c;
    }
    if s & 2 != 0 {
        r = 7 - r;
    }
    r * 8 + c
}

const ALL: [Instance; INSTANCES] = {
    let mut all = [Instance {
        squares: [0; 10],
        len: 0,
        table: 0,
    }; INSTANCES];
    let mut n = 0;
    let mut p = 0;
    while p < PATTERNS.len() {
        let pat = PATTERNS[p];
        let mut masks = [0u64; 8];
        let mut s = 0;
        while s < 8 {
            let mut inst = Instance {
                squares: [0; 10],
                len: pat.len() as u8,
                table: p as u8,
            };
            let mut mask = 0u64;
            let mut k = 0;
            while k < pat.len() {
                inst.squares[k] = symmetry(pat[k], s as u8);
                mask |= 1u64 << inst.squares[k];
                k += 1;
            }
            let mut seen = false;
            let mut j = 0;
            while j < s {
                if masks[j] == mask {
                    seen = true;
                }
                j += 1;
            }
            masks[s] = mask;
            if !seen {
                all[n] = inst;
                n += 1;
            }
            s += 1;
        }
        p += 1;
    }
    assert!(n == INSTANCES);
    all
};

/// The phase of a position with `empties` empty squares: 5 plies each, the start with the
/// first (60 and 59-55 empties are phase 0, 4-0 phase 11).
#[inline]
pub const fn phase(empties: u32) -> usize {
    let e = if empties > 59 { 59 } else { empties };
    (59 - e) as usize / 5
}

/// Base-3 value of an 8-bit line: bit `k` is digit `7 - k` (bit 0 the most significant).
static TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let mut v = 0u16;
        let mut k = 0;
        while k < 8 {
            v = v * 3 + ((b >> k) & 1) as u16;
            k += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// The table of row (or column) `r`: rows 2, 3, 4 from either side (the edges are read with
/// their X-squares).
const ROW_TABLE: [u8; 8] = [0, 3, 4, 5, 5, 4, 3, 0];

/// A diagonal instance: its squares, its first column and length, its table.
#[derive(Clone, Copy)]
struct Diagonal {
    mask: Bitboard,
    column: u8,
    len: u8,
    table: u8,
}

/// The diagonal instances of [`ALL`].
const DIAGONALS: [Diagonal; 18] = {
    let mut d = [Diagonal {
        mask: 0,
        column: 0,
        len: 0,
        table: 0,
    }; 18];
    let (mut n, mut i) = (0, 0);
    while i < INSTANCES {
        let inst = ALL[i];
        if inst.table as usize >= FIRST_DIAGONAL {
            let (mut mask, mut column, mut k) = (0u64, 8u8, 0);
            while k < inst.len as usize {
                mask |= 1u64 << inst.squares[k];
                if inst.squares[k] % 8 < column {
                    column = inst.squares[k] % 8;
                }
                k += 1;
            }
            d[n] = Diagonal {
                mask,
                column,
                len: inst.len,
                table: inst.table,
            };
            n += 1;
        }
        i += 1;
    }
    assert!(n == 18);
    d
};

/// The line value (mover 1, opponent 2) of `len` cells given as the low bits of two bytes.
#[inline(always)]
fn line(me: u64, opp: u64, len: u8) -> u32 {
    let s = u32::from(8 - len.min(8));
    let t = |b: u64| u32::from(TERNARY[((b << s) & 0xFF) as usize]);
    t(me) + 2 * t(opp)
}

/// Column `c` of `b` as a byte (row 0 in bit 0).
#[inline(always)]
fn column(b: Bitboard, c: u8) -> u64 {
    (((b >> (c & 7)) & bitboard::COLUMN_A).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// One side's board as 16 bytes: rows 0-7 (column 0 in bit 0), then columns 0-7 (row 0 in
/// bit 0).
#[inline(always)]
fn lines(b: Bitboard) -> [u8; 16] {
    let mut l = [0u8; 16];
    for (i, slot) in l.iter_mut().enumerate() {
        let i = i as u8;
        *slot = if i < 8 {
            (b >> (8 * i)) as u8
        } else {
            column(b, i - 8) as u8
        };
    }
    l
}

/// The first `len` cells of line `i` of [`lines`], read from bit 0 up, or from bit 7 down when
/// `high`.
#[inline(always)]
fn part(me: &[u8; 16], opp: &[u8; 16], i: usize, len: u8, high: bool) -> u32 {
    let byte = |b: &[u8; 16]| {
        let v = b.get(i).copied().unwrap_or(0);
        u64::from(if high { v.reverse_bits() } else { v })
    };
    let mask = (1u64 << len) - 1;
    line(byte(me) & mask, byte(opp) & mask, len)
}

/// A corner read by lines: the first line of [`lines`], the step to the next line of the
/// same kind (+1 or -1), whether the lines are read from bit 7.
struct ByLines {
    first: u8,
    down: bool,
    high: bool,
}

/// The 5x2 corners in [`ALL`]'s order: along rows 1 and 8 (from a1, h1, a8, h8), then along
/// columns a and h (from a1, h1, a8, h8). The first four, by rows, are also the 3x3 corners
/// in [`ALL`]'s order.
const CORNERS_5X2: [ByLines; 8] = [
    ByLines {
        first: 0,
        down: false,
        high: false,
    },
    ByLines {
        first: 0,
        down: false,
        high: true,
    },
    ByLines {
        first: 7,
        down: true,
        high: false,
    },
    ByLines {
        first: 7,
        down: true,
        high: true,
    },
    ByLines {
        first: 8,
        down: false,
        high: false,
    },
    ByLines {
        first: 15,
        down: true,
        high: false,
    },
    ByLines {
        first: 8,
        down: false,
        high: true,
    },
    ByLines {
        first: 15,
        down: true,
        high: true,
    },
];

/// The edges in [`lines`]' order (rows 1 and 8, columns a and h) with their X-squares, the
/// one beside the edge's first-read cell first.
const EDGES_X: [(usize, u8, u8); 4] = [(0, 9, 14), (7, 49, 54), (8, 9, 49), (15, 14, 54)];

/// The features of `me` to move: each an index into one phase's weights. Returns the phase.
///
/// Lines are read in whichever direction is cheapest (rows and columns by bytes, diagonals
/// gathered by a multiplication), the corners by rows or columns: the weights are tied to
/// their [`mirror`], so the direction does not change the value.
#[inline]
pub fn features(me: Bitboard, opp: Bitboard, out: &mut [u32; FEATURES]) -> usize {
    let mut k = 0;
    let mut put = |v: u32| {
        if let Some(slot) = out.get_mut(k) {
            *slot = v;
        }
        k += 1;
    };
    let (lm, lo) = (lines(me), lines(opp));
    let cell = |sq: u8| ((me >> (sq & 63)) & 1 | ((opp >> (sq & 63)) & 1) << 1) as u32;
    for &(l, x1, x2) in &EDGES_X {
        put(OFFSETS[EDGE_X] as u32 + part(&lm, &lo, l, 8, false) * 9 + cell(x1) * 3 + cell(x2));
    }
    let next = |c: &ByLines, k: u8| {
        usize::from(if c.down {
            c.first.wrapping_sub(k)
        } else {
            c.first + k
        })
    };
    for c in CORNERS_5X2.iter().take(4) {
        let row = |k| part(&lm, &lo, next(c, k), 3, c.high);
        put(OFFSETS[CORNER_3X3] as u32 + (row(0) * 27 + row(1)) * 27 + row(2));
    }
    for c in &CORNERS_5X2 {
        let row = |k| part(&lm, &lo, next(c, k), 5, c.high);
        put(OFFSETS[CORNER_5X2] as u32 + row(0) * 243 + row(1));
    }
    for r in 1..7 {
        let off = OFFSETS[usize::from(ROW_TABLE[r])] as u32;
        put(off + part(&lm, &lo, r, 8, false));
        put(off + part(&lm, &lo, r + 8, 8, false));
    }
    for d in &DIAGONALS {
        let gather =
            |b: Bitboard| ((b & d.mask).wrapping_mul(0x0101_0101_0101_0101) >> 56) >> d.column;
        put(OFFSETS[usize::from(d.table) % 11] as u32 + line(gather(me), gather(opp), d.len));
    }
    let mine = bitboard::moves(me, opp)
        .count_ones()
        .min(MOBILITY as u32 - 1);
    let theirs = bitboard::moves(opp, me)
        .count_ones()
        .min(MOBILITY as u32 - 1);
    put(MOBILITY_OFFSET as u32 + mine);
    put((MOBILITY_OFFSET + MOBILITY) as u32 + theirs);
    let empties = (!(me | opp)).count_ones();
    put(PARITY_OFFSET as u32 + (empties & 1));
    phase(empties)
}

/// The features as [`ALL`] defines them, square by square (the reference for [`features`]).
#[cfg(test)]
fn features_slow(me: Bitboard, opp: Bitboard) -> [u32; FEATURES] {
    let mut out = [0u32; FEATURES];
    for (slot, inst) in out.iter_mut().zip(ALL.iter()) {
        let mut idx = 0u32;
        for &sq in inst.squares.iter().take(usize::from(inst.len)) {
            let cell = (me >> (sq & 63)) & 1 | ((opp >> (sq & 63)) & 1) << 1;
            idx = idx * 3 + cell as u32;
        }
        *slot = (OFFSETS[usize::from(inst.table) % 11] as u32) + idx;
    }
    let mut f = [0u32; FEATURES];
    features(me, opp, &mut f);
    out[INSTANCES..].copy_from_slice(&f[INSTANCES..]);
    out
}

/// The embedded weights.
static BLOB: &[u8; 8 + 2 * WEIGHTS] = include_bytes!("weights.bin");
const _: () = assert!(
    BLOB[0] == b'K' && BLOB[6] == b'0' && BLOB[7] == b'2',
    "weights.bin: bad magic"
);

/// Weight `i` of the blob (0 past the end).
#[inline(always)]
fn weight(i: usize) -> i32 {
    let at = 8 + 2 * i;
    match BLOB.get(at..at + 2) {
        Some(&[lo, hi]) => i32::from(i16::from_le_bytes([lo, hi])),
        _ => 0,
    }
}

/// The pattern evaluation of `me` to move against `opp`.
pub fn evaluate(me: Bitboard, opp: Bitboard) -> i32 {
    evaluate_by(weight, me, opp)
}

/// The pattern evaluation with the weights `weight(i)` (the embedded ones, or on the host a
/// set being tried).
#[inline(always)]
pub(super) fn evaluate_by(weight: impl Fn(usize) -> i32, me: Bitboard, opp: Bitboard) -> i32 {
    let mut f = [0u32; FEATURES];
    let base = features(me, opp, &mut f) * PHASE_WEIGHTS;
    let mut sum = 0i32;
    for &i in &f {
        sum += weight(base + i as usize);
    }
    sum.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

// Training ties each weight to its mirror; weight sets read at run time (host only).
#[cfg(not(MODULE))]
pub use super::host::{evaluate_with, mirror, parse_weights, WEIGHTS_MAGIC};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout() {
        assert_eq!(PHASE_WEIGHTS, 167_331);
        assert_eq!(8 + 2 * WEIGHTS, BLOB.len());
        // Every instance has distinct squares, and the 4 edge instances cover the edges.
        let mut edges = 0u64;
        for inst in ALL.iter().filter(|i| usize::from(i.table) == EDGE_X) {
            for &sq in &inst.squares[..8] {
                edges |= 1 << sq;
            }
        }
        assert_eq!(edges, bitboard::EDGES);
    }

    #[test]
    fn evaluation_is_symmetric() {
        // The eight images of a few positions from random play evaluate alike.
        let mut rng = crate::common::rng::Rng::new(5);
        for _ in 0..200 {
            let (a, b) = (rng.next_u64(), rng.next_u64());
            let (me, opp) = (a & b, a & !b);
            let image = |bb: u64, s: u8| {
                (0..64u8)
                    .filter(|&sq| bb >> sq & 1 != 0)
                    .fold(0u64, |acc, sq| acc | 1 << symmetry(sq, s))
            };
            let v = evaluate(me, opp);
            for s in 1..8 {
                assert_eq!(evaluate(image(me, s), image(opp, s)), v, "symmetry {s}");
            }
        }
        for i in [
            0,
            5,
            59048,
            59049 + 19682,
            OFFSETS[3] - 7,
            MOBILITY_OFFSET + 3,
        ] {
            assert_eq!(mirror(mirror(i)), i);
        }
    }

    /// The shipped weights on fixed positions: the start, after f5, FFO #40-#44. A retraining
    /// (`make reversi-weights`) changes these numbers: update them with the new weights, in
    /// the same commit.
    #[test]
    fn trained_weights_regression() {
        use crate::reversi::position::Position;
        let setups: [&[u8; 66]; 6] = [
            b"---------------------------OX------XO--------------------------- X",
            b"O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
            b"-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X",
            b"--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO-- X",
            b"--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O",
            b"--O-X-O---O-XO-O-OOXXXOOOOOOXXXOOOOOXX--XXOOXO----XXXX-----XXX-- O",
        ];
        let mut got = [0i32; 7];
        for (g, s) in got.iter_mut().zip(setups) {
            let p = Position::parse_setup(s).unwrap();
            *g = evaluate(p.mover(), p.opponent());
        }
        let f5 = Position::start().play(37).unwrap();
        got[6] = evaluate(f5.mover(), f5.opponent());
        // FFO exact scores for comparison: +38, 0, +6, -12, -14 (x 100).
        assert_eq!(got, [45, 3780, 613, 315, -1077, -252, -50]);
    }

    #[test]
    fn fast_features_are_the_slow_ones_up_to_mirroring() {
        let mut rng = crate::common::rng::Rng::new(9);
        for _ in 0..2000 {
            let (a, b) = (rng.next_u64(), rng.next_u64());
            let (me, opp) = (a & b, a & !b);
            let mut fast = [0u32; FEATURES];
            features(me, opp, &mut fast);
            let canon = |v: [u32; FEATURES]| {
                let mut c = v.map(|i| (i as usize).min(mirror(i as usize)));
                c.sort_unstable();
                c
            };
            assert_eq!(canon(fast), canon(features_slow(me, opp)));
        }
    }
}
