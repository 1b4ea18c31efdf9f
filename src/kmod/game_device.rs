// SPDX-License-Identifier: GPL-2.0

//! One misc device per [`Game`]: files, game cells, the game table (docs/protocol.md,
//! "Framing and errors").
//!
//! Locking: a file's `inner` mutex, then a game cell's `state` mutex, then the device's table
//! lock, always in that order (some paths skip some). No lock is held across a CPU search: the
//! cell is marked busy, both locks are dropped, the search runs on a copy in the writer's
//! task, and the result is applied under the locks again. While a cell is busy, `01` answers
//! from the position before the move and every other command waits interruptibly on `idle`.

use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use kernel::{
    fs::{File, Kiocb},
    ioctl::_IO,
    iov::{IovIterDest, IovIterSource},
    miscdevice::{MiscDevice, MiscDeviceRegistration},
    new_condvar, new_mutex,
    prelude::*,
    sync::{
        lock::{GlobalLock, GlobalLockBackend},
        poll::PollTable,
        Arc, CondVar, Mutex,
    },
    time::{Instant, Monotonic},
};

use super::clock::{SignalInterrupt, StopClock};
use super::pollable::{self, Pollable};
use crate::common::budget::{Budget, Meter};
use crate::session::{
    command::LINE_MAX,
    cursor::FileReply,
    game::{Game, Thought},
    reply::Reply,
    scratch::Alloc,
    state::{Action, Env, Session, StatusExtra},
    table::{self, Limits, Owner, Slot},
    turns::{Turns, Waiter},
};

pub(crate) use crate::uapi::ioctl::{KGAMES_IOC_PRIVATE, KGAMES_IOC_STOP_SEARCH};
const _: () = assert!(KGAMES_IOC_PRIVATE == _IO('k' as u32, 1));
const _: () = assert!(KGAMES_IOC_STOP_SEARCH == _IO('k' as u32, 2));

/// Limits from the module parameters.
#[derive(Clone, Copy)]
pub(crate) struct Config {
    pub(crate) max_games: usize,
    pub(crate) max_user_games: usize,
    pub(crate) tt_entries: usize,
    pub(crate) search_contexts: usize,
    /// The longest CPU move in milliseconds, whatever its budget (`max_move_ms`).
    pub(crate) max_move_ms: u32,
}

/// Private game ids: unique for the module's lifetime (0 means "shared").
static NEXT_PRIVATE: AtomicU64 = AtomicU64::new(1);

/// Takes one write: the whole line into `buf` (at most [`LINE_MAX`] bytes), or, for a longer
/// write, consumes it whole and returns all of `buf` (`LINE_MAX + 1` bytes, which framing
/// answers with INVFMT). The caller returns the full length of the write.
pub(crate) fn take_line<'b>(
    iov: &mut IovIterSource<'_>,
    buf: &'b mut [u8; LINE_MAX + 1],
) -> Result<&'b [u8]> {
    let len = iov.len();
    if len > LINE_MAX {
        iov.advance(len);
        return Ok(buf);
    }
    let dst = buf.get_mut(..len).ok_or(EINVAL)?;
    if iov.copy_from_iter(dst) != len {
        return Err(EFAULT);
    }
    Ok(dst)
}

/// Copies the unread part of a file's reply and advances its cursor; 0 at the end (EOF) and
/// for a zero-length read.
pub(crate) fn give_reply(reply: &mut FileReply, iov: &mut IovIterDest<'_>) -> Result<usize> {
    let rest = reply.unread();
    // A zero-length read returns 0 and leaves the reply unread (read(2) with count 0).
    if rest.is_empty() || iov.is_empty() {
        return Ok(0);
    }
    let n = iov.copy_to_iter(rest);
    if n == 0 {
        return Err(EFAULT);
    }
    reply.consume(n);
    Ok(n)
}

/// A live game: its session and its latest reply, behind a mutex, and a condition variable
/// signalled when a CPU search ends.
#[pin_data]
pub(crate) struct Cell<G: Game> {
    #[pin]
    state: Mutex<CellState<G>>,
    #[pin]
    idle: CondVar,
}

/// What a cell's mutex protects.
struct CellState<G: Game> {
    session: Session<G>,
    /// The latest reply of this game, read by files that never wrote (`echo ...; cat`).
    last: Reply,
}

impl<G: Game> Cell<G> {
    fn new_arc(config: G::Config) -> Result<Arc<Self>> {
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
pub(crate) struct Games<G: Game, D = ()> {
    slots: KVec<Option<Slot<Arc<Cell<G>>>>>,
    limits: Limits,
    epoch: Option<Instant<Monotonic>>,
    /// The device's search contexts (set at load).
    pool: Option<Arc<ContextPool<G>>>,
    /// The longest CPU move in milliseconds (set at load).
    max_move_ms: u32,
    /// The settings of new games (set at load; the default until then).
    config: Option<G::Config>,
    /// Counts commands: each gets the next value as its [`Env::nonce`].
    nonce: u64,
    /// What the device's searches and status need beyond the table
    /// ([`DeviceGame::Device`]; set at load, after the table).
    device: Option<D>,
}

/// The preallocated search contexts of one device, with their own lock and a condition
/// variable, so a writer waiting for a context sleeps until one is given back (the device
/// table's global lock cannot be waited on).
#[pin_data]
pub(crate) struct ContextPool<G: Game> {
    #[pin]
    state: Mutex<PoolState<G>>,
    /// Signalled whenever a context is given back.
    #[pin]
    freed: CondVar,
}

/// What the pool's mutex protects.
///
/// Invariant: `free.len()` plus the uids searching in `turns` is the number of contexts made
/// at load, and `free` keeps the capacity reserved then (pushing never allocates).
struct PoolState<G: Game> {
    /// The contexts not in use.
    free: KVec<Scratch<G>>,
    /// Whose turn it is: round robin over the waiting uids, at most one search per uid.
    turns: Turns<KVec<Option<Waiter>>, KVec<Option<u32>>>,
}

/// `n` empty slots.
fn nones<T: Copy>(n: usize) -> Result<KVec<Option<T>>> {
    Ok(KVec::from_elem(None, n, GFP_KERNEL)?)
}

impl<G: Game> ContextPool<G> {
    /// `contexts` contexts of `tt_entries` table entries each, for up to `uids` waiting uids
    /// with a queue entry (more wait unregistered, behind them).
    fn new_arc(
        contexts: usize,
        tt_entries: usize,
        uids: usize,
        config: &G::Config,
    ) -> Result<Arc<Self>> {
        let mut free = KVec::with_capacity(contexts, GFP_KERNEL)?;
        for _ in 0..contexts {
            free.push(
                G::new_scratch::<KernelAlloc>(tt_entries, config).ok_or(ENOMEM)?,
                GFP_KERNEL,
            )?;
        }
        let turns = Turns::new(nones(uids)?, nones(contexts)?);
        Arc::pin_init(
            pin_init!(Self {
                state <- new_mutex!(PoolState { free, turns }),
                freed <- new_condvar!(),
            }),
            GFP_KERNEL,
        )
    }

    /// Waits (interruptibly: `ERESTARTSYS` on a signal) until it is `uid`'s turn (see
    /// [`Turns`]: no other search of `uid` in flight, and no uid waiting longer), and takes a
    /// context.
    fn take(&self, uid: u32) -> Result<Scratch<G>> {
        let mut st = self.state.lock();
        let mut registered = false;
        loop {
            let free = !st.free.is_empty();
            if st.turns.try_take(uid, registered, free) {
                if let Some(s) = st.free.pop() {
                    return Ok(s);
                }
            }
            if !registered && st.turns.enter(uid) {
                registered = true;
                continue;
            }
            if self.freed.wait_interruptible(&mut st) {
                if registered {
                    st.turns.leave(uid);
                }
                drop(st);
                // This task may have been first in the queue: the next one gets its turn.
                self.freed.notify_all();
                return Err(ERESTARTSYS);
            }
        }
    }

    /// Gives back a context taken by `uid` and wakes the waiters.
    fn give(&self, uid: u32, s: Scratch<G>) {
        let mut st = self.state.lock();
        st.turns.done(uid);
        // `free` keeps its capacity from load: no allocation, cannot fail.
        let _ = st.free.push(s, GFP_KERNEL);
        drop(st);
        self.freed.notify_all();
    }
}

/// The kernel's [`Alloc`]: search memory in `KVVec`s (large tables may be vmalloc'ed) and
/// `KBox`es.
pub(crate) struct KernelAlloc;

impl Alloc for KernelAlloc {
    type Slice<T: Clone + Send> = KVVec<T>;
    type Boxed<T: Send> = KBox<T>;

    fn slice<T: Clone + Send>(n: usize, fill: T) -> Option<KVVec<T>> {
        KVVec::from_elem(fill, n, GFP_KERNEL).ok()
    }

    fn boxed<T: Send>(value: T) -> Option<KBox<T>> {
        KBox::new(value, GFP_KERNEL).ok()
    }
}

/// The preallocated memory of one CPU search: the game's own scratch, made with the
/// kernel's allocator.
pub(crate) type Scratch<G> = <G as Game>::Scratch<KernelAlloc>;

impl<G: Game, D> Games<G, D> {
    /// An empty table (before load).
    pub(crate) const fn new() -> Self {
        Games {
            slots: KVec::new(),
            limits: Limits { max_user_games: 1 },
            epoch: None,
            pool: None,
            max_move_ms: 0,
            config: None,
            nonce: 0,
            device: None,
        }
    }

    fn now_ms(&self) -> u64 {
        self.epoch
            .map(|e| u64::try_from(e.elapsed().as_millis()).unwrap_or(0))
            .unwrap_or(0)
    }

    /// The table figures for one command, with the next nonce.
    fn env(&mut self) -> Env {
        let (games, _) = table::count(&self.slots, 0);
        self.nonce = self.nonce.wrapping_add(1);
        Env {
            games,
            max_games: self.slots.len(),
            extra: StatusExtra::default(),
            nonce: self.nonce,
        }
    }

    /// The cell of `owner`, created (subject to the caps) if `create`.
    fn get(&mut self, owner: Owner, create: bool) -> Result<Option<Arc<Cell<G>>>> {
        let now = self.now_ms();
        if let Some(slot) = table::find(&mut self.slots, owner) {
            slot.last_used_ms = now;
            return Ok(Some(slot.payload.clone()));
        }
        if !create {
            return Ok(None);
        }
        let cell = Cell::new_arc(self.config.unwrap_or_default())?;
        match table::insert(&mut self.slots, self.limits, owner, now, cell.clone()) {
            // An evicted cell is dropped here; a file still holding it keeps it alive.
            Ok(_evicted) => Ok(Some(cell)),
            Err(_) => Err(ENOSPC),
        }
    }
}

/// A [`Game`] served as a misc device: where its table lives.
pub(crate) trait DeviceGame: Game + Send + Unpin + 'static
where
    Self::Side: Send,
{
    /// What the device's searches and `09` need beyond the table, given at load (the N x N
    /// game: the kxo hub, with the Monte Carlo queue and the machine's figures; `()` for the
    /// others).
    type Device: Clone + Send + Unpin;
    /// The global lock type of the table.
    type Lock: GlobalLockBackend<Item = Games<Self, Self::Device>>;
    /// The table.
    fn games() -> &'static GlobalLock<Self::Lock>;

    /// Device-wide `key=value` pairs appended to `09` (none by default).
    fn status_extra(_device: &Self::Device, _out: &mut StatusExtra) {}

    /// The CPU's search on a copy of the game, in the writer's task with no lock held: by
    /// default the game's own [`Game::think`], stopped by the budget or a pending signal
    /// (the result is discarded), or by `stop` (`KGAMES_IOC_STOP_SEARCH`) or after `cap_ms`
    /// milliseconds whatever the budget (the best move so far is played). The meter's
    /// interrupt check (every [`Meter::CHECK_INTERVAL`] nodes) is also a reschedule point.
    fn search(
        copy: &Self,
        scratch: &mut Scratch<Self>,
        budget: Budget,
        stop: &AtomicBool,
        cap_ms: u32,
        _device: &Self::Device,
    ) -> Thought<Self::Move> {
        let mut clock = StopClock::new(stop, cap_ms);
        let mut signal = SignalInterrupt;
        let mut meter = Meter::new(budget, &mut clock, &mut signal);
        copy.think(scratch, &mut meter)
    }

    /// Sizes the table at load; new games use `game`.
    fn setup_table(cfg: Config, game: Self::Config) -> Result {
        let mut t = Self::games().lock();
        t.config = Some(game);
        t.slots.clear();
        // A slot is not `Clone` (it owns its game): filled one by one.
        for _ in 0..cfg.max_games {
            t.slots.push(None, GFP_KERNEL)?;
        }
        t.limits = Limits {
            max_user_games: cfg.max_user_games,
        };
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
        t.device = None;
    }

    /// Gives the table what the device's searches and status need (at load).
    fn attach(device: Self::Device) {
        Self::games().lock().device = Some(device);
    }

    /// What the device's searches and status need, once attached.
    fn device() -> Option<Self::Device> {
        Self::games().lock().device.clone()
    }
}

/// Per-file state.
struct FileInner<G: Game> {
    owner: Owner,
    /// The private game of a detached file (shared games are looked up in the table).
    private: Option<Arc<Cell<G>>>,
    /// This file's reply and read cursor.
    reply: FileReply,
}

/// An open file of a game device.
#[pin_data(PinnedDrop)]
pub(crate) struct GameFile<G: DeviceGame>
where
    G::Side: Send,
{
    #[pin]
    inner: Mutex<FileInner<G>>,
    /// Set by `KGAMES_IOC_STOP_SEARCH` (no lock: the writer's search reads it while the
    /// ioctl comes from another thread); cleared when a search of this file ends.
    stop_search: AtomicBool,
}

impl<G: DeviceGame> GameFile<G>
where
    G::Side: Send,
{
    /// The cell of this file's game; created on demand when `create`.
    fn cell(inner: &mut FileInner<G>, create: bool) -> Result<(Option<Arc<Cell<G>>>, Env)> {
        let mut t = G::games().lock();
        if inner.owner.private != 0 {
            if let Some(c) = &inner.private {
                let now = t.now_ms();
                if let Some(slot) = table::find(&mut t.slots, inner.owner) {
                    slot.last_used_ms = now;
                }
                return Ok((Some(c.clone()), t.env()));
            }
            let c = t.get(inner.owner, create)?;
            inner.private = c.clone();
            return Ok((c, t.env()));
        }
        let c = t.get(inner.owner, create)?;
        Ok((c, t.env()))
    }

    /// A file of `uid`'s shared game.
    pub(crate) fn new_file(uid: u32) -> impl PinInit<Self, Error> {
        try_pin_init!(Self {
            inner <- new_mutex!(FileInner {
                owner: Owner::shared(uid),
                private: None,
                reply: FileReply::new(),
            }),
            stop_search: AtomicBool::new(false),
        })
    }

    /// Runs one command (at most `LINE_MAX` bytes, or `LINE_MAX + 1` for an over-long write).
    ///
    /// No lock is held while this waits: a command that must wait for another file's CPU move
    /// (or for this file's own, from another thread) releases the file's lock first and waits
    /// on the cell's `idle` with only the cell's lock, which the wait gives up while asleep.
    /// The move that makes the game idle takes the file's lock to deliver its reply, so holding
    /// it here would deadlock two writers of one file.
    ///
    /// Stack: the command runs in [`Self::begin`] and the result is applied in [`Self::end`],
    /// neither inlined, so their frames (which hold the game while the session works on it)
    /// are gone while the search runs; the game's copy for the search is boxed. What stays on
    /// the stack during a search is this frame and the engine's own.
    pub(crate) fn command(&self, raw: &[u8]) -> Result {
        let Some((cell, copy, budget, uid)) = self.begin(raw)? else {
            return Ok(());
        };
        // The search: in this task, no lock held, bounded by the budget and signals.
        let thought = Self::think(&copy, uid, budget, &self.stop_search);
        // A stop request is used up by the search it ended.
        self.stop_search.store(false, Ordering::Relaxed);
        drop(copy);
        self.end(&cell, thought)
    }

    /// Runs the command under the file's and the cell's locks (waiting, with neither held,
    /// while the game is busy): `None` when it is answered, or the game's copy to search with
    /// its budget and the searching uid, the session marked busy.
    #[inline(never)]
    #[allow(clippy::type_complexity)]
    fn begin(&self, raw: &[u8]) -> Result<Option<(Arc<Cell<G>>, KBox<G>, Budget, u32)>> {
        loop {
            let mut inner = self.inner.lock();
            let (cell, mut env) = Self::cell(&mut inner, true)?;
            if let Some(device) = G::device() {
                G::status_extra(&device, &mut env.extra);
            }
            let cell = cell.ok_or(ENOSPC)?;
            let mut st = cell.state.lock();
            if st.session.is_busy() && !Session::<G>::answers_while_busy(raw) {
                drop(inner);
                let interrupted = cell.idle.wait_interruptible(&mut st);
                drop(st);
                if interrupted {
                    return Err(ERESTARTSYS);
                }
                // The file may have changed games meanwhile (`KGAMES_IOC_PRIVATE`): look again.
                continue;
            }
            match st.session.execute(raw, &env, inner.reply.out()) {
                Action::Done => {
                    st.last.copy_from(inner.reply.out());
                    inner.reply.commit();
                    return Ok(None);
                }
                Action::Think(copy) => {
                    // Charged to the caller; without memory the move is not started (the
                    // session is idle again, as before the command: no waiter can be queued
                    // while this holds the cell's lock).
                    let copy = match KBox::new(copy, GFP_KERNEL_ACCOUNT) {
                        Ok(copy) => copy,
                        Err(_) => {
                            st.session.cancel();
                            return Err(ENOMEM);
                        }
                    };
                    let budget = st.session.budget();
                    let uid = inner.owner.uid;
                    drop(st);
                    return Ok(Some((cell, copy, budget, uid)));
                }
            }
        }
    }

    /// Applies a search's result to the game under the file's and the cell's locks, and wakes
    /// the commands waiting for the game to go idle.
    #[inline(never)]
    fn end(&self, cell: &Cell<G>, thought: Result<Thought<G::Move>>) -> Result {
        let mut inner = self.inner.lock();
        let mut st = cell.state.lock();
        let result = match thought {
            Ok(t) => {
                let interrupted = matches!(t, Thought::Interrupted);
                st.session.finish(t, inner.reply.out());
                if interrupted {
                    Err(ERESTARTSYS)
                } else {
                    st.last.copy_from(inner.reply.out());
                    inner.reply.commit();
                    Ok(())
                }
            }
            Err(e) => {
                st.session.cancel();
                Err(e)
            }
        };
        drop(st);
        cell.idle.notify_all();
        result
    }

    /// `KGAMES_IOC_PRIVATE`: the file leaves its shared game (or its previous private game,
    /// which is freed) for a new private game that lives until the file is closed.
    pub(crate) fn make_private(&self) {
        let mut inner = self.inner.lock();
        let old = inner.owner;
        inner.owner = Owner {
            uid: old.uid,
            private: NEXT_PRIVATE.fetch_add(1, Ordering::Relaxed),
        };
        let old_cell = inner.private.take();
        inner.reply.detach();
        drop(inner);
        if old.private != 0 {
            let removed = table::remove(&mut G::games().lock().slots, old);
            drop(removed);
        }
        drop(old_cell);
    }

    /// This file has reply bytes to read: its own unread reply, or (if it never wrote) the
    /// game's latest one, which its first read takes.
    pub(crate) fn reply_pending(&self) -> bool {
        let inner = self.inner.lock();
        inner.reply.needs_latest() || !inner.reply.unread().is_empty()
    }

    /// Reads this file's reply (taking the game's latest first if the file never wrote).
    pub(crate) fn read_reply(&self, iov: &mut IovIterDest<'_>) -> Result<usize> {
        let mut inner = self.inner.lock();
        if inner.reply.needs_latest() {
            let (cell, _) = Self::cell(&mut inner, false)?;
            match cell {
                Some(cell) => inner.reply.take_latest(Some(&cell.state.lock().last)),
                None => inner.reply.take_latest(None),
            }
        }
        give_reply(&mut inner.reply, iov)
    }

    /// Waits (interruptibly, on the pool's condition variable) for a search context,
    /// searches, and gives the context back.
    fn think(copy: &G, uid: u32, budget: Budget, stop: &AtomicBool) -> Result<Thought<G::Move>> {
        let (pool, cap_ms, device) = {
            let t = G::games().lock();
            let device = t.device.clone().ok_or(ENODEV)?;
            (t.pool.clone().ok_or(ENODEV)?, t.max_move_ms, device)
        };
        let mut scratch = pool.take(uid)?;
        let thought = G::search(copy, &mut scratch, budget, stop, cap_ms, &device);
        pool.give(uid, scratch);
        Ok(thought)
    }
}

#[vtable]
impl<G: DeviceGame> MiscDevice for GameFile<G>
where
    G::Side: Send,
{
    type Ptr = Pin<KBox<Self>>;

    fn open(file: &File, misc: &MiscDeviceRegistration<Self>) -> Result<Pin<KBox<Self>>> {
        if !pollable::opened_through_copy(file, misc) {
            return Err(EAGAIN);
        }
        let uid = file.cred().euid().into_raw().val;
        // Charged to the opener's memory cgroup, as the VFS charges the `struct file`.
        KBox::try_pin_init(Self::new_file(uid), GFP_KERNEL_ACCOUNT)
    }

    fn write_iter(kiocb: Kiocb<'_, Self::Ptr>, iov: &mut IovIterSource<'_>) -> Result<usize> {
        let me = kiocb.file();
        let len = iov.len();
        if len == 0 {
            return Ok(0);
        }
        let mut buf = [0u8; LINE_MAX + 1];
        let raw = take_line(iov, &mut buf)?;
        me.command(raw)?;
        Ok(len)
    }

    fn read_iter(kiocb: Kiocb<'_, Self::Ptr>, iov: &mut IovIterDest<'_>) -> Result<usize> {
        kiocb.file().read_reply(iov)
    }

    fn ioctl(me: Pin<&Self>, _file: &File, cmd: u32, _arg: usize) -> Result<isize> {
        match cmd {
            KGAMES_IOC_PRIVATE => me.make_private(),
            KGAMES_IOC_STOP_SEARCH => me.stop_search.store(true, Ordering::Relaxed),
            _ => return Err(ENOTTY),
        }
        Ok(0)
    }
}

#[pinned_drop]
impl<G: DeviceGame> PinnedDrop for GameFile<G>
where
    G::Side: Send,
{
    fn drop(self: Pin<&mut Self>) {
        let owner = self.inner.lock().owner;
        if owner.private != 0 {
            let removed = table::remove(&mut G::games().lock().slots, owner);
            drop(removed);
        }
    }
}

impl<G: DeviceGame> Pollable for GameFile<G>
where
    G::Side: Send,
{
    /// Always readable and writable, as the VFS reports a file without `poll`: a write never
    /// waits for a reply to be read, and a read never blocks (docs/protocol.md).
    fn poll(_me: Pin<&Self>, _file: &File, _table: PollTable<'_>) -> u32 {
        pollable::EPOLLIN | pollable::EPOLLOUT | pollable::EPOLLRDNORM | pollable::EPOLLWRNORM
    }
}
