//! Random playouts on the 4 x 4 board, the inner loop of the Monte Carlo agents: the empty
//! cells are kept in a small array and drawn without replacement, and a win is tested only
//! against the lines through the cell just played.

use super::board::{Board4, Side, CELLS, LINES};
use crate::common::rng::Rng;

/// The winning lines through each cell (at most 8 of them; unused entries are 0).
const fn lines_through() -> [[u16; 8]; CELLS as usize] {
    let mut t = [[0u16; 8]; CELLS as usize];
    let mut c = 0;
    while c < CELLS as usize {
        let mut k = 0;
        let mut i = 0;
        while i < LINES.len() {
            if LINES[i] & (1 << c) != 0 && k < 8 {
                t[c][k] = LINES[i];
                k += 1;
            }
            i += 1;
        }
        c += 1;
    }
    t
}

/// `lines_through`, computed at compile time.
pub const LINES_THROUGH: [[u16; 8]; CELLS as usize] = lines_through();

/// True when `mask`, which holds `cell`, has a winning line through `cell`.
#[inline]
pub fn wins_at(mask: u16, cell: u8) -> bool {
    match LINES_THROUGH.get(usize::from(cell)) {
        Some(lines) => lines.iter().any(|&l| l != 0 && mask & l == l),
        None => false,
    }
}

/// The cell where `side` would complete a line at once on `board`, if any (the lowest).
pub fn winning_cell(board: &Board4, side: Side) -> Option<u8> {
    let mine = board.mask(side);
    let mut free = board.legal_moves();
    while free != 0 {
        let c = free.trailing_zeros() as u8;
        free &= free - 1;
        if wins_at(mine | (1 << c), c) {
            return Some(c);
        }
    }
    None
}

/// Plays uniformly random moves from `board`, `mover` first, to the end of the game. Returns
/// the winner, or `None` for a draw. A board that is already won returns its winner.
pub fn playout(board: &Board4, mover: Side, rng: &mut Rng) -> Option<Side> {
    if let Some(w) = board.winner() {
        return Some(w);
    }
    let mut masks = [board.mask(Side::O), board.mask(Side::X)];
    let mut cells = [0u8; CELLS as usize];
    let mut len = 0usize;
    let mut free = board.empty();
    while free != 0 {
        if let Some(slot) = cells.get_mut(len) {
            *slot = free.trailing_zeros() as u8;
            len += 1;
        }
        free &= free - 1;
    }
    let mut side = mover;
    while len > 0 {
        let r = rng.below(len as u32) as usize;
        let cell = cells.get(r).copied().unwrap_or(0);
        len -= 1;
        if let (Some(last), true) = (cells.get(len).copied(), r < len) {
            if let Some(slot) = cells.get_mut(r) {
                *slot = last;
            }
        }
        let m = masks.get_mut(side.index()).map_or(0, |m| {
            *m |= 1 << cell;
            *m
        });
        if wins_at(m, cell) {
            return Some(side);
        }
        side = side.other();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::vec::Vec;

    #[test]
    fn lines_through_every_cell() {
        for c in 0..CELLS {
            let n = LINES_THROUGH[usize::from(c)]
                .iter()
                .filter(|&&l| l != 0)
                .count();
            let expect = LINES.iter().filter(|&&l| l & (1 << c) != 0).count();
            assert_eq!(n, expect, "cell {c}");
            assert!((3..=8).contains(&n));
        }
    }

    #[test]
    fn playouts_agree_with_the_board_rules() {
        let mut rng = Rng::new(5);
        let mut wins = [0u32; 3];
        for _ in 0..20_000 {
            let w = playout(&Board4::EMPTY, Side::O, &mut rng);
            wins[match w {
                Some(Side::O) => 0,
                Some(Side::X) => 1,
                None => 2,
            }] += 1;
        }
        // O moves first and wins most random games; all three outcomes occur.
        assert!(wins[0] > wins[1] && wins[1] > 0 && wins[2] > 0, "{wins:?}");
        // The same playouts replayed with the board's own rules reach the same result.
        let mut a = Rng::new(9);
        for _ in 0..2000 {
            let mut b = Rng::new(a.next_u64());
            let seed = b;
            let w = playout(&Board4::EMPTY, Side::O, &mut b);
            let mut b2 = seed;
            let mut board = Board4::EMPTY;
            let mut cells: Vec<u8> = (0..16).collect();
            let mut side = Side::O;
            let mut result = None;
            while !cells.is_empty() {
                let r = b2.below(cells.len() as u32) as usize;
                let c = cells.swap_remove(r);
                assert!(board.play(c, side));
                if board.winner() == Some(side) {
                    result = Some(side);
                    break;
                }
                side = side.other();
            }
            assert_eq!(w, result);
        }
    }

    #[test]
    fn finds_the_winning_cell() {
        let b = Board4::from_masks(0b11, 0b1_0000_0000).unwrap();
        assert_eq!(winning_cell(&b, Side::O), Some(2));
        assert_eq!(winning_cell(&b, Side::X), None);
    }
}
