//! The reversi engine of kgames: bitboard move generation by shifts and masks ([`bitboard`]),
//! the position and its rules ([`Position`]), the protocol's text forms ([`notation`]),
//! [`mod@perft`], a static evaluation by learned pattern weights ([`eval`], [`pattern`]), and
//! the CPU player ([`search`]): iterative deepening negascout with a transposition table,
//! switching to an exact endgame solver near the end. `core`-only, with no floating point and
//! no allocation: compiled both into the kernel module (`/dev/reversi`) and into this host
//! crate.
//!
//! ```rust
//! use kgames_reversi::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
//! use kgames_reversi::{best_move, parse_square, perft, Color, Outcome, Position};
//! use kgames_reversi::{SearchContext, TtEntry};
//!
//! // X moves first and has four legal moves: d3, c4, f5 and e6.
//! let start = Position::start();
//! assert_eq!(start.side_to_move(), Color::X);
//! assert_eq!(start.legal_moves().count_ones(), 4);
//!
//! // X plays d3, which flips d4: four X discs, one O, and O to move.
//! let d3 = parse_square(b"d3").unwrap();
//! let pos = start.play(d3).unwrap();
//! assert_eq!((pos.count_x(), pos.count_o()), (4, 1));
//! assert_eq!(pos.side_to_move(), Color::O);
//! assert_eq!(perft(&start, 3), 56);
//!
//! // The CPU answers within a budget of 10000 nodes (deterministic).
//! let mut tt = vec![TtEntry::EMPTY; 4096];
//! let mut ctx = SearchContext::new(&mut tt);
//! let (mut clock, mut interrupt) = (NodeClock { ns_per_node: 1_000 }, NeverInterrupt);
//! let mut meter = Meter::new(Budget::Nodes(10_000), &mut clock, &mut interrupt);
//! match best_move(&pos, &mut ctx, &mut meter).outcome {
//!     Outcome::Move(sq) => assert!(pos.is_legal(sq)),
//!     other => panic!("no move: {other:?}"),
//! }
//! ```
//!
//! This is the host crate root. The kernel module includes `mod.rs` directly; this file
//! mirrors the kernel crate's module tree (`crate::common`, `crate::reversi`) so the shared
//! sources resolve the same paths in both builds.
#![no_std]
// The kernel's `-Wunreachable_pub`, which the module build applies to these files too: `pub`
// only for this crate's API (test code aside).
#![cfg_attr(not(test), warn(unreachable_pub))]

pub use kgames_common::common;

#[path = "mod.rs"]
pub mod reversi;
pub use reversi::*;

// The crate's API at its root, for the tools and tests (the module uses the modules' own paths).
pub use reversi::host::{midgame_score, solve, Solution};
pub use reversi::{
    notation::{parse_square, square_at, square_name},
    perft::{perft, perft_metered},
    position::{Cell, Color, Position},
    search::{best_move, Outcome, SearchContext, SearchResult},
    tt::TtEntry,
};
