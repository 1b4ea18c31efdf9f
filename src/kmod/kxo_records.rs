// SPDX-License-Identifier: GPL-2.0

//! The records of `/dev/kxo`'s AI-vs-AI games on their way to the watchers: the session
//! layer's [`RecordLog`] (one ring that every watcher reads with its own [`Cursor`], kept in
//! its file; the latest record of each game, a watcher's first read; pause and resume) behind
//! a lock, the watchers' count, and the queue that blocking reads and polls wait on.
//!
//! A watcher costs nothing but a count: publishing, reading, registering and leaving are O(1)
//! (reading O(records read)), whatever the number of watchers, and the records are copied
//! once, into the ring.

use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use kernel::{
    fs::File,
    new_mutex, new_poll_condvar,
    prelude::*,
    sync::{
        poll::{PollCondVar, PollTable},
        Mutex,
    },
};

use crate::session::record_ring::{Cursor, LogFigures, RecordLog};
use crate::uapi::record::Record;

/// Most records returned by one `read`.
pub(crate) const READ_BATCH: usize = 16;

/// Where the games' records go and where watchers read them.
#[pin_data]
pub(crate) struct Records {
    /// The ring (`kxo_ring` records, allocated at load) and every game's latest record.
    #[pin]
    state: Mutex<RecordLog<KVVec<Record>, KVec<Record>>>,
    /// Woken when a record is published (every watcher can read it) and at unload: blocking
    /// watcher reads wait on it, watchers' `poll` registers on it.
    #[pin]
    ready: PollCondVar,
    /// Registered watchers (readable from the timer).
    watchers: AtomicUsize,
}

impl Records {
    /// A ring of `ring` records for the games whose first records are `latest`.
    pub(crate) fn new(latest: KVec<Record>, ring: usize) -> Result<impl PinInit<Self, Error>> {
        let ring = KVVec::from_elem(Record::default(), ring, GFP_KERNEL)?;
        Ok(try_pin_init!(Records {
            state <- new_mutex!(RecordLog::new(ring, latest)),
            ready <- new_poll_condvar!(),
            watchers: AtomicUsize::new(0),
        }))
    }

    /// Publishes a record (numbered, kept as its game's latest, in the ring unless paused)
    /// and wakes the readers. O(1) whatever the number of watchers.
    pub(crate) fn publish(&self, r: Record) {
        let woke = self.state.lock().publish(r);
        if woke {
            self.ready.notify_all();
        }
    }

    /// Registers a watcher: its cursor, whose first read is a snapshot. O(1): only counted
    /// (the games run while there is a watcher).
    pub(crate) fn register(&self) -> Cursor {
        self.watchers.fetch_add(1, Ordering::Relaxed);
        Cursor::NEW
    }

    /// A watcher leaves. O(1).
    pub(crate) fn unregister(&self) {
        self.watchers.fetch_sub(1, Ordering::Relaxed);
    }

    /// The registered watchers.
    pub(crate) fn watchers(&self) -> usize {
        self.watchers.load(Ordering::Relaxed)
    }

    /// Registers a watcher's `poll` of `file` on the queue woken when a record is published.
    pub(crate) fn poll(&self, file: &File, table: &PollTable<'_>) {
        table.register_wait(file, &self.ready);
    }

    /// Wakes every reader and poll (a watcher became a player file, or the module unloads).
    pub(crate) fn wake(&self) {
        self.ready.notify_all();
    }

    /// `cur` has a record to read (the rest of its snapshot or a live record).
    pub(crate) fn readable(&self, cur: &Cursor) -> bool {
        self.state.lock().readable(cur)
    }

    /// Reads up to `max` records for the watcher at `cur` without waiting; 0 if it has none.
    pub(crate) fn read(
        &self,
        cur: &mut Cursor,
        max: usize,
        out: &mut [Record; READ_BATCH],
    ) -> usize {
        let out = out.get_mut(..max.min(READ_BATCH)).unwrap_or(&mut []);
        self.state.lock().read(cur, out)
    }

    /// Waits (interruptibly: `ERESTARTSYS` on a signal) until a watcher at `cur` has a record
    /// to read, or `unloading` is set. The caller holds no lock: `cur` is a copy, and the
    /// caller reads (under its file's lock) after this returns.
    pub(crate) fn wait(&self, cur: &Cursor, unloading: &AtomicBool) -> Result {
        let mut st = self.state.lock();
        while !st.readable(cur) && !unloading.load(Ordering::Relaxed) {
            if self.ready.wait_interruptible(&mut st) {
                return Err(ERESTARTSYS);
            }
        }
        Ok(())
    }

    /// `KXO_IOC_PAUSE`.
    pub(crate) fn pause(&self) {
        self.state.lock().pause();
    }

    /// `KXO_IOC_RESUME`: publishing again, with a snapshot in the ring for every watcher.
    pub(crate) fn resume(&self) {
        let woke = self.state.lock().resume();
        if woke {
            self.ready.notify_all();
        }
    }

    /// The figures `KXO_IOC_STATE` and `09` report.
    pub(crate) fn figures(&self) -> LogFigures {
        self.state.lock().figures()
    }
}
