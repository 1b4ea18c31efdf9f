// SPDX-License-Identifier: GPL-2.0

//! The game devices: every device that plugs a [`Game`](crate::session::game::Game) of the
//! session layer into a misc device (`/dev/reversi`, `/dev/chess`, and the N x N game of a
//! `/dev/kxo` player file), one job per file:
//!
//! - [`file`]: a game file's operations ([`GameFile`](file::GameFile)): one command per
//!   write, its reply per read, the CPU move run in the writer's task with no lock held;
//! - [`line_io`]: a write's command line, copied from user space before any lock;
//! - [`table`]: a device's live games: each game's [`Cell`](table::Cell) and the table of
//!   cells with its caps;
//! - [`binding`]: [`DeviceGame`](binding::DeviceGame), what binds a game to its device (its
//!   table, its CPU search, the table's setup at load and teardown at unload);
//! - [`device_tables`]: the three devices' tables (global locks) and each game's binding to
//!   its own;
//! - [`search_pool`]: a device's preallocated search contexts, taken in fair turns, and the
//!   kernel's allocator for them.

pub(crate) mod binding;
pub(crate) mod device_tables;
pub(crate) mod file;
pub(crate) mod line_io;
pub(crate) mod search_pool;
pub(crate) mod table;
