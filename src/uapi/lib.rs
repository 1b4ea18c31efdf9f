//! Host crate root of `uapi`. The kernel module includes `mod.rs` directly; this file mirrors
//! the kernel crate's module tree so the shared sources resolve `crate::uapi::...` the same
//! way in both builds.
#![no_std]

#[cfg(feature = "user")]
extern crate std;

#[path = "mod.rs"]
pub mod uapi;
pub use uapi::*;

/// Safe wrappers of the ioctls for user space (feature `user`; not part of the module).
#[cfg(feature = "user")]
#[path = "user.rs"]
pub mod user;
