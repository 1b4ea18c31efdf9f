//! A reversi position: two disjoint bitboards and the side to move.

use super::bitboard::{self, square_bit, Bitboard};

/// One of the two players. X moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// The first player (black in Othello notation; `X` in the protocol).
    X,
    /// The second player (white; `O`).
    O,
}

impl Color {
    /// The other player.
    pub const fn other(self) -> Color {
        match self {
            Color::X => Color::O,
            Color::O => Color::X,
        }
    }

    /// The protocol letter, `b'X'` or `b'O'`.
    pub const fn letter(self) -> u8 {
        match self {
            Color::X => b'X',
            Color::O => b'O',
        }
    }

    /// Parses `X` or `O` (upper case only).
    pub const fn from_letter(b: u8) -> Option<Color> {
        match b {
            b'X' => Some(Color::X),
            b'O' => Some(Color::O),
            _ => None,
        }
    }
}

/// The content of one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// No disc.
    Empty,
    /// A disc of that color.
    Disc(Color),
}

impl Cell {
    /// The protocol character: `-`, `X` or `O`.
    pub const fn letter(self) -> u8 {
        match self {
            Cell::Empty => b'-',
            Cell::Disc(c) => c.letter(),
        }
    }
}

/// A reversi position (16 bytes of discs plus the side to move; `Copy`).
///
/// Invariant: `x & o == 0` (a square holds at most one disc). Nothing else is assumed: a
/// position set up with `10` may have any disc pattern, including empty centre squares, and
/// every method stays total on it. The side to move may have no legal move (it must then
/// [`pass`](Position::pass), or the game is over when neither side can move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    x: Bitboard,
    o: Bitboard,
    x_to_move: bool,
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl Position {
    /// The start position: O on `d4` (27) and `e5` (36), X on `e4` (28) and `d5` (35), X to move.
    pub const fn start() -> Position {
        Position {
            x: square_bit(28) | square_bit(35),
            o: square_bit(27) | square_bit(36),
            x_to_move: true,
        }
    }

    /// A position from X's and O's discs; `None` if they overlap.
    pub const fn from_bitboards(x: Bitboard, o: Bitboard, to_move: Color) -> Option<Position> {
        if x & o != 0 {
            return None;
        }
        Some(Position {
            x,
            o,
            x_to_move: matches!(to_move, Color::X),
        })
    }

    /// A position from the mover's and the opponent's discs (disjoint by the caller's
    /// invariant; overlapping bits are given to the mover).
    pub(crate) const fn from_mover(me: Bitboard, opp: Bitboard, to_move: Color) -> Position {
        let opp = opp & !me;
        match to_move {
            Color::X => Position {
                x: me,
                o: opp,
                x_to_move: true,
            },
            Color::O => Position {
                x: opp,
                o: me,
                x_to_move: false,
            },
        }
    }

    /// X's discs.
    pub const fn x(&self) -> Bitboard {
        self.x
    }

    /// O's discs.
    pub const fn o(&self) -> Bitboard {
        self.o
    }

    /// The side to move.
    pub const fn side_to_move(&self) -> Color {
        if self.x_to_move {
            Color::X
        } else {
            Color::O
        }
    }

    /// The discs of the side to move.
    pub const fn mover(&self) -> Bitboard {
        if self.x_to_move {
            self.x
        } else {
            self.o
        }
    }

    /// The discs of the side not to move.
    pub const fn opponent(&self) -> Bitboard {
        if self.x_to_move {
            self.o
        } else {
            self.x
        }
    }

    /// The empty squares.
    pub const fn empties(&self) -> Bitboard {
        !(self.x | self.o)
    }

    /// The number of X discs.
    pub const fn count_x(&self) -> u32 {
        self.x.count_ones()
    }

    /// The number of O discs.
    pub const fn count_o(&self) -> u32 {
        self.o.count_ones()
    }

    /// The number of empty squares.
    pub const fn count_empty(&self) -> u32 {
        self.empties().count_ones()
    }

    /// The content of square `sq` (taken modulo 64).
    pub const fn cell(&self, sq: u8) -> Cell {
        let b = square_bit(sq);
        if self.x & b != 0 {
            Cell::Disc(Color::X)
        } else if self.o & b != 0 {
            Cell::Disc(Color::O)
        } else {
            Cell::Empty
        }
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&self) -> Bitboard {
        bitboard::moves(self.mover(), self.opponent())
    }

    /// The position after the side to move plays `sq`; `None` if `sq > 63` or the move is
    /// illegal (occupied square or nothing flipped).
    pub fn play(&self, sq: u8) -> Option<Position> {
        if sq > 63 {
            return None;
        }
        let bit = square_bit(sq);
        let (me, opp) = (self.mover(), self.opponent());
        if (me | opp) & bit != 0 {
            return None;
        }
        let f = bitboard::flips(me, opp, sq);
        if f == 0 {
            return None;
        }
        Some(Position::from_mover(
            opp & !f,
            me | f | bit,
            self.side_to_move().other(),
        ))
    }

    /// The position after the side to move passes; `None` when it has a legal move (a pass is
    /// only allowed without one). Passing in a finished game is allowed and changes only the
    /// side to move.
    pub fn pass(&self) -> Option<Position> {
        if self.legal_moves() != 0 {
            return None;
        }
        Some(self.swapped())
    }

    /// The same discs with the other side to move (no legality check).
    pub(crate) const fn swapped(&self) -> Position {
        Position {
            x: self.x,
            o: self.o,
            x_to_move: !self.x_to_move,
        }
    }

    /// True when neither side has a legal move (the game is over).
    pub fn is_over(&self) -> bool {
        self.legal_moves() == 0 && bitboard::moves(self.opponent(), self.mover()) == 0
    }

    /// The winner by disc count (`None` for a tie); meaningful once [`is_over`](Self::is_over).
    pub fn winner(&self) -> Option<Color> {
        match self.count_x().cmp(&self.count_o()) {
            core::cmp::Ordering::Greater => Some(Color::X),
            core::cmp::Ordering::Less => Some(Color::O),
            core::cmp::Ordering::Equal => None,
        }
    }
}

/// [`Position::final_score`] on raw bitboards (`me` to move).
#[inline]
pub(crate) fn final_score(me: Bitboard, opp: Bitboard) -> i32 {
    let m = me.count_ones() as i32;
    let o = opp.count_ones() as i32;
    let e = 64 - m - o;
    let d = m - o;
    match d.cmp(&0) {
        core::cmp::Ordering::Greater => d + e,
        core::cmp::Ordering::Less => d - e,
        core::cmp::Ordering::Equal => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position() {
        let p = Position::start();
        assert_eq!(p.cell(27), Cell::Disc(Color::O));
        assert_eq!(p.cell(36), Cell::Disc(Color::O));
        assert_eq!(p.cell(28), Cell::Disc(Color::X));
        assert_eq!(p.cell(35), Cell::Disc(Color::X));
        assert_eq!(p.cell(0), Cell::Empty);
        assert_eq!(p.side_to_move(), Color::X);
        assert_eq!((p.count_x(), p.count_o(), p.count_empty()), (2, 2, 60));
        // X's four openings: d3 (19), c4 (26), f5 (37), e6 (44).
        let expect = square_bit(19) | square_bit(26) | square_bit(37) | square_bit(44);
        assert_eq!(p.legal_moves(), expect);
        assert!(p.pass().is_none());
        assert!(!p.is_over());
    }

    #[test]
    fn play_flips_and_rejects() {
        let p = Position::start();
        let q = p.play(19).unwrap(); // d3 flips d4
        assert_eq!(q.cell(19), Cell::Disc(Color::X));
        assert_eq!(q.cell(27), Cell::Disc(Color::X));
        assert_eq!((q.count_x(), q.count_o()), (4, 1));
        assert_eq!(q.side_to_move(), Color::O);
        for bad in [0u8, 27, 28, 20, 64, 200, 255] {
            assert!(p.play(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn pass_and_game_over() {
        // X owns everything but one corner: nobody can move.
        let p = Position::from_bitboards(!1u64, 0, Color::O).unwrap();
        assert!(p.is_over());
        assert_eq!(p.final_score(), -64);
        assert_eq!(p.winner(), Some(Color::X));
        // X on a1, O on b1, O to move: O has no move, X has c1.
        let q = Position::from_bitboards(0b1, 0b10, Color::O).unwrap();
        assert_eq!(q.legal_moves(), 0);
        let r = q.pass().unwrap();
        assert_eq!(r.side_to_move(), Color::X);
        assert_eq!(r.legal_moves(), 0b100);
        assert!(r.pass().is_none());
        assert!(Position::from_bitboards(3, 2, Color::X).is_none());
    }

    #[test]
    fn final_score_gives_empties_to_winner() {
        assert_eq!(final_score(0b111, 0b1000), 3 - 1 + 60);
        assert_eq!(final_score(0b1, 0b110), 1 - 2 - 61);
        assert_eq!(final_score(0b11, 0b1100), 0);
    }
}
