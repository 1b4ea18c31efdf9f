// SPDX-License-Identifier: GPL-2.0

//! The records of `/dev/kxo`'s AI-vs-AI games on their way to the watchers: the kxo
//! engine's [`RecordLog`] (one ring that every watcher reads with its own [`Cursor`], kept in
//! its file; the latest record of each game, a watcher's first read; pause and resume) behind
//! a lock, the watchers' count, and the two queues that readers wait on.
//!
//! A watcher costs nothing but a count: publishing, registering and leaving are O(1) and
//! reading is O(records read), whatever the number of watchers, and the records are copied
//! once, into the ring. The wake-ups are what can grow with the watchers, so a record wakes
//! only who waits for one:
//!
//! - blocking reads sleep on [`Records::readers`], which holds only the tasks asleep in a
//!   watcher's `read` (each a task of its user's): every record wakes them;
//! - `poll`, `select` and `epoll` register on [`Records::polls`], where an epoll set leaves
//!   one entry per file for as long as the file is in it. A record wakes that queue only if
//!   it is *armed*: some watcher's `poll`, or a non-blocking `read`, found nothing left to
//!   read since the last wake-up. A watcher with records waiting is readable already and needs
//!   no wake-up, so files parked in an epoll set that is never waited on cost no work per
//!   record (docs/devices/kxo.md, "What a watcher costs").

use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use kernel::{
    fs::File,
    new_condvar, new_mutex, new_poll_condvar,
    prelude::*,
    sync::{
        poll::{PollCondVar, PollTable},
        CondVar, Mutex,
    },
};

use crate::kxo::machine::ring::{Cursor, LogFigures, RecordLog};
use crate::uapi::record::Record;

/// Most records returned by one `read`.
pub(crate) const READ_BATCH: usize = 16;

/// What [`Records`]' mutex protects.
struct RecordState {
    /// The ring (`kxo_ring` records, allocated at load) and every game's latest record.
    log: RecordLog<KVVec<Record>, KVec<Record>>,
    /// A watcher found nothing to read in a `poll` or a non-blocking `read` since
    /// [`Records::polls`] was last woken: the next record wakes it.
    polls_armed: bool,
}

/// Where the games' records go and where watchers read them.
#[pin_data]
pub(crate) struct Records {
    #[pin]
    state: Mutex<RecordState>,
    /// Blocking watcher reads wait here: woken by every record, at unload, and when a watcher
    /// becomes a player file.
    #[pin]
    readers: CondVar,
    /// Watchers' `poll` registers here: woken by a record when armed (see the module
    /// documentation), at unload, and when a watcher becomes a player file.
    #[pin]
    polls: PollCondVar,
    /// Registered watchers (readable from the timer).
    watchers: AtomicUsize,
}

impl Records {
    /// A ring of `ring` records for the games whose first records are `latest`.
    pub(crate) fn new(latest: KVec<Record>, ring: usize) -> Result<impl PinInit<Self, Error>> {
        let ring = KVVec::from_elem(Record::default(), ring, GFP_KERNEL)?;
        Ok(try_pin_init!(Records {
            state <- new_mutex!(RecordState {
                log: RecordLog::new(ring, latest),
                polls_armed: false,
            }),
            readers <- new_condvar!(),
            polls <- new_poll_condvar!(),
            watchers: AtomicUsize::new(0),
        }))
    }

    /// Publishes a record (numbered, kept as its game's latest, in the ring unless paused)
    /// and wakes the blocking readers, and the polls if armed. O(1) but for the wake-ups:
    /// O(blocked readers), plus O(files polled) when a poller waits for this record.
    pub(crate) fn publish(&self, r: Record) {
        let (woke, polls) = {
            let mut st = self.state.lock();
            let woke = st.log.publish(r);
            let polls = woke && core::mem::take(&mut st.polls_armed);
            (woke, polls)
        };
        if woke {
            self.readers.notify_all();
        }
        if polls {
            self.polls.notify_all();
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

    /// Registers a watcher's `poll` of `file` on the queue a record wakes when armed.
    pub(crate) fn poll(&self, file: &File, table: &PollTable<'_>) {
        table.register_wait(file, &self.polls);
    }

    /// Wakes every reader and poll (a watcher became a player file, or the module unloads).
    /// Takes the lock first, so a reader that checked its condition before the caller changed
    /// it is asleep on the queue by now and sees the wake-up.
    pub(crate) fn wake(&self) {
        drop(self.state.lock());
        self.readers.notify_all();
        self.polls.notify_all();
    }

    /// `cur` has a record to read (the rest of its snapshot or a live record). A `poll` asks:
    /// when it has none, the next record wakes the polls.
    pub(crate) fn readable_or_arm(&self, cur: &Cursor) -> bool {
        let mut st = self.state.lock();
        let readable = st.log.readable(cur);
        if !readable {
            st.polls_armed = true;
        }
        readable
    }

    /// Reads up to `max` records for the watcher at `cur` without waiting; 0 if it has none.
    /// A non-blocking read (`arm`) that leaves nothing to read arms the polls, for an
    /// edge-triggered epoll user that reads until `EAGAIN` and then waits.
    pub(crate) fn read(
        &self,
        cur: &mut Cursor,
        max: usize,
        arm: bool,
        out: &mut [Record; READ_BATCH],
    ) -> usize {
        let out = out.get_mut(..max.min(READ_BATCH)).unwrap_or(&mut []);
        let mut st = self.state.lock();
        let n = st.log.read(cur, out);
        if arm && !st.log.readable(cur) {
            st.polls_armed = true;
        }
        n
    }

    /// Waits (interruptibly: `ERESTARTSYS` on a signal) until a watcher at `cur` has a record
    /// to read, `unloading` is set, or `left` is (its file became a player file). The caller
    /// holds no lock: `cur` is a copy, and the caller reads (under its file's lock) after this
    /// returns. Whoever sets a flag calls [`Records::wake`].
    pub(crate) fn wait(&self, cur: &Cursor, unloading: &AtomicBool, left: &AtomicBool) -> Result {
        let mut st = self.state.lock();
        while !st.log.readable(cur)
            && !unloading.load(Ordering::Relaxed)
            && !left.load(Ordering::Relaxed)
        {
            if self.readers.wait_interruptible(&mut st) {
                return Err(ERESTARTSYS);
            }
        }
        Ok(())
    }

    /// `KXO_IOC_PAUSE`.
    pub(crate) fn pause(&self) {
        self.state.lock().log.pause();
    }

    /// `KXO_IOC_RESUME`: publishing again, with a snapshot in the ring for every watcher.
    pub(crate) fn resume(&self) {
        let woke = self.state.lock().log.resume();
        if woke {
            self.readers.notify_all();
            self.polls.notify_all();
        }
    }

    /// The figures `KXO_IOC_STATE` and `09` report.
    pub(crate) fn figures(&self) -> LogFigures {
        self.state.lock().log.figures()
    }
}
