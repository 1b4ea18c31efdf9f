//! Host only: what the tools and tests use and `kgames.ko` never runs (the one `not(MODULE)`
//! gate in `mod.rs` leaves it out of the module): a network's evaluation from scratch (the
//! search updates its accumulators incrementally), a game's legal moves as a list, the pinned
//! pieces on their own (move generation finds them with the checkers), the whole evaluation
//! ([`evaluate`], re-exported by [`eval`](super::eval); the search asks for a bounded one)
//! and a classic move parsed and resolved in one step ([`parse_classic`], by
//! [`notation`](super::notation)).

use super::bitboard::Bitboard;
use super::eval::evaluate_bounded;
use super::game::Game;
use super::moves::{Move, MoveList};
use super::nnue::{Accumulator, Network};
use super::notation::{ClassicMove, ParseError};
use super::position::Position;

impl Network<'_> {
    /// The score of `pos` for the side to move, from a fresh accumulator (slow, and 1 KiB of
    /// stack: for tests and tools).
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        let mut acc = Accumulator::EMPTY;
        self.refresh(pos, &mut acc);
        self.evaluate(&acc, pos)
    }
}

impl Game {
    /// The legal moves of the side to move (none once the game is over).
    pub fn legal_moves(&self, list: &mut MoveList) {
        if self.is_over() {
            list.clear();
        } else {
            self.position().legal_moves(list);
        }
    }
}

impl Position {
    /// The pieces of the side to move that are pinned to their king.
    pub fn pinned(&self) -> Bitboard {
        match self.king_of(self.turn()) {
            Some(king) => self.checkers_and_pinned(king).1,
            None => Bitboard::EMPTY,
        }
    }
}

/// The evaluation of `pos` in centipawns for the side to move (bounded by about +-10000):
/// the weighted terms, middle game and endgame blended by the game phase, plus the mop-up
/// term.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_bounded(pos, -i32::MAX, i32::MAX)
}

/// Parses and resolves a classic move in one step (format errors first).
pub fn parse_classic(pos: &Position, text: &[u8]) -> Result<Move, ParseError> {
    ClassicMove::parse(text)?.resolve(pos)
}
