// SPDX-License-Identifier: GPL-2.0

//! The file operations of a game device (`/dev/reversi`, `/dev/chess`, and the player files
//! of `/dev/kxo`): a [`GameFile`] runs one command per write and reads back its reply
//! (docs/protocol.md, "Framing and errors"). The games live in [`table`]'s cells, the
//! search contexts in [`search_pool`], the binding of a game to its device in [`binding`].
//!
//! Locking: a file's `inner` mutex, then a game cell's `state` mutex, then the device's table
//! lock, always in that order (some paths skip some). No lock is held across a CPU search: the
//! cell is marked busy, both locks are dropped, the search runs on a copy in the writer's
//! task, and the result is applied under the locks again. While a cell is busy, `01` answers
//! from the position before the move and every other command waits interruptibly on `idle`.
//!
//! [`table`]: super::table
//! [`search_pool`]: super::search_pool
//! [`binding`]: super::binding

use core::marker::PhantomData;
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use kernel::{
    fs::{File, Kiocb},
    ioctl::_IO,
    iov::{IovIterDest, IovIterSource},
    miscdevice::{MiscDevice, MiscDeviceRegistration},
    new_mutex,
    prelude::*,
    sync::{poll::PollTable, Arc, Mutex},
};

use super::binding::DeviceGame;
use super::line_io::take_line;
use super::table::Cell;
use crate::common::budget::Budget;
use crate::kmod::pollable::{self, Pollable};
use crate::session::{
    command::LINE_MAX,
    cursor::FileReply,
    game::{Game, Thought},
    state::{Action, CommandContext, Session, StatusExtra},
    table::{self, Owner},
};

pub(crate) use crate::uapi::ioctl::{KGAMES_IOC_PRIVATE, KGAMES_IOC_STOP_SEARCH};
const _: () = assert!(KGAMES_IOC_PRIVATE == _IO('k' as u32, 1));
const _: () = assert!(KGAMES_IOC_STOP_SEARCH == _IO('k' as u32, 2));

/// Bytes of a reply one pass of [`GameFile::read_reply`] copies (a 2 KiB reply in four).
const READ_CHUNK: usize = 512;

/// Private game ids: unique for the module's lifetime (0 means "shared").
static NEXT_PRIVATE: AtomicU64 = AtomicU64::new(1);

/// A CPU move that [`GameFile::begin`] started and [`GameFile::end`] has not yet applied:
/// what the search in between needs, held with no lock.
///
/// Invariant: `cell`'s session is busy with this move (its `Session::execute` returned the
/// game `copy` holds) until [`GameFile::end`] applies or cancels it, which happens exactly
/// once; meanwhile every command of the game but `01` waits on the cell's `idle`.
struct PendingSearch<G: Game> {
    /// The game's cell, to apply the result to.
    cell: Arc<Cell<G>>,
    /// The copy of the game to search (boxed: not on the stack while the search runs).
    copy: KBox<G>,
    /// The session's budget for this move.
    budget: Budget,
    /// Who searches: the uid whose turn it must be in the device's search contexts.
    uid: u32,
}

/// Per-file state.
struct FileInner {
    /// Whose game this file plays: its user's shared game, or (after `KGAMES_IOC_PRIVATE`) its
    /// own private game. Either is looked up in the table by its owner, so a game the table
    /// evicted is gone for its files too (the next command starts from no game).
    owner: Owner,
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
    inner: Mutex<FileInner>,
    /// Set by `KGAMES_IOC_STOP_SEARCH` (no lock: the writer's search reads it while the
    /// ioctl comes from another thread); cleared when a search of this file ends.
    stop_search: AtomicBool,
    /// The device's game type: its table is `G::games()`.
    game: PhantomData<fn() -> G>,
}

impl<G: DeviceGame> GameFile<G>
where
    G::Side: Send,
{
    /// The cell of `owner`'s game, made if it has none (`ENOSPC` when the table's caps refuse
    /// a new one), and the device's context for one command. The new game is allocated with
    /// the table's lock released (an allocation may reclaim or wait, and every user's command
    /// takes that lock); the caps are checked before, so a refused command allocates nothing.
    fn cell_or_create(owner: Owner) -> Result<(Arc<Cell<G>>, CommandContext)> {
        let mut t = G::games().lock();
        if let Some(cell) = t.find(owner) {
            return Ok((cell, t.context()));
        }
        if !t.has_room(owner) {
            return Err(ENOSPC);
        }
        let (config, delay_ms) = t.new_game();
        drop(t);
        let cell = Cell::new_arc(config, delay_ms)?;
        let mut t = G::games().lock();
        let inserted = t.insert(owner, cell);
        let context = t.context();
        drop(t);
        // An evicted game, or the unused cell, is freed here, with no table lock held.
        match inserted {
            Ok((cell, _unused_or_evicted)) => Ok((cell, context)),
            Err((e, _unused)) => Err(e),
        }
    }

    /// The cell of `owner`'s game, if the table has it (marked used now, as a command marks
    /// it).
    fn existing_cell(owner: Owner) -> Option<Arc<Cell<G>>> {
        G::games().lock().find(owner)
    }

    /// A file of `uid`'s shared game.
    pub(crate) fn new_file(uid: u32) -> impl PinInit<Self, Error> {
        try_pin_init!(Self {
            inner <- new_mutex!(FileInner {
                owner: Owner::shared(uid),
                reply: FileReply::new(),
            }),
            stop_search: AtomicBool::new(false),
            game: PhantomData,
        })
    }

    /// Runs one command (at most `LINE_MAX` bytes, or `LINE_MAX + 1` for an over-long write);
    /// `extra` is what the device appends to `09` (the kxo machine's figures for a player
    /// file of `/dev/kxo`; nothing for the others).
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
    pub(crate) fn command(&self, raw: &[u8], extra: &StatusExtra) -> Result {
        let Some(PendingSearch {
            cell,
            copy,
            budget,
            uid,
        }) = self.begin(raw, extra)?
        else {
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
    /// while the game is busy): `None` when it is answered, or the CPU move it started (the
    /// session marked busy) to search with no lock held.
    #[inline(never)]
    fn begin(&self, raw: &[u8], extra: &StatusExtra) -> Result<Option<PendingSearch<G>>> {
        loop {
            let mut inner = self.inner.lock();
            let (cell, mut context) = Self::cell_or_create(inner.owner)?;
            context.extra = *extra;
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
            match st.session.execute(raw, &context, inner.reply.out()) {
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
                    return Ok(Some(PendingSearch {
                        cell,
                        copy,
                        budget,
                        uid,
                    }));
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
    /// which is freed) for a new private game that lives until the file is closed, or until
    /// the table evicts it as it evicts any idle game (its next command then starts anew).
    pub(crate) fn make_private(&self) {
        let mut inner = self.inner.lock();
        let old = inner.owner;
        inner.owner = Owner {
            uid: old.uid,
            private: NEXT_PRIVATE.fetch_add(1, Ordering::Relaxed),
        };
        inner.reply.detach();
        drop(inner);
        if old.private != 0 {
            let removed = table::remove(&mut G::games().lock().slots, old);
            drop(removed);
        }
    }

    /// This file has reply bytes to read: its own unread reply, or (if it never wrote) the
    /// game's latest one, which its first read takes.
    pub(crate) fn reply_pending(&self) -> bool {
        let inner = self.inner.lock();
        inner.reply.needs_latest() || !inner.reply.unread().is_empty()
    }

    /// Reads this file's reply (taking the game's latest first if the file never wrote); 0 at
    /// its end (EOF) and for a zero-length read.
    ///
    /// No lock is held across the copy to user space: a buffer that faults slowly (a FUSE
    /// mapping, a `userfaultfd` region) must not keep the file's search from ending or its
    /// `poll` and `ioctl` from answering. The reply is taken in chunks of [`READ_CHUNK`]
    /// bytes: copied to the stack and consumed under the file's lock, then copied out with no
    /// lock; bytes the copy did not take are given back unless the reply changed meanwhile.
    pub(crate) fn read_reply(&self, iov: &mut IovIterDest<'_>) -> Result<usize> {
        let mut chunk = [0u8; READ_CHUNK];
        let mut done = 0usize;
        while !iov.is_empty() {
            let (n, mark) = {
                let mut inner = self.inner.lock();
                if inner.reply.needs_latest() {
                    match Self::existing_cell(inner.owner) {
                        Some(cell) => inner.reply.take_latest(Some(&cell.state.lock().last)),
                        None => inner.reply.take_latest(None),
                    }
                }
                let room = iov.len().min(READ_CHUNK);
                let out = chunk.get_mut(..room).ok_or(EINVAL)?;
                inner.reply.read_into(out)
            };
            if n == 0 {
                break;
            }
            let copied = iov.copy_to_iter(chunk.get(..n).ok_or(EINVAL)?);
            done = done.saturating_add(copied);
            if copied < n {
                self.inner.lock().reply.give_back(mark, n - copied);
                if done == 0 {
                    return Err(EFAULT);
                }
                break;
            }
        }
        Ok(done)
    }

    /// Waits (interruptibly, on the pool's condition variable) for a search context,
    /// searches, and gives the context back.
    fn think(copy: &G, uid: u32, budget: Budget, stop: &AtomicBool) -> Result<Thought<G::Move>> {
        let (pool, cap_ms) = {
            let t = G::games().lock();
            (t.pool.clone().ok_or(ENODEV)?, t.max_move_ms)
        };
        let mut scratch = pool.take(uid, copy)?;
        let thought = G::search(copy, &mut scratch, budget, stop, cap_ms);
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
        me.command(raw, &StatusExtra::default())?;
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
