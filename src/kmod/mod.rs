// SPDX-License-Identifier: GPL-2.0

//! The device glue: a thin kernel shell around the `core`-only session layer.
//!
//! [`game_device`] serves every device that plugs a [`Game`](crate::session::game::Game) into
//! the session layer (reversi, chess, the kxo human game); [`kxo`] is `/dev/kxo`'s file
//! operations, [`kxo_hub`] where its records go, [`kxo_runtime`] its timer-driven AI-vs-AI
//! games, [`mc`] the parallel Monte Carlo player of its human games, [`pollable`] the
//! registration that gives `/dev/kxo` its `poll`. [`owned_queue`] is the module's workqueue
//! wrapper; [`clock`] gives the engines a monotonic clock and the signal
//! check.

pub(crate) mod clock;
pub(crate) mod game_device;
pub(crate) mod kxo;
pub(crate) mod kxo_hub;
pub(crate) mod kxo_runtime;
pub(crate) mod mc;
pub(crate) mod owned_queue;
pub(crate) mod pollable;
pub(crate) mod selftest;
pub(crate) mod string_param;

use kernel::{
    miscdevice::{MiscDeviceOptions, MiscDeviceRegistration},
    prelude::*,
};

use core::sync::atomic::Ordering;

use crate::common::budget::Budget;
use crate::kxo::{arena::Settings, mcts, td};
use crate::module_parameters as params;
use crate::session::{
    chess_game::Chess,
    game::Thought,
    nxn_game::{McMove, Nxn, NXN_PLAYOUTS, NXN_SEED, NXN_SIZE, NXN_WORKERS},
    reversi_game::Reversi,
    state::StatusExtra,
};
use crate::uapi::{
    pairing::{parse_round_robin, RANDOM},
    state::MAX_GAMES,
};
use game_device::{DeviceGame, GameFile, Games};

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
    fn status_extra(out: &mut StatusExtra) {
        if let Some(hub) = kxo::KXO_HUB.lock().clone() {
            hub.write_status(out);
        }
    }

    /// The Monte Carlo player over the game's work items.
    fn search(
        copy: &Self,
        _tt: &mut [()],
        _plies: &mut [()],
        _history: &mut (),
        budget: Budget,
        _stop: &core::sync::atomic::AtomicBool,
        _cap_ms: u32,
    ) -> Thought<McMove> {
        mc::choose(
            copy.board(),
            copy.playouts(),
            copy.workers(),
            copy.seed(),
            budget,
        )
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

/// Clamps a module parameter into `lo..=hi`.
fn param(value: u32, lo: u32, hi: u32) -> usize {
    value.clamp(lo, hi) as usize
}

/// A module parameter that must be in `lo..=hi`, else the load fails with `EINVAL`.
fn checked(name: &str, value: u32, lo: u32, hi: u32) -> Result<u32> {
    if (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        pr_err!("{}={} is out of range ({}-{})\n", name, value, lo, hi);
        Err(EINVAL)
    }
}

/// Everything the parameters decide, checked before anything is allocated.
struct Plan {
    limits: game_device::Config,
    kxo: kxo_runtime::KxoConfig,
}

impl Plan {
    fn from_parameters() -> Result<Plan> {
        let limits = game_device::Config {
            max_games: param(params::max_games.value(), 1, 4096),
            max_user_games: param(params::max_user_games.value(), 1, 4096),
            tt_entries: param(params::tt_entries.value(), 1024, 1 << 22),
            search_contexts: param(params::search_contexts.value(), 1, 64),
            max_move_ms: checked("max_move_ms", params::max_move_ms.value(), 100, 600_000)?,
        };
        let max_games = MAX_GAMES as u32;
        let games = checked("kxo_games", params::kxo_games.value(), 1, max_games)?;
        let iterations = checked(
            "kxo_mcts_iters",
            params::kxo_mcts_iters.value(),
            1,
            mcts::MAX_ITERATIONS,
        )?;
        let td_kb = checked("kxo_td_kb", params::kxo_td_kb.value(), 16, 65536)?;
        let td_games = checked("kxo_td_games", params::kxo_td_games.value(), 0, 10_000_000)?;
        let mut pairings = [[RANDOM; 2]; MAX_GAMES];
        if let Some(spec) = string_param::kxo_pairings() {
            let slots = pairings.get_mut(..games as usize).ok_or(EINVAL)?;
            let parsed = core::str::from_utf8(spec)
                .ok()
                .and_then(|spec| parse_round_robin(spec, slots));
            if parsed.is_none() {
                pr_err!(
                    "kxo_pairings: not a list of at most kxo_games={} O:X pairs of agents\n",
                    games
                );
                return Err(EINVAL);
            }
        }
        let kxo = kxo_runtime::KxoConfig {
            games: games as usize,
            period_ms: params::kxo_period_ms.value().clamp(1, 10_000),
            always: params::kxo_always.value(),
            seed: u64::from(params::kxo_seed.value()),
            settings: Settings {
                mcts_iterations: iterations,
                mc_playouts: params::kxo_playouts.value().clamp(1, 100),
            },
            td_entries: td::entries_for_kb(td_kb),
            td_games,
            pairings,
        };
        Ok(Plan { limits, kxo })
    }
}

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
    reversi: MiscDeviceRegistration<GameFile<Reversi>>,
    #[pin]
    chess: MiscDeviceRegistration<GameFile<Chess>>,
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
        unsafe {
            REVERSI_GAMES.init();
            CHESS_GAMES.init();
            kxo::KXO_HUB.init();
            NXN_GAMES.init();
        }
        // Every parameter is checked before anything is allocated.
        // Test only: one deliberate report first, so the runner's detector is proven to
        // catch it.
        let plan =
            selftest::report(params::test_report.value()).and_then(|()| Plan::from_parameters());
        let tables = Tables;
        let runtime = plan.and_then(|plan| {
            NXN_SIZE.store(
                u8::try_from(params::kxo_n.value().clamp(3, 6)).unwrap_or(4),
                Ordering::Relaxed,
            );
            NXN_PLAYOUTS.store(
                u8::try_from(params::kxo_playouts.value().clamp(1, 100)).unwrap_or(30),
                Ordering::Relaxed,
            );
            NXN_WORKERS.store(
                u8::try_from(params::kxo_workers.value().clamp(1, 10)).unwrap_or(4),
                Ordering::Relaxed,
            );
            NXN_SEED.store(u64::from(params::kxo_seed.value()), Ordering::Relaxed);
            Reversi::setup_table(plan.limits)?;
            Chess::setup_table(plan.limits)?;
            Nxn::setup_table(plan.limits)?;
            let rt = kxo_runtime::KxoRuntime::start(plan.kxo)?;
            *kxo::KXO_HUB.lock() = Some(rt.hub());
            if params::test_fail_init.value() {
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
            reversi <- MiscDeviceRegistration::register(MiscDeviceOptions { name: c"reversi" }),
            chess <- MiscDeviceRegistration::register(MiscDeviceOptions { name: c"chess" }),
            kxo <- pollable::PollableRegistration::register(MiscDeviceOptions { name: c"kxo" }),
        })
    }
}
