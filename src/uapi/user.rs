//! User-space helpers over the definitions (host crate only, feature `user`): the `/dev/kxo`
//! ioctls as safe functions, for the tools and the tests.

use std::io;
use std::os::fd::AsRawFd;

use super::ioctl::{KXO_IOC_LOADS, KXO_IOC_STATE};
use super::load::KxoLoads;
use super::state::KxoState;

/// Runs an ioctl without argument (`_IO`) on `f`.
pub fn ioctl_none(f: &impl AsRawFd, request: u32) -> io::Result<()> {
    // SAFETY: an `_IO` request takes no argument; the descriptor is open.
    let r = unsafe { libc::ioctl(f.as_raw_fd(), libc::c_ulong::from(request)) };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// `KXO_IOC_STATE`: the `/dev/kxo` machine's state.
pub fn kxo_state(f: &impl AsRawFd) -> io::Result<KxoState> {
    let mut b = [0u8; KxoState::SIZE];
    // SAFETY: the kernel writes `KxoState::SIZE` bytes (the size encoded in the request) into
    // `b`, which is that long.
    let r = unsafe {
        libc::ioctl(
            f.as_raw_fd(),
            libc::c_ulong::from(KXO_IOC_STATE),
            b.as_mut_ptr(),
        )
    };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    KxoState::from_bytes(&b).ok_or_else(|| io::ErrorKind::InvalidData.into())
}

/// `KXO_IOC_LOADS`: the per-agent load figures.
pub fn kxo_loads(f: &impl AsRawFd) -> io::Result<KxoLoads> {
    let mut loads: KxoLoads = Default::default();
    // SAFETY: the kernel writes `size_of::<KxoLoads>()` bytes (the size encoded in the
    // request) into `loads`, which is that long.
    let r = unsafe {
        libc::ioctl(
            f.as_raw_fd(),
            libc::c_ulong::from(KXO_IOC_LOADS),
            loads.as_mut_ptr(),
        )
    };
    if r == 0 {
        Ok(loads)
    } else {
        Err(io::Error::last_os_error())
    }
}

/// `KXO_IOC_SET_PAIRING`: sets who plays one slot or all (root only).
pub fn kxo_set_pairing(f: &impl AsRawFd, p: super::pairing::KxoPairing) -> io::Result<()> {
    let b = p.to_bytes();
    // SAFETY: the kernel reads `KxoPairing::SIZE` bytes (the size encoded in the request) from
    // `b`, which is that long.
    let r = unsafe {
        libc::ioctl(
            f.as_raw_fd(),
            libc::c_ulong::from(super::ioctl::KXO_IOC_SET_PAIRING),
            b.as_ptr(),
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}
