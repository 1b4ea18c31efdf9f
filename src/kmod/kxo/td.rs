// SPDX-License-Identifier: GPL-2.0

//! The TD agent's value table, shared by every AI-vs-AI game of `/dev/kxo` (it learns from all
//! of them), its pre-training's queue, and whether that training is done (the td agent joins
//! the pairings then).

use core::sync::atomic::{AtomicBool, Ordering};

use kernel::{new_mutex, prelude::*, sync::Mutex};

use super::owned_queue::OwnedQueue;
use crate::common::rng::Rng;
use crate::kxo::arena::{drawn_agents, TdHost};
use crate::kxo::board::{Board4, Side};
use crate::kxo::td::{TdEntry, TdTable};
use crate::uapi::record::Record;

/// The shared TD table.
#[pin_data]
pub(crate) struct SharedTd {
    #[pin]
    table: Mutex<TdTable<KVVec<TdEntry>>>,
    /// The pre-training is done: td joins the pairings.
    ready: AtomicBool,
    /// The pre-training's queue (one high-priority worker, so training finishes within
    /// seconds even when the games keep both CPUs busy); drained at unload.
    queue: OwnedQueue,
}

impl SharedTd {
    /// An empty table of `entries` entries, untrained.
    pub(crate) fn new(entries: usize) -> Result<impl PinInit<Self, Error>> {
        let entries = KVVec::from_elem(TdEntry::EMPTY, entries, GFP_KERNEL)?;
        let queue = OwnedQueue::new_highpri(c"kgames_td", 1)?;
        Ok(try_pin_init!(SharedTd {
            table <- new_mutex!(TdTable::new(entries)),
            ready: AtomicBool::new(false),
            queue,
        }))
    }

    /// The pre-training's queue.
    pub(crate) fn queue(&self) -> &OwnedQueue {
        &self.queue
    }

    /// Pre-trains the table by `games` more games; the lock is held for this chunk only.
    pub(crate) fn train(&self, games: u32, rng: &mut Rng) {
        self.table.lock().train(games, rng);
    }

    /// The table is trained: td joins the pairings.
    pub(crate) fn done(&self) {
        self.ready.store(true, Ordering::Release);
    }

    /// The table is trained.
    pub(crate) fn ready(&self) -> bool {
        self.ready.load(Ordering::Acquire)
    }

    /// The agents the pairings draw from: all five once the table is trained.
    pub(crate) fn agents(&self) -> u8 {
        drawn_agents(self.ready())
    }

    /// The table as the arena's [`TdHost`] (locked for each call).
    pub(crate) fn host(&self) -> LockedTd<'_> {
        LockedTd(&self.table)
    }
}

/// The shared TD table, locked for each use by a game.
pub(crate) struct LockedTd<'a>(&'a Mutex<TdTable<KVVec<TdEntry>>>);

impl TdHost for LockedTd<'_> {
    fn choose(&mut self, board: &Board4, side: Side, rng: &mut Rng) -> Option<u8> {
        let mut t = self.0.lock();
        TdHost::choose(&mut *t, board, side, rng)
    }

    fn learn(&mut self, rec: &Record) {
        TdHost::learn(&mut *self.0.lock(), rec);
    }
}
