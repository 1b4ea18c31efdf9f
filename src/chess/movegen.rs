//! Legal move generation (no pseudo-legal filtering pass): pins, single and double check,
//! castling with every condition, and en passant checked by its resulting occupancy (which
//! covers the horizontally pinned capture and the capture of a checking pawn).

use super::attacks;
use super::bitboard::Bitboard;
use super::moves::{Move, MoveKind, MoveList};
use super::position::{Castling, Position};
use super::square::{Piece, Role, Square};

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
        self.generate(&mut ListSink(list), Mode::All);
    }

    /// Replaces the contents of `list` with the legal captures (en passant included) and
    /// promotions; in check, with every legal move (all evasions).
    pub fn tactical_moves(&self, list: &mut MoveList) {
        list.clear();
        self.generate(&mut ListSink(list), Mode::Tactical);
    }

    /// True when the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// The number of legal moves, counted without building them (bulk counting).
    pub fn count_legal_moves(&self) -> usize {
        let mut count = CountSink(0);
        self.generate(&mut count, Mode::All);
        count.0
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

    /// The enemy pieces giving check to the side to move's king on `king`, and the side to
    /// move's pieces pinned to it, in one pass over the enemy sliders on the king's lines
    /// (a slider with nothing between gives check; with exactly one piece of ours, pins it).
    pub(super) fn checkers_and_pinned(&self, king: Square) -> (Bitboard, Bitboard) {
        let us = self.turn();
        let them = us.other();
        let their = self.by_color(them);
        let steppers = (attacks::knight_attacks(king) & self.by_role(Role::Knight))
            | (attacks::pawn_attacks(us, king) & self.by_role(Role::Pawn));
        let mut checkers = steppers & their;
        let queens = self.by_role(Role::Queen);
        let snipers = ((attacks::rook_pseudo_attacks(king) & (self.by_role(Role::Rook) | queens))
            | (attacks::bishop_pseudo_attacks(king) & (self.by_role(Role::Bishop) | queens)))
            & their;
        let occupied = self.occupied();
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & occupied;
            if blockers.is_empty() {
                checkers.add(sniper);
            } else if !blockers.more_than_one() {
                pinned |= blockers & self.by_color(us);
            }
        }
        (checkers, pinned)
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

    fn generate(&self, sink: &mut impl Sink, mode: Mode) {
        let us = self.turn();
        let them = us.other();
        let Some(king) = self.king_of(us) else {
            return;
        };
        let our = self.by_color(us);
        let their = self.by_color(them);
        let occupied = self.occupied();
        // (A king never gives check: the other king's attacks are not looked at.)
        let (checkers, pinned) = self.checkers_and_pinned(king);
        let tactical = mode == Mode::Tactical && checkers.is_empty();
        let reach = if tactical { their } else { !our };

        // King moves: the destination must not be attacked once the king has left `king`
        // (so a slider's ray through the king's old square counts).
        let without_king = occupied.without(king);
        let mut king_to = Bitboard::EMPTY;
        for to in attacks::king_attacks(king) & reach {
            if !self.is_attacked_with(to, them, without_king) {
                king_to.add(to);
            }
        }
        sink.piece(self, Role::King, king, king_to);
        if checkers.more_than_one() {
            return;
        }
        let target = match checkers.first() {
            Some(checker) => attacks::between(king, checker).with(checker) & reach,
            None => reach,
        };

        for from in self.by_piece(Piece {
            color: us,
            role: Role::Knight,
        }) & !pinned
        {
            sink.piece(
                self,
                Role::Knight,
                from,
                attacks::knight_attacks(from) & target,
            );
        }
        let queens = self.by_role(Role::Queen);
        for from in (self.by_role(Role::Bishop) | queens) & our {
            let mut to_set = attacks::bishop_attacks(from, occupied) & target;
            if pinned.contains(from) {
                to_set &= attacks::line(king, from);
            }
            sink.piece(self, self.slider_role(from, Role::Bishop), from, to_set);
        }
        for from in (self.by_role(Role::Rook) | queens) & our {
            let mut to_set = attacks::rook_attacks(from, occupied) & target;
            if pinned.contains(from) {
                to_set &= attacks::line(king, from);
            }
            sink.piece(self, self.slider_role(from, Role::Rook), from, to_set);
        }
        self.generate_pawns(sink, king, target, pinned, tactical);
        if checkers.is_empty() && mode == Mode::All {
            self.generate_castling(sink, king);
        }
    }

    /// The role of the slider on `from`: the queen when it is one, else `role`.
    #[inline]
    fn slider_role(&self, from: Square, role: Role) -> Role {
        if self.by_role(Role::Queen).contains(from) {
            Role::Queen
        } else {
            role
        }
    }

    /// Pawn moves, set-wise for unpinned pawns (each destination set paired with the
    /// from-to offset), one by one for pinned pawns, and en passant by its occupancy test.
    fn generate_pawns(
        &self,
        sink: &mut impl Sink,
        king: Square,
        target: Bitboard,
        pinned: Bitboard,
        tactical: bool,
    ) {
        let us = self.turn();
        let their = self.by_color(us.other());
        let empty = !self.occupied();
        let pawns = self.by_piece(Piece {
            color: us,
            role: Role::Pawn,
        });
        let forward = us.forward();
        let promo_rank = Bitboard::rank(us.promotion_rank());
        // Push targets: in tactical mode (never in check) only promotions, wherever they land.
        let push_target = if tactical { promo_rank } else { target };
        // The rank a pawn reaches with its first single push (the 3rd or the 6th).
        let third = Bitboard::rank(if forward > 0 { 2 } else { 5 });
        let free = pawns & !pinned;
        let capture_target = their & target;
        for (delta, edge) in [
            (forward - 1, Bitboard::FILE_A),
            (forward + 1, Bitboard::FILE_H),
        ] {
            let to = shift(free & !edge, delta) & capture_target;
            sink.pawns(self, to, delta, MoveKind::Normal);
        }
        let single = shift(free, forward) & empty;
        sink.pawns(self, single & push_target, forward, MoveKind::Normal);
        if !tactical {
            let double = shift(single & third, forward) & empty & target;
            sink.pawns(self, double, 2 * forward, MoveKind::DoublePush);
        }
        for from in pawns & pinned {
            let allowed = attacks::line(king, from);
            // A pinned pawn captures at most along its pin: one square, one offset.
            for to in attacks::pawn_attacks(us, from) & capture_target & allowed {
                let delta = to.to_u32() as i32 - from.to_u32() as i32;
                sink.pawns(self, Bitboard::from_square(to), delta, MoveKind::Normal);
            }
            let Some(one) = from.offset(forward) else {
                continue;
            };
            let one_set = Bitboard::from_square(one) & empty & allowed;
            sink.pawns(self, one_set & push_target, forward, MoveKind::Normal);
            if !tactical {
                let double = shift(one_set & third, forward) & empty & target & allowed;
                sink.pawns(self, double, 2 * forward, MoveKind::DoublePush);
            }
        }
        if let Some(ep) = self.ep_square() {
            for from in attacks::pawn_attacks(us.other(), ep) & pawns {
                if self.ep_is_legal(king, from, ep) {
                    sink.push(Move::new(
                        Role::Pawn,
                        from,
                        ep,
                        Some(Role::Pawn),
                        None,
                        MoveKind::EnPassant,
                    ));
                }
            }
        }
    }

    fn generate_castling(&self, sink: &mut impl Sink, king: Square) {
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
            sink.push(Move::new(
                Role::King,
                king,
                to,
                None,
                None,
                MoveKind::Castle,
            ));
        }
    }

    /// The role captured on `to` (`to` holds an enemy piece other than the king).
    #[inline]
    fn captured_role(&self, to: Square) -> Option<Role> {
        [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ]
        .into_iter()
        .find(|&r| self.by_role(r).contains(to))
    }
}

/// Every square of `b` moved by `delta` square indices (positive: towards the 8th rank);
/// the caller masks off the file a diagonal shift would wrap from.
#[inline]
fn shift(b: Bitboard, delta: i32) -> Bitboard {
    if delta >= 0 {
        Bitboard(b.0 << (delta & 63))
    } else {
        Bitboard(b.0 >> ((-delta) & 63))
    }
}

/// Where generated moves go: a move list, or a counter (bulk counting needs no moves).
trait Sink {
    /// Normal moves of the `role` on `from` to every square of `to`.
    fn piece(&mut self, pos: &Position, role: Role, from: Square, to: Bitboard);
    /// Pawn moves to every square of `to`, each from `to - delta`; moves to the last rank
    /// are four promotions.
    fn pawns(&mut self, pos: &Position, to: Bitboard, delta: i32, kind: MoveKind);
    /// One special move (en passant, castling).
    fn push(&mut self, m: Move);
}

/// Collects moves into a [`MoveList`].
struct ListSink<'a>(&'a mut MoveList);

impl Sink for ListSink<'_> {
    #[inline]
    fn piece(&mut self, pos: &Position, role: Role, from: Square, to: Bitboard) {
        let their = pos.by_color(pos.turn().other());
        for sq in to & !their {
            self.0
                .push(Move::new(role, from, sq, None, None, MoveKind::Normal));
        }
        for sq in to & their {
            let cap = pos.captured_role(sq);
            self.0
                .push(Move::new(role, from, sq, cap, None, MoveKind::Normal));
        }
    }

    #[inline]
    fn pawns(&mut self, pos: &Position, to: Bitboard, delta: i32, kind: MoveKind) {
        for sq in to {
            let Some(from) = sq.offset(-delta) else {
                continue;
            };
            let cap = pos.captured_role(sq);
            if Bitboard::BACKRANKS.contains(sq) {
                for promo in Role::PROMOTIONS {
                    self.0
                        .push(Move::new(Role::Pawn, from, sq, cap, Some(promo), kind));
                }
            } else {
                self.0
                    .push(Move::new(Role::Pawn, from, sq, cap, None, kind));
            }
        }
    }

    #[inline]
    fn push(&mut self, m: Move) {
        self.0.push(m);
    }
}

/// Counts moves without building them.
struct CountSink(usize);

impl Sink for CountSink {
    #[inline]
    fn piece(&mut self, _: &Position, _: Role, _: Square, to: Bitboard) {
        self.0 += to.count() as usize;
    }

    #[inline]
    fn pawns(&mut self, _: &Position, to: Bitboard, _: i32, _: MoveKind) {
        self.0 += (to & !Bitboard::BACKRANKS).count() as usize
            + 4 * (to & Bitboard::BACKRANKS).count() as usize;
    }

    #[inline]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// Counts the leaf nodes of the legal move tree to `depth` plies, bulk-counting the last ply
/// ([`Position::count_legal_moves`]). Host and test use: it keeps a 1.5 KiB move list per ply
/// on the stack: host only, and in kgames.ko's KUnit suites.
#[cfg(any(not(MODULE), CONFIG_KUNIT = "y"))]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            let mut nodes = 0u64;
            for &m in &list {
                let mut child = *pos;
                child.play(m);
                nodes = nodes.saturating_add(perft(&child, depth - 1));
            }
            nodes
        }
    }
}
