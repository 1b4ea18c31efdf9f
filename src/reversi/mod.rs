//! The reversi engine (core-only; compiled into kgames.ko and into the host crate kgames-reversi).
//!
//! Modules: [`bitboard`] (shift-and-mask move generation), [`position`] (the game state),
//! [`notation`] (the protocol's text forms), [`mod@perft`], [`eval`] (static evaluation),
//! [`search`] (the CPU player: iterative deepening negascout), `endgame` (the exact solver),
//! `lastmoves` (the solver's last four empties), [`tt`] (the transposition table entry
//! type).

pub mod bitboard;
mod endgame;
pub mod eval;
mod lastmoves;
mod movelist;
pub mod notation;
pub mod pattern;
pub mod perft;
pub mod position;
pub mod search;
pub mod tt;

pub use notation::{parse_square, square_at, square_name};
pub use perft::{perft, perft_metered};
pub use position::{Cell, Color, Position};
pub use search::{best_move, solve, Outcome, SearchContext, SearchResult, Solution};
pub use tt::TtEntry;
