//! The negamax agent's exact value of the empty 4 x 4 board (O to move; O wins with best
//! play): a proven win in `WIN - score` plies. Included by path (`#[path]`) by the host test
//! `tests/negamax.rs` and by kgames.ko's KUnit suite `kgames_kxo` (src/ktest/kunit.rs).

/// `negamax::search(&Board4::EMPTY, Side::O, ..)`'s score and move, unlimited budget.
pub const EMPTY_BOARD: (i16, u8) = (995, 5);
