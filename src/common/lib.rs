//! The helpers every kgames engine shares: the CPU's search budget (`05 <ms>` or
//! `05 N<nodes>`) and the [`Meter`](budget::Meter) that enforces it, asking a clock for the
//! time and an interrupt (in the kernel: a pending signal) whether to stop ([`budget`]); a
//! small deterministic PRNG ([`rng`]); and a writer of replies into fixed buffers ([`text`]).
//! `core`-only, with no floating point and no allocation: compiled into the kernel module
//! and, as this host crate, under the engine crates.
//!
//! ```rust
//! use kgames_common::budget::{Budget, Meter, NeverInterrupt, NodeClock, SearchEnd};
//! use kgames_common::rng::Rng;
//!
//! // `05 N3`: a budget of three searched nodes; time budgets go up to 9000 ms.
//! let budget = Budget::parse(b"N3").unwrap();
//! assert_eq!(budget, Budget::Nodes(3));
//! assert_eq!(Budget::parse(b"9001"), None);
//!
//! // A search ticks the meter once per node; the third tick spends the budget.
//! let (mut clock, mut interrupt) = (NodeClock { ns_per_node: 1_000 }, NeverInterrupt);
//! let mut meter = Meter::new(budget, &mut clock, &mut interrupt);
//! assert_eq!(meter.tick(), None);
//! assert_eq!(meter.tick(), None);
//! assert_eq!(meter.tick(), Some(SearchEnd::OutOfBudget));
//! assert_eq!(meter.nodes(), 3);
//!
//! // The PRNG gives the same sequence for the same seed.
//! let (mut a, mut b) = (Rng::new(7), Rng::new(7));
//! assert_eq!(a.next_u64(), b.next_u64());
//! assert!(a.below(6) < 6);
//! ```
//!
//! This is the host crate root. The kernel module includes `mod.rs` directly; this file only
//! mirrors the kernel crate's module tree so the shared sources resolve `crate::common::...`
//! the same way in both builds.
#![no_std]
// The kernel's `-Wunreachable_pub`, which the module build applies to these files too: `pub`
// only for this crate's API (test code aside).
#![cfg_attr(not(test), warn(unreachable_pub))]

#[path = "mod.rs"]
pub mod common;
pub use common::*;
