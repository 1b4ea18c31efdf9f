// SPDX-License-Identifier: GPL-2.0

//! `/dev/kxo` files (docs/protocol.md, "/dev/kxo"). A file's [`Role`] decides what it reads:
//! a file that has written a command (or asked for a private game) is a player file of the
//! N x N human game (the shared session layer, [`Nxn`]) and reads text replies; every other
//! file is a watcher and reads records (whole records only; EINVAL for a buffer smaller than
//! one; EAGAIN with O_NONBLOCK; a signal interrupts a blocking wait). A watcher registers at
//! its first read or poll and receives one record per game (a snapshot) first; a watcher that
//! becomes a player leaves the hub. Every file answers `poll`: a watcher is readable exactly
//! when its queue holds a record, a player file is always writable and readable when a reply
//! is pending. The machine itself is `kxo_runtime.rs`; the records' destination is
//! `kxo_hub.rs`.

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

use super::game_device::{take_line, GameFile};
use super::kxo_hub::{Hub, READ_BATCH};
use super::pollable::{
    self, Pollable, EPOLLERR, EPOLLHUP, EPOLLIN, EPOLLOUT, EPOLLRDNORM, EPOLLWRNORM,
};
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
    // Lock order: taken inside a device table's lock or a `GameFile`'s, outside `Hub.state`
    // (src/kmod/mod.rs, "Lock order").
    // SAFETY: `KGames::init` initialises the lock before registering `/dev/kxo`.
    pub(crate) unsafe(uninit) static KXO_HUB: Mutex<Option<Arc<Hub>>> = None;
}

/// What an open file of `/dev/kxo` is. `Fresh -> Watcher` at the first read or poll;
/// `Fresh | Watcher -> Player` at the first write or `KGAMES_IOC_PRIVATE` (leaving the hub);
/// `Player` is final.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    /// Opened, neither read, polled nor written.
    Fresh,
    /// Reads records; the id of its queue in the hub.
    Watcher(u64),
    /// Plays the N x N human game: reads text replies.
    Player,
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
    game: Pin<KBox<GameFile<Nxn>>>,
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

/// The caller may control the machine (else `EPERM`): it has `CAP_SYS_ADMIN` now (checked at the time of
/// each control ioctl, not at open, so a descriptor passed to another process or kept across
/// a change of credentials carries no privilege).
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
    /// The one transition into [`Role::Player`]: a watcher leaves the hub first, so the games
    /// no longer run for it and `KXO_IOC_STATE` no longer counts it.
    fn become_player(&self) {
        let mut inner = self.inner.lock();
        if let Role::Watcher(id) = inner.role {
            self.hub.unregister(id);
        }
        inner.role = Role::Player;
    }

    /// The file's watcher id, registering it with the hub if it is fresh; `None` for a
    /// player file.
    fn watcher_id(inner: &mut KxoInner, hub: &Hub) -> Result<Option<u64>> {
        match inner.role {
            Role::Player => Ok(None),
            Role::Watcher(id) => Ok(Some(id)),
            Role::Fresh => {
                let id = hub.register()?;
                inner.role = Role::Watcher(id);
                Ok(Some(id))
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
        let game = KBox::try_pin_init(GameFile::<Nxn>::new_file(uid), GFP_KERNEL)?;
        KBox::try_pin_init(
            try_pin_init!(Self {
                hub,
                game,
                inner <- new_mutex!(KxoInner { role: Role::Fresh }),
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
        me.become_player();
        let done = me.game.command(raw);
        // A poll of this file in another thread waits for the reply.
        me.hub.wake();
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
        if inner.role == Role::Player {
            drop(inner);
            return me.game.read_reply(iov);
        }
        let max = iov.len() / Record::SIZE;
        if max == 0 {
            return Err(EINVAL);
        }
        let Some(id) = Self::watcher_id(&mut inner, &me.hub)? else {
            return Err(EINVAL);
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
        let hub = &me.hub;
        match cmd {
            KXO_IOC_LOADS => copy_out(arg, &hub.loads())?,
            KXO_IOC_STATE => copy_out(arg, &hub.machine_state())?,
            KGAMES_IOC_PRIVATE => {
                // A private N x N game: the file becomes a player file (it reads replies).
                me.become_player();
                me.game.make_private();
            }
            KXO_IOC_PAUSE => may_control().map(|()| hub.pause())?,
            KXO_IOC_RESUME => may_control().map(|()| hub.resume())?,
            KXO_IOC_STOP => may_control().map(|()| hub.halt())?,
            KXO_IOC_RESTART => may_control().map(|()| hub.restart())?,
            KXO_IOC_SET_PAIRING => {
                may_control()?;
                let p: KxoPairing =
                    UserSlice::new(UserPtr::from_addr(arg), size_of::<KxoPairing>())
                        .reader()
                        .read()?;
                hub.set_pairing(p)?;
            }
            _ => return Err(ENOTTY),
        }
        Ok(0)
    }
}

#[pinned_drop]
impl PinnedDrop for KxoFile {
    fn drop(self: Pin<&mut Self>) {
        if let Role::Watcher(id) = self.inner.lock().role {
            self.hub.unregister(id);
        }
    }
}

impl Pollable for KxoFile {
    /// A watcher (a fresh file becomes one, as at its first read): `EPOLLIN | EPOLLRDNORM`
    /// exactly when its queue holds a record. A player file: always writable, readable when a
    /// reply is pending. `EPOLLHUP` once the module is unloading (it cannot be while a file is
    /// open; kept for completeness); `EPOLLERR` if the watcher cannot be registered (no memory).
    fn poll(me: Pin<&KxoFile>, file: &File, table: PollTable<'_>) -> u32 {
        // Registered before the state is read, so a record published after the check wakes us.
        me.hub.poll_wait(file, &table);
        if me.hub.unloading() {
            return EPOLLHUP;
        }
        let mut inner = me.inner.lock();
        match KxoFile::watcher_id(&mut inner, &me.hub) {
            Ok(Some(id)) => {
                drop(inner);
                if me.hub.has_records(id) {
                    EPOLLIN | EPOLLRDNORM
                } else {
                    0
                }
            }
            Ok(None) => {
                drop(inner);
                let ready = EPOLLOUT | EPOLLWRNORM;
                if me.game.reply_pending() {
                    ready | EPOLLIN | EPOLLRDNORM
                } else {
                    ready
                }
            }
            Err(_) => EPOLLERR,
        }
    }
}
