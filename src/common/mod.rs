//! Helpers shared by every engine: a search budget with its meter, a deterministic PRNG and
//! a cache prefetch.
//!
//! `core` only: this file is compiled into the kernel module and into the host crate
//! `kgames-common`. No floating point, no allocation.

pub mod budget;
pub mod cache;
pub mod rng;
pub mod text;

/// Host only: the tests' fake clock and interrupt.
#[cfg(not(MODULE))]
mod host;
