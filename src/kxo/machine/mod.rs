//! What `/dev/kxo`'s AI-vs-AI machine keeps besides its games, as `core`-only code the host
//! tests: the one record ring its watchers read with their own cursors, with the games'
//! latest records and pause and resume ([`ring`]), the control ioctls' flags and each slot's
//! pairing ([`control`]), and the agents' CPU load averages ([`loads`]). The kernel module
//! puts them behind its locks and wait queues (`src/kmod/kxo`); the games themselves are
//! [`arena`](super::arena)'s matches.

pub mod control;
pub mod loads;
pub mod ring;
