//! Squares, colours, roles and pieces.
//!
//! Squares are numbered `8 * rank + file` from a1 = 0 to h8 = 63, the order of the protocol's
//! `01` board.

/// One of the 64 squares.
///
/// Invariant: the index is below 64, so every table indexed by a square is in bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// a1.
    pub const A1: Square = Square(0);
    /// b1.
    pub const B1: Square = Square(1);
    /// c1.
    pub const C1: Square = Square(2);
    /// d1.
    pub const D1: Square = Square(3);
    /// e1.
    pub const E1: Square = Square(4);
    /// f1.
    pub const F1: Square = Square(5);
    /// g1.
    pub const G1: Square = Square(6);
    /// h1.
    pub const H1: Square = Square(7);
    /// a8.
    pub const A8: Square = Square(56);
    /// b8.
    pub const B8: Square = Square(57);
    /// c8.
    pub const C8: Square = Square(58);
    /// d8.
    pub const D8: Square = Square(59);
    /// e8.
    pub const E8: Square = Square(60);
    /// f8.
    pub const F8: Square = Square(61);
    /// g8.
    pub const G8: Square = Square(62);
    /// h8.
    pub const H8: Square = Square(63);

    /// The square with this index, if it is below 64.
    pub const fn new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square with index `index & 63` (never fails).
    #[inline]
    pub const fn new_masked(index: u32) -> Square {
        Square((index & 63) as u8)
    }

    /// The square on `file` (0 = a) and `rank` (0 = 1st), both masked to 0..8.
    #[inline]
    pub const fn from_coords(file: u32, rank: u32) -> Square {
        Square((((rank & 7) << 3) | (file & 7)) as u8)
    }

    /// Parses two ASCII bytes `a`-`h` and `1`-`8`.
    pub fn from_ascii(file: u8, rank: u8) -> Option<Square> {
        if (b'a'..=b'h').contains(&file) && (b'1'..=b'8').contains(&rank) {
            Some(Square::from_coords(
                u32::from(file - b'a'),
                u32::from(rank - b'1'),
            ))
        } else {
            None
        }
    }

    /// Index 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 & 63) as usize
    }

    /// Index 0..64 as `u32`.
    #[inline]
    pub const fn to_u32(self) -> u32 {
        self.0 as u32
    }

    /// File 0..8 (0 = a).
    #[inline]
    pub const fn file(self) -> u32 {
        (self.0 & 7) as u32
    }

    /// Rank 0..8 (0 = 1st rank).
    #[inline]
    pub const fn rank(self) -> u32 {
        (self.0 >> 3) as u32
    }

    /// The file letter `a`-`h`.
    pub const fn file_char(self) -> u8 {
        b'a' + (self.0 & 7)
    }

    /// The rank digit `1`-`8`.
    pub const fn rank_char(self) -> u8 {
        b'1' + (self.0 >> 3)
    }

    /// The same square seen from the other side (a1 <-> a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square `delta` steps away in index terms, if it stays on the board (no file wrap
    /// check: callers use it only for vertical steps).
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self.0 as i32 + delta;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// True for light squares (h1 is light, a1 is dark).
    pub const fn is_light(self) -> bool {
        (self.file() + self.rank()) % 2 == 1
    }
}

/// White or black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    /// White moves first.
    White = 0,
    /// Black.
    Black = 1,
}

impl Color {
    /// Both colours, white first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// Index 0 (white) or 1 (black).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other colour.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `W` or `B`, as in the protocol.
    pub const fn protocol_char(self) -> u8 {
        match self {
            Color::White => b'W',
            Color::Black => b'B',
        }
    }

    /// Parses `W` or `B`.
    pub const fn from_protocol_char(c: u8) -> Option<Color> {
        match c {
            b'W' => Some(Color::White),
            b'B' => Some(Color::Black),
            _ => None,
        }
    }

    /// `w` or `b`, as in FEN.
    pub const fn fen_char(self) -> u8 {
        match self {
            Color::White => b'w',
            Color::Black => b'b',
        }
    }

    /// The rank (0..8) a pawn of this colour promotes on.
    pub const fn promotion_rank(self) -> u32 {
        match self {
            Color::White => 7,
            Color::Black => 0,
        }
    }

    /// The rank (0..8) of this colour's king and rooks at the start.
    pub const fn back_rank(self) -> u32 {
        match self {
            Color::White => 0,
            Color::Black => 7,
        }
    }

    /// One pawn step forward in square-index terms (+8 or -8).
    pub const fn forward(self) -> i32 {
        match self {
            Color::White => 8,
            Color::Black => -8,
        }
    }
}

impl core::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.other()
    }
}

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Role {
    /// All roles, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The roles a pawn may promote to, strongest first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// Index 0..6.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The upper-case letter `P N B R Q K` (the protocol's and FEN's white letter).
    pub const fn upper_char(self) -> u8 {
        match self {
            Role::Pawn => b'P',
            Role::Knight => b'N',
            Role::Bishop => b'B',
            Role::Rook => b'R',
            Role::Queen => b'Q',
            Role::King => b'K',
        }
    }

    /// The lower-case letter `p n b r q k`.
    pub const fn lower_char(self) -> u8 {
        self.upper_char().to_ascii_lowercase()
    }

    /// Parses an upper-case letter `P N B R Q K`.
    pub const fn from_upper_char(c: u8) -> Option<Role> {
        match c {
            b'P' => Some(Role::Pawn),
            b'N' => Some(Role::Knight),
            b'B' => Some(Role::Bishop),
            b'R' => Some(Role::Rook),
            b'Q' => Some(Role::Queen),
            b'K' => Some(Role::King),
            _ => None,
        }
    }

    /// True for bishop, rook and queen.
    pub const fn is_slider(self) -> bool {
        matches!(self, Role::Bishop | Role::Rook | Role::Queen)
    }
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its colour.
    pub color: Color,
    /// Its role.
    pub role: Role,
}

impl Piece {
    /// Index 0..12: `6 * colour + role`.
    #[inline]
    pub const fn index(self) -> usize {
        self.color.index() * 6 + self.role.index()
    }

    /// The FEN letter: upper case for white, lower case for black.
    pub const fn fen_char(self) -> u8 {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.lower_char(),
        }
    }

    /// Parses a FEN letter.
    pub const fn from_fen_char(c: u8) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match Role::from_upper_char(c.to_ascii_uppercase()) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_coordinates() {
        assert_eq!(Square::from_ascii(b'e', b'4'), Square::new(28));
        assert_eq!(Square::from_ascii(b'i', b'4'), None);
        assert_eq!(Square::from_ascii(b'a', b'9'), None);
        assert_eq!(Square::new(64), None);
        let h8 = Square::H8;
        assert_eq!((h8.file(), h8.rank()), (7, 7));
        assert_eq!((h8.file_char(), h8.rank_char()), (b'h', b'8'));
        assert!(Square::H1.is_light());
        assert!(!Square::A1.is_light());
        assert_eq!(Square::E1.flip_vertical(), Square::E8);
    }

    #[test]
    fn pieces_round_trip() {
        for c in b"PNBRQKpnbrqk" {
            let p = Piece::from_fen_char(*c).unwrap();
            assert_eq!(p.fen_char(), *c);
        }
        assert_eq!(Piece::from_fen_char(b'x'), None);
        assert_eq!(!Color::White, Color::Black);
    }
}
