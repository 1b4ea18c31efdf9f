//! The chess engine of kgames: bitboards with compile-time attack tables and hash keys, a
//! `Copy` [`Position`](position::Position) with legal move generation and perft
//! ([`movegen`]), FEN ([`fen`]), game results with repetition and the fifty-move rule
//! ([`game`]), the protocol's notations and UCI ([`notation`]), and the CPU player
//! ([`search`]): iterative deepening principal-variation search with quiescence, null-move
//! pruning, late-move reductions and a transposition table, over a tapered evaluation
//! ([`eval`]) whose weights the tuner `chess-tune` writes. `core`-only, with no floating point
//! and no allocation: compiled both into the kernel module (`/dev/chess`) and into this host
//! crate.
//!
//! ```rust
//! use kgames_chess::game::{Game, Outcome, Status};
//! use kgames_chess::movegen::perft;
//! use kgames_chess::notation::parse_uci;
//! use kgames_chess::position::Position;
//! use kgames_chess::square::Color;
//!
//! // The start position from its FEN: 20 legal moves, 400 positions two plies deep.
//! let fen = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
//! let start = Position::from_fen(fen).unwrap();
//! assert_eq!(start, Position::startpos());
//! assert_eq!(start.count_legal_moves(), 20);
//! assert_eq!(perft(&start, 2), 400);
//!
//! // Fool's mate in UCI notation: the fourth move mates.
//! let mut game = Game::new();
//! let mut status = None;
//! for uci in [&b"f2f3"[..], b"e7e5", b"g2g4", b"d8h4"] {
//!     let m = parse_uci(game.position(), uci).unwrap();
//!     status = game.play(m);
//! }
//! assert_eq!(status, Some(Status::Mate));
//! assert_eq!(game.outcome(), Some(Outcome::Checkmate { winner: Color::Black }));
//! ```
//!
//! This is the host crate root. The kernel module includes `mod.rs` directly; this file
//! mirrors the kernel crate's module tree (`crate::common`, `crate::chess`) so the shared
//! sources resolve the same paths in both builds.
#![no_std]
// The kernel's `-Wunreachable_pub`, which the module build applies to these files too: `pub`
// only for this crate's API (test code aside).
#![cfg_attr(not(test), warn(unreachable_pub))]

pub use kgames_common::common;

#[path = "mod.rs"]
pub mod chess;
pub use chess::*;
