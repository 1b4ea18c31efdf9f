//! Helpers shared by every engine: a search budget with its meter, and a deterministic PRNG.
//!
//! `core` only: this file is compiled into the kernel module and into the host crate
//! `kgames-common`. No floating point, no allocation.

pub mod budget;
pub mod rng;
pub mod text;

/// Host only: the tests' fake clock and interrupt.
#[cfg(not(MODULE))]
mod host;
