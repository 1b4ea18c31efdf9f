//! Host crate root of the kxo engine. The kernel module includes `mod.rs` directly; this file
//! mirrors the kernel crate's module tree (`crate::common`, `crate::kxo`) so the shared sources
//! resolve the same paths in both builds.
#![no_std]

pub use kgames_common::common;
pub use kgames_uapi::uapi;

#[path = "mod.rs"]
pub mod kxo;
pub use kxo::*;
