//! Sets of squares as 64-bit masks (bit `i` is square `i`).

use super::square::Square;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The light squares (h1 is light).
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);
    /// The dark squares (a1 is dark).
    pub const DARK_SQUARES: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);
    /// The a-file.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// The h-file.
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    /// The 1st and 8th ranks.
    pub const BACKRANKS: Bitboard = Bitboard(0xFF00_0000_0000_00FF);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// All squares of rank `rank` (masked to 0..8).
    #[inline]
    pub const fn rank(rank: u32) -> Bitboard {
        Bitboard(0xFF << ((rank & 7) * 8))
    }

    /// All squares of file `file` (masked to 0..8).
    #[inline]
    pub const fn file(file: u32) -> Bitboard {
        Bitboard(Self::FILE_A.0 << (file & 7))
    }

    /// True when `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    /// True when the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when the set is not empty.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// True when the set has two or more squares.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The number of squares.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_masked(self.0.trailing_zeros()))
        }
    }

    /// The highest square, if any.
    #[inline]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_masked(63 - self.0.leading_zeros()))
        }
    }

    /// The only square of a one-square set, else `None`.
    #[inline]
    pub const fn single_square(self) -> Option<Square> {
        if self.more_than_one() {
            None
        } else {
            self.first()
        }
    }

    /// Adds `sq`.
    #[inline]
    pub fn add(&mut self, sq: Square) {
        self.0 |= 1 << sq.index();
    }

    /// Removes `sq`.
    #[inline]
    pub fn discard(&mut self, sq: Square) {
        self.0 &= !(1 << sq.index());
    }

    /// Toggles `sq`.
    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1 << sq.index();
    }

    /// The set with `sq` removed.
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// The set with `sq` added.
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | (1 << sq.index()))
    }

    /// Every square moved one rank towards the 8th (`up`) or the 1st rank.
    #[inline]
    pub const fn shift_rank(self, up: bool) -> Bitboard {
        if up {
            Bitboard(self.0 << 8)
        } else {
            Bitboard(self.0 >> 8)
        }
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0.wrapping_sub(1);
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bit_ops {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_ops!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_ops!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_ops!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut b = Bitboard::EMPTY;
        b.add(Square::E1);
        b.add(Square::H8);
        assert_eq!(b.count(), 2);
        assert!(b.more_than_one());
        assert_eq!(b.first(), Some(Square::E1));
        assert_eq!(b.last(), Some(Square::H8));
        assert_eq!(b.single_square(), None);
        b.discard(Square::H8);
        assert_eq!(b.single_square(), Some(Square::E1));
        let squares: [Option<Square>; 3] = {
            let mut it = Bitboard(0b1010_0001);
            [it.next(), it.next(), it.next()]
        };
        assert_eq!(squares, [Square::new(0), Square::new(5), Square::new(7)]);
        assert!(Bitboard::LIGHT_SQUARES.contains(Square::H1));
        assert!(Bitboard::DARK_SQUARES.contains(Square::A1));
        assert_eq!(
            Bitboard::LIGHT_SQUARES | Bitboard::DARK_SQUARES,
            Bitboard::FULL
        );
        assert_eq!(Bitboard::rank(7).first(), Some(Square::A8));
        assert_eq!(Bitboard::file(7).last(), Some(Square::H8));
    }
}
