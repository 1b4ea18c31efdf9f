//! The reversi engine (core-only; compiled into kgames.ko and into the host crate kgames-reversi).
//!
//! Modules: [`bitboard`] (shift-and-mask move generation), [`position`] (the game state),
//! [`notation`] (the protocol's text forms), [`mod@perft`], [`eval`] (static evaluation),
//! [`search`] (the CPU player: iterative deepening negascout), `endgame` (the exact solver),
//! `lastmoves` (the solver's last four empties), [`tt`] (the transposition table entry
//! type). Host only: `classic` (the classic evaluation), [`mod@perft`] (also in the KUnit
//! build) and `host` (what only the tools and tests use, such as the solver's `solve`).

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

/// Host only: the exact solver's entry point, the `01` board parser, the trainer's mirror map.
#[cfg(not(MODULE))]
pub(crate) mod host;
