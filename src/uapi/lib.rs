//! The user-space interface of `kgames.ko`, defined once: the ioctl numbers ([`ioctl`]), the
//! kxo agent ids and names ([`agent`]), the 48-byte record a `/dev/kxo` watcher reads
//! ([`record`]), the per-agent load figures ([`load`]), the machine state of `KXO_IOC_STATE`
//! ([`state`]) and who plays a kxo game slot ([`pairing`]). `core`-only: the kernel module, the
//! user tools and the in-VM tests all take these definitions from here, so the ABI is never
//! restated. With the feature `user`, the module `user` adds safe wrappers of the ioctls for
//! user space.
//!
//! ```rust
//! use kgames_uapi::agent::AgentKind;
//! use kgames_uapi::ioctl::{io, KXO_IOC_PAUSE};
//! use kgames_uapi::record::Record;
//! use kgames_uapi::state::KxoState;
//!
//! // The ioctl numbers are those of C's `_IO('x', 1)` and friends.
//! assert_eq!(KXO_IOC_PAUSE, io(b'x', 1));
//! assert_eq!(KXO_IOC_PAUSE, 0x7801);
//!
//! // A record after O's first move (cell 5), through its 48 wire bytes and back.
//! let mut rec = Record::start(3, 7, AgentKind::Negamax, AgentKind::Mcts);
//! rec.move_count = 1;
//! rec.moves = 5;
//! rec.board = 0b01 << (2 * 5);
//! let bytes = rec.to_bytes();
//! assert_eq!(bytes.len(), Record::SIZE);
//! assert_eq!(Record::from_bytes(&bytes), Some(rec));
//! assert_eq!(rec.move_at(0), Some(5));
//! assert_eq!(rec.agents(), Some((AgentKind::Negamax, AgentKind::Mcts)));
//! assert_eq!(Record::from_bytes(&bytes[..40]), None); // a short read is no record
//!
//! // The state `KXO_IOC_STATE` copies out, likewise.
//! let state = KxoState { games: 4, period_ms: 100, ..KxoState::default() };
//! assert_eq!(KxoState::from_bytes(&state.to_bytes()), Some(state));
//! ```
//!
//! This is the host crate root. The kernel module includes `mod.rs` directly; this file
//! mirrors the kernel crate's module tree so the shared sources resolve `crate::uapi::...` the
//! same way in both builds.
#![no_std]
// The kernel's `-Wunreachable_pub`, which the module build applies to these files too: `pub`
// only for this crate's API (test code aside).
#![cfg_attr(not(test), warn(unreachable_pub))]

#[cfg(feature = "user")]
extern crate std;

#[path = "mod.rs"]
pub mod uapi;
pub use uapi::*;

/// Safe wrappers of the ioctls for user space (feature `user`; not part of the module).
#[cfg(feature = "user")]
#[path = "user.rs"]
pub mod user;
