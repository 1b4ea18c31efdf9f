//! Host crate root of `uapi`. The kernel module includes `mod.rs` directly; this file mirrors
//! the kernel crate's module tree so the shared sources resolve `crate::uapi::...` the same
//! way in both builds.
#![no_std]

#[path = "mod.rs"]
pub mod uapi;
pub use uapi::*;
