//! Host crate root of `common`. The kernel module includes `mod.rs` directly; this file only
//! mirrors the kernel crate's module tree so the shared sources resolve `crate::common::...`
//! the same way in both builds.
#![no_std]

#[path = "mod.rs"]
pub mod common;
pub use common::*;
