// SPDX-License-Identifier: GPL-2.0

//! `/dev/kxo`: concurrent AI-vs-AI 4 x 4 tic-tac-toe, streamed as records (PROTOCOL.md 3).
//!
//! Machinery: an hrtimer ([`Driver`]) fires every `kxo_period_ms`; in its (hard-irq) callback
//! it only queues the work item of every idle game ([`Slot`]) on the module's own workqueue.
//! A slot's work computes one move with the game's agent (process context, no lock held
//! across the search), and publishes the new record to the [`Hub`], which copies it into
//! every reader's bounded queue. A per-slot `busy` flag keeps one move in flight per game.
//!
//! Unload order ([`KxoRuntime::drop`]): set the stop flag (the callback then no longer
//! restarts itself), cancel the timer (waits for a running callback), destroy the workqueue
//! (drains queued work; work items seeing the stop flag return at once), then drop the games
//! and the hub.
//!
//! Files: a file that has written a command is a player file of the N x N human game (the
//! shared session layer, [`Nxn`]) and reads text replies; every
//! other file is a watcher and reads records (whole records only; EINVAL for a buffer
//! smaller than one; EAGAIN with O_NONBLOCK; a signal interrupts a blocking wait). A watcher
//! registers at its first read and receives one record per game (a snapshot) first.

use core::ptr::NonNull;
use core::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};

use kernel::{
    bindings,
    fs::{File, Kiocb},
    impl_has_hr_timer,
    ioctl::{_IO, _IOR},
    iov::{IovIterDest, IovIterSource},
    miscdevice::{MiscDevice, MiscDeviceRegistration},
    new_condvar, new_mutex,
    prelude::*,
    sync::{Arc, ArcBorrow, CondVar, Mutex},
    time::{
        hrtimer::{
            ArcHrTimerHandle, HrTimer, HrTimerCallback, HrTimerCallbackContext, HrTimerPointer,
            HrTimerRestart, RelativeMode,
        },
        Delta, Instant, Monotonic,
    },
    uaccess::{UserPtr, UserSlice},
    workqueue::{impl_has_work, new_work, Queue, Work, WorkItem},
};

use super::clock::KernelClock;
use super::game_device::{take_line, GameFile};
use crate::common::budget::{Budget, Meter, NeverInterrupt};
use crate::common::rng::Rng;
use crate::kxo::agent::{Agent, AgentKind, RandomAgent};
use crate::kxo::board::GameState;
use crate::kxo::load::{AgentLoads, SAMPLE_PERIOD_MS};
use crate::kxo::negamax::{Negamax, TtEntry, TT_DEFAULT_LEN};
use crate::kxo::record::{Record, RecordBoard};
use crate::session::{command::LINE_MAX, nxn_game::Nxn, state::StatusExtra};

use crate::uapi::ioctl::{
    KXO_IOC_LOADS, KXO_IOC_PAUSE, KXO_IOC_RESTART, KXO_IOC_RESUME, KXO_IOC_STOP,
};
use crate::uapi::load::KxoLoads;

// The shared definitions agree with the kernel's own macros.
const _: () = assert!(KXO_IOC_PAUSE == _IO('x' as u32, 1));
const _: () = assert!(KXO_IOC_RESTART == _IO('x' as u32, 4));
const _: () = assert!(KXO_IOC_LOADS == _IOR::<KxoLoads>('x' as u32, 5));

/// Records queued per watcher; a slower watcher loses the oldest.
const QUEUE_LEN: usize = 256;
/// Most records returned by one `read`.
const READ_BATCH: usize = 16;
/// Nodes per move of an agent (deterministic, and well under a millisecond).
const MOVE_NODES: u64 = 20_000;

/// Parameters of `/dev/kxo`.
#[derive(Clone, Copy)]
pub(crate) struct KxoConfig {
    pub(crate) games: usize,
    pub(crate) period_ms: u32,
    pub(crate) always: bool,
    pub(crate) seed: u64,
}

/// A workqueue owned by the module.
///
/// Invariant: `0` is a live workqueue from `alloc_workqueue`, destroyed exactly once in `drop`.
pub(crate) struct OwnedQueue(NonNull<bindings::workqueue_struct>);

// SAFETY: a workqueue may be used and destroyed from any thread.
unsafe impl Send for OwnedQueue {}
// SAFETY: queueing work is thread safe.
unsafe impl Sync for OwnedQueue {}

impl OwnedQueue {
    fn new(name: &'static CStr, max_active: usize) -> Result<Self> {
        let max = i32::try_from(max_active).map_err(|_| EINVAL)?;
        // SAFETY: the name is a NUL-terminated string without format conversions (the
        // callers pass literals without `%`), so no variadic arguments are read.
        let p = unsafe {
            bindings::alloc_workqueue_noprof(name.as_char_ptr(), bindings::wq_flags_WQ_UNBOUND, max)
        };
        NonNull::new(p).map(OwnedQueue).ok_or(ENOMEM)
    }

    pub(crate) fn queue(&self) -> &Queue {
        // SAFETY: by the type invariant the pointer is a live workqueue for as long as `self`.
        unsafe { Queue::from_raw(self.0.as_ptr()) }
    }
}

impl Drop for OwnedQueue {
    fn drop(&mut self) {
        // SAFETY: by the type invariant the workqueue is live and destroyed only here;
        // `destroy_workqueue` drains the work still queued first.
        unsafe { bindings::destroy_workqueue(self.0.as_ptr()) };
    }
}

/// One watcher's queue of records.
///
/// Invariant: `ring.len() == QUEUE_LEN`, `head < QUEUE_LEN`, `len <= QUEUE_LEN`.
struct Watcher {
    id: u64,
    ring: KVec<Record>,
    head: usize,
    len: usize,
    lost: u64,
}

impl Watcher {
    fn push(&mut self, r: Record) {
        if self.len == QUEUE_LEN {
            // Full: drop the oldest.
            self.head = (self.head + 1) % QUEUE_LEN;
            self.len -= 1;
            self.lost = self.lost.saturating_add(1);
        }
        let at = (self.head + self.len) % QUEUE_LEN;
        if let Some(slot) = self.ring.get_mut(at) {
            *slot = r;
            self.len += 1;
        }
    }

    fn pop(&mut self) -> Option<Record> {
        if self.len == 0 {
            return None;
        }
        let mut r = *self.ring.get(self.head)?;
        self.head = (self.head + 1) % QUEUE_LEN;
        self.len -= 1;
        r.lost = self.lost;
        Some(r)
    }
}

/// What the hub's mutex protects.
struct HubState {
    watchers: KVec<Watcher>,
    /// The latest record of every game (for snapshots).
    latest: KVec<Record>,
    seq: u64,
    paused: bool,
    next_id: u64,
    loads: AgentLoads,
    last_sample: Instant<Monotonic>,
}

impl HubState {
    fn snapshot_to(w: &mut Watcher, latest: &[Record]) {
        for r in latest {
            w.push(*r);
        }
    }
}

/// Where records go: the watchers' queues, and the control state.
#[pin_data]
pub(crate) struct Hub {
    #[pin]
    state: Mutex<HubState>,
    #[pin]
    readable: CondVar,
    /// Unloading: no more moves.
    stop: AtomicBool,
    /// Stopped by `KXO_IOC_STOP`.
    halted: AtomicBool,
    /// Bumped by `KXO_IOC_RESTART`; a slot whose generation differs restarts its game.
    generation: AtomicU32,
    /// Registered watchers (readable from the timer).
    watchers: AtomicUsize,
    always: bool,
    /// The queue of the Monte Carlo work items of the human games (see `mc.rs`): owned by
    /// the hub, which outlives every file, so destroying it at unload waits for them.
    pub(crate) mc_queue: OwnedQueue,
}

impl Hub {
    fn should_move(&self) -> bool {
        !self.stop.load(Ordering::Relaxed)
            && !self.halted.load(Ordering::Relaxed)
            && (self.always || self.watchers.load(Ordering::Relaxed) > 0)
    }

    fn publish(&self, mut r: Record) {
        let mut st = self.state.lock();
        st.seq = st.seq.wrapping_add(1);
        r.seq = st.seq;
        if let Some(l) = st.latest.get_mut(usize::from(r.game)) {
            *l = r;
        }
        if !st.paused {
            for w in st.watchers.iter_mut() {
                w.push(r);
            }
        }
        drop(st);
        self.readable.notify_all();
    }

    fn account(&self, kind: AgentKind, ns: u64) {
        let mut st = self.state.lock();
        st.loads.account(kind, ns);
        let since = st.last_sample.elapsed();
        if since.as_millis() >= i64::from(SAMPLE_PERIOD_MS) {
            st.loads
                .sample(u64::try_from(since.as_nanos()).unwrap_or(0));
            st.last_sample = Instant::now();
        }
    }

    fn register(&self) -> Result<u64> {
        let mut ring = KVec::with_capacity(QUEUE_LEN, GFP_KERNEL)?;
        for _ in 0..QUEUE_LEN {
            ring.push(Record::default(), GFP_KERNEL)?;
        }
        let mut st = self.state.lock();
        let id = st.next_id;
        st.next_id = st.next_id.wrapping_add(1);
        let mut w = Watcher {
            id,
            ring,
            head: 0,
            len: 0,
            lost: 0,
        };
        HubState::snapshot_to(&mut w, &st.latest);
        st.watchers.push(w, GFP_KERNEL)?;
        self.watchers.fetch_add(1, Ordering::Relaxed);
        Ok(id)
    }

    fn unregister(&self, id: u64) {
        let mut st = self.state.lock();
        if let Some(i) = st.watchers.iter().position(|w| w.id == id) {
            let _ = st.watchers.remove(i);
            self.watchers.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// Up to `max` queued records of watcher `id`, waiting unless `nonblock`.
    fn take(
        &self,
        id: u64,
        max: usize,
        nonblock: bool,
        out: &mut [Record; READ_BATCH],
    ) -> Result<usize> {
        let mut st = self.state.lock();
        loop {
            let w = st.watchers.iter_mut().find(|w| w.id == id).ok_or(EINVAL)?;
            let mut n = 0;
            while n < max.min(READ_BATCH) {
                match (w.pop(), out.get_mut(n)) {
                    (Some(r), Some(o)) => *o = r,
                    _ => break,
                }
                n += 1;
            }
            if n > 0 {
                return Ok(n);
            }
            if nonblock {
                return Err(EAGAIN);
            }
            if self.readable.wait_interruptible(&mut st) {
                return Err(ERESTARTSYS);
            }
        }
    }
}

/// An agent of one side of a game.
enum Player {
    Negamax,
    Random(RandomAgent),
}

/// What a slot's mutex protects.
struct SlotGame {
    rec: Record,
    o: Player,
    x: Player,
    rng: Rng,
    generation: u32,
    tt: KVec<TtEntry>,
}

impl SlotGame {
    fn player(kind: AgentKind, rng: &mut Rng) -> Player {
        match kind {
            AgentKind::Negamax => Player::Negamax,
            _ => Player::Random(RandomAgent::new(rng.next_u64())),
        }
    }

    /// A new round with a new pairing drawn from the slot's PRNG.
    fn restart(&mut self, game: u16, round: u32) {
        let pick = |rng: &mut Rng| {
            if rng.below(2) == 0 {
                AgentKind::Negamax
            } else {
                AgentKind::Random
            }
        };
        let (o, x) = (pick(&mut self.rng), pick(&mut self.rng));
        self.o = Self::player(o, &mut self.rng);
        self.x = Self::player(x, &mut self.rng);
        self.rec = Record::start(game, round, o, x);
    }

    /// One step: restart a finished game, or play one move. Returns the new record and the
    /// agent that worked (none for a restart).
    fn step(&mut self, id: u16, generation: u32) -> Option<(Record, Option<AgentKind>)> {
        let over = self
            .rec
            .game_state()
            .is_none_or(|s| s != GameState::Running);
        if over || generation != self.generation {
            self.generation = generation;
            let round = self.rec.round.wrapping_add(1);
            self.restart(id, round);
            return Some((self.rec, None));
        }
        let board = self.rec.board4()?;
        let side = self.rec.side_to_move();
        let player = if side.index() == 0 {
            &mut self.o
        } else {
            &mut self.x
        };
        let mut clock = KernelClock::new();
        let mut never = NeverInterrupt;
        let mut meter = Meter::new(Budget::Nodes(MOVE_NODES), &mut clock, &mut never);
        let (cell, kind) = match player {
            Player::Negamax => {
                let mut agent = Negamax::new(self.tt.as_mut_slice());
                (agent.choose(&board, side, &mut meter), AgentKind::Negamax)
            }
            Player::Random(a) => (a.choose(&board, side, &mut meter), AgentKind::Random),
        };
        self.rec = self.rec.played(cell?)?;
        Some((self.rec, Some(kind)))
    }
}

/// One AI-vs-AI game: its state, its work item and its in-flight flag.
#[pin_data]
pub(crate) struct Slot {
    id: u16,
    hub: Arc<Hub>,
    /// A move of this game is queued or running.
    busy: AtomicBool,
    #[pin]
    game: Mutex<SlotGame>,
    #[pin]
    work: Work<Slot>,
}

impl_has_work! {
    impl HasWork<Self> for Slot { self.work }
}

impl WorkItem for Slot {
    type Pointer = Arc<Slot>;

    fn run(this: Arc<Slot>) {
        if !this.hub.stop.load(Ordering::Relaxed) {
            let t0 = Instant::<Monotonic>::now();
            let generation = this.hub.generation.load(Ordering::Relaxed);
            let stepped = this.game.lock().step(this.id, generation);
            if let Some((rec, kind)) = stepped {
                if let Some(kind) = kind {
                    let ns = u64::try_from(t0.elapsed().as_nanos()).unwrap_or(0);
                    this.hub.account(kind, ns);
                }
                this.hub.publish(rec);
            }
        }
        this.busy.store(false, Ordering::Release);
    }
}

/// The timer and the games it drives.
#[pin_data]
pub(crate) struct Driver {
    #[pin]
    timer: HrTimer<Driver>,
    slots: KVec<Arc<Slot>>,
    queue: OwnedQueue,
    hub: Arc<Hub>,
    period: Delta,
}

impl_has_hr_timer! {
    impl HasHrTimer<Self> for Driver {
        mode: RelativeMode<Monotonic>, field: self.timer
    }
}

impl HrTimerCallback for Driver {
    type Pointer<'a> = Arc<Self>;

    fn run(this: ArcBorrow<'_, Self>, mut ctx: HrTimerCallbackContext<'_, Self>) -> HrTimerRestart {
        // Hard-irq context: atomics and queueing only.
        if this.hub.stop.load(Ordering::Relaxed) {
            return HrTimerRestart::NoRestart;
        }
        if this.hub.should_move() {
            for s in this.slots.iter() {
                if !s.busy.swap(true, Ordering::AcqRel)
                    && this.queue.queue().enqueue(s.clone()).is_err()
                {
                    s.busy.store(false, Ordering::Release);
                }
            }
        }
        ctx.forward_now(this.period);
        HrTimerRestart::Restart
    }
}

/// Everything `/dev/kxo` runs; dropping it stops cleanly (see the module documentation).
pub(crate) struct KxoRuntime {
    timer: Option<ArcHrTimerHandle<Driver>>,
    driver: Option<Arc<Driver>>,
    hub: Arc<Hub>,
}

impl KxoRuntime {
    /// Creates the games and starts the timer.
    pub(crate) fn start(cfg: KxoConfig) -> Result<Self> {
        let mut latest = KVec::with_capacity(cfg.games, GFP_KERNEL)?;
        let mut seeds = Rng::new(cfg.seed);
        let mut games = KVec::with_capacity(cfg.games, GFP_KERNEL)?;
        for id in 0..cfg.games {
            let id = u16::try_from(id).map_err(|_| EINVAL)?;
            let mut tt = KVec::with_capacity(TT_DEFAULT_LEN, GFP_KERNEL)?;
            for _ in 0..TT_DEFAULT_LEN {
                tt.push(TtEntry::EMPTY, GFP_KERNEL)?;
            }
            let mut g = SlotGame {
                rec: Record::default(),
                o: Player::Negamax,
                x: Player::Negamax,
                rng: Rng::new(seeds.next_u64()),
                generation: 0,
                tt,
            };
            g.restart(id, 0);
            latest.push(g.rec, GFP_KERNEL)?;
            games.push(g, GFP_KERNEL)?;
        }
        let mc_queue = OwnedQueue::new(c"kgames_mc", 10)?;
        let hub = Arc::pin_init(
            pin_init!(Hub {
                state <- new_mutex!(HubState {
                    watchers: KVec::new(),
                    latest,
                    seq: 0,
                    paused: false,
                    next_id: 1,
                    loads: AgentLoads::ZERO,
                    last_sample: Instant::now(),
                }),
                readable <- new_condvar!(),
                stop: AtomicBool::new(false),
                halted: AtomicBool::new(false),
                generation: AtomicU32::new(0),
                watchers: AtomicUsize::new(0),
                always: cfg.always,
                mc_queue,
            }),
            GFP_KERNEL,
        )?;
        let mut slots = KVec::with_capacity(cfg.games, GFP_KERNEL)?;
        for (id, g) in games.into_iter().enumerate() {
            let id = u16::try_from(id).map_err(|_| EINVAL)?;
            let slot_hub = hub.clone();
            let slot = Arc::pin_init(
                pin_init!(Slot {
                    id,
                    hub: slot_hub,
                    busy: AtomicBool::new(false),
                    game <- new_mutex!(g),
                    work <- new_work!("kxo::Slot::work"),
                }),
                GFP_KERNEL,
            )?;
            slots.push(slot, GFP_KERNEL)?;
        }
        let queue = OwnedQueue::new(c"kgames_kxo", cfg.games)?;
        let driver_hub = hub.clone();
        let driver = Arc::pin_init(
            pin_init!(Driver {
                timer <- HrTimer::new(),
                slots,
                queue,
                hub: driver_hub,
                period: Delta::from_millis(i64::from(cfg.period_ms)),
            }),
            GFP_KERNEL,
        )?;
        let timer = driver
            .clone()
            .start(Delta::from_millis(i64::from(cfg.period_ms)));
        Ok(KxoRuntime {
            timer: Some(timer),
            driver: Some(driver),
            hub,
        })
    }

    /// The hub, for files.
    pub(crate) fn hub(&self) -> Arc<Hub> {
        self.hub.clone()
    }
}

impl Drop for KxoRuntime {
    fn drop(&mut self) {
        // 1. Cancel the timer; waits for a running callback, and the callback stops
        //    restarting itself once `stop` is set, so it cannot come back.
        self.hub.stop.store(true, Ordering::Relaxed);
        drop(self.timer.take());
        // 2. The stop flag is set: queued work returns at once.
        // 3. Destroy the workqueue (draining it): dropping the last `Arc<Driver>` drops it.
        drop(self.driver.take());
        // 4. The games and the hub go with the remaining references.
        self.hub.readable.notify_all();
    }
}

kernel::sync::global_lock! {
    // SAFETY: `KGames::init` initialises the lock before registering `/dev/kxo`.
    pub(crate) unsafe(uninit) static KXO_HUB: Mutex<Option<Arc<Hub>>> = None;
}

/// Per-file state.
struct KxoInner {
    /// The file has written a command: it reads text replies.
    player: bool,
    /// The watcher id, once the file has read records.
    watcher: Option<u64>,
}

/// An open file of `/dev/kxo`: a watcher of the AI-vs-AI games, or (once it writes) a player
/// of the N x N human game, served by the shared session layer like the other devices.
#[pin_data(PinnedDrop)]
pub(crate) struct KxoFile {
    hub: Arc<Hub>,
    root: bool,
    game: Pin<KBox<GameFile<Nxn>>>,
    #[pin]
    inner: Mutex<KxoInner>,
}

impl Hub {
    /// The machine's figures for `09`.
    pub(crate) fn write_status(&self, out: &mut StatusExtra) {
        let st = self.state.lock();
        let _ = core::fmt::Write::write_fmt(
            out,
            format_args!(
                " ai_games={} watchers={} paused={} stopped={} seq={}",
                st.latest.len(),
                st.watchers.len(),
                u8::from(st.paused),
                u8::from(self.halted.load(Ordering::Relaxed)),
                st.seq
            ),
        );
    }
}

#[vtable]
impl MiscDevice for KxoFile {
    type Ptr = Pin<KBox<Self>>;

    fn open(file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result<Pin<KBox<Self>>> {
        let hub = KXO_HUB.lock().clone().ok_or(ENODEV)?;
        let uid = file.cred().euid().into_raw().val;
        let game = KBox::try_pin_init(GameFile::<Nxn>::new_file(uid), GFP_KERNEL)?;
        KBox::try_pin_init(
            try_pin_init!(Self {
                hub,
                root: uid == 0,
                game,
                inner <- new_mutex!(KxoInner {
                    player: false,
                    watcher: None,
                }),
            }),
            GFP_KERNEL,
        )
    }

    fn write_iter(kiocb: Kiocb<'_, Self::Ptr>, iov: &mut IovIterSource<'_>) -> Result<usize> {
        let len = iov.len();
        if len == 0 {
            return Ok(0);
        }
        let mut buf = [0u8; LINE_MAX + 1];
        let raw = take_line(iov, &mut buf)?;
        let me = kiocb.file();
        me.inner.lock().player = true;
        me.game.command(raw)?;
        Ok(len)
    }

    fn read_iter(kiocb: Kiocb<'_, Self::Ptr>, iov: &mut IovIterDest<'_>) -> Result<usize> {
        // SAFETY: the kiocb and its file are valid for the duration of this call.
        let flags = unsafe { (*(*kiocb.as_raw()).ki_filp).f_flags };
        let nonblock = flags & bindings::O_NONBLOCK != 0;
        let me = kiocb.file();
        let mut inner = me.inner.lock();
        if inner.player {
            drop(inner);
            return me.game.read_reply(iov);
        }
        let max = iov.len() / Record::SIZE;
        if max == 0 {
            return Err(EINVAL);
        }
        let id = match inner.watcher {
            Some(id) => id,
            None => {
                let id = me.hub.register()?;
                inner.watcher = Some(id);
                id
            }
        };
        drop(inner);
        let mut recs = [Record::default(); READ_BATCH];
        let n = me.hub.take(id, max, nonblock, &mut recs)?;
        let mut done = 0;
        for r in recs.iter().take(n) {
            let bytes = r.to_bytes();
            if iov.copy_to_iter(&bytes) != Record::SIZE {
                return if done > 0 { Ok(done) } else { Err(EFAULT) };
            }
            done += Record::SIZE;
        }
        Ok(done)
    }

    fn ioctl(me: Pin<&Self>, _file: &File, cmd: u32, arg: usize) -> Result<isize> {
        if cmd == KXO_IOC_LOADS {
            let mut bytes = [0u8; core::mem::size_of::<KxoLoads>()];
            let loads = me.hub.state.lock().loads;
            for (i, kind) in AgentKind::ALL.iter().enumerate() {
                for (j, v) in loads.get(*kind).averages().iter().enumerate() {
                    let at = (i * 3 + j) * 8;
                    if let Some(dst) = bytes.get_mut(at..at + 8) {
                        dst.copy_from_slice(&v.to_ne_bytes());
                    }
                }
            }
            UserSlice::new(UserPtr::from_addr(arg), bytes.len())
                .writer()
                .write_slice(&bytes)?;
            return Ok(0);
        }
        if !matches!(
            cmd,
            KXO_IOC_PAUSE | KXO_IOC_RESUME | KXO_IOC_STOP | KXO_IOC_RESTART
        ) {
            return Err(ENOTTY);
        }
        if !me.root {
            return Err(EPERM);
        }
        let hub = &me.hub;
        match cmd {
            KXO_IOC_PAUSE => hub.state.lock().paused = true,
            KXO_IOC_RESUME => {
                let mut st = hub.state.lock();
                if st.paused {
                    st.paused = false;
                    let HubState {
                        watchers, latest, ..
                    } = &mut *st;
                    for w in watchers.iter_mut() {
                        HubState::snapshot_to(w, latest);
                    }
                }
                drop(st);
                hub.readable.notify_all();
            }
            KXO_IOC_STOP => hub.halted.store(true, Ordering::Relaxed),
            _ => {
                hub.generation.fetch_add(1, Ordering::Relaxed);
                hub.halted.store(false, Ordering::Relaxed);
            }
        }
        Ok(0)
    }
}

#[pinned_drop]
impl PinnedDrop for KxoFile {
    fn drop(self: Pin<&mut Self>) {
        if let Some(id) = self.inner.lock().watcher {
            self.hub.unregister(id);
        }
    }
}
