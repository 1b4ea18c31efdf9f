// SPDX-License-Identifier: GPL-2.0

//! The `/dev/kxo` hub: where the games' records go (one [`RecordRing`] that every watcher
//! reads with its own [`Cursor`], kept in its file), the control state (paused, stopped,
//! restart generation), the per-agent load figures, and the TD agent's shared value table.
//!
//! A watcher costs the hub nothing but a count: publishing, reading, registering and leaving
//! are O(1) (reading O(records read)), whatever the number of watchers, and the records are
//! copied once, into the ring.

use core::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicUsize, Ordering};

use kernel::{
    fs::File,
    new_poll_condvar,
    prelude::*,
    sync::{
        poll::{PollCondVar, PollTable},
        Mutex,
    },
    time::{Instant, Monotonic},
};

use super::owned_queue::OwnedQueue;
use crate::common::rng::Rng;
use crate::kxo::arena::{drawn_agents, TdHost};
use crate::kxo::board::{Board4, Side};
use crate::kxo::load::{AgentLoads, SAMPLE_PERIOD_MS};
use crate::kxo::ring::{Cursor, RecordRing};
use crate::kxo::td::{TdEntry, TdTable};
use crate::session::state::StatusExtra;
use crate::uapi::agent::AgentKind;
use crate::uapi::load::KxoLoads;
use crate::uapi::pairing::{KxoPairing, ALL_SLOTS, RANDOM};
use crate::uapi::record::Record;
use crate::uapi::state::{KxoState, MAX_GAMES};

/// Most records returned by one `read`.
pub(crate) const READ_BATCH: usize = 16;

/// What the hub's mutex protects.
pub(crate) struct HubState {
    /// Every published record, once (`kxo_ring` records; allocated at load).
    ring: RecordRing<KVVec<Record>>,
    /// The latest record of every game (for snapshots).
    latest: KVec<Record>,
    seq: u64,
    paused: bool,
    loads: AgentLoads,
    last_sample: Instant<Monotonic>,
}

/// Where records go: the record ring, and the control state.
#[pin_data]
pub(crate) struct Hub {
    #[pin]
    state: Mutex<HubState>,
    /// Woken when a record is published (every watcher can read it) and at unload: blocking
    /// watcher reads wait on it, watchers' `poll` registers on it.
    #[pin]
    records: PollCondVar,
    /// Woken after a player file's command (its reply is ready) and at unload: player files'
    /// `poll` registers on it, so a reply wakes no watcher.
    #[pin]
    replies: PollCondVar,
    /// The TD agent's value table, shared by every game (learning from all of them).
    #[pin]
    td: Mutex<TdTable<KVVec<TdEntry>>>,
    /// The TD table's pre-training is done: td joins the pairings.
    td_ready: AtomicBool,
    /// Unloading: no more moves.
    unloading: AtomicBool,
    /// Stopped by `KXO_IOC_STOP`.
    halted: AtomicBool,
    /// Bumped by `KXO_IOC_RESTART`; a slot whose generation differs restarts its game.
    generation: AtomicU32,
    /// Registered watchers (readable from the timer).
    watchers: AtomicUsize,
    /// Per slot, the pairing policy `O << 8 | X` (agent ids or [`RANDOM`]), read at the start
    /// of each of its rounds (`KXO_IOC_SET_PAIRING`). Slots past the games are unused.
    pairings: [AtomicU16; MAX_GAMES],
    always: bool,
    period_ms: u32,
    /// The queue of the Monte Carlo work items of the human games (see `mc.rs`): owned by
    /// the hub, which outlives every file, so destroying it at unload waits for them.
    mc_queue: OwnedQueue,
    /// The TD pre-training's queue (one high-priority worker, so training finishes within
    /// seconds even when the games keep both CPUs busy); drained at unload.
    td_queue: OwnedQueue,
}

/// The hub's parameters.
pub(crate) struct HubConfig {
    pub(crate) latest: KVec<Record>,
    /// Records the ring holds (`kxo_ring`).
    pub(crate) ring: usize,
    pub(crate) td_entries: usize,
    pub(crate) always: bool,
    pub(crate) period_ms: u32,
    /// Each slot's pairing policy at load.
    pub(crate) pairings: [[u8; 2]; MAX_GAMES],
}

impl Hub {
    /// A hub for the games whose first records are `cfg.latest`.
    pub(crate) fn new(cfg: HubConfig) -> Result<impl PinInit<Self, Error>> {
        let entries = KVVec::from_elem(TdEntry::EMPTY, cfg.td_entries, GFP_KERNEL)?;
        let ring = KVVec::from_elem(Record::default(), cfg.ring, GFP_KERNEL)?;
        let mc_queue = OwnedQueue::new(c"kgames_mc", 10)?;
        let td_queue = OwnedQueue::new_highpri(c"kgames_td", 1)?;
        Ok(try_pin_init!(Hub {
            state <- kernel::new_mutex!(HubState {
                ring: RecordRing::new(ring),
                latest: cfg.latest,
                seq: 0,
                paused: false,
                loads: AgentLoads::ZERO,
                last_sample: Instant::now(),
            }),
            records <- new_poll_condvar!(),
            replies <- new_poll_condvar!(),
            td <- kernel::new_mutex!(TdTable::new(entries)),
            td_ready: AtomicBool::new(false),
            unloading: AtomicBool::new(false),
            halted: AtomicBool::new(false),
            generation: AtomicU32::new(0),
            watchers: AtomicUsize::new(0),
            pairings: cfg.pairings.map(|p| AtomicU16::new(u16::from_be_bytes(p))),
            always: cfg.always,
            period_ms: cfg.period_ms,
            mc_queue,
            td_queue,
        }))
    }

    /// The Monte Carlo work items' queue.
    pub(crate) fn mc_queue(&self) -> &OwnedQueue {
        &self.mc_queue
    }

    /// The TD pre-training's queue.
    pub(crate) fn td_queue(&self) -> &OwnedQueue {
        &self.td_queue
    }

    /// True when the timer should queue moves.
    pub(crate) fn should_move(&self) -> bool {
        !self.unloading()
            && !self.halted.load(Ordering::Relaxed)
            && (self.always || self.watchers.load(Ordering::Relaxed) > 0)
    }

    /// Unloading.
    pub(crate) fn unloading(&self) -> bool {
        self.unloading.load(Ordering::Relaxed)
    }

    /// Marks the hub as unloading and wakes every reader.
    pub(crate) fn shut_down(&self) {
        self.unloading.store(true, Ordering::Relaxed);
        self.records.notify_all();
        self.replies.notify_all();
    }

    /// The restart generation.
    pub(crate) fn generation(&self) -> u32 {
        self.generation.load(Ordering::Relaxed)
    }

    /// The agents the pairings draw from: all five once the TD table is trained.
    pub(crate) fn agents(&self) -> u8 {
        drawn_agents(self.td_ready.load(Ordering::Acquire))
    }

    /// Publishes a record: numbers it, keeps it as its game's latest, and puts it in the ring
    /// unless paused. O(1) whatever the number of watchers.
    pub(crate) fn publish(&self, mut r: Record) {
        let mut st = self.state.lock();
        st.seq = st.seq.wrapping_add(1);
        r.seq = st.seq;
        if let Some(l) = st.latest.get_mut(usize::from(r.game)) {
            *l = r;
        }
        let paused = st.paused;
        if !paused {
            st.ring.push(r);
        }
        drop(st);
        if !paused {
            self.records.notify_all();
        }
    }

    /// Adds `ns` of CPU time to `kind`'s load, sampling every 5 s.
    pub(crate) fn account(&self, kind: AgentKind, ns: u64) {
        let mut st = self.state.lock();
        st.loads.account(kind, ns);
        let since = st.last_sample.elapsed();
        if since.as_millis() >= i64::from(SAMPLE_PERIOD_MS) {
            st.loads
                .sample(u64::try_from(since.as_nanos()).unwrap_or(0));
            st.last_sample = Instant::now();
        }
    }

    /// Registers a watcher: its cursor, whose first read is a snapshot. O(1): the hub only
    /// counts watchers (the games run while there is one).
    pub(crate) fn register(&self) -> Cursor {
        self.watchers.fetch_add(1, Ordering::Relaxed);
        Cursor::NEW
    }

    /// A watcher leaves. O(1).
    pub(crate) fn unregister(&self) {
        self.watchers.fetch_sub(1, Ordering::Relaxed);
    }

    /// Registers a watcher's `poll` of `file` on the queue woken when a record is published.
    pub(crate) fn poll_records(&self, file: &File, table: &PollTable<'_>) {
        table.register_wait(file, &self.records);
    }

    /// Registers a player file's `poll` on the queue woken when a player's reply is ready.
    pub(crate) fn poll_replies(&self, file: &File, table: &PollTable<'_>) {
        table.register_wait(file, &self.replies);
    }

    /// A player file's reply is ready: wakes the player files' polls (and no watcher).
    pub(crate) fn reply_ready(&self) {
        self.replies.notify_all();
    }

    /// Wakes the records' queue (a watcher became a player file: its poll looks again).
    pub(crate) fn wake_records(&self) {
        self.records.notify_all();
    }

    /// `cur` has a record to read (the rest of its snapshot or a live record).
    pub(crate) fn has_records(&self, cur: &Cursor) -> bool {
        self.state.lock().ring.readable(cur)
    }

    /// Reads up to `max` records for the watcher at `cur` without waiting; 0 if it has none.
    pub(crate) fn read(
        &self,
        cur: &mut Cursor,
        max: usize,
        out: &mut [Record; READ_BATCH],
    ) -> usize {
        let st = self.state.lock();
        let out = out.get_mut(..max.min(READ_BATCH)).unwrap_or(&mut []);
        st.ring.read(cur, &st.latest, out)
    }

    /// Waits (interruptibly: `ERESTARTSYS` on a signal) until a watcher at `cur` has a record
    /// to read, or the module unloads. The caller holds no lock: `cur` is a copy, and the
    /// caller reads (under its file's lock) after this returns.
    pub(crate) fn wait_records(&self, cur: &Cursor) -> Result {
        let mut st = self.state.lock();
        while !st.ring.readable(cur) && !self.unloading() {
            if self.records.wait_interruptible(&mut st) {
                return Err(ERESTARTSYS);
            }
        }
        Ok(())
    }

    /// `KXO_IOC_PAUSE`.
    pub(crate) fn pause(&self) {
        self.state.lock().paused = true;
    }

    /// `KXO_IOC_RESUME`: publishing again, with a snapshot (every game's latest, flagged) in
    /// the ring for every watcher.
    pub(crate) fn resume(&self) {
        let mut st = self.state.lock();
        let resumed = st.paused;
        if resumed {
            st.paused = false;
            let HubState { ring, latest, .. } = &mut *st;
            for r in latest.iter() {
                let mut r = *r;
                r.flags |= Record::FLAG_SNAPSHOT;
                ring.push(r);
            }
        }
        drop(st);
        if resumed {
            self.records.notify_all();
        }
    }
    /// `KXO_IOC_STOP`.
    pub(crate) fn halt(&self) {
        self.halted.store(true, Ordering::Relaxed);
    }

    /// `KXO_IOC_RESTART`.
    pub(crate) fn restart(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
        self.halted.store(false, Ordering::Relaxed);
    }

    /// Slot `slot`'s pairing policy, `[O, X]`.
    pub(crate) fn pairing(&self, slot: usize) -> [u8; 2] {
        self.pairings
            .get(slot)
            .map_or([RANDOM; 2], |p| p.load(Ordering::Relaxed).to_be_bytes())
    }

    /// `KXO_IOC_SET_PAIRING`: sets the policy of one slot or of all, from their next round.
    /// `EINVAL` (nothing changed) for a slot that is not a game or an unknown agent.
    pub(crate) fn set_pairing(&self, p: KxoPairing) -> Result {
        let games = self.state.lock().latest.len().min(MAX_GAMES);
        if !p.sides_valid() || (p.slot != ALL_SLOTS && usize::from(p.slot) >= games) {
            return Err(EINVAL);
        }
        let v = u16::from_be_bytes([p.o_agent, p.x_agent]);
        for (i, slot) in self.pairings.iter().enumerate().take(games) {
            if p.slot == ALL_SLOTS || usize::from(p.slot) == i {
                slot.store(v, Ordering::Relaxed);
            }
        }
        Ok(())
    }

    /// The load figures (`KXO_IOC_LOADS`).
    pub(crate) fn loads(&self) -> KxoLoads {
        let loads = self.state.lock().loads;
        let mut out: KxoLoads = [[0; 3]; AgentKind::COUNT];
        for (dst, kind) in out.iter_mut().zip(AgentKind::ALL.iter()) {
            *dst = loads.get(*kind).averages();
        }
        out
    }

    /// The machine's state (`KXO_IOC_STATE`).
    pub(crate) fn machine_state(&self) -> KxoState {
        let st = self.state.lock();
        let mut pairings = [[0u8; 2]; MAX_GAMES];
        for (i, p) in pairings.iter_mut().enumerate().take(st.latest.len()) {
            *p = self.pairing(i);
        }
        KxoState {
            games: u32::try_from(st.latest.len()).unwrap_or(u32::MAX),
            period_ms: self.period_ms,
            watchers: u32::try_from(self.watchers.load(Ordering::Relaxed)).unwrap_or(u32::MAX),
            paused: u8::from(st.paused),
            stopped: u8::from(self.halted.load(Ordering::Relaxed)),
            always: u8::from(self.always),
            agents: self.agents(),
            seq: st.seq,
            reserved: [0; 8],
            pairings,
        }
    }

    /// The machine's figures for `09`.
    pub(crate) fn write_status(&self, out: &mut StatusExtra) {
        let s = self.machine_state();
        let _ = core::fmt::Write::write_fmt(
            out,
            format_args!(
                " ai_games={} watchers={} paused={} stopped={} seq={} td_ready={}",
                s.games,
                s.watchers,
                s.paused,
                s.stopped,
                s.seq,
                u8::from(self.td_ready.load(Ordering::Relaxed))
            ),
        );
    }

    /// Pre-trains the TD table by `games` more games; the lock is held for this chunk only.
    pub(crate) fn td_train(&self, games: u32, rng: &mut Rng) {
        self.td.lock().train(games, rng);
    }

    /// The TD table is trained: td joins the pairings.
    pub(crate) fn td_done(&self) {
        self.td_ready.store(true, Ordering::Release);
    }

    /// The TD table as the arena's [`TdHost`] (locked for each call).
    pub(crate) fn td_host(&self) -> LockedTd<'_> {
        LockedTd(&self.td)
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
