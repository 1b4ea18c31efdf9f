//! Perft: counting the leaves of the game tree, to test move generation.
//!
//! Convention (docs/protocol.md, "Reversi"): a pass is a ply, and a position where neither
//! side can move counts as one leaf at whatever depth it occurs. The last ply is counted in
//! bulk with a popcount of the move mask.

use super::bitboard::{self, square_bit, Bitboard, Squares};
use super::position::Position;
use crate::common::budget::{Meter, SearchEnd};

/// The number of leaves `depth` plies below `pos` (1 for depth 0). Recursion depth is
/// `depth`, with a frame of a few words per ply.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    perft_bb(pos.mover(), pos.opponent(), depth)
}

/// `depth >= 1`.
fn perft_bb(me: Bitboard, opp: Bitboard, depth: u32) -> u64 {
    let mv = bitboard::moves(me, opp);
    if mv == 0 {
        // A pass at the last ply, or a finished game: one leaf either way.
        if depth == 1 || bitboard::moves(opp, me) == 0 {
            return 1;
        }
        return perft_bb(opp, me, depth - 1);
    }
    if depth == 1 {
        return u64::from(mv.count_ones());
    }
    let mut n = 0u64;
    for sq in Squares(mv) {
        let f = bitboard::flips(me, opp, sq);
        n = n.wrapping_add(perft_bb(opp & !f, me | f | square_bit(sq), depth - 1));
    }
    n
}

/// [`perft`] under a budget: one [`Meter::tick`] per interior node (leaves are bulk-counted).
/// `Err` with the reason when the meter stops it first.
pub fn perft_metered(pos: &Position, depth: u32, meter: &mut Meter<'_>) -> Result<u64, SearchEnd> {
    if depth == 0 {
        return Ok(1);
    }
    perft_metered_bb(pos.mover(), pos.opponent(), depth, meter)
}

/// `depth >= 1`.
fn perft_metered_bb(
    me: Bitboard,
    opp: Bitboard,
    depth: u32,
    meter: &mut Meter<'_>,
) -> Result<u64, SearchEnd> {
    if depth == 1 {
        return Ok(u64::from(bitboard::moves(me, opp).count_ones().max(1)));
    }
    if let Some(stop) = meter.tick() {
        return Err(stop);
    }
    let mv = bitboard::moves(me, opp);
    if mv == 0 {
        if bitboard::moves(opp, me) == 0 {
            return Ok(1);
        }
        return perft_metered_bb(opp, me, depth - 1, meter);
    }
    let mut n = 0u64;
    for sq in Squares(mv) {
        let f = bitboard::flips(me, opp, sq);
        let child = perft_metered_bb(opp & !f, me | f | square_bit(sq), depth - 1, meter)?;
        n = n.wrapping_add(child);
    }
    Ok(n)
}
