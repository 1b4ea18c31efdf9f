//! Attack tables, computed at compile time (const fn, no allocation, no lazy statics).
//!
//! Leapers (pawn, knight, king) use one 64-entry table each. Sliders use classical rays: for
//! each of the eight directions a table of the squares a piece on an empty board reaches; the
//! nearest blocker on a ray is its lowest set bit for directions that increase the square
//! index and its highest for the others, and the attack set is the ray up to and including
//! that blocker. Tables: 3 x 512 B (leapers) + 1 KiB (pawns) + 4 KiB (rays).

use super::bitboard::Bitboard;
use super::square::{Color, Role, Square};

/// The eight ray directions: the first four increase the square index, and direction `d`
/// and `d ^ 4` are opposite.
const DIRS: [(i32, i32); 8] = [
    (0, 1),   // north
    (1, 0),   // east
    (1, 1),   // north-east
    (-1, 1),  // north-west
    (0, -1),  // south
    (-1, 0),  // west
    (-1, -1), // south-west
    (1, -1),  // south-east
];

const NORTH: usize = 0;
const EAST: usize = 1;
const NORTH_EAST: usize = 2;
const NORTH_WEST: usize = 3;
const SOUTH: usize = 4;
const WEST: usize = 5;
const SOUTH_WEST: usize = 6;
const SOUTH_EAST: usize = 7;

const fn step_table(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq] |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

const fn ray_table() -> [[u64; 64]; 8] {
    let mut table = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
            loop {
                f += DIRS[d].0;
                r += DIRS[d].1;
                if f < 0 || f >= 8 || r < 0 || r >= 8 {
                    break;
                }
                table[d][sq] |= 1 << (r * 8 + f);
            }
            sq += 1;
        }
        d += 1;
    }
    table
}

static KNIGHT: [u64; 64] = step_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);

static KING: [u64; 64] = step_table(&[
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
]);

static PAWN: [[u64; 64]; 2] = [
    step_table(&[(-1, 1), (1, 1)]),
    step_table(&[(-1, -1), (1, -1)]),
];

static RAYS: [[u64; 64]; 8] = ray_table();

/// The union of the rays in directions `dirs` from each square (a slider's attacks on the
/// empty board).
const fn pseudo_table(dirs: [usize; 4]) -> [u64; 64] {
    let rays = ray_table();
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < 4 {
            t[sq] |= rays[dirs[i]][sq];
            i += 1;
        }
        sq += 1;
    }
    t
}

static ROOK_PSEUDO: [u64; 64] = pseudo_table([NORTH, EAST, SOUTH, WEST]);
static BISHOP_PSEUDO: [u64; 64] = pseudo_table([NORTH_EAST, NORTH_WEST, SOUTH_WEST, SOUTH_EAST]);

/// The squares a knight on `sq` attacks.
#[inline]
pub(crate) fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// The squares a king on `sq` attacks.
#[inline]
pub(crate) fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// The squares a pawn of `color` on `sq` attacks (captures onto).
#[inline]
pub(crate) fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// The squares a slider on `sq` reaches along direction `dir` given the occupied squares.
/// Branch-free: a sentinel bit at h8 (increasing directions) or a1 (decreasing ones) stands
/// for "no blocker", and the ray from that corner in that direction is empty.
#[inline(always)]
fn ray_attacks(dir: usize, sq: Square, occupied: Bitboard) -> Bitboard {
    let rays = &RAYS[dir & 7];
    let ray = rays[sq.index()];
    let blockers = ray & occupied.0;
    let blocker = if dir < 4 {
        (blockers | 1 << 63).trailing_zeros()
    } else {
        63 - (blockers | 1).leading_zeros()
    };
    Bitboard(ray ^ rays[(blocker & 63) as usize])
}

/// The squares a bishop on `sq` attacks given the occupied squares.
#[inline]
pub(crate) fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    ray_attacks(NORTH_EAST, sq, occupied)
        | ray_attacks(NORTH_WEST, sq, occupied)
        | ray_attacks(SOUTH_WEST, sq, occupied)
        | ray_attacks(SOUTH_EAST, sq, occupied)
}

/// The squares a rook on `sq` attacks given the occupied squares.
#[inline]
pub(crate) fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    ray_attacks(NORTH, sq, occupied)
        | ray_attacks(EAST, sq, occupied)
        | ray_attacks(SOUTH, sq, occupied)
        | ray_attacks(WEST, sq, occupied)
}

/// The squares a rook on `sq` attacks on the empty board.
#[inline]
pub(crate) fn rook_pseudo_attacks(sq: Square) -> Bitboard {
    Bitboard(ROOK_PSEUDO[sq.index()])
}

/// The squares a bishop on `sq` attacks on the empty board.
#[inline]
pub(crate) fn bishop_pseudo_attacks(sq: Square) -> Bitboard {
    Bitboard(BISHOP_PSEUDO[sq.index()])
}

/// The squares a queen on `sq` attacks given the occupied squares.
#[inline]
pub(crate) fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    bishop_attacks(sq, occupied) | rook_attacks(sq, occupied)
}

/// The squares a piece of `role` and `color` on `sq` attacks given the occupied squares.
pub(crate) fn attacks(color: Color, role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// The ray direction leading from `a` to `b`, if they share a rank, file or diagonal.
#[inline]
fn direction(a: Square, b: Square) -> Option<usize> {
    let df = b.file() as i32 - a.file() as i32;
    let dr = b.rank() as i32 - a.rank() as i32;
    if a == b || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
        return None;
    }
    let d = match (df.signum(), dr.signum()) {
        (0, 1) => NORTH,
        (1, 0) => EAST,
        (1, 1) => NORTH_EAST,
        (-1, 1) => NORTH_WEST,
        (0, -1) => SOUTH,
        (-1, 0) => WEST,
        (-1, -1) => SOUTH_WEST,
        _ => SOUTH_EAST,
    };
    Some(d)
}

/// The squares strictly between `a` and `b` if they are aligned, else empty.
#[inline]
pub(crate) fn between(a: Square, b: Square) -> Bitboard {
    match direction(a, b) {
        Some(d) => Bitboard(RAYS[d & 7][a.index()] & RAYS[(d ^ 4) & 7][b.index()]),
        None => Bitboard::EMPTY,
    }
}

/// The whole line (rank, file or diagonal, edge to edge) through `a` and `b` if they are
/// aligned, else empty.
#[inline]
pub(crate) fn line(a: Square, b: Square) -> Bitboard {
    match direction(a, b) {
        Some(d) => Bitboard(RAYS[d & 7][a.index()] | RAYS[(d ^ 4) & 7][a.index()]).with(a),
        None => Bitboard::EMPTY,
    }
}

/// True when `c` lies on the line through `a` and `b`.
#[cfg(test)]
fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &[u8; 2]) -> Square {
        Square::from_ascii(name[0], name[1]).unwrap()
    }

    fn set(names: &[&[u8; 2]]) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for n in names {
            b.add(sq(n));
        }
        b
    }

    #[test]
    fn leapers() {
        assert_eq!(knight_attacks(sq(b"a1")), set(&[b"b3", b"c2"]));
        assert_eq!(knight_attacks(sq(b"e4")).count(), 8);
        assert_eq!(king_attacks(sq(b"h8")), set(&[b"g8", b"g7", b"h7"]));
        assert_eq!(pawn_attacks(Color::White, sq(b"a2")), set(&[b"b3"]));
        assert_eq!(pawn_attacks(Color::Black, sq(b"e5")), set(&[b"d4", b"f4"]));
        assert_eq!(pawn_attacks(Color::White, sq(b"e8")), Bitboard::EMPTY);
    }

    #[test]
    fn sliders_stop_at_blockers() {
        let occ = set(&[b"d4", b"d6", b"f4", b"b2"]);
        assert_eq!(
            rook_attacks(sq(b"d4"), occ),
            set(&[b"d5", b"d6", b"d3", b"d2", b"d1", b"e4", b"f4", b"c4", b"b4", b"a4"])
        );
        assert_eq!(
            bishop_attacks(sq(b"d4"), occ),
            set(&[
                b"e5", b"f6", b"g7", b"h8", b"c5", b"b6", b"a7", b"c3", b"b2", b"e3", b"f2", b"g1"
            ])
        );
        assert_eq!(queen_attacks(sq(b"a1"), Bitboard::EMPTY).count(), 21);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(sq(b"a1"), sq(b"d4")), set(&[b"b2", b"c3"]));
        assert_eq!(between(sq(b"d4"), sq(b"a1")), set(&[b"b2", b"c3"]));
        assert_eq!(between(sq(b"e1"), sq(b"h1")), set(&[b"f1", b"g1"]));
        assert_eq!(between(sq(b"e1"), sq(b"f3")), Bitboard::EMPTY);
        assert_eq!(between(sq(b"e1"), sq(b"e2")), Bitboard::EMPTY);
        assert_eq!(line(sq(b"c3"), sq(b"e5")).count(), 8);
        assert!(aligned(sq(b"a8"), sq(b"h1"), sq(b"d5")));
        assert!(!aligned(sq(b"a8"), sq(b"h1"), sq(b"d4")));
        assert_eq!(line(sq(b"a1"), sq(b"b3")), Bitboard::EMPTY);
    }
}
