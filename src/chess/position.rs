//! The position: piece placement, side to move, castling rights, en-passant square, clocks
//! and an incrementally updated Zobrist hash. `Copy` and 88 bytes, so search uses copy-make.

use super::attacks;
use super::bitboard::Bitboard;
use super::moves::{Move, MoveKind};
use super::square::{Color, Piece, Role, Square};
use super::zobrist;

/// Castling rights as a 4-bit mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Castling(u8);

impl Castling {
    /// No rights.
    pub const NONE: Castling = Castling(0);
    /// White may castle king-side (`K`).
    pub const WHITE_KING: Castling = Castling(1);
    /// White may castle queen-side (`Q`).
    pub const WHITE_QUEEN: Castling = Castling(2);
    /// Black may castle king-side (`k`).
    pub const BLACK_KING: Castling = Castling(4);
    /// Black may castle queen-side (`q`).
    pub const BLACK_QUEEN: Castling = Castling(8);
    /// All four rights.
    pub const ALL: Castling = Castling(15);

    /// The mask bits 0..16.
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// True when every right of `other` is held.
    pub const fn contains(self, other: Castling) -> bool {
        self.0 & other.0 == other.0
    }

    /// The union of two sets of rights.
    pub const fn union(self, other: Castling) -> Castling {
        Castling(self.0 | other.0)
    }

    /// The king-side right of `color`.
    pub const fn king_side(color: Color) -> Castling {
        match color {
            Color::White => Castling::WHITE_KING,
            Color::Black => Castling::BLACK_KING,
        }
    }

    /// The queen-side right of `color`.
    pub const fn queen_side(color: Color) -> Castling {
        match color {
            Color::White => Castling::WHITE_QUEEN,
            Color::Black => Castling::BLACK_QUEEN,
        }
    }

    /// The rights kept when a piece moves from or to `sq` (the others are lost).
    const fn kept_after_touching(sq: Square) -> u8 {
        KEPT_AFTER_TOUCHING[sq.index() & 63]
    }
}

/// [`Castling::kept_after_touching`] per square: a lookup, not a branch chain (it runs on
/// every move played).
const KEPT_AFTER_TOUCHING: [u8; 64] = {
    let mut t = [!0u8; 64];
    t[0] = !2; // a1
    t[4] = !3; // e1
    t[7] = !1; // h1
    t[56] = !8; // a8
    t[60] = !12; // e8
    t[63] = !4; // h8
    t
};

/// A chess position.
///
/// Invariants (kept by FEN parsing and by playing generated legal moves): the colour and role
/// bitboards partition the occupied squares; each side has exactly one king; the side not to
/// move is not in check; castling rights are only held with king and rook on their home
/// squares; `ep_square` is set only right after a double push (the square behind that pawn,
/// as FEN records it); `hash` equals [`Position::compute_hash`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    hash: u64,
    fullmoves: u32,
    halfmoves: u16,
    turn: Color,
    castling: Castling,
    ep_square: Option<Square>,
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        let mut p = Position::empty();
        const BACK: [Role; 8] = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (file, &role) in BACK.iter().enumerate() {
            let f = file as u32;
            p.put(
                Square::from_coords(f, 0),
                Piece {
                    color: Color::White,
                    role,
                },
            );
            p.put(
                Square::from_coords(f, 7),
                Piece {
                    color: Color::Black,
                    role,
                },
            );
            let pawn = Role::Pawn;
            p.put(
                Square::from_coords(f, 1),
                Piece {
                    color: Color::White,
                    role: pawn,
                },
            );
            p.put(
                Square::from_coords(f, 6),
                Piece {
                    color: Color::Black,
                    role: pawn,
                },
            );
        }
        p.castling = Castling::ALL;
        p.hash = p.compute_hash();
        p
    }

    /// An empty board, white to move, no rights, clocks 0 and 1 (a building block for FEN
    /// parsing; it is not a valid position until kings are added).
    pub(crate) const fn empty() -> Position {
        Position {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            hash: 0,
            fullmoves: 1,
            halfmoves: 0,
            turn: Color::White,
            castling: Castling::NONE,
            ep_square: None,
        }
    }

    /// Puts `piece` on the empty square `sq` (no hash update).
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role.index()].add(sq);
        self.by_color[piece.color.index()].add(sq);
    }

    pub(crate) fn set_turn(&mut self, turn: Color) {
        self.turn = turn;
    }

    pub(crate) fn set_castling(&mut self, castling: Castling) {
        self.castling = castling;
    }

    pub(crate) fn set_ep_square(&mut self, ep: Option<Square>) {
        self.ep_square = ep;
    }

    pub(crate) fn set_clocks(&mut self, halfmoves: u16, fullmoves: u32) {
        self.halfmoves = halfmoves;
        self.fullmoves = fullmoves;
    }

    pub(crate) fn refresh_hash(&mut self) {
        self.hash = self.compute_hash();
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The castling rights.
    #[inline]
    pub fn castling(&self) -> Castling {
        self.castling
    }

    /// The en-passant target square (set after every double push, as in FEN).
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Plies since the last capture or pawn move (saturating).
    #[inline]
    pub fn halfmoves(&self) -> u16 {
        self.halfmoves
    }

    /// The full-move number, starting at 1, incremented after black's move (saturating).
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The Zobrist hash.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The squares holding pieces of `role`, both colours.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares holding pieces of `color`.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares holding `piece`.
    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role(piece.role) & self.by_color(piece.color)
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The role on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        Role::ALL
            .iter()
            .copied()
            .find(|&r| self.by_role[r.index()].contains(sq))
    }

    /// The colour on `sq`, if any.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Some(Piece {
            color: self.color_at(sq)?,
            role: self.role_at(sq)?,
        })
    }

    /// The king of `color` (always present in a valid position).
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        self.by_piece(Piece {
            color,
            role: Role::King,
        })
        .first()
    }

    /// The pieces of `attacker` that attack `sq` when `occupied` are the occupied squares.
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        let queens = self.by_role(Role::Queen);
        let rooks = self.by_role(Role::Rook) | queens;
        let bishops = self.by_role(Role::Bishop) | queens;
        let a = (attacks::rook_attacks(sq, occupied) & rooks)
            | (attacks::bishop_attacks(sq, occupied) & bishops)
            | (attacks::knight_attacks(sq) & self.by_role(Role::Knight))
            | (attacks::king_attacks(sq) & self.by_role(Role::King))
            | (attacks::pawn_attacks(attacker.other(), sq) & self.by_role(Role::Pawn));
        a & self.by_color(attacker)
    }

    /// The pieces of both colours that attack `sq` when `occupied` are the occupied squares:
    /// `attackers_to` of white and of black in one pass over the sliders.
    pub fn all_attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let queens = self.by_role(Role::Queen);
        let rooks = self.by_role(Role::Rook) | queens;
        let bishops = self.by_role(Role::Bishop) | queens;
        let pawns = self.by_role(Role::Pawn);
        (attacks::rook_attacks(sq, occupied) & rooks)
            | (attacks::bishop_attacks(sq, occupied) & bishops)
            | (attacks::knight_attacks(sq) & self.by_role(Role::Knight))
            | (attacks::king_attacks(sq) & self.by_role(Role::King))
            | (attacks::pawn_attacks(Color::Black, sq) & pawns & self.by_color(Color::White))
            | (attacks::pawn_attacks(Color::White, sq) & pawns & self.by_color(Color::Black))
    }

    /// True when a piece of `attacker` attacks `sq`.
    #[inline]
    pub fn is_attacked(&self, sq: Square, attacker: Color) -> bool {
        self.is_attacked_with(sq, attacker, self.occupied())
    }

    /// True when a piece of `attacker` attacks `sq` given `occupied` (which must hold every
    /// piece of `attacker`): `attackers_to(..).any()`, but the steppers are tested first and
    /// only the sliders on a line with `sq` are looked at, each by the squares between.
    pub fn is_attacked_with(&self, sq: Square, attacker: Color, occupied: Bitboard) -> bool {
        let their = self.by_color(attacker);
        let steppers = (attacks::knight_attacks(sq) & self.by_role(Role::Knight))
            | (attacks::king_attacks(sq) & self.by_role(Role::King))
            | (attacks::pawn_attacks(attacker.other(), sq) & self.by_role(Role::Pawn));
        if (steppers & their).any() {
            return true;
        }
        let queens = self.by_role(Role::Queen);
        let mut sliders = ((attacks::rook_pseudo_attacks(sq)
            & (self.by_role(Role::Rook) | queens))
            | (attacks::bishop_pseudo_attacks(sq) & (self.by_role(Role::Bishop) | queens)))
            & their;
        Iterator::any(&mut sliders, |s| {
            (attacks::between(sq, s) & occupied).is_empty()
        })
    }

    /// The enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        match self.king_of(self.turn) {
            Some(k) => self.attackers_to(k, self.turn.other(), self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// True when the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.king_of(self.turn)
            .is_some_and(|k| self.is_attacked(k, self.turn.other()))
    }

    /// True when the side to move has a pawn attacking the en-passant square (a pseudo-legal
    /// en-passant capture): only then is the square part of the hash.
    #[inline]
    pub(crate) fn ep_in_hash(&self) -> bool {
        match self.ep_square {
            Some(ep) => (attacks::pawn_attacks(self.turn.other(), ep)
                & self.by_piece(Piece {
                    color: self.turn,
                    role: Role::Pawn,
                }))
            .any(),
            None => false,
        }
    }

    /// The Zobrist hash computed from scratch.
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece { color, role };
                for sq in self.by_piece(piece) {
                    h ^= zobrist::piece(piece, sq);
                }
            }
        }
        h ^= zobrist::castling(self.castling.0);
        if let (Some(ep), true) = (self.ep_square, self.ep_in_hash()) {
            h ^= zobrist::ep_file(ep);
        }
        if self.turn == Color::Black {
            h ^= zobrist::SIDE;
        }
        h
    }

    #[inline]
    fn toggle(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role.index()].toggle(sq);
        self.by_color[piece.color.index()].toggle(sq);
        self.hash ^= zobrist::piece(piece, sq);
    }

    /// Moves `piece` from `from` to the empty square `to` (one update of each set).
    #[inline]
    fn shift_piece(&mut self, piece: Piece, from: Square, to: Square) {
        let both = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_role[piece.role.index()] ^= both;
        self.by_color[piece.color.index()] ^= both;
        self.hash ^= zobrist::piece(piece, from) ^ zobrist::piece(piece, to);
    }

    /// Plays `m`, which must be a legal move of this position (as generated by
    /// [`Position::legal_moves`]); anything else leaves a corrupt position but never panics.
    pub fn play(&mut self, m: Move) {
        let us = self.turn;
        let them = us.other();
        if let (Some(ep), true) = (self.ep_square, self.ep_in_hash()) {
            self.hash ^= zobrist::ep_file(ep);
        }
        self.ep_square = None;
        self.halfmoves = self.halfmoves.saturating_add(1);
        if m.is_zeroing() {
            self.halfmoves = 0;
        }
        let (from, to) = (m.from(), m.to());
        let mover = Piece {
            color: us,
            role: m.role(),
        };
        match m.kind() {
            MoveKind::Normal | MoveKind::DoublePush => {
                if let Some(cap) = m.capture() {
                    self.toggle(
                        to,
                        Piece {
                            color: them,
                            role: cap,
                        },
                    );
                }
                match m.promotion() {
                    Some(role) => {
                        self.toggle(from, mover);
                        self.toggle(to, Piece { color: us, role });
                    }
                    None => self.shift_piece(mover, from, to),
                }
                if m.kind() == MoveKind::DoublePush {
                    self.ep_square = from.offset(us.forward());
                }
            }
            MoveKind::EnPassant => {
                if let Some(victim) = to.offset(-us.forward()) {
                    self.toggle(
                        victim,
                        Piece {
                            color: them,
                            role: Role::Pawn,
                        },
                    );
                }
                self.toggle(from, mover);
                self.toggle(to, mover);
            }
            MoveKind::Castle => {
                let rank = us.back_rank();
                let (rook_from, rook_to) = if to.file() == 6 {
                    (Square::from_coords(7, rank), Square::from_coords(5, rank))
                } else {
                    (Square::from_coords(0, rank), Square::from_coords(3, rank))
                };
                let rook = Piece {
                    color: us,
                    role: Role::Rook,
                };
                self.toggle(from, mover);
                self.toggle(to, mover);
                self.toggle(rook_from, rook);
                self.toggle(rook_to, rook);
            }
        }
        let kept = self.castling.0
            & Castling::kept_after_touching(from)
            & Castling::kept_after_touching(to);
        if kept != self.castling.0 {
            self.hash ^= zobrist::castling(self.castling.0) ^ zobrist::castling(kept);
            self.castling.0 = kept;
        }
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = them;
        self.hash ^= zobrist::SIDE;
        if let (Some(ep), true) = (self.ep_square, self.ep_in_hash()) {
            self.hash ^= zobrist::ep_file(ep);
        }
    }

    /// Passes the turn (a "null move" for search): clears the en-passant square. Must not be
    /// used while in check.
    pub fn play_null(&mut self) {
        if let (Some(ep), true) = (self.ep_square, self.ep_in_hash()) {
            self.hash ^= zobrist::ep_file(ep);
        }
        self.ep_square = None;
        self.turn = self.turn.other();
        self.hash ^= zobrist::SIDE;
    }

    /// True when neither side can ever checkmate: no pawns, rooks or queens, and either at
    /// most one minor piece in total (K-K, KN-K, KB-K) or only bishops, all on squares of one
    /// colour (KB-KB with same-coloured bishops, and any number of such bishops).
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        if heavy.any() {
            return false;
        }
        let knights = self.by_role(Role::Knight);
        let bishops = self.by_role(Role::Bishop);
        if (knights | bishops).count() <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & Bitboard::LIGHT_SQUARES).is_empty()
                || (bishops & Bitboard::DARK_SQUARES).is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_layout() {
        let p = Position::startpos();
        assert!(core::mem::size_of::<Position>() < 200);
        assert_eq!(p.occupied().count(), 32);
        assert_eq!(p.king_of(Color::White), Some(Square::E1));
        assert_eq!(p.king_of(Color::Black), Some(Square::E8));
        assert_eq!(
            p.piece_at(Square::D8),
            Some(Piece {
                color: Color::Black,
                role: Role::Queen
            })
        );
        assert_eq!(p.piece_at(Square::new(27).unwrap()), None);
        assert!(!p.is_check());
        assert_eq!(p.hash(), p.compute_hash());
        assert!(!p.is_insufficient_material());
    }

    /// Both colours' attackers in one pass are each colour's together, on every square of
    /// positions with pins, x-rays and en passant, with the board's occupancy and without
    /// a piece.
    #[test]
    fn all_attackers_are_both_colours_attackers() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ];
        for fen in fens {
            let p = Position::from_fen(fen.as_bytes()).unwrap();
            for occupied in [p.occupied(), p.occupied().without(Square::new(28).unwrap())] {
                for i in 0..64 {
                    let sq = Square::new(i).unwrap();
                    let both = p.attackers_to(sq, Color::White, occupied)
                        | p.attackers_to(sq, Color::Black, occupied);
                    assert_eq!(p.all_attackers_to(sq, occupied), both, "{fen} {i}");
                }
            }
        }
    }
}
