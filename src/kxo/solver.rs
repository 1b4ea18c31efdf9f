//! Test-only exhaustive solver of the 4 x 4 game: plain minimax over every continuation, with
//! a memo keyed by the packed board (no pruning, no heuristics), so its values are ground
//! truth for the agents' tests.

extern crate std;

use std::collections::HashMap;
use std::sync::OnceLock;

use super::board::{Board4, Side};

/// Game values for the side to move: 1 win, 0 draw, -1 loss (with best play by both).
pub struct Solver {
    memo: HashMap<u32, i8>,
}

impl Solver {
    /// An empty memo.
    pub fn new() -> Self {
        Solver {
            memo: HashMap::new(),
        }
    }

    /// Positions solved so far.
    pub fn len(&self) -> usize {
        self.memo.len()
    }

    /// The value of `board` for its side to move ([`Board4::side_to_move`]).
    pub fn value(&mut self, board: Board4) -> i8 {
        if board.winner().is_some() {
            return -1; // the previous mover completed a line
        }
        if board.is_full() {
            return 0;
        }
        if let Some(&v) = self.memo.get(&board.packed()) {
            return v;
        }
        let side: Side = board.side_to_move();
        let mut best = -1;
        let mut moves = board.legal_moves();
        while moves != 0 {
            let cell = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let child = board.with(cell, side).unwrap();
            best = best.max(-self.value(child));
        }
        self.memo.insert(board.packed(), best);
        best
    }

    /// The value of a position already solved (or terminal), without solving more.
    pub fn known(&self, board: Board4) -> Option<i8> {
        if board.winner().is_some() {
            Some(-1)
        } else if board.is_full() {
            Some(0)
        } else {
            self.memo.get(&board.packed()).copied()
        }
    }
}

/// The solver after solving the empty board: its memo then holds every position reachable
/// in a game (positions after a win are not reachable).
pub fn solved() -> &'static Solver {
    static SOLVED: OnceLock<Solver> = OnceLock::new();
    SOLVED.get_or_init(|| {
        let mut s = Solver::new();
        s.value(Board4::EMPTY);
        s
    })
}

/// The value of a reachable position for its side to move, from [`solved`].
pub fn value(board: Board4) -> i8 {
    solved()
        .known(board)
        .unwrap_or_else(|| panic!("unreachable position {:#010x}", board.packed()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_player_wins_the_4x4_three_in_a_row_game() {
        let s = solved();
        assert_eq!(value(Board4::EMPTY), 1);
        std::println!("solver: {} positions", s.len());
        // Sanity on small facts: a position with an open double threat is lost for the
        // side to move.
        let b = Board4::from_masks(0b1000_0000_0000_0001, 0b110_0000).unwrap();
        assert_eq!(value(b), -1);
    }
}
