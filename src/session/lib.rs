//! The protocol and session layer of kgames (docs/protocol.md): what turns a `write` of a
//! command line such as `02 3 2\n` into a move and a reply such as `OK\n`, once for every
//! device. A device's game plugs in through the [`Game`](game::Game) trait (reversi, chess and
//! the N x N game of `/dev/kxo` are here); the rest is shared: line framing ([`command`]),
//! reply words and the reply buffer ([`reply`]), the command state machine of one game with
//! its two-phase CPU move ([`state`]), which file's reply is read ([`cursor`]), the table of
//! live games with its caps and idle eviction ([`table`]), and the fair sharing of search
//! contexts between users ([`turns`]). `core`-only, with no allocation: compiled both into the
//! kernel module, which adds locks, files and user copies, and into this host crate, where it
//! is tested with a fake clock.
//!
//! ```rust
//! use kgames_session::common::budget::{Meter, NeverInterrupt, NodeClock};
//! use kgames_session::game::Game;
//! use kgames_session::reply::Reply;
//! use kgames_session::reversi_game::Reversi;
//! use kgames_session::state::{Action, CommandContext, Session};
//!
//! let (mut session, mut out) = (Session::<Reversi>::new(), Reply::new());
//! let env = CommandContext::default();
//!
//! // `00 X`: a new game, the human plays X (who moves first).
//! assert!(matches!(session.execute(b"00 X\n", &env, &mut out), Action::Done));
//! assert_eq!(out.as_bytes(), b"OK\n");
//! // `02 3 2`: the human plays column 3, row 2, that is d3; then it is the CPU's turn.
//! session.execute(b"02 3 2\n", &env, &mut out);
//! assert_eq!(out.as_bytes(), b"OK\n");
//! session.execute(b"06\n", &env, &mut out);
//! assert_eq!(out.as_bytes(), b"d3\n");
//! session.execute(b"02 2 2\n", &env, &mut out);
//! assert_eq!(out.as_bytes(), b"OOT\n");
//!
//! // `05 N5000`: a budget of 5000 nodes. `03`: the CPU moves, in two phases: the caller
//! // searches on a copy of the game (in the kernel without holding the game's lock), then
//! // hands the result back.
//! session.execute(b"05 N5000\n", &env, &mut out);
//! let Action::Think(copy) = session.execute(b"03\n", &env, &mut out) else {
//!     panic!("no search")
//! };
//! // The search's memory, made once (per search context) with the host's allocator.
//! let mut scratch = Reversi::new_scratch::<kgames_session::HeapAlloc>(4096, &()).unwrap();
//! let (mut clock, mut interrupt) = (NodeClock { ns_per_node: 1_000 }, NeverInterrupt);
//! let mut meter = Meter::new(session.budget(), &mut clock, &mut interrupt);
//! let thought = copy.think(&mut scratch, &mut meter);
//! session.finish(thought, &mut out);
//! assert_eq!(out.as_bytes(), b"OK\n");
//! assert!(session.game().is_some_and(|g| g.human_to_move()));
//! ```
//!
//! This is the host crate root: the same files the module compiles, with the engines at the
//! crate root so that `crate::reversi`, `crate::chess` and `crate::kxo` resolve as in the
//! kernel.
#![no_std]
// The kernel's `-Wunreachable_pub`, which the module build applies to these files too: `pub`
// only for this crate's API (test code aside).
#![cfg_attr(not(test), warn(unreachable_pub))]

extern crate alloc;
#[cfg(test)]
extern crate std;

pub use kgames_chess::chess;
pub use kgames_common::common;
pub use kgames_kxo::kxo;
pub use kgames_reversi::reversi;
pub use kgames_uapi::uapi;

#[path = "mod.rs"]
pub mod session;
pub use session::*;

/// The host's [`scratch::Alloc`]: `Vec` and `Box` (the kernel module has its own).
pub struct HeapAlloc;

impl scratch::Alloc for HeapAlloc {
    type Slice<T: Clone + Send> = alloc::vec::Vec<T>;
    type Boxed<T: Send> = alloc::boxed::Box<T>;

    fn slice<T: Clone + Send>(n: usize, fill: T) -> Option<alloc::vec::Vec<T>> {
        Some(alloc::vec![fill; n])
    }

    fn boxed<T: Send>(value: T) -> Option<alloc::boxed::Box<T>> {
        Some(alloc::boxed::Box::new(value))
    }
}
