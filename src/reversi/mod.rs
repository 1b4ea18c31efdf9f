//! The reversi engine (core-only; compiled into kgames.ko and into the host crate kgames-reversi).
//!
//! Modules: [`bitboard`] (shift-and-mask move generation), [`position`] (the game state),
//! [`notation`] (the protocol's text forms), [`mod@perft`], [`eval`] (static evaluation),
//! [`search`] (the CPU player: iterative deepening negascout), `endgame` (the exact solver),
//! `lastmoves` (the solver's last four empties), [`tt`] (the transposition table entry
//! type).

pub mod bitboard;
/// Host only: the classic evaluation, kept to replay matches against the pattern one.
#[cfg(not(MODULE))]
pub mod classic;
mod endgame;
pub mod eval;
mod lastmoves;
mod movelist;
pub mod notation;
pub mod pattern;
/// Perft, for the tests and benchmarks: host only, and in kgames.ko's KUnit suites.
#[cfg(any(not(MODULE), CONFIG_KUNIT = "y"))]
pub mod perft;
pub mod position;
pub mod search;
pub mod tt;

// The crate's public API, for the host's tools and tests (the module uses the modules' own
// paths).
#[cfg(not(MODULE))]
pub use {
    notation::{parse_square, square_at, square_name},
    perft::{perft, perft_metered},
    position::{Cell, Color, Position},
    search::{best_move, solve, Outcome, SearchContext, SearchResult, Solution},
    tt::TtEntry,
};
