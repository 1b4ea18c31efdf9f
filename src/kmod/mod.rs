// SPDX-License-Identifier: GPL-2.0

//! The device glue: a thin kernel shell around the `core`-only session layer and engines, one
//! job per file. This file is the module itself ([`KGames`]: load and unload order, the lock
//! order below); [`params`] reads and checks the module parameters ([`string_param`] declares
//! the one string parameter), [`compat`] holds every difference between the supported
//! kernels, [`pollable`] registers the devices with their `poll`, and [`clock`] gives the
//! engines a monotonic clock and the signal check.
//!
//! [`game`] serves every device that plugs a [`Game`](crate::session::game::Game) into the
//! session layer: `/dev/reversi`, `/dev/chess` and the player files of `/dev/kxo`. [`kxo`] is
//! the rest of `/dev/kxo`: its files and ioctls, and its AI-vs-AI machine.
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
pub(crate) mod fpu;
pub(crate) mod game;
pub(crate) mod kxo;
pub(crate) mod params;
pub(crate) mod pollable;
pub(crate) mod string_param;

use kernel::{miscdevice::MiscDeviceOptions, prelude::*};

use crate::module_parameters as module_params;
use crate::session::{chess_game::Chess, nxn_game::Nxn, reversi_game::Reversi};
use game::binding::DeviceGame;
use game::file::GameFile;
use kxo::{file::KxoFile, runtime::KxoRuntime};

/// Frees the device tables and forgets the kxo hub when dropped: the last field of
/// [`KGames`] (dropped after the devices are deregistered and the kxo machine has stopped),
/// and the guard of every error path of the load (made before the first allocation).
struct Tables;

impl Drop for Tables {
    fn drop(&mut self) {
        Reversi::clear_table();
        Chess::clear_table();
        Nxn::clear_table();
        *kxo::file::KXO_HUB.lock() = None;
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
    kxo: pollable::PollableRegistration<KxoFile>,
    /// The kxo games; dropped after the devices are deregistered.
    kxo_runtime: KxoRuntime,
    /// Frees the tables last.
    tables: Tables,
}

impl kernel::InPlaceModule for KGames {
    fn init(_module: &'static ThisModule) -> impl PinInit<Self, Error> {
        // SAFETY: called once, at load, before the devices using the locks are registered.
        unsafe { game::device_tables::init_locks() };
        // SAFETY: as above: once, at load, before `/dev/kxo` is registered.
        unsafe { kxo::file::KXO_HUB.init() };
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
            let rt = KxoRuntime::start(plan.kxo)?;
            let fail_init = plan.fail_init;
            *kxo::file::KXO_HUB.lock() = Some(rt.hub());
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
