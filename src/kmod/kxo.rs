// SPDX-License-Identifier: GPL-2.0

//! `/dev/kxo` files (PROTOCOL.md section 3): a file that has written a command is a player
//! file of the N x N human game (the shared session layer, [`Nxn`]) and reads text replies;
//! every other file is a watcher and reads records (whole records only; EINVAL for a buffer
//! smaller than one; EAGAIN with O_NONBLOCK; a signal interrupts a blocking wait). A watcher
//! registers at its first read and receives one record per game (a snapshot) first. The
//! machine itself is `kxo_runtime.rs`; the records' destination is `kxo_hub.rs`.

use kernel::{
    bindings,
    fs::{File, Kiocb},
    ioctl::{_IO, _IOR},
    iov::{IovIterDest, IovIterSource},
    miscdevice::{MiscDevice, MiscDeviceRegistration},
    new_mutex,
    prelude::*,
    sync::{Arc, Mutex},
    uaccess::{UserPtr, UserSlice},
};

use super::game_device::{take_line, GameFile};
use super::kxo_hub::{Hub, READ_BATCH};
use crate::session::{command::LINE_MAX, nxn_game::Nxn};
use crate::uapi::ioctl::{
    KGAMES_IOC_PRIVATE, KXO_IOC_LOADS, KXO_IOC_PAUSE, KXO_IOC_RESTART, KXO_IOC_RESUME,
    KXO_IOC_STATE, KXO_IOC_STOP,
};
use crate::uapi::load::KxoLoads;
use crate::uapi::record::Record;
use crate::uapi::state::KxoState;

// The shared definitions agree with the kernel's own macros.
const _: () = assert!(KXO_IOC_PAUSE == _IO('x' as u32, 1));
const _: () = assert!(KXO_IOC_RESUME == _IO('x' as u32, 2));
const _: () = assert!(KXO_IOC_STOP == _IO('x' as u32, 3));
const _: () = assert!(KXO_IOC_RESTART == _IO('x' as u32, 4));
const _: () = assert!(KXO_IOC_LOADS == _IOR::<KxoLoads>('x' as u32, 5));
const _: () = assert!(KXO_IOC_STATE == _IOR::<KxoState>('x' as u32, 6));

kernel::sync::global_lock! {
    // SAFETY: `KGames::init` initialises the lock before registering `/dev/kxo`.
    pub(crate) unsafe(uninit) static KXO_HUB: Mutex<Option<Arc<Hub>>> = None;
}

/// Per-file state.
struct KxoInner {
    /// The file has written a command (or asked for a private game): it reads text replies.
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

/// Copies `bytes` to the user address `arg`.
fn copy_out(arg: usize, bytes: &[u8]) -> Result<isize> {
    UserSlice::new(UserPtr::from_addr(arg), bytes.len())
        .writer()
        .write_slice(bytes)?;
    Ok(0)
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
        let hub = &me.hub;
        match cmd {
            KXO_IOC_LOADS => {
                let mut bytes = [0u8; core::mem::size_of::<KxoLoads>()];
                for (dst, v) in bytes.chunks_exact_mut(8).zip(hub.loads().iter().flatten()) {
                    dst.copy_from_slice(&v.to_ne_bytes());
                }
                return copy_out(arg, &bytes);
            }
            KXO_IOC_STATE => return copy_out(arg, &hub.machine_state().to_bytes()),
            KGAMES_IOC_PRIVATE => {
                // A private N x N game: the file becomes a player file (it reads replies).
                let mut inner = me.inner.lock();
                if let Some(id) = inner.watcher.take() {
                    hub.unregister(id);
                }
                inner.player = true;
                drop(inner);
                me.game.make_private();
                return Ok(0);
            }
            KXO_IOC_PAUSE | KXO_IOC_RESUME | KXO_IOC_STOP | KXO_IOC_RESTART => {}
            _ => return Err(ENOTTY),
        }
        if !me.root {
            return Err(EPERM);
        }
        match cmd {
            KXO_IOC_PAUSE => hub.pause(),
            KXO_IOC_RESUME => hub.resume(),
            KXO_IOC_STOP => hub.halt(),
            _ => hub.restart(),
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
