// SPDX-License-Identifier: GPL-2.0

//! `/dev/kxo` files (docs/protocol.md, "/dev/kxo"). A file's [`Role`] decides what it reads:
//! a file that has written a command (or asked for a private game) is a player file of the
//! N x N human game (the shared session layer, [`Nxn`]) and reads text replies; every other
//! file is a watcher and reads records (whole records only; EINVAL for a buffer smaller than
//! one; EAGAIN with O_NONBLOCK; a signal interrupts a blocking wait). A watcher registers at
//! its first read or poll and receives one record per game (a snapshot) first; a watcher that
//! becomes a player leaves the hub. Every file answers `poll`: a watcher is readable exactly
//! when it has a record to read, a player file is always writable and readable when a reply
//! is pending. The machine itself is [`runtime`](super::runtime); the records' destination
//! is the [`Hub`].
//!
//! A watcher's whole state is its [`Cursor`] in the hub's one record ring, kept in its file (a
//! few bytes); the N x N game of a player file is allocated when the file becomes a player.
//! No lock of the file is held while a read waits for records or a command for its game.

use kernel::{
    bindings,
    fs::{File, Kiocb},
    ioctl::{_IO, _IOR, _IOW},
    iov::{IovIterDest, IovIterSource},
    miscdevice::{MiscDevice, MiscDeviceRegistration},
    new_mutex,
    prelude::*,
    sync::poll::PollTable,
    sync::{Arc, Mutex},
    transmute::{AsBytes, FromBytes},
    uaccess::{UserPtr, UserSlice},
};

use core::mem::size_of;
use core::sync::atomic::{AtomicBool, Ordering};

use super::hub::Hub;
use super::records::READ_BATCH;
use crate::kmod::game::{file::GameFile, line_io::take_line};
use crate::kmod::pollable::{
    self, Pollable, EPOLLHUP, EPOLLIN, EPOLLOUT, EPOLLRDNORM, EPOLLWRNORM,
};
use crate::kxo::machine::ring::Cursor;
use crate::session::{command::LINE_MAX, nxn_game::Nxn};
use crate::uapi::ioctl::{
    KGAMES_IOC_PRIVATE, KXO_IOC_LOADS, KXO_IOC_PAUSE, KXO_IOC_RESTART, KXO_IOC_RESUME,
    KXO_IOC_SET_PAIRING, KXO_IOC_STATE, KXO_IOC_STOP,
};
use crate::uapi::load::KxoLoads;
use crate::uapi::pairing::KxoPairing;
use crate::uapi::record::Record;
use crate::uapi::state::KxoState;

// The shared definitions agree with the kernel's own macros.
const _: () = assert!(KXO_IOC_PAUSE == _IO('x' as u32, 1));
const _: () = assert!(KXO_IOC_RESUME == _IO('x' as u32, 2));
const _: () = assert!(KXO_IOC_STOP == _IO('x' as u32, 3));
const _: () = assert!(KXO_IOC_RESTART == _IO('x' as u32, 4));
const _: () = assert!(KXO_IOC_LOADS == _IOR::<KxoLoads>('x' as u32, 5));
const _: () = assert!(KXO_IOC_STATE == _IOR::<KxoState>('x' as u32, 6));
const _: () = assert!(KXO_IOC_SET_PAIRING == _IOW::<KxoPairing>('x' as u32, 7));

kernel::sync::global_lock! {
    // Lock order: a leaf, taken at open and at load and unload with no other lock held
    // (src/kmod/mod.rs, "Lock order").
    // SAFETY: `KGames::init` initialises the lock before registering `/dev/kxo`.
    pub(crate) unsafe(uninit) static KXO_HUB: Mutex<Option<Arc<Hub>>> = None;
}

/// What an open file of `/dev/kxo` is. `Fresh -> Watcher` at the first read or poll;
/// `Fresh | Watcher -> Player` at the first write or `KGAMES_IOC_PRIVATE` (leaving the hub);
/// `Player` is final.
enum Role {
    /// Opened, neither read, polled nor written.
    Fresh,
    /// Reads records: where it is in the hub's ring.
    Watcher(Cursor),
    /// Plays the N x N human game (allocated when the file became a player): reads text
    /// replies. An `Arc`, so a command runs with the file's lock released.
    Player(Arc<GameFile<Nxn>>),
}

/// Per-file state.
struct KxoInner {
    role: Role,
}

/// An open file of `/dev/kxo`: a watcher of the AI-vs-AI games, or (once it writes) a player
/// of the N x N human game, served by the shared session layer like the other devices.
#[pin_data(PinnedDrop)]
pub(crate) struct KxoFile {
    hub: Arc<Hub>,
    /// The opener's effective uid (the owner of its N x N game, once it plays).
    uid: u32,
    /// Set once the file is a player file: a blocking watcher read of it (another thread's,
    /// or a process's sharing it) stops waiting for records.
    left: AtomicBool,
    #[pin]
    inner: Mutex<KxoInner>,
}

// SAFETY: `KxoState` is `#[repr(C)]` of integers and byte arrays with no padding (its size
// and offsets are asserted in src/uapi/state.rs): every byte is initialised.
unsafe impl AsBytes for KxoState {}
// SAFETY: `KxoPairing` is `#[repr(C)]` of a `u16` and two `u8`s, 4 bytes, no padding (asserted
// in src/uapi/pairing.rs): every bit pattern is a value (validity is checked after the read).
unsafe impl FromBytes for KxoPairing {}

/// Copies `value` to the user address `arg` (the ioctl's payload: its size is in the number).
fn copy_out<T: AsBytes>(arg: usize, value: &T) -> Result {
    UserSlice::new(UserPtr::from_addr(arg), size_of::<T>())
        .writer()
        .write(value)
}

/// The caller may control the machine (else `EPERM`): it has `CAP_SYS_ADMIN` now (checked at
/// the time of each control ioctl, not at open, so a descriptor passed to another process or
/// kept across a change of credentials carries no privilege).
fn may_control() -> Result {
    // SAFETY: `capable` reads the current task's credentials (and may record an audit
    // event); it is callable from any process context, which an ioctl is.
    if unsafe { bindings::capable(bindings::CAP_SYS_ADMIN as kernel::ffi::c_int) } {
        Ok(())
    } else {
        Err(EPERM)
    }
}

impl KxoFile {
    /// The one transition into [`Role::Player`] (`ENOMEM` if its game cannot be allocated;
    /// the file is unchanged then): a watcher leaves the hub, so the games no longer run for
    /// it and `KXO_IOC_STATE` no longer counts it. Returns the file's game.
    fn become_player(&self) -> Result<Arc<GameFile<Nxn>>> {
        let mut inner = self.inner.lock();
        if let Role::Player(game) = &inner.role {
            return Ok(game.clone());
        }
        // Charged to the caller's memory cgroup: a user's write makes it.
        let game = Arc::pin_init(GameFile::<Nxn>::new_file(self.uid), GFP_KERNEL_ACCOUNT)?;
        if let Role::Watcher(_) = inner.role {
            self.hub.records.unregister();
        }
        inner.role = Role::Player(game.clone());
        self.left.store(true, Ordering::Relaxed);
        drop(inner);
        // A blocking read or a poll that found this file a watcher waits on the records'
        // queues: let it look again (once in the file's life).
        self.hub.records.wake();
        Ok(game)
    }

    /// The file's game if it is a player file; else its cursor, registering it with the hub
    /// if it is fresh.
    fn role_now(inner: &mut KxoInner, hub: &Hub) -> Result<Arc<GameFile<Nxn>>, Cursor> {
        match &inner.role {
            Role::Player(game) => Ok(game.clone()),
            Role::Watcher(cur) => Err(*cur),
            Role::Fresh => {
                let cur = hub.records.register();
                inner.role = Role::Watcher(cur);
                Err(cur)
            }
        }
    }

    /// The file's game, if it is a player file.
    fn player_game(&self) -> Option<Arc<GameFile<Nxn>>> {
        match &self.inner.lock().role {
            Role::Player(game) => Some(game.clone()),
            _ => None,
        }
    }

    /// A watcher's read: up to `max` records into `out`, waiting for them unless `nonblock`;
    /// `None` if the file is a player file now (another thread wrote meanwhile: the read takes
    /// its reply instead). The file's lock is held only while the cursor moves, never while
    /// waiting.
    fn read_records(
        &self,
        max: usize,
        nonblock: bool,
        out: &mut [Record; READ_BATCH],
    ) -> Result<Option<usize>> {
        loop {
            let mut inner = self.inner.lock();
            let cur = match &mut inner.role {
                Role::Watcher(cur) => cur,
                _ => return Ok(None),
            };
            let n = self.hub.records.read(cur, max, nonblock, out);
            if n > 0 {
                return Ok(Some(n));
            }
            if nonblock {
                return Err(EAGAIN);
            }
            let seen = *cur;
            drop(inner);
            self.hub.wait_records(&seen, &self.left)?;
            if self.hub.unloading() {
                return Err(ENODEV);
            }
        }
    }
}

#[vtable]
impl MiscDevice for KxoFile {
    type Ptr = Pin<KBox<Self>>;

    fn open(file: &File, misc: &MiscDeviceRegistration<Self>) -> Result<Pin<KBox<Self>>> {
        if !pollable::opened_through_copy(file, misc) {
            return Err(EAGAIN);
        }
        let hub = KXO_HUB.lock().clone().ok_or(ENODEV)?;
        let uid = file.cred().euid().into_raw().val;
        // Charged to the opener's memory cgroup, as the VFS charges the `struct file`.
        KBox::try_pin_init(
            try_pin_init!(Self {
                hub,
                uid,
                left: AtomicBool::new(false),
                inner <- new_mutex!(KxoInner { role: Role::Fresh }),
            }),
            GFP_KERNEL_ACCOUNT,
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
        let game = me.become_player()?;
        let done = game.command(raw, &me.hub.status());
        // A poll of this file in another thread waits for the reply.
        me.hub.reply_ready();
        done?;
        Ok(len)
    }

    fn read_iter(kiocb: Kiocb<'_, Self::Ptr>, iov: &mut IovIterDest<'_>) -> Result<usize> {
        // SAFETY: the kiocb and its file are valid for the duration of this call, and this
        // thread has no `fdget_pos` region on the file (a `read_iter` call).
        let file = unsafe { File::from_raw_file((*kiocb.as_raw()).ki_filp) };
        // `File::flags` reads `f_flags` once (`fcntl(F_SETFL)` may change it meanwhile).
        let nonblock = file.flags() & bindings::O_NONBLOCK != 0;
        let me = kiocb.file();
        let mut inner = me.inner.lock();
        if let Role::Player(game) = &inner.role {
            let game = game.clone();
            drop(inner);
            return game.read_reply(iov);
        }
        // A buffer too small for one record does not register the file.
        let max = iov.len() / Record::SIZE;
        if max == 0 {
            return Err(EINVAL);
        }
        let _ = Self::role_now(&mut inner, &me.hub);
        drop(inner);
        let mut recs = [Record::default(); READ_BATCH];
        let Some(n) = me.read_records(max, nonblock, &mut recs)? else {
            // A player file now: a read takes its reply.
            return match me.player_game() {
                Some(game) => game.read_reply(iov),
                None => Err(EINVAL),
            };
        };
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
        let hub = &me.hub;
        match cmd {
            KXO_IOC_LOADS => copy_out(arg, &hub.loads.averages())?,
            KXO_IOC_STATE => copy_out(arg, &hub.machine_state())?,
            KGAMES_IOC_PRIVATE => {
                // A private N x N game: the file becomes a player file (it reads replies).
                me.become_player()?.make_private();
            }
            KXO_IOC_PAUSE => may_control().map(|()| hub.records.pause())?,
            KXO_IOC_RESUME => may_control().map(|()| hub.records.resume())?,
            KXO_IOC_STOP => may_control().map(|()| hub.control.halt())?,
            KXO_IOC_RESTART => may_control().map(|()| hub.control.restart())?,
            KXO_IOC_SET_PAIRING => {
                may_control()?;
                let p: KxoPairing =
                    UserSlice::new(UserPtr::from_addr(arg), size_of::<KxoPairing>())
                        .reader()
                        .read()?;
                if !hub.control.set_pairing(p) {
                    return Err(EINVAL);
                }
            }
            _ => return Err(ENOTTY),
        }
        Ok(0)
    }
}

#[pinned_drop]
impl PinnedDrop for KxoFile {
    fn drop(self: Pin<&mut Self>) {
        if let Role::Watcher(_) = self.inner.lock().role {
            self.hub.records.unregister();
        }
    }
}

impl Pollable for KxoFile {
    /// A watcher (a fresh file becomes one, as at its first read): `EPOLLIN | EPOLLRDNORM`
    /// exactly when it has a record to read. A player file: always writable, readable when a
    /// reply is pending. `EPOLLHUP` once the module is unloading (it cannot be while a file is
    /// open; kept for completeness). A watcher registers on the records' queue and a player
    /// file on the replies' queue, before it reads the state it reports, so what happens after
    /// the check wakes it.
    fn poll(me: Pin<&KxoFile>, file: &File, table: PollTable<'_>) -> u32 {
        let mut inner = me.inner.lock();
        let player = matches!(inner.role, Role::Player(_));
        if player {
            me.hub.poll_replies(file, &table);
        } else {
            me.hub.records.poll(file, &table);
        }
        if me.hub.unloading() {
            return EPOLLHUP;
        }
        match KxoFile::role_now(&mut inner, &me.hub) {
            Err(cur) => {
                drop(inner);
                if me.hub.records.readable_or_arm(&cur) {
                    EPOLLIN | EPOLLRDNORM
                } else {
                    0
                }
            }
            Ok(game) => {
                drop(inner);
                let ready = EPOLLOUT | EPOLLWRNORM;
                if game.reply_pending() {
                    ready | EPOLLIN | EPOLLRDNORM
                } else {
                    ready
                }
            }
        }
    }
}
