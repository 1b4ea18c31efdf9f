// SPDX-License-Identifier: GPL-2.0

//! The misc devices' registration: each device gets a `file_operations` table of its own,
//! with a `poll` hook and the module as its owner.
//!
//! The kernel crate's [`MiscDevice`] (7.2, 7.3) has no `poll` hook: its `file_operations`
//! table is a private constant with `.poll = NULL`, and the VFS then reports every file as
//! readable and writable. In 7.2 that table also has no `.owner`, so the VFS takes no
//! reference on the module for an open file, and `rmmod` succeeds while files are open: the
//! next call of such a file runs freed code (seen on Debian's 7.2.12: an Oops, "kernel tried
//! to execute NX-protected page"). [`PollableRegistration`] registers the device exactly as
//! [`MiscDeviceRegistration`] does, then gives it a copy of that table whose only differences
//! are `.poll`, which calls [`Pollable::poll`] with the file's private data borrowed the same
//! way the kernel crate's own `ioctl` trampoline borrows it, and `.owner`, this module (on 7.3
//! the copied value already is). Every other operation still goes to the kernel crate's
//! trampolines.
//!
//! Invariants: the copied table lives in this registration and is freed only after the device
//! is deregistered; an open file references the table through `f_op`, and holds a reference on
//! the module (the table's `owner`), so the module (and with it this registration) outlives
//! every file that can call into it. A file opened in the instant between `misc_register` and
//! the switch to the copy would have the original table (no `poll`, and no owner on 7.2): each
//! device's `open` looks at the file's own table and refuses it with `EAGAIN`
//! ([`opened_through_copy`]), so no such file stays open.

use kernel::{
    bindings,
    fs::File,
    miscdevice::{MiscDevice, MiscDeviceOptions, MiscDeviceRegistration},
    prelude::*,
    sync::poll::PollTable,
    time::{delay::fsleep, Delta},
    types::ForeignOwnable,
};

/// The `poll` event bits of `include/uapi/linux/eventpoll.h` (bindgen does not see these
/// macros: each is a cast expression).
pub(crate) const EPOLLIN: u32 = 0x001;
/// Writing will not block.
pub(crate) const EPOLLOUT: u32 = 0x004;
/// The device is gone (unloading).
pub(crate) const EPOLLHUP: u32 = 0x010;
/// Normal data may be read.
pub(crate) const EPOLLRDNORM: u32 = 0x040;
/// Normal data may be written.
pub(crate) const EPOLLWRNORM: u32 = 0x100;

/// A [`MiscDevice`] whose files can be polled.
pub(crate) trait Pollable: MiscDevice {
    /// The file's readiness (`EPOLL*` bits). The implementation registers `table` on every wait
    /// queue that is woken when the answer may change, before it reads the state it reports.
    fn poll(
        device: <Self::Ptr as ForeignOwnable>::Borrowed<'_>,
        file: &File,
        table: PollTable<'_>,
    ) -> u32;
}

/// A `file_operations` table owned by the module.
///
/// It holds raw pointers (the module, the trampolines), which makes it neither `Send` nor
/// `Sync` by default.
struct FileOps(bindings::file_operations);

// SAFETY: the table is written once, before any file can reach it, and only read afterwards
// (by the VFS); the pointers in it are to functions and to this module, valid on every CPU.
unsafe impl Send for FileOps {}
// SAFETY: as for `Send`: shared references only ever read it.
unsafe impl Sync for FileOps {}

/// A registered misc device whose files answer `poll` through [`Pollable::poll`].
///
/// Drop order: `reg` (deregisters the device) before `ops` (the table it pointed at).
#[pin_data]
pub(crate) struct PollableRegistration<T: Pollable> {
    #[pin]
    reg: MiscDeviceRegistration<T>,
    ops: KBox<FileOps>,
}

impl<T: Pollable> PollableRegistration<T> {
    /// Registers the device named by `opts`, its files polled by `T::poll`. `delay_ms` (test
    /// only, `test_open_delay_ms`; 0 otherwise) widens the instant between `misc_register` and
    /// the switch to the copy, so a test can open the device in it.
    pub(crate) fn register_slowly(
        opts: MiscDeviceOptions,
        delay_ms: u32,
    ) -> impl PinInit<Self, Error> {
        // SAFETY: `file_operations` is a C struct of pointers and integers: all zeroes is a
        // valid value (every operation absent).
        let zero: bindings::file_operations = unsafe { core::mem::zeroed() };
        try_pin_init!(Self {
            ops: KBox::new(FileOps(zero), GFP_KERNEL)?,
            reg <- MiscDeviceRegistration::register(opts),
        })
        .pin_chain(move |this| {
            // SAFETY: pinning is kept: neither field is moved, `ops` is a box whose contents
            // are not pinned, and `reg` is only read through a shared reference.
            let this = unsafe { this.get_unchecked_mut() };
            let raw = this.reg.as_raw();
            // SAFETY: `raw` is the registered `miscdevice`, valid while `reg` lives; its
            // `fops` is the kernel crate's static table (never null after registration).
            let table = unsafe { (*raw).fops };
            if table.is_null() {
                return Err(EINVAL);
            }
            if delay_ms > 0 {
                fsleep(Delta::from_millis(i64::from(delay_ms)));
            }
            // SAFETY: `table` points at a valid, immutable `file_operations`.
            this.ops.0 = unsafe { core::ptr::read(table) };
            this.ops.0.poll = Some(poll_trampoline::<T>);
            this.ops.0.owner = super::compat::this_module();
            let ours: *const bindings::file_operations = &this.ops.0;
            // SAFETY: `raw` is valid (above). `misc_open` reads `fops` under `misc_mtx`, which
            // this module cannot take; an aligned pointer store is single-copy atomic, so an
            // open sees the old table or the new one, both valid (see the module docs).
            unsafe { core::ptr::write_volatile(core::ptr::addr_of_mut!((*raw).fops), ours) };
            Ok(())
        })
    }
}

/// Whether `file` was opened through the registration's own table, with its `poll` and the
/// module as owner (so the file holds a reference on the module), not through the kernel
/// crate's original one in the instant before the switch (module docs). Each device's `open`
/// refuses a file for which this is false.
///
/// The file's own table is what counts: comparing it with the device's current table would
/// pass a file opened before the switch whose `open` runs before it too.
pub(crate) fn opened_through_copy<T: MiscDevice>(
    file: &File,
    _misc: &MiscDeviceRegistration<T>,
) -> bool {
    // SAFETY: `file` is valid while borrowed; its `f_op` was set before `open` was called.
    let f_op = unsafe { (*file.as_ptr()).f_op };
    if f_op.is_null() {
        return false;
    }
    // SAFETY: `f_op` is the file's table (the kernel crate's static one or this module's copy,
    // both valid while the file is open), read only.
    let (poll, owner) = unsafe { ((*f_op).poll.is_some(), (*f_op).owner) };
    poll && core::ptr::eq(owner, super::compat::this_module())
}

/// The `poll` entry of the table.
///
/// # Safety
///
/// `file` is an open file of a device registered by [`PollableRegistration<T>`] (its private
/// data is a `T::Ptr` put there by the kernel crate's `open`), and `table` is null or a valid
/// `poll_table` for the duration of the call: what the VFS passes.
unsafe extern "C" fn poll_trampoline<T: Pollable>(
    file: *mut bindings::file,
    table: *mut bindings::poll_table_struct,
) -> bindings::__poll_t {
    // SAFETY: the file is open, so `private_data` is the `T::Ptr` its `open` stored; `release`
    // cannot run while a `poll` call holds the file.
    let device = unsafe { <T::Ptr as ForeignOwnable>::borrow((*file).private_data) };
    // SAFETY: the file is valid for the duration of this call, and `poll` runs with no
    // `fdget_pos` region of this thread on it.
    let file = unsafe { File::from_raw_file(file) };
    // SAFETY: `table` is null or valid for the duration of this call (the VFS's contract).
    let table = unsafe { PollTable::from_raw(table) };
    T::poll(device, file, table)
}
