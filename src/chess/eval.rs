//! Static evaluation in centipawns (integers only), from the side to move's point of view:
//! material plus piece-square tables (Tomasz Michniewski's "simplified evaluation function"),
//! the king's table blended from middle game to endgame by the remaining pieces, and a
//! mop-up term that drives a bare king to the edge so won endgames get finished.

use super::bitboard::Bitboard;
use super::position::Position;
use super::square::{Color, Piece, Role, Square};

/// Material values: pawn, knight, bishop, rook, queen, king (the king's is never counted).
pub const VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// Tables drawn as the board is seen by white: the first row is the 8th rank.
#[rustfmt::skip]
const PST: [[i8; 64]; 6] = [
    [
         0,  0,  0,  0,  0,  0,  0,  0,
        50, 50, 50, 50, 50, 50, 50, 50,
        10, 10, 20, 30, 30, 20, 10, 10,
         5,  5, 10, 25, 25, 10,  5,  5,
         0,  0,  0, 20, 20,  0,  0,  0,
         5, -5,-10,  0,  0,-10, -5,  5,
         5, 10, 10,-20,-20, 10, 10,  5,
         0,  0,  0,  0,  0,  0,  0,  0,
    ],
    [
        -50,-40,-30,-30,-30,-30,-40,-50,
        -40,-20,  0,  0,  0,  0,-20,-40,
        -30,  0, 10, 15, 15, 10,  0,-30,
        -30,  5, 15, 20, 20, 15,  5,-30,
        -30,  0, 15, 20, 20, 15,  0,-30,
        -30,  5, 10, 15, 15, 10,  5,-30,
        -40,-20,  0,  5,  5,  0,-20,-40,
        -50,-40,-30,-30,-30,-30,-40,-50,
    ],
    [
        -20,-10,-10,-10,-10,-10,-10,-20,
        -10,  0,  0,  0,  0,  0,  0,-10,
        -10,  0,  5, 10, 10,  5,  0,-10,
        -10,  5,  5, 10, 10,  5,  5,-10,
        -10,  0, 10, 10, 10, 10,  0,-10,
        -10, 10, 10, 10, 10, 10, 10,-10,
        -10,  5,  0,  0,  0,  0,  5,-10,
        -20,-10,-10,-10,-10,-10,-10,-20,
    ],
    [
          0,  0,  0,  0,  0,  0,  0,  0,
          5, 10, 10, 10, 10, 10, 10,  5,
         -5,  0,  0,  0,  0,  0,  0, -5,
         -5,  0,  0,  0,  0,  0,  0, -5,
         -5,  0,  0,  0,  0,  0,  0, -5,
         -5,  0,  0,  0,  0,  0,  0, -5,
         -5,  0,  0,  0,  0,  0,  0, -5,
          0,  0,  0,  5,  5,  0,  0,  0,
    ],
    [
        -20,-10,-10, -5, -5,-10,-10,-20,
        -10,  0,  0,  0,  0,  0,  0,-10,
        -10,  0,  5,  5,  5,  5,  0,-10,
         -5,  0,  5,  5,  5,  5,  0, -5,
          0,  0,  5,  5,  5,  5,  0, -5,
        -10,  5,  5,  5,  5,  5,  0,-10,
        -10,  0,  5,  0,  0,  0,  0,-10,
        -20,-10,-10, -5, -5,-10,-10,-20,
    ],
    [
        -30,-40,-40,-50,-50,-40,-40,-30,
        -30,-40,-40,-50,-50,-40,-40,-30,
        -30,-40,-40,-50,-50,-40,-40,-30,
        -30,-40,-40,-50,-50,-40,-40,-30,
        -20,-30,-30,-40,-40,-30,-30,-20,
        -10,-20,-20,-20,-20,-20,-20,-10,
         20, 20,  0,  0,  0,  0, 20, 20,
         20, 30, 10,  0,  0, 10, 30, 20,
    ],
];

#[rustfmt::skip]
const KING_ENDGAME: [i8; 64] = [
    -50,-40,-30,-20,-20,-30,-40,-50,
    -30,-20,-10,  0,  0,-10,-20,-30,
    -30,-10, 20, 30, 30, 20,-10,-30,
    -30,-10, 30, 40, 40, 30,-10,-30,
    -30,-10, 30, 40, 40, 30,-10,-30,
    -30,-10, 20, 30, 30, 20,-10,-30,
    -30,-30,  0,  0,  0,  0,-30,-30,
    -50,-30,-30,-30,-30,-30,-30,-50,
];

/// The full game phase: knights and bishops count 1, rooks 2, queens 4.
const PHASE_MAX: i32 = 24;

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

/// The evaluation of `pos` in centipawns for the side to move (bounded by about +-10000).
pub fn evaluate(pos: &Position) -> i32 {
    let phase = (pos.by_role(Role::Knight).count()
        + pos.by_role(Role::Bishop).count()
        + 2 * pos.by_role(Role::Rook).count()
        + 4 * pos.by_role(Role::Queen).count()) as i32;
    let phase = phase.min(PHASE_MAX);
    let mut score = [0i32; 2];
    let mut material = [0i32; 2];
    for color in Color::ALL {
        let mut s = 0;
        let mut m = 0;
        for role in Role::ALL {
            let table = &PST[role.index()];
            for sq in pos.by_piece(Piece { color, role }) {
                let i = table_index(color, sq);
                if role == Role::King {
                    let mg = i32::from(table[i]);
                    let eg = i32::from(KING_ENDGAME[i]);
                    s += (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
                } else {
                    s += i32::from(table[i]) + VALUES[role.index()];
                    m += VALUES[role.index()];
                }
            }
        }
        score[color.index()] = s;
        material[color.index()] = m;
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
