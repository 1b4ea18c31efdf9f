//! A game: a position, the repetition keys since the last irreversible move, and the result.
//!
//! Results follow docs/protocol.md, "Chess": checkmate; draws by stalemate, insufficient
//! material, the fifty-move rule (half-move clock reaching 100, unless that move mates) and
//! threefold repetition (same placement, side to move, castling rights, and en-passant square
//! only when an en-passant capture is legal). After a move, [`Game::play`] reports the first
//! of MATE, TIE, CHECK, OK that applies.

use super::moves::Move;
use super::position::Position;
use super::square::Color;
use super::zobrist;

/// Room for the repetition keys since the last capture or pawn move: the fifty-move rule
/// ends the game after 100 such plies, so 101 keys is the most a game needs.
pub const HISTORY_CAPACITY: usize = 128;

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can ever mate (see [`Position::is_insufficient_material`]).
    InsufficientMaterial,
    /// The half-move clock reached 100.
    FiftyMoves,
    /// The same position occurred for the third time.
    Repetition,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `winner` checkmated the other side.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The loser resigned (`04`).
    Resignation {
        /// The side that did not resign.
        winner: Color,
    },
    /// A draw.
    Draw(DrawReason),
}

/// The protocol's answer to a move, in priority order MATE, TIE, CHECK, OK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The side to move is checkmated; the game is over.
    Mate,
    /// The game is drawn; the game is over.
    Tie,
    /// The side to move is in check.
    Check,
    /// Nothing special.
    Ok,
}

impl Status {
    /// The reply word including its newline (`MATE\n`, `TIE\n`, `CHECK\n`, `OK\n`).
    pub fn reply(self) -> &'static [u8] {
        match self {
            Status::Mate => b"MATE\n",
            Status::Tie => b"TIE\n",
            Status::Check => b"CHECK\n",
            Status::Ok => b"OK\n",
        }
    }
}

impl Position {
    /// The key used for repetition: the hash, with the en-passant file only when an
    /// en-passant capture is legal.
    pub fn repetition_key(&self) -> u64 {
        match self.ep_square() {
            Some(ep) if self.ep_in_hash() && !self.has_legal_ep() => {
                self.hash() ^ zobrist::ep_file(ep)
            }
            _ => self.hash(),
        }
    }
}

/// A game in progress or finished. About 1.1 KiB, `Clone`.
///
/// Invariants: `keys[..len]` are the repetition keys of the positions since the last capture
/// or pawn move (or since the game's start position), the current one last; `outcome` is set
/// once the game is over and then nothing changes.
#[derive(Clone, Debug)]
pub struct Game {
    pos: Position,
    keys: [u64; HISTORY_CAPACITY],
    len: usize,
    outcome: Option<Outcome>,
    last_move: Option<Move>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

impl Game {
    /// A game from the standard starting position.
    pub fn new() -> Game {
        Game::from_position(Position::startpos())
    }

    /// A game starting from `pos` (already decided if `pos` is mate, stalemate, a dead
    /// position, or its half-move clock is at least 100).
    pub fn from_position(pos: Position) -> Game {
        let mut game = Game {
            pos,
            keys: [0; HISTORY_CAPACITY],
            len: 0,
            outcome: None,
            last_move: None,
        };
        game.push_key();
        game.outcome = game.evaluate().1;
        game
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// How the game ended, if it did.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// True when the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The last move played through [`Game::play`], if any.
    pub fn last_move(&self) -> Option<Move> {
        self.last_move
    }

    /// The repetition keys since the last irreversible move, the current position last.
    pub fn history(&self) -> &[u64] {
        self.keys.get(..self.len).unwrap_or(&[])
    }

    /// How many times the current position has occurred (1 the first time).
    pub fn repetitions(&self) -> usize {
        let hist = self.history();
        match hist.last() {
            Some(&cur) => hist.iter().filter(|&&k| k == cur).count(),
            None => 0,
        }
    }

    /// The side `color` resigns; returns false (and changes nothing) if the game is over.
    pub fn resign(&mut self, color: Color) -> bool {
        if self.is_over() {
            return false;
        }
        self.outcome = Some(Outcome::Resignation {
            winner: color.other(),
        });
        true
    }

    fn push_key(&mut self) {
        if self.len >= HISTORY_CAPACITY {
            // Unreachable in play (the fifty-move rule ends the game first): drop the oldest.
            self.keys.copy_within(1.., 0);
            self.len = HISTORY_CAPACITY - 1;
        }
        if let Some(slot) = self.keys.get_mut(self.len) {
            *slot = self.pos.repetition_key();
            self.len += 1;
        }
    }

    /// The status and outcome of the current position.
    fn evaluate(&self) -> (Status, Option<Outcome>) {
        let check = self.pos.is_check();
        if !self.pos.has_legal_move() {
            return if check {
                (
                    Status::Mate,
                    Some(Outcome::Checkmate {
                        winner: self.pos.turn().other(),
                    }),
                )
            } else {
                (Status::Tie, Some(Outcome::Draw(DrawReason::Stalemate)))
            };
        }
        let draw = if self.pos.is_insufficient_material() {
            Some(DrawReason::InsufficientMaterial)
        } else if self.pos.halfmoves() >= 100 {
            Some(DrawReason::FiftyMoves)
        } else if self.repetitions() >= 3 {
            Some(DrawReason::Repetition)
        } else {
            None
        };
        match draw {
            Some(reason) => (Status::Tie, Some(Outcome::Draw(reason))),
            None if check => (Status::Check, None),
            None => (Status::Ok, None),
        }
    }

    /// Plays `m`, which must be one of [`Game::legal_moves`] (as returned by the notation
    /// parsers or the search), and reports the result. Returns `None` and changes nothing
    /// when the game is already over.
    pub fn play(&mut self, m: Move) -> Option<Status> {
        if self.is_over() {
            return None;
        }
        if m.is_zeroing() {
            self.len = 0;
        }
        self.pos.play(m);
        self.last_move = Some(m);
        self.push_key();
        let (status, outcome) = self.evaluate();
        self.outcome = outcome;
        Some(status)
    }
}
