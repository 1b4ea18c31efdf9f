//! The chess engine (core-only; compiled into kgames.ko and into the host crate kgames-chess).
//!
//! Modules, in the spirit of the shakmaty crate: [`square`] and [`bitboard`] (types),
//! `attacks` (compile-time attack tables), `zobrist` (compile-time hash keys),
//! [`position`] (a `Copy` position with an incremental hash), [`moves`] (moves and a
//! fixed-capacity move list), [`movegen`] (legal move generation and perft), [`fen`],
//! [`game`] (results: mate, stalemate, insufficient material, fifty moves, threefold
//! repetition), [`notation`] (the classic protocol notation, UCI, the `01` board) and
//! [`search`] with [`eval`] and [`nnue`] (the CPU player and its evaluations; the
//! evaluation's terms in [`terms`], their weights in [`weights`], written by the tuner
//! `chess-tune`). The search's helpers stay private: `see` (static exchange evaluation),
//! `history` (the history heuristic), `reductions` (late-move reductions), `avx2` (the
//! network's loops in AVX2 `asm!`); [`correction`] (correction history) and
//! [`continuation`] (continuation history) are public for their table sizes.

mod attacks;
mod avx2;
pub mod bitboard;
pub mod continuation;
pub mod correction;
pub mod eval;
pub mod fen;
pub mod game;
mod history;
pub mod movegen;
pub mod moves;
pub mod nnue;
pub mod notation;
pub mod position;
mod reductions;
pub mod search;
mod see;
pub mod square;
pub mod terms;
pub mod weights;
mod zobrist;

/// Host only: a network's evaluation from scratch, a game's legal moves, the pinned pieces.
#[cfg(not(MODULE))]
mod host;
