// SPDX-License-Identifier: GPL-2.0

//! The device glue: a thin kernel shell around the `core`-only session layer, one job per
//! file. This file is the module itself ([`KGames`]: load and unload order); [`params`]
//! checks the module parameters, [`devices`] binds each game to its device and table.
//!
//! [`game_device`] serves every device that plugs a [`Game`](crate::session::game::Game) into
//! the session layer (reversi, chess, the kxo human game), with [`device_game`],
//! [`game_table`], [`search_pool`] and [`line_io`]; [`kxo`] is `/dev/kxo`'s file operations,
//! [`kxo_hub`] what its machine, watchers and players share ([`kxo_records`],
//! [`kxo_loads`], [`kxo_td`], and the session layer's control flags), [`kxo_runtime`] its
//! timer-driven AI-vs-AI games, [`pollable`] the registration that gives `/dev/kxo` its `poll`. [`owned_queue`] is the
//! module's workqueue wrapper; [`clock`] gives the engines a monotonic clock and the signal
//! check.
//!
//! # Lock order
//!
//! Outer first; no path takes two of these the other way round (lockdep checks it in every
//! VM run): a file's lock (`KxoFile.inner`, `GameFile.inner`; never both) -> `Cell.state` ->
//! a device table (`REVERSI_GAMES`, `CHESS_GAMES`, `NXN_GAMES`). Apart from that chain:
//! `KxoFile.inner` -> `Records.state` (a watcher's read), `AiGame.game` -> `SharedTd.table`
//! (a td move, its learning), `Records.state` and `Loads.state` (its record and load), and
//! `TdTrainer.left` -> `SharedTd.table`; `KXO_HUB`, `Records.state`, `Loads.state`,
//! `ContextPool.state` are leaves. No lock is held across a CPU search, a wait for another
//! task, an allocation of a game, or a copy to or from user space (docs/architecture.md,
//! "Locks").

pub(crate) mod clock;
pub(crate) mod compat;
pub(crate) mod device_game;
pub(crate) mod devices;
pub(crate) mod game_device;
pub(crate) mod game_table;
pub(crate) mod kxo;
pub(crate) mod kxo_hub;
pub(crate) mod kxo_loads;
pub(crate) mod kxo_records;
pub(crate) mod kxo_runtime;
pub(crate) mod kxo_td;
pub(crate) mod line_io;
pub(crate) mod owned_queue;
pub(crate) mod params;
pub(crate) mod pollable;
pub(crate) mod search_pool;
pub(crate) mod string_param;

use kernel::{miscdevice::MiscDeviceOptions, prelude::*};

use crate::module_parameters as module_params;
use crate::session::{chess_game::Chess, nxn_game::Nxn, reversi_game::Reversi};
use device_game::DeviceGame;
use game_device::GameFile;

/// Frees the device tables and forgets the kxo hub when dropped: the last field of
/// [`KGames`] (dropped after the devices are deregistered and the kxo machine has stopped),
/// and the guard of every error path of the load (made before the first allocation).
struct Tables;

impl Drop for Tables {
    fn drop(&mut self) {
        Reversi::clear_table();
        Chess::clear_table();
        Nxn::clear_table();
        *kxo::KXO_HUB.lock() = None;
    }
}

/// The module: the three registrations, the kxo machine and the tables. Dropping it
/// deregisters the devices (no file can be open: the module reference count prevents
/// unloading), stops the kxo machine, then frees every game.
#[pin_data]
pub(crate) struct KGames {
    #[pin]
    reversi: pollable::PollableRegistration<GameFile<Reversi>>,
    #[pin]
    chess: pollable::PollableRegistration<GameFile<Chess>>,
    #[pin]
    kxo: pollable::PollableRegistration<kxo::KxoFile>,
    /// The kxo games; dropped after the devices are deregistered.
    kxo_runtime: kxo_runtime::KxoRuntime,
    /// Frees the tables last.
    tables: Tables,
}

impl kernel::InPlaceModule for KGames {
    fn init(_module: &'static ThisModule) -> impl PinInit<Self, Error> {
        // SAFETY: called once, at load, before the devices using the locks are registered.
        unsafe { devices::init_locks() };
        // Every parameter is checked before anything is allocated.
        // Test only: one deliberate report first, so the runner's detector is proven to
        // catch it.
        let plan = crate::ktest::report::report(compat::param(&module_params::test_report))
            .and_then(|()| params::plan());
        let open_delay_ms = plan.as_ref().map_or(0, |p| p.open_delay_ms);
        let tables = Tables;
        let runtime = plan.and_then(|plan| {
            Reversi::setup_table(plan.tables, ())?;
            Chess::setup_table(plan.tables, plan.chess)?;
            Nxn::setup_table(plan.tables, plan.nxn)?;
            let rt = kxo_runtime::KxoRuntime::start(plan.kxo)?;
            let fail_init = plan.fail_init;
            *kxo::KXO_HUB.lock() = Some(rt.hub());
            if fail_init {
                // Test only: everything is allocated; the guards must free it all.
                return Err(ENOMEM);
            }
            Ok(rt)
        });
        // On an error, `tables` (and a started runtime) are dropped here or by the
        // initialiser's own clean-up of the fields it has made.
        try_pin_init!(Self {
            tables,
            kxo_runtime: runtime?,
            reversi <- pollable::PollableRegistration::register_slowly(
                MiscDeviceOptions { name: c"reversi" },
                0,
            ),
            chess <- pollable::PollableRegistration::register_slowly(
                MiscDeviceOptions { name: c"chess" },
                0,
            ),
            kxo <- pollable::PollableRegistration::register_slowly(
                MiscDeviceOptions { name: c"kxo" },
                open_delay_ms,
            ),
        })
    }
}
