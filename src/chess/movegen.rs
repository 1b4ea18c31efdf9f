//! Legal move generation (no pseudo-legal filtering pass): pins, single and double check,
//! castling with every condition, and en passant checked by its resulting occupancy (which
//! covers the horizontally pinned capture and the capture of a checking pawn).

use super::attacks;
use super::bitboard::Bitboard;
use super::moves::{Move, MoveKind, MoveList};
use super::position::{Castling, Position};
use super::square::{Color, Piece, Role, Square};

/// Which moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Every legal move.
    All,
    /// Captures and promotions only, except in check, where all evasions are generated.
    Tactical,
}

impl Position {
    /// Replaces the contents of `list` with every legal move.
    pub fn legal_moves(&self, list: &mut MoveList) {
        list.clear();
        self.generate(list, Mode::All);
    }

    /// Replaces the contents of `list` with the legal captures (en passant included) and
    /// promotions; in check, with every legal move (all evasions).
    pub fn tactical_moves(&self, list: &mut MoveList) {
        list.clear();
        self.generate(list, Mode::Tactical);
    }

    /// True when the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut list = MoveList::new();
        self.generate(&mut list, Mode::All);
        !list.is_empty()
    }

    /// True when the side to move can capture en passant legally right now (the condition
    /// under which the en-passant square counts for repetition).
    pub fn has_legal_ep(&self) -> bool {
        let (Some(ep), Some(king)) = (self.ep_square(), self.king_of(self.turn())) else {
            return false;
        };
        let us = self.turn();
        let pawns = self.by_piece(Piece {
            color: us,
            role: Role::Pawn,
        });
        let mut candidates = attacks::pawn_attacks(us.other(), ep) & pawns;
        Iterator::any(&mut candidates, |from| self.ep_is_legal(king, from, ep))
    }

    /// The pieces of the side to move that are pinned to their king.
    pub fn pinned(&self) -> Bitboard {
        match self.king_of(self.turn()) {
            Some(king) => self.pinned_to(king),
            None => Bitboard::EMPTY,
        }
    }

    fn pinned_to(&self, king: Square) -> Bitboard {
        let us = self.turn();
        let their = self.by_color(us.other());
        let queens = self.by_role(Role::Queen);
        let snipers = ((attacks::rook_attacks(king, Bitboard::EMPTY)
            & (self.by_role(Role::Rook) | queens))
            | (attacks::bishop_attacks(king, Bitboard::EMPTY)
                & (self.by_role(Role::Bishop) | queens)))
            & their;
        let occupied = self.occupied();
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & occupied;
            if !blockers.more_than_one() {
                pinned |= blockers & self.by_color(us);
            }
        }
        pinned
    }

    /// Whether the pawn on `from` may capture en passant onto `ep`: the king must not be
    /// attacked once the capturing pawn and the captured pawn have left their squares.
    fn ep_is_legal(&self, king: Square, from: Square, ep: Square) -> bool {
        let us = self.turn();
        let Some(victim) = ep.offset(-us.forward()) else {
            return false;
        };
        let occupied = self.occupied().without(from).without(victim).with(ep);
        let attackers = self
            .attackers_to(king, us.other(), occupied)
            .without(victim);
        attackers.is_empty()
    }

    fn generate(&self, list: &mut MoveList, mode: Mode) {
        let us = self.turn();
        let them = us.other();
        let Some(king) = self.king_of(us) else {
            return;
        };
        let our = self.by_color(us);
        let their = self.by_color(them);
        let occupied = self.occupied();
        let checkers = self.attackers_to(king, them, occupied);
        let tactical = mode == Mode::Tactical && checkers.is_empty();
        let reach = if tactical { their } else { !our };

        // King moves: the destination must not be attacked once the king has left `king`
        // (so a slider's ray through the king's old square counts).
        let without_king = occupied.without(king);
        for to in attacks::king_attacks(king) & reach {
            if self.attackers_to(to, them, without_king).is_empty() {
                self.push_normal(list, Role::King, king, to);
            }
        }
        if checkers.more_than_one() {
            return;
        }
        let target = match checkers.first() {
            Some(checker) => attacks::between(king, checker).with(checker) & reach,
            None => reach,
        };
        let pinned = self.pinned_to(king);

        for from in self.by_piece(Piece {
            color: us,
            role: Role::Knight,
        }) & !pinned
        {
            for to in attacks::knight_attacks(from) & target {
                self.push_normal(list, Role::Knight, from, to);
            }
        }
        for role in [Role::Bishop, Role::Rook, Role::Queen] {
            for from in self.by_piece(Piece { color: us, role }) {
                let mut to_set = attacks::attacks(us, role, from, occupied) & target;
                if pinned.contains(from) {
                    to_set &= attacks::line(king, from);
                }
                for to in to_set {
                    self.push_normal(list, role, from, to);
                }
            }
        }
        self.generate_pawns(list, king, target, pinned, tactical);
        if checkers.is_empty() && mode == Mode::All {
            self.generate_castling(list, king);
        }
    }

    fn push_normal(&self, list: &mut MoveList, role: Role, from: Square, to: Square) {
        let capture = self.role_at(to);
        list.push(Move::new(role, from, to, capture, None, MoveKind::Normal));
    }

    fn push_pawn(&self, list: &mut MoveList, from: Square, to: Square, promote_rank: u32) {
        let capture = self.role_at(to);
        if to.rank() == promote_rank {
            for promo in Role::PROMOTIONS {
                list.push(Move::new(
                    Role::Pawn,
                    from,
                    to,
                    capture,
                    Some(promo),
                    MoveKind::Normal,
                ));
            }
        } else {
            list.push(Move::new(
                Role::Pawn,
                from,
                to,
                capture,
                None,
                MoveKind::Normal,
            ));
        }
    }

    fn generate_pawns(
        &self,
        list: &mut MoveList,
        king: Square,
        target: Bitboard,
        pinned: Bitboard,
        tactical: bool,
    ) {
        let us = self.turn();
        let their = self.by_color(us.other());
        let occupied = self.occupied();
        let promote_rank = us.promotion_rank();
        let start_rank = match us {
            Color::White => 1,
            Color::Black => 6,
        };
        for from in self.by_piece(Piece {
            color: us,
            role: Role::Pawn,
        }) {
            let allowed = if pinned.contains(from) {
                attacks::line(king, from)
            } else {
                Bitboard::FULL
            };
            for to in attacks::pawn_attacks(us, from) & their & target & allowed {
                self.push_pawn(list, from, to, promote_rank);
            }
            if let Some(ep) = self.ep_square() {
                if attacks::pawn_attacks(us, from).contains(ep) && self.ep_is_legal(king, from, ep)
                {
                    list.push(Move::new(
                        Role::Pawn,
                        from,
                        ep,
                        Some(Role::Pawn),
                        None,
                        MoveKind::EnPassant,
                    ));
                }
            }
            let Some(one) = from.offset(us.forward()) else {
                continue;
            };
            if occupied.contains(one) {
                continue;
            }
            // Pushes: `target` may exclude empty squares in tactical mode; promotions are
            // generated in tactical mode whatever `target` says, unless in check.
            let legal_dest = allowed.contains(one);
            if one.rank() == promote_rank {
                let blocks = if tactical { true } else { target.contains(one) };
                if legal_dest && blocks {
                    self.push_pawn(list, from, one, promote_rank);
                }
                continue;
            }
            if tactical {
                continue;
            }
            if legal_dest && target.contains(one) {
                self.push_pawn(list, from, one, promote_rank);
            }
            if from.rank() == start_rank {
                if let Some(two) = one.offset(us.forward()) {
                    if !occupied.contains(two) && target.contains(two) && allowed.contains(two) {
                        list.push(Move::new(
                            Role::Pawn,
                            from,
                            two,
                            None,
                            None,
                            MoveKind::DoublePush,
                        ));
                    }
                }
            }
        }
    }

    fn generate_castling(&self, list: &mut MoveList, king: Square) {
        let us = self.turn();
        let them = us.other();
        let rank = us.back_rank();
        if king != Square::from_coords(4, rank) {
            return;
        }
        let occupied = self.occupied();
        let rooks = self.by_piece(Piece {
            color: us,
            role: Role::Rook,
        });
        // (right, rook file, squares that must be empty, squares the king crosses or lands on)
        let sides = [
            (Castling::king_side(us), 7, [5u32, 6, 6], 6u32),
            (Castling::queen_side(us), 0, [1, 2, 3], 2),
        ];
        for (right, rook_file, empty_files, king_to_file) in sides {
            if !self.castling().contains(right)
                || !rooks.contains(Square::from_coords(rook_file, rank))
            {
                continue;
            }
            if empty_files
                .iter()
                .any(|&f| occupied.contains(Square::from_coords(f, rank)))
            {
                continue;
            }
            let pass = Square::from_coords((4 + king_to_file) / 2, rank);
            let to = Square::from_coords(king_to_file, rank);
            if self.is_attacked(pass, them) || self.is_attacked(to, them) {
                continue;
            }
            list.push(Move::new(
                Role::King,
                king,
                to,
                None,
                None,
                MoveKind::Castle,
            ));
        }
    }
}

/// Counts the leaf nodes of the legal move tree to `depth` plies (bulk-counting the last ply).
/// Host and test use: it keeps a 1.5 KiB move list per ply on the stack.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0u64;
    for &m in &list {
        let mut child = *pos;
        child.play(m);
        nodes = nodes.saturating_add(perft(&child, depth - 1));
    }
    nodes
}
