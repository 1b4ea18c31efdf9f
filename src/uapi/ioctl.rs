//! ioctl numbers: the kernel's generic `_IOC` encoding (x86, arm, arm64, riscv) as `const fn`s,
//! and every number the module answers.
//!
//! `_IOC(dir, type, nr, size) = dir << 30 | size << 16 | type << 8 | nr`, with `dir` 0 for
//! `_IO` and 2 (`_IOC_READ`: the kernel writes, user space reads) for `_IOR`. The module
//! checks at compile time that these equal the `kernel` crate's own `_IO`/`_IOR`.

use core::mem::size_of;

use super::load::KxoLoads;
use super::pairing::KxoPairing;
use super::state::KxoState;

/// `_IOC_NONE`: no argument.
pub const IOC_NONE: u32 = 0;
/// `_IOC_WRITE`: user space passes the argument in.
pub const IOC_WRITE: u32 = 1;
/// `_IOC_READ`: the kernel copies the argument out to user space.
pub const IOC_READ: u32 = 2;
/// Bits of the size field.
pub const IOC_SIZEBITS: u32 = 14;

/// `_IOC(dir, ty, nr, size)`. A size that does not fit the 14-bit field is a compile error
/// where the constant is defined (the assertion below fails in const evaluation).
pub const fn ioc(dir: u32, ty: u8, nr: u8, size: usize) -> u32 {
    assert!(size < (1 << IOC_SIZEBITS));
    (dir << 30) | ((size as u32) << 16) | ((ty as u32) << 8) | nr as u32
}

/// `_IO(ty, nr)`: a command without argument.
pub const fn io(ty: u8, nr: u8) -> u32 {
    ioc(IOC_NONE, ty, nr, 0)
}

/// `_IOR(ty, nr, T)`: the kernel fills a `T` at the argument address.
pub const fn ior<T>(ty: u8, nr: u8) -> u32 {
    ioc(IOC_READ, ty, nr, size_of::<T>())
}

/// `_IOW(ty, nr, T)`: the kernel reads a `T` from the argument address.
pub const fn iow<T>(ty: u8, nr: u8) -> u32 {
    ioc(IOC_WRITE, ty, nr, size_of::<T>())
}

/// `ioctl(fd, KGAMES_IOC_PRIVATE)` on `/dev/reversi`, `/dev/chess` and `/dev/kxo` player
/// files: the file leaves its user's shared game for a private one that lives until the file
/// is closed (docs/protocol.md, "ioctls"). No argument; returns 0.
pub const KGAMES_IOC_PRIVATE: u32 = io(b'k', 1);

/// `ioctl(fd, KGAMES_IOC_STOP_SEARCH)` on a `/dev/chess` or `/dev/reversi` player file: the
/// CPU search in flight on this file (a `03` or `08` blocked in `write` in another thread)
/// returns its best move so far, which is played (unlike a signal, which discards it). Sent
/// before the search has begun, it stops the next search of this file at its first check.
/// No argument; returns 0.
pub const KGAMES_IOC_STOP_SEARCH: u32 = io(b'k', 2);

/// `/dev/kxo`: stop publishing records (the games keep playing). Root only.
pub const KXO_IOC_PAUSE: u32 = io(b'x', 1);
/// `/dev/kxo`: publish again, starting with a snapshot to every watcher. Root only.
pub const KXO_IOC_RESUME: u32 = io(b'x', 2);
/// `/dev/kxo`: stop all games. Root only.
pub const KXO_IOC_STOP: u32 = io(b'x', 3);
/// `/dev/kxo`: restart every game (round + 1, new pairing) and run again. Root only.
pub const KXO_IOC_RESTART: u32 = io(b'x', 4);
/// `/dev/kxo`: copies a [`KxoLoads`] (per agent id, the 1/5/15-minute loads). Anyone.
///
/// Its size is part of its number: with five agents (120 bytes) it is not the four-agent
/// number of layout 1 (96 bytes), so an old binary gets `ENOTTY` rather than a short copy.
pub const KXO_IOC_LOADS: u32 = ior::<KxoLoads>(b'x', 5);
/// `/dev/kxo`: copies a [`KxoState`] (paused, stopped, games, period, ...). Anyone.
pub const KXO_IOC_STATE: u32 = ior::<KxoState>(b'x', 6);
/// `/dev/kxo`: sets who plays one game slot or all, from its next round on (a
/// [`KxoPairing`]). Root only; `EINVAL` for an unknown slot or agent, nothing changed.
pub const KXO_IOC_SET_PAIRING: u32 = iow::<KxoPairing>(b'x', 7);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_match_the_c_macros() {
        // The values C's <asm-generic/ioctl.h> gives for the same arguments.
        assert_eq!(KGAMES_IOC_PRIVATE, 0x6b01);
        assert_eq!(KGAMES_IOC_STOP_SEARCH, 0x6b02);
        assert_eq!(KXO_IOC_PAUSE, 0x7801);
        assert_eq!(KXO_IOC_RESUME, 0x7802);
        assert_eq!(KXO_IOC_STOP, 0x7803);
        assert_eq!(KXO_IOC_RESTART, 0x7804);
        assert_eq!(KXO_IOC_LOADS, (2 << 30) | (120 << 16) | (0x78 << 8) | 5);
        assert_eq!(ior::<[[u64; 3]; 4]>(b'x', 5), 0x8060_7805);
        assert_eq!(
            KXO_IOC_STATE,
            (2 << 30) | ((size_of::<KxoState>() as u32) << 16) | 0x7806
        );
        // _IOW('x', 7, 4 bytes)
        assert_eq!(KXO_IOC_SET_PAIRING, 0x4004_7807);
    }
}
