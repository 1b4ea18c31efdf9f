//! Moves and fixed-capacity move lists.

use super::square::{Role, Square};

/// What a move does besides moving one piece from `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A plain move or capture (including promotions).
    Normal,
    /// A pawn's two-square advance (sets the en-passant square).
    DoublePush,
    /// An en-passant capture: the captured pawn is not on `to`.
    EnPassant,
    /// Castling: `from`/`to` are the king's squares; the rook moves too.
    Castle,
}

/// A move of the side to move, as produced by move generation.
///
/// Invariants (for moves from [`super::position::Position::legal_moves`]): `role` is the
/// moving piece; `capture` is the captured role (a pawn for en passant) and never a king;
/// `promotion` is set exactly for pawn moves to the last rank and is one of Q R B N.
/// Size: 6 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    role: Role,
    from: Square,
    to: Square,
    capture: Option<Role>,
    promotion: Option<Role>,
    kind: MoveKind,
}

impl Move {
    /// A placeholder used to fill empty list slots (a1-a1 pawn move); never generated.
    pub(crate) const PLACEHOLDER: Move = Move {
        role: Role::Pawn,
        from: Square::A1,
        to: Square::A1,
        capture: None,
        promotion: None,
        kind: MoveKind::Normal,
    };

    pub(crate) const fn new(
        role: Role,
        from: Square,
        to: Square,
        capture: Option<Role>,
        promotion: Option<Role>,
        kind: MoveKind,
    ) -> Move {
        Move {
            role,
            from,
            to,
            capture,
            promotion,
            kind,
        }
    }

    /// The moving piece's role (the king for castling).
    #[inline]
    pub const fn role(self) -> Role {
        self.role
    }

    /// The origin square (the king's for castling).
    #[inline]
    pub const fn from(self) -> Square {
        self.from
    }

    /// The destination square (the king's for castling: g1, c1, g8 or c8).
    #[inline]
    pub const fn to(self) -> Square {
        self.to
    }

    /// The captured role, if any (a pawn for en passant).
    #[inline]
    pub const fn capture(self) -> Option<Role> {
        self.capture
    }

    /// The promotion role, if any.
    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        self.promotion
    }

    /// The kind of move.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        self.kind
    }

    /// True for captures (including en passant).
    #[inline]
    pub const fn is_capture(self) -> bool {
        self.capture.is_some()
    }

    /// True for captures and promotions (the moves quiescence search considers).
    #[inline]
    pub const fn is_tactical(self) -> bool {
        self.capture.is_some() || self.promotion.is_some()
    }

    /// True when the move resets the half-move clock (a capture or a pawn move).
    #[inline]
    pub fn is_zeroing(self) -> bool {
        self.capture.is_some() || self.role == Role::Pawn
    }

    /// The move's UCI squares and promotion packed into 16 bits (for hash-table entries):
    /// `from | to << 6 | promotion << 12` with promotion 0 for none. Never 0 for a real move.
    #[inline]
    pub fn packed(self) -> u16 {
        let promo = match self.promotion {
            Some(r) => r as u16,
            None => 0,
        };
        (self.from.to_u32() as u16) | ((self.to.to_u32() as u16) << 6) | (promo << 12)
    }
}

/// Room for every legal move of any position (at most 218 are possible).
pub const MAX_MOVES: usize = 256;

/// A list of at most [`MAX_MOVES`] moves, without allocation (1538 bytes).
///
/// Invariant: `len <= MAX_MOVES`; pushes beyond capacity are dropped (never happens for
/// legal chess positions).
#[derive(Clone, Debug)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: u16,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::EMPTY
    }
}

impl MoveList {
    /// An empty list.
    pub const EMPTY: MoveList = MoveList {
        moves: [Move::PLACEHOLDER; MAX_MOVES],
        len: 0,
    };

    /// An empty list.
    pub const fn new() -> MoveList {
        MoveList::EMPTY
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends `m` (dropped when full).
    #[inline]
    pub fn push(&mut self, m: Move) {
        if let Some(slot) = self.moves.get_mut(usize::from(self.len)) {
            *slot = m;
            self.len += 1;
        }
    }

    /// The number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// True when the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        self.moves.get(..self.len()).unwrap_or(&[])
    }

    /// The moves as a mutable slice (for ordering).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        let len = self.len();
        self.moves.get_mut(..len).unwrap_or(&mut [])
    }

    /// The move at `i`, if any.
    #[inline]
    pub fn get(&self, i: usize) -> Option<Move> {
        self.as_slice().get(i).copied()
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> core::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Keeps only the moves for which `keep` returns true (order preserved).
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len() {
            if let Some(&m) = self.moves.get(i) {
                if keep(&m) {
                    if let Some(slot) = self.moves.get_mut(n) {
                        *slot = m;
                    }
                    n += 1;
                }
            }
        }
        self.len = n as u16;
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_capacity_and_retain() {
        assert_eq!(core::mem::size_of::<Move>(), 6);
        let mut list = MoveList::new();
        for i in 0..300u32 {
            let to = Square::new_masked(i);
            list.push(Move::new(
                Role::Knight,
                Square::B1,
                to,
                None,
                None,
                MoveKind::Normal,
            ));
        }
        assert_eq!(list.len(), MAX_MOVES);
        list.retain(|m| m.to().index() % 2 == 0);
        assert_eq!(list.len(), 128);
        assert!(list.iter().all(|m| m.to().index() % 2 == 0));
        list.clear();
        assert!(list.is_empty());
        assert_eq!(list.get(0), None);
    }
}
