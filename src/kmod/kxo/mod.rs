// SPDX-License-Identifier: GPL-2.0

//! `/dev/kxo` beyond its N x N game (which is a game file of [`game`](super::game)): its files
//! and its AI-vs-AI machine, one job per file:
//!
//! - [`file`]: a `/dev/kxo` file's operations ([`KxoFile`](file::KxoFile)): its role
//!   (watcher or player), the kxo ioctls, `poll`; the global pointer to the hub;
//! - [`hub`]: [`Hub`](hub::Hub), what the machine, the watchers and the players share, one
//!   part per job: [`records`] (the record ring behind a lock, the watchers and their wait
//!   queues), the engine's control flags ([`Control`](crate::kxo::machine::control::Control)),
//!   [`loads`] (the agents' CPU load averages), [`td`] (the TD agent's shared table and its
//!   training queue);
//! - [`runtime`]: the machine itself ([`KxoRuntime`](runtime::KxoRuntime)): the timer, each
//!   AI-vs-AI game's work item, the TD trainer, and the unload order;
//! - [`owned_queue`]: a workqueue the module allocates at load and destroys at unload (the
//!   games' and the TD trainer's).
//!
//! The machine's `core`-only parts (the ring, the control flags, the load averages) are the
//! engine's, in `src/kxo/machine`.

pub(crate) mod file;
pub(crate) mod hub;
pub(crate) mod loads;
pub(crate) mod owned_queue;
pub(crate) mod records;
pub(crate) mod runtime;
pub(crate) mod td;
