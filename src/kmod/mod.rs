// SPDX-License-Identifier: GPL-2.0

//! The device glue: a thin kernel shell around the `core`-only session layer.
//!
//! [`game_device`] serves every device that plugs a [`Game`](crate::session::game::Game) into
//! the session layer (reversi, chess); [`kxo`] is `/dev/kxo`. [`clock`] gives the engines a
//! monotonic clock and the signal check.

pub(crate) mod clock;
pub(crate) mod game_device;
pub(crate) mod kxo;
pub(crate) mod mc;

use kernel::{
    miscdevice::{MiscDeviceOptions, MiscDeviceRegistration},
    prelude::*,
};

use crate::common::budget::Budget;
use crate::session::{
    chess_game::Chess,
    game::Thought,
    nxn_game::{Nxn, NXN_PLAYOUTS, NXN_SIZE},
    reversi_game::Reversi,
    state::StatusExtra,
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

    /// The Monte Carlo player over `kxo_workers` work items.
    fn search(copy: &Self, _tt: &mut [()], _plies: &mut [()], budget: Budget) -> Thought<u8> {
        mc::choose(copy.board(), copy.playouts(), copy.seed(), budget)
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

/// The module: the three registrations. Dropping it deregisters the devices (no file can be
/// open: the module reference count prevents unloading) and then frees every game.
#[pin_data(PinnedDrop)]
pub(crate) struct KGames {
    #[pin]
    reversi: MiscDeviceRegistration<GameFile<Reversi>>,
    #[pin]
    chess: MiscDeviceRegistration<GameFile<Chess>>,
    #[pin]
    kxo: MiscDeviceRegistration<kxo::KxoFile>,
    /// The kxo games; dropped after the devices are deregistered.
    kxo_runtime: kxo::KxoRuntime,
}

impl kernel::InPlaceModule for KGames {
    fn init(_module: &'static ThisModule) -> impl PinInit<Self, Error> {
        let limits = game_device::Config {
            max_games: param(crate::module_parameters::max_games.value(), 1, 4096),
            max_user_games: param(crate::module_parameters::max_user_games.value(), 1, 4096),
            tt_entries: param(crate::module_parameters::tt_entries.value(), 1024, 1 << 22),
            search_contexts: param(crate::module_parameters::search_contexts.value(), 1, 64),
        };
        if crate::module_parameters::test_warn.value() {
            // Test only: one deliberate warning, so the runner's detector is proven to work.
            kernel::warn_on!(true);
        }
        // SAFETY: called once, at load, before the devices using the locks are registered.
        unsafe {
            REVERSI_GAMES.init();
            CHESS_GAMES.init();
            kxo::KXO_HUB.init();
            NXN_GAMES.init();
        }
        // The board size and playouts of the kxo human games (clamped to 3-6 and 1-100).
        let n = crate::module_parameters::kxo_n.value().clamp(3, 6);
        let t = crate::module_parameters::kxo_playouts.value().clamp(1, 100);
        NXN_SIZE.store(
            u8::try_from(n).unwrap_or(4),
            core::sync::atomic::Ordering::Relaxed,
        );
        NXN_PLAYOUTS.store(
            u8::try_from(t).unwrap_or(30),
            core::sync::atomic::Ordering::Relaxed,
        );
        let kxo_games = crate::module_parameters::kxo_games.value();
        let kxo_cfg = kxo::KxoConfig {
            games: kxo_games as usize,
            period_ms: crate::module_parameters::kxo_period_ms
                .value()
                .clamp(1, 10_000),
            always: crate::module_parameters::kxo_always.value(),
            seed: u64::from(crate::module_parameters::kxo_seed.value()),
        };
        let ready = Reversi::setup_table(limits)
            .and_then(|()| Chess::setup_table(limits))
            .and_then(|()| Nxn::setup_table(limits));
        let runtime = if (1..=32).contains(&kxo_games) {
            ready.and_then(|()| kxo::KxoRuntime::start(kxo_cfg))
        } else {
            pr_err!("kxo_games={} is out of range (1-32)\n", kxo_games);
            Err(EINVAL)
        };
        if let Ok(rt) = &runtime {
            *kxo::KXO_HUB.lock() = Some(rt.hub());
        }
        try_pin_init!(Self {
            kxo_runtime: runtime?,
            reversi <- MiscDeviceRegistration::register(MiscDeviceOptions { name: c"reversi" }),
            chess <- MiscDeviceRegistration::register(MiscDeviceOptions { name: c"chess" }),
            kxo <- MiscDeviceRegistration::register(MiscDeviceOptions { name: c"kxo" }),
        })
    }
}

#[pinned_drop]
impl PinnedDrop for KGames {
    fn drop(self: Pin<&mut Self>) {
        Reversi::clear_table();
        Chess::clear_table();
        Nxn::clear_table();
        // No file is open (the module is going): the files' references to the hub are gone.
        *kxo::KXO_HUB.lock() = None;
    }
}
