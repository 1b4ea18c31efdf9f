//! Static evaluation in centipawns (integers only), from the side to move's point of view:
//! a tapered evaluation (middle-game and endgame scores blended by the remaining pieces) of
//! material and piece-square tables (PeSTO's), passed, doubled and isolated pawns and the
//! bishop pair, and a mop-up term that drives a bare king to the edge so won endgames get
//! finished.

use super::bitboard::Bitboard;
use super::position::Position;
use super::square::{Color, Piece, Role, Square};

/// Material values for ordering and pruning: pawn, knight, bishop, rook, queen, king (the
/// king's is never counted).
pub const VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// Middle-game and endgame material (PeSTO's values).
const MG_VALUE: [i32; 6] = [82, 337, 365, 477, 1025, 0];
const EG_VALUE: [i32; 6] = [94, 281, 297, 512, 936, 0];

/// Game-phase weight per role: knights and bishops 1, rooks 2, queens 4 (24 in all at the
/// start).
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// Piece-square tables (PeSTO's, by Ronald Friederich, tuned on game data), drawn as the
/// board is seen by white: the first row is the 8th rank. `[role][mg = 0, eg = 1][square]`.
#[rustfmt::skip]
const PST: [[[i16; 64]; 2]; 6] = [
    [[
          0,   0,   0,   0,   0,   0,  0,   0,
         98, 134,  61,  95,  68, 126, 34, -11,
         -6,   7,  26,  31,  65,  56, 25, -20,
        -14,  13,   6,  21,  23,  12, 17, -23,
        -27,  -2,  -5,  12,  17,   6, 10, -25,
        -26,  -4,  -4, -10,   3,   3, 33, -12,
        -35,  -1, -20, -23, -15,  24, 38, -22,
          0,   0,   0,   0,   0,   0,  0,   0,
    ], [
          0,   0,   0,   0,   0,   0,   0,   0,
        178, 173, 158, 134, 147, 132, 165, 187,
         94, 100,  85,  67,  56,  53,  82,  84,
         32,  24,  13,   5,  -2,   4,  17,  17,
         13,   9,  -3,  -7,  -7,  -8,   3,  -1,
          4,   7,  -6,   1,   0,  -5,  -1,  -8,
         13,   8,   8,  10,  13,   0,   2,  -7,
          0,   0,   0,   0,   0,   0,   0,   0,
    ]],
    [[
        -167, -89, -34, -49,  61, -97, -15, -107,
         -73, -41,  72,  36,  23,  62,   7,  -17,
         -47,  60,  37,  65,  84, 129,  73,   44,
          -9,  17,  19,  53,  37,  69,  18,   22,
         -13,   4,  16,  13,  28,  19,  21,   -8,
         -23,  -9,  12,  10,  19,  17,  25,  -16,
         -29, -53, -12,  -3,  -1,  18, -14,  -19,
        -105, -21, -58, -33, -17, -28, -19,  -23,
    ], [
        -58, -38, -13, -28, -31, -27, -63, -99,
        -25,  -8, -25,  -2,  -9, -25, -24, -52,
        -24, -20,  10,   9,  -1,  -9, -19, -41,
        -17,   3,  22,  22,  22,  11,   8, -18,
        -18,  -6,  16,  25,  16,  17,   4, -18,
        -23,  -3,  -1,  15,  10,  -3, -20, -22,
        -42, -20, -10,  -5,  -2, -20, -23, -44,
        -29, -51, -23, -15, -22, -18, -50, -64,
    ]],
    [[
        -29,   4, -82, -37, -25, -42,   7,  -8,
        -26,  16, -18, -13,  30,  59,  18, -47,
        -16,  37,  43,  40,  35,  50,  37,  -2,
         -4,   5,  19,  50,  37,  37,   7,  -2,
         -6,  13,  13,  26,  34,  12,  10,   4,
          0,  15,  15,  15,  14,  27,  18,  10,
          4,  15,  16,   0,   7,  21,  33,   1,
        -33,  -3, -14, -21, -13, -12, -39, -21,
    ], [
        -14, -21, -11,  -8,  -7,  -9, -17, -24,
         -8,  -4,   7, -12,  -3, -13,  -4, -14,
          2,  -8,   0,  -1,  -2,   6,   0,   4,
         -3,   9,  12,   9,  14,  10,   3,   2,
         -6,   3,  13,  19,   7,  10,  -3,  -9,
        -12,  -3,   8,  10,  13,   3,  -7, -15,
        -14, -18,  -7,  -1,   4,  -9, -15, -27,
        -23,  -9, -23,  -5,  -9, -16,  -5, -17,
    ]],
    [[
         32,  42,  32,  51,  63,   9,  31,  43,
         27,  32,  58,  62,  80,  67,  26,  44,
         -5,  19,  26,  36,  17,  45,  61,  16,
        -24, -11,   7,  26,  24,  35,  -8, -20,
        -36, -26, -12,  -1,   9,  -7,   6, -23,
        -45, -25, -16, -17,   3,   0,  -5, -33,
        -44, -16, -20,  -9,  -1,  11,  -6, -71,
        -19, -13,   1,  17,  16,   7, -37, -26,
    ], [
         13,  10,  18,  15,  12,  12,   8,   5,
         11,  13,  13,  11,  -3,   3,   8,   3,
          7,   7,   7,   5,   4,  -3,  -5,  -3,
          4,   3,  13,   1,   2,   1,  -1,   2,
          3,   5,   8,   4,  -5,  -6,  -8, -11,
         -4,   0,  -5,  -1,  -7, -12,  -8, -16,
         -6,  -6,   0,   2,  -9,  -9, -11,  -3,
         -9,   2,   3,  -1,  -5, -13,   4, -20,
    ]],
    [[
        -28,   0,  29,  12,  59,  44,  43,  45,
        -24, -39,  -5,   1, -16,  57,  28,  54,
        -13, -17,   7,   8,  29,  56,  47,  57,
        -27, -27, -16, -16,  -1,  17,  -2,   1,
         -9, -26,  -9, -10,  -2,  -4,   3,  -3,
        -14,   2, -11,  -2,  -5,   2,  14,   5,
        -35,  -8,  11,   2,   8,  15,  -3,   1,
         -1, -18,  -9,  10, -15, -25, -31, -50,
    ], [
         -9,  22,  22,  27,  27,  19,  10,  20,
        -17,  20,  32,  41,  58,  25,  30,   0,
        -20,   6,   9,  49,  47,  35,  19,   9,
          3,  22,  24,  45,  57,  40,  57,  36,
        -18,  28,  19,  47,  31,  34,  39,  23,
        -16, -27,  15,   6,   9,  17,  10,   5,
        -22, -23, -30, -16, -16, -23, -36, -32,
        -33, -28, -22, -43,  -5, -32, -20, -41,
    ]],
    [[
        -65,  23,  16, -15, -56, -34,   2,  13,
         29,  -1, -20,  -7,  -8,  -4, -38, -29,
         -9,  24,   2, -16, -20,   6,  22, -22,
        -17, -20, -12, -27, -30, -25, -14, -36,
        -49,  -1, -27, -39, -46, -44, -33, -51,
        -14, -14, -22, -46, -44, -30, -15, -27,
          1,   7,  -8, -64, -43, -16,   9,   8,
        -15,  36,  12, -54,   8, -28,  24,  14,
    ], [
        -74, -35, -18, -18, -11,  15,   4, -17,
        -12,  17,  14,  17,  17,  38,  23,  11,
         10,  17,  23,  15,  20,  45,  44,  13,
         -8,  22,  24,  27,  26,  33,  26,   3,
        -18,  -4,  21,  24,  27,  23,   9, -11,
        -19,  -3,  11,  21,  23,  16,   7,  -9,
        -27, -11,   4,  13,  14,   4,  -5, -17,
        -53, -34, -21, -11, -28, -14, -24, -43,
    ]],
];

/// Passed-pawn bonus by the pawn's rank seen from its own side (0 = 1st), mg and eg.
const PASSED: [[i32; 8]; 2] = [
    [0, 5, 5, 10, 20, 35, 60, 0],
    [0, 10, 15, 25, 45, 75, 120, 0],
];
/// Per pawn beyond the first on a file, mg and eg.
const DOUBLED: [i32; 2] = [-10, -20];
/// Per pawn with no own pawn on a neighbouring file, mg and eg.
const ISOLATED: [i32; 2] = [-10, -15];
/// For two or more bishops, mg and eg.
const BISHOP_PAIR: [i32; 2] = [25, 50];

/// The full game phase.
const PHASE_MAX: i32 = 24;

/// For each colour and square, the squares in front of a pawn there on its own and the two
/// neighbouring files (an enemy pawn there stops it from being passed).
static PASSED_SPAN: [[u64; 64]; 2] = passed_spans();

const fn passed_spans() -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut df = -1;
        while df <= 1 {
            let nf = f + df;
            if nf >= 0 && nf < 8 {
                let mut nr = 0;
                while nr < 8 {
                    let bit = 1u64 << (nr * 8 + nf);
                    if nr > r {
                        t[0][sq] |= bit;
                    }
                    if nr < r {
                        t[1][sq] |= bit;
                    }
                    nr += 1;
                }
            }
            df += 1;
        }
        sq += 1;
    }
    t
}

/// The table index of `sq` for a piece of `color` (tables are drawn from white's side).
#[inline]
fn table_index(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.flip_vertical().index(),
        Color::Black => sq.index(),
    }
}

fn center_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df + dr
}

fn king_distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// Pawn structure of `color`: passed, doubled and isolated pawns, as (mg, eg).
fn pawn_structure(pos: &Position, color: Color) -> (i32, i32) {
    let ours = pos.by_piece(Piece {
        color,
        role: Role::Pawn,
    });
    let theirs = pos.by_piece(Piece {
        color: color.other(),
        role: Role::Pawn,
    });
    let (mut mg, mut eg) = (0, 0);
    for sq in ours {
        let span = PASSED_SPAN[color.index()][sq.index()];
        if span & theirs.0 == 0 {
            let rank = match color {
                Color::White => sq.rank(),
                Color::Black => 7 - sq.rank(),
            } as usize;
            mg += PASSED[0][rank & 7];
            eg += PASSED[1][rank & 7];
        }
    }
    // Files as a byte (bit f: a pawn on file f), and every square of those files.
    let files = |b: Bitboard| {
        let mut f = b.0;
        f |= f >> 32;
        f |= f >> 16;
        f |= f >> 8;
        f & 0xff
    };
    let own_files = files(ours);
    // Pawns beyond the first on their file.
    let doubled = ours.count() as i32 - own_files.count_ones() as i32;
    mg += DOUBLED[0] * doubled;
    eg += DOUBLED[1] * doubled;
    // Pawns on files whose neighbours hold no own pawn.
    let neighbours = (own_files << 1 | own_files >> 1) & 0xff;
    let lonely = own_files & !neighbours;
    let isolated = (ours.0 & lonely.wrapping_mul(0x0101_0101_0101_0101)).count_ones() as i32;
    mg += ISOLATED[0] * isolated;
    eg += ISOLATED[1] * isolated;
    (mg, eg)
}

/// The evaluation of `pos` in centipawns for the side to move (bounded by about +-10000):
/// a middle-game and an endgame score (material, piece-square tables, pawn structure,
/// bishop pair) blended by the game phase, plus the mop-up term.
pub fn evaluate(pos: &Position) -> i32 {
    let mut mg = [0i32; 2];
    let mut eg = [0i32; 2];
    let mut material = [0i32; 2];
    let mut phase = 0;
    for color in Color::ALL {
        let c = color.index();
        for role in Role::ALL {
            let r = role.index();
            let table = &PST[r];
            for sq in pos.by_piece(Piece { color, role }) {
                let i = table_index(color, sq);
                mg[c] += MG_VALUE[r] + i32::from(table[0][i]);
                eg[c] += EG_VALUE[r] + i32::from(table[1][i]);
                material[c] += VALUES[r];
                phase += PHASE_WEIGHT[r];
            }
        }
        let (pmg, peg) = pawn_structure(pos, color);
        mg[c] += pmg;
        eg[c] += peg;
        if pos
            .by_piece(Piece {
                color,
                role: Role::Bishop,
            })
            .more_than_one()
        {
            mg[c] += BISHOP_PAIR[0];
            eg[c] += BISHOP_PAIR[1];
        }
    }
    let phase = phase.min(PHASE_MAX);
    let mut score = [0i32; 2];
    for c in 0..2 {
        score[c] = (mg[c] * phase + eg[c] * (PHASE_MAX - phase)) / PHASE_MAX;
    }
    // Mop-up: with a bare enemy king and at least a rook's worth more, push that king to the
    // edge and bring ours closer.
    for color in Color::ALL {
        let them = color.other();
        let bare = (pos.by_color(them) & !pos.by_role(Role::King)) == Bitboard::EMPTY;
        if bare && material[color.index()] >= VALUES[Role::Rook.index()] {
            if let (Some(ours), Some(theirs)) = (pos.king_of(color), pos.king_of(them)) {
                score[color.index()] +=
                    10 * center_distance(theirs) + 4 * (14 - 2 * king_distance(ours, theirs));
            }
        }
    }
    score[pos.turn().index()] - score[pos.turn().other().index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_and_material() {
        let start = Position::startpos();
        assert_eq!(evaluate(&start), 0);
        // Mirrored positions evaluate the same for their side to move.
        let a = Position::from_fen(b"4k3/8/8/8/3N4/8/PP6/4K3 w - - 0 1").unwrap();
        let b = Position::from_fen(b"4k3/pp6/8/3n4/8/8/8/4K3 b - - 0 1").unwrap();
        assert_eq!(evaluate(&a), evaluate(&b));
        assert!(evaluate(&a) > 400);
        // A central knight is worth more than one in the corner.
        let c = Position::from_fen(b"4k3/8/8/8/8/8/PP6/N3K3 w - - 0 1").unwrap();
        assert!(evaluate(&a) > evaluate(&c));
    }
}
