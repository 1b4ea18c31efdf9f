// SPDX-License-Identifier: GPL-2.0

//! [`DeviceGame`]: what binds a [`Game`] of the session layer to a misc device: where its
//! table lives, how its CPU searches, and the table's setup at load and teardown at unload
//! (each game's own binding is in [`device_tables`](super::device_tables)).

use core::sync::atomic::AtomicBool;

use kernel::{
    prelude::*,
    sync::lock::{GlobalLock, GlobalLockBackend},
    time::Instant,
};

use super::search_pool::{ContextPool, Scratch};
use super::table::Games;
use crate::common::budget::{Budget, Meter, StopClock};
use crate::kmod::clock::{KernelClock, SignalInterrupt};
use crate::params::TableConfig;
use crate::session::{
    game::{Game, Thought},
    table::Limits,
};

/// A [`Game`] served as a misc device: where its table lives.
pub(crate) trait DeviceGame: Game + Send + Unpin + 'static
where
    Self::Side: Send,
{
    /// The global lock type of the table.
    type Lock: GlobalLockBackend<Item = Games<Self>>;
    /// The table.
    fn games() -> &'static GlobalLock<Self::Lock>;

    /// The CPU's search on a copy of the game, in the writer's task with no lock held (so its
    /// CPU time is the writer's: its nice value, its cgroup's `cpu.max`): the game's own
    /// [`Game::think`], stopped by the budget or a pending signal
    /// (the result is discarded), or by `stop` (`KGAMES_IOC_STOP_SEARCH`) or after `cap_ms`
    /// milliseconds whatever the budget (the best move so far is played). The meter's
    /// interrupt check (every [`Meter::CHECK_INTERVAL`] nodes) is also a reschedule point.
    fn search(
        copy: &Self,
        scratch: &mut Scratch<Self>,
        budget: Budget,
        stop: &AtomicBool,
        cap_ms: u32,
    ) -> Thought<Self::Move> {
        let cap_ns = u64::from(cap_ms).saturating_mul(1_000_000);
        let mut clock = StopClock::new(KernelClock::new(), stop, cap_ns);
        let mut signal = SignalInterrupt;
        let mut meter = Meter::new(budget, &mut clock, &mut signal);
        copy.think(scratch, &mut meter)
    }

    /// Sizes the table at load; new games use `game`.
    fn setup_table(cfg: TableConfig, game: Self::Config) -> Result {
        let mut t = Self::games().lock();
        t.config = Some(game);
        t.slots.clear();
        // A slot is not `Clone` (it owns its game): filled one by one.
        for _ in 0..cfg.max_games {
            t.slots.push(None, GFP_KERNEL)?;
        }
        t.limits = Limits {
            max_user_games: cfg.max_user_games,
            idle_evict_ms: cfg.idle_evict_ms,
        };
        t.alloc_delay_ms = cfg.alloc_delay_ms;
        t.epoch = Some(Instant::now());
        t.max_move_ms = cfg.max_move_ms;
        t.pool = Some(ContextPool::new_arc(
            cfg.search_contexts,
            cfg.tt_entries,
            cfg.max_games,
            &game,
        )?);
        Ok(())
    }

    /// Frees every game and the contexts (at unload, or when the load fails).
    fn clear_table() {
        let mut t = Self::games().lock();
        t.slots = KVec::new();
        t.pool = None;
    }
}
