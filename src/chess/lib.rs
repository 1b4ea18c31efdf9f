//! Host crate root of the chess engine. The kernel module includes `mod.rs` directly; this file
//! mirrors the kernel crate's module tree (`crate::common`, `crate::chess`) so the shared sources
//! resolve the same paths in both builds.
#![no_std]

pub use kgames_common::common;

#[path = "mod.rs"]
pub mod chess;
pub use chess::*;
