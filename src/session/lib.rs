//! Host crate of the session layer: the same files the module compiles, with the engines at
//! the crate root so that `crate::reversi` and `crate::chess` resolve as in the kernel.
#![no_std]

#[cfg(test)]
extern crate std;

pub use kgames_chess::chess;
pub use kgames_common::common;
pub use kgames_kxo::kxo;
pub use kgames_reversi::reversi;

#[path = "mod.rs"]
pub mod session;
pub use session::*;
