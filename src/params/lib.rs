//! The module parameters' one policy (docs/module-parameters.md): [`Plan::check`] takes the
//! values given at load ([`Parameters`]), checks each against its documented range, and
//! decides what they configure ([`Plan`]: the game tables, `/dev/chess`'s evaluation, the
//! N x N games and `/dev/kxo`'s AI-vs-AI machine), or refuses the load ([`ParamError`]).
//! `core`-only: compiled both into the kernel module, which reads its parameters and logs the
//! error, and into this host crate, where the ranges are tested.
//!
//! This is the host crate root: the same file the module compiles (`mod.rs`), with the crates
//! it uses at the crate root so that `crate::session`, `crate::kxo` and `crate::uapi` resolve
//! as in the kernel.
#![no_std]

#[cfg(test)]
extern crate std;

pub use kgames_kxo::kxo;
pub use kgames_session::session;
pub use kgames_uapi::uapi;

#[path = "mod.rs"]
pub mod params;
pub use params::*;
