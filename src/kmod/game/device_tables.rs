// SPDX-License-Identifier: GPL-2.0

//! Which game each device serves: the three devices' game tables (global locks, initialised
//! once at load by [`init_locks`]) and the [`DeviceGame`] binding of each game to its table.
//! Every CPU move, the N x N game's Monte Carlo player's too, runs in the writer's task.

use kernel::prelude::*;

use super::binding::DeviceGame;
use super::table::Games;
use crate::session::{chess_game::Chess, nxn_game::Nxn, reversi_game::Reversi};

kernel::sync::global_lock! {
    // SAFETY: `KGames::init` initialises the lock before registering the device that uses it.
    pub(crate) unsafe(uninit) static REVERSI_GAMES: Mutex<Games<Reversi>> = Games::new();
}

kernel::sync::global_lock! {
    // SAFETY: `KGames::init` initialises the lock before registering the device that uses it.
    pub(crate) unsafe(uninit) static CHESS_GAMES: Mutex<Games<Chess>> = Games::new();
}

kernel::sync::global_lock! {
    // SAFETY: `KGames::init` initialises the lock before registering the device that uses it.
    pub(crate) unsafe(uninit) static NXN_GAMES: Mutex<Games<Nxn>> = Games::new();
}

impl DeviceGame for Nxn {
    type Lock = NXN_GAMES;
    fn games() -> &'static kernel::sync::lock::GlobalLock<NXN_GAMES> {
        &NXN_GAMES
    }
}

impl DeviceGame for Reversi {
    type Lock = REVERSI_GAMES;
    fn games() -> &'static kernel::sync::lock::GlobalLock<REVERSI_GAMES> {
        &REVERSI_GAMES
    }
}

impl DeviceGame for Chess {
    type Lock = CHESS_GAMES;
    fn games() -> &'static kernel::sync::lock::GlobalLock<CHESS_GAMES> {
        &CHESS_GAMES
    }
}

/// Initialises the three tables' locks (the kxo hub's is `KGames::init`'s own call).
///
/// # Safety
///
/// Called once, at load, before any device that uses the locks is registered.
pub(crate) unsafe fn init_locks() {
    // SAFETY: the caller's contract: once, before any user of the locks.
    unsafe {
        REVERSI_GAMES.init();
        CHESS_GAMES.init();
        NXN_GAMES.init();
    }
}
