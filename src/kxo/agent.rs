//! Players of the AI-vs-AI game: the [`Agent`] trait, the [`AgentKind`] ids the record carries,
//! and the uniform random agent.

use crate::common::budget::{Meter, SearchEnd};
use crate::common::rng::Rng;

use super::board::{Board4, Side};

pub use crate::uapi::agent::AgentKind;

/// A player of the 4 x 4 game.
pub trait Agent {
    /// Picks a move for `side` on `board`: a cell in `board.legal_moves()`, or `None` when
    /// there is no legal move or the meter reported [`SearchEnd::Interrupted`] (the caller then
    /// discards the search and leaves the game unchanged). When the budget runs out the agent
    /// still returns a legal move.
    fn choose(&mut self, board: &Board4, side: Side, meter: &mut Meter<'_>) -> Option<u8>;

    /// Which algorithm this is.
    fn kind(&self) -> AgentKind;

    /// The algorithm's short name.
    fn name(&self) -> &'static str {
        self.kind().name()
    }

    /// The algorithm's wire id.
    fn id(&self) -> u8 {
        self.kind().id()
    }
}

/// The index of the `n`-th set bit of `mask` (0-based, from bit 0 up), if there are that many.
pub fn nth_cell(mask: u16, n: u32) -> Option<u8> {
    let mut m = mask;
    let mut k = 0;
    while k < n {
        m &= m.wrapping_sub(1);
        k += 1;
    }
    if m == 0 {
        None
    } else {
        Some(m.trailing_zeros() as u8)
    }
}

/// Plays a uniformly random legal move. Deterministic for a seed: its state is one
/// [`Rng`] that advances once per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomAgent {
    rng: Rng,
}

impl RandomAgent {
    /// An agent drawing from `Rng::new(seed)`.
    pub const fn new(seed: u64) -> Self {
        RandomAgent {
            rng: Rng::new(seed),
        }
    }
}

impl Agent for RandomAgent {
    fn choose(&mut self, board: &Board4, _side: Side, meter: &mut Meter<'_>) -> Option<u8> {
        let moves = board.legal_moves();
        if moves == 0 || meter.tick() == Some(SearchEnd::Interrupted) {
            return None;
        }
        nth_cell(moves, self.rng.below(moves.count_ones()))
    }

    fn kind(&self) -> AgentKind {
        AgentKind::Random
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::budget::{Budget, NeverInterrupt, NodeClock};

    #[test]
    fn nth_cell_walks_set_bits() {
        let m = 0b1010_0000_0001_0010u16;
        assert_eq!(nth_cell(m, 0), Some(1));
        assert_eq!(nth_cell(m, 1), Some(4));
        assert_eq!(nth_cell(m, 2), Some(13));
        assert_eq!(nth_cell(m, 3), Some(15));
        assert_eq!(nth_cell(m, 4), None);
        assert_eq!(nth_cell(0, 0), None);
    }

    fn play_out(seed: u64) -> ([u8; 16], usize) {
        let (mut c, mut i) = (NodeClock { ns_per_node: 1 }, NeverInterrupt);
        let mut meter = Meter::new(Budget::Nodes(1_000), &mut c, &mut i);
        let (mut o, mut x) = (RandomAgent::new(seed), RandomAgent::new(seed ^ 1));
        let mut board = Board4::EMPTY;
        let mut moves = [0u8; 16];
        let mut n = 0;
        let mut side = Side::O;
        loop {
            let agent = if side == Side::O { &mut o } else { &mut x };
            let Some(cell) = agent.choose(&board, side, &mut meter) else {
                break;
            };
            assert!(board.is_legal(cell), "seed {seed}: illegal {cell}");
            assert!(board.play(cell, side));
            moves[n] = cell;
            n += 1;
            side = side.other();
        }
        assert_eq!(board.legal_moves(), 0, "stopped with moves left");
        (moves, n)
    }

    #[test]
    fn random_agent_plays_legal_and_deterministic_games() {
        let mut first_moves = [0u32; 16];
        for seed in 0..400u64 {
            let a = play_out(seed);
            assert_eq!(a, play_out(seed), "seed {seed} not deterministic");
            first_moves[usize::from(a.0[0])] += 1;
        }
        // Uniform over the 16 cells: 25 expected each; a loose band.
        assert!(
            first_moves.iter().all(|&n| (8..=45).contains(&n)),
            "{first_moves:?}"
        );
    }

    #[test]
    fn random_agent_has_no_move_on_a_finished_board() {
        let (mut c, mut i) = (NodeClock { ns_per_node: 1 }, NeverInterrupt);
        let mut meter = Meter::new(Budget::Nodes(10), &mut c, &mut i);
        let won = Board4::from_masks(0b111, 0b1_1000_0000).unwrap();
        assert_eq!(RandomAgent::new(3).choose(&won, Side::X, &mut meter), None);
    }
}
