// SPDX-License-Identifier: GPL-2.0

//! The live games of one device: each game's [`Cell`] (its session behind a mutex, and a
//! condition variable for the end of a CPU search) and the device's table of cells, with the
//! caps of the module parameters ([`TableConfig`](crate::params::TableConfig)). The three
//! devices' tables themselves are in [`device_tables`](super::device_tables).

use kernel::{
    new_condvar, new_mutex,
    prelude::*,
    sync::{Arc, CondVar, Mutex},
    time::{delay::fsleep, Delta, Instant, Monotonic},
};

use super::search_pool::ContextPool;
use crate::session::{
    game::Game,
    reply::Reply,
    state::{CommandContext, Session, StatusExtra},
    table::{self, Limits, Owner, Slot},
};

/// A live game: its session and its latest reply, behind a mutex, and a condition variable
/// signalled when a CPU search ends.
#[pin_data]
pub(crate) struct Cell<G: Game> {
    #[pin]
    pub(super) state: Mutex<CellState<G>>,
    #[pin]
    pub(super) idle: CondVar,
}

/// What a cell's mutex protects.
pub(super) struct CellState<G: Game> {
    pub(super) session: Session<G>,
    /// The latest reply of this game, read by files that never wrote (`echo ...; cat`).
    pub(super) last: Reply,
}

impl<G: Game> Cell<G> {
    /// A new game with `config`; `delay_ms` is `test_alloc_delay_ms` (0 outside tests).
    /// Called with no table lock held: the allocation may reclaim or wait.
    pub(super) fn new_arc(config: G::Config, delay_ms: u32) -> Result<Arc<Self>> {
        if delay_ms != 0 {
            fsleep(Delta::from_millis(i64::from(delay_ms)));
        }
        Arc::pin_init(
            pin_init!(Self {
                state <- new_mutex!(CellState {
                    session: Session::with_config(config),
                    last: Reply::new(),
                }),
                idle <- new_condvar!(),
            }),
            // A game is made by a user's write: charged to that user's memory cgroup.
            GFP_KERNEL_ACCOUNT,
        )
    }
}

/// The table of live games of one device.
///
/// Invariant: `slots.len()` is the `max_games` parameter once loaded; every `Some` slot
/// holds a distinct owner.
pub(crate) struct Games<G: Game> {
    pub(super) slots: KVec<Option<Slot<Arc<Cell<G>>>>>,
    pub(super) limits: Limits,
    pub(super) epoch: Option<Instant<Monotonic>>,
    /// The device's search contexts (set at load).
    pub(super) pool: Option<Arc<ContextPool<G>>>,
    /// The longest CPU move in milliseconds (set at load).
    pub(super) max_move_ms: u32,
    /// Test only (`test_alloc_delay_ms`): the pause before a new game's allocation.
    pub(super) alloc_delay_ms: u32,
    /// The settings of new games (set at load; the default until then).
    pub(super) config: Option<G::Config>,
    /// Counts commands: each gets the next value as its [`CommandContext::nonce`].
    pub(super) nonce: u64,
}

impl<G: Game> Games<G> {
    /// An empty table (before load).
    pub(crate) const fn new() -> Self {
        Games {
            slots: KVec::new(),
            limits: Limits::per_user(1),
            epoch: None,
            pool: None,
            max_move_ms: 0,
            alloc_delay_ms: 0,
            config: None,
            nonce: 0,
        }
    }

    /// Milliseconds since the table was set up (0 before).
    fn now_ms(&self) -> u64 {
        self.epoch
            .map(|e| u64::try_from(e.elapsed().as_millis()).unwrap_or(0))
            .unwrap_or(0)
    }

    /// The device's context for one command: the table's figures and the next nonce.
    pub(super) fn context(&mut self) -> CommandContext {
        let (games, _) = table::count(&self.slots, 0);
        self.nonce = self.nonce.wrapping_add(1);
        CommandContext {
            games,
            max_games: self.slots.len(),
            extra: StatusExtra::default(),
            nonce: self.nonce,
        }
    }

    /// The cell of `owner`, if the table has it (marked used now).
    pub(super) fn find(&mut self, owner: Owner) -> Option<Arc<Cell<G>>> {
        let now = self.now_ms();
        let slot = table::find(&mut self.slots, owner)?;
        slot.last_used_ms = now;
        Some(slot.payload.clone())
    }

    /// True if a new game of `owner` would fit now (the caps, or an idle game to evict): asked
    /// before the game is allocated, so a refused command allocates nothing.
    pub(super) fn has_room(&self, owner: Owner) -> bool {
        table::has_room(&self.slots, self.limits, owner, self.now_ms())
    }

    /// What a new game is made with: its settings and the test-only allocation delay.
    pub(super) fn new_game(&self) -> (G::Config, u32) {
        (self.config.unwrap_or_default(), self.alloc_delay_ms)
    }

    /// Inserts `cell`, made for `owner` with the table's lock released, unless the table has
    /// `owner`'s game meanwhile (a racing command made it): the cell to use, and the cells to
    /// drop once the lock is released (an evicted game, or `cell` if unused). `ENOSPC` when
    /// the caps refuse it (with the cell to drop).
    #[allow(clippy::type_complexity)]
    pub(super) fn insert(
        &mut self,
        owner: Owner,
        cell: Arc<Cell<G>>,
    ) -> Result<(Arc<Cell<G>>, Option<Arc<Cell<G>>>), (Error, Arc<Cell<G>>)> {
        if let Some(found) = self.find(owner) {
            return Ok((found, Some(cell)));
        }
        let now = self.now_ms();
        match table::insert(&mut self.slots, self.limits, owner, now, cell.clone()) {
            // A game evicted from the table is gone: no file keeps it (it is looked up by its
            // owner), so every live game counts against the caps.
            Ok(evicted) => Ok((cell, evicted)),
            Err((_, cell)) => Err((ENOSPC, cell)),
        }
    }
}
