//! The chess engine (core-only; compiled into kgames.ko and into the host crate kgames-chess).
//!
//! Modules, in the spirit of the shakmaty crate: [`square`] and [`bitboard`] (types),
//! [`attacks`] (compile-time attack tables), [`zobrist`] (compile-time hash keys),
//! [`position`] (a `Copy` position with an incremental hash), [`moves`] (moves and a
//! fixed-capacity move list), [`movegen`] (legal move generation and perft), [`fen`],
//! [`game`] (results: mate, stalemate, insufficient material, fifty moves, threefold
//! repetition), [`notation`] (the classic protocol notation, UCI, the `01` board) and
//! [`search`] with [`eval`], [`see`], [`history`] and [`reductions`] (the CPU player; static
//! exchange evaluation; the history heuristic; late-move reductions; the evaluation's terms
//! in [`terms`], their weights in [`weights`], written by the tuner `chess-tune`).

pub mod attacks;
pub mod bitboard;
pub mod eval;
pub mod fen;
pub mod game;
pub mod history;
pub mod movegen;
pub mod moves;
pub mod nnue;
pub mod notation;
pub mod position;
pub mod reductions;
pub mod search;
pub mod see;
pub mod square;
pub mod terms;
pub mod weights;
pub mod zobrist;
