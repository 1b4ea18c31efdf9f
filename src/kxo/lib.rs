//! The kxo (tic-tac-toe) engine of kgames: the 4 x 4, three-in-a-row board of the `/dev/kxo`
//! AI-vs-AI games ([`board`]) and their agents ([`agent`]: [`negamax`], [`mcts`], [`td`]
//! learning, flat [`montecarlo`] and random, in Q16.16 fixed point where they need
//! fractions), the match logic that pairs them and plays one move per step ([`arena`]), the
//! board logic of the records watchers read ([`record`]), what the device's AI-vs-AI machine
//! keeps besides its games (the record ring, control flags, load averages: [`machine`]), plus the N x N game (N from 3 to 6) a person plays against the CPU on
//! `/dev/kxo` ([`nxn`]). `core`-only, with no floating point and no allocation: compiled both
//! into the kernel module and into this host crate.
//!
//! ```rust
//! use kgames_kxo::agent::{Agent, AgentKind};
//! use kgames_kxo::board::{Board4, GameState, Side};
//! use kgames_kxo::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
//! use kgames_kxo::negamax::{Negamax, TtEntry};
//! use kgames_kxo::record::{is_successor, Record, RecordBoard, RecordCheck};
//!
//! // O (who moves first) holds cells 0 and 1, X holds 4 and 5: O to move.
//! let board = Board4::from_masks(0b11, 0b11_0000).unwrap();
//! assert_eq!(board.side_to_move(), Side::O);
//!
//! // The negamax agent completes the top row at cell 2.
//! let mut tt = [TtEntry::EMPTY; 256];
//! let (mut clock, mut interrupt) = (NodeClock { ns_per_node: 1_000 }, NeverInterrupt);
//! let mut meter = Meter::new(Budget::Nodes(10_000), &mut clock, &mut interrupt);
//! let cell = Negamax::new(&mut tt[..]).choose(&board, Side::O, &mut meter);
//! assert_eq!(cell, Some(2));
//! assert_eq!(board.with(2, Side::O).map(|b| b.state()), Some(GameState::won_by(Side::O)));
//!
//! // A watcher's records: each board change follows from the one before.
//! let first = Record::start(0, 0, AgentKind::Negamax, AgentKind::Random);
//! let next = first.played(5).unwrap();
//! assert!(is_successor(&first, &next));
//! assert!(next.is_consistent());
//! assert_eq!(next.board4().and_then(|b| b.at(5)), Some(Side::O));
//! ```
//!
//! This is the host crate root. The kernel module includes `mod.rs` directly; this file
//! mirrors the kernel crate's module tree (`crate::common`, `crate::uapi`, `crate::kxo`) so the
//! shared sources resolve the same paths in both builds.
#![no_std]
// The kernel's `-Wunreachable_pub`, which the module build applies to these files too: `pub`
// only for this crate's API (test code aside).
#![cfg_attr(not(test), warn(unreachable_pub))]

pub use kgames_common::common;
pub use kgames_uapi::uapi;

#[path = "mod.rs"]
pub mod kxo;
pub use kxo::*;
