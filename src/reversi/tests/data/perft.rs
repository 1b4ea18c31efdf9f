//! Perft as data: the public reference counts from the start position. Included by path
//! (`#[path]`) by the host test `tests/perft.rs` and by kgames.ko's KUnit suite
//! `kgames_reversi` (src/ktest/kunit.rs), which runs the depths that take under a second.

/// Leaves from the start position at depth 1..=10 (a pass is a ply).
pub const START_PERFT: [u64; 10] = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284];
