//! Host only: what the tools and tests use and `kgames.ko` never runs (the one `not(MODULE)`
//! gate in `mod.rs` leaves it out of the module): the checks a watcher makes of the records it
//! reads ([`RecordCheck`], [`is_successor`], re-exported by [`record`](super::record)), the
//! win rate of an MCTS search's root ([`root_value`], by [`mcts`](super::mcts)) and the TD
//! agent's score against the random one ([`versus_random`], by [`td`](super::td)); the
//! 4 x 4 board's cell owners and stone counts as the tools read them, and the length of the
//! N x N game's `01` grid ([`grid_len`], by [`nxn`](super::nxn)).

use core::ops::DerefMut;

use super::agent::{Agent, RandomAgent};
use super::board::{owner, Board4, GameState, Side, CELLS};
use super::fixed::ONE;
use super::mcts::Node;
use super::nxn::MAX_N;
use super::record::{Record, RecordBoard};
use super::td::{TdEntry, TdTable};
use crate::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
use crate::common::rng::Rng;
use crate::uapi::agent::AgentKind;

/// What a watcher checks of a [`Record`] it read.
pub trait RecordCheck {
    /// True when the record describes a real game: known agent ids, at most 16 moves, no move
    /// bits beyond `move_count`, and replaying `moves` from the empty board (O first) is legal
    /// at every ply and gives exactly `board` and `state`.
    fn is_consistent(&self) -> bool;
}

impl RecordCheck for Record {
    fn is_consistent(&self) -> bool {
        if AgentKind::from_id(self.o_agent).is_none()
            || AgentKind::from_id(self.x_agent).is_none()
            || self.move_count > CELLS
        {
            return false;
        }
        let used_bits = 4 * u32::from(self.move_count);
        if used_bits < 64 && self.moves >> used_bits != 0 {
            return false;
        }
        let mut board = Board4::EMPTY;
        for ply in 0..self.move_count {
            let Some(cell) = self.move_at(ply) else {
                return false;
            };
            if !board.play(cell, Side::of_ply(ply)) {
                return false;
            }
        }
        board.packed() == self.board && Some(board.state()) == self.game_state()
    }
}

/// True when `next` is the board change right after `prev` in one game: the same game id,
/// round and agents; one more move; the game was running; the new cell was empty before and
/// is now held by the side whose turn it was (O on even plies); no other cell changed; the
/// move history is `prev`'s extended by that cell; and `next.state` is the new board's state.
/// Sequence numbers and lost counts are not compared.
pub fn is_successor(prev: &Record, next: &Record) -> bool {
    if prev.game != next.game
        || prev.round != next.round
        || prev.o_agent != next.o_agent
        || prev.x_agent != next.x_agent
        || prev.move_count >= CELLS
        || next.move_count != prev.move_count + 1
        || prev.game_state() != Some(GameState::Running)
    {
        return false;
    }
    let (Some(before), Some(after)) = (prev.board4(), next.board4()) else {
        return false;
    };
    let Some(cell) = next.move_at(prev.move_count) else {
        return false;
    };
    let side = Side::of_ply(prev.move_count);
    let bit = 1u16 << (cell & 0xF);
    let shift = 4 * u32::from(prev.move_count);
    let low = (1u64 << shift).wrapping_sub(1); // the bits of plies before this one
    before.empty() & bit != 0
        && after.mask(side) == before.mask(side) | bit
        && after.mask(side.other()) == before.mask(side.other())
        && next.moves & low == prev.moves & low
        && prev.moves & !low == 0
        && next.moves >> shift == u64::from(cell)
        && before.winner().is_none()
        && next.game_state() == Some(after.state())
}

/// The Q16.16 win rate of the root's most visited child, for tests and benches.
pub fn root_value(pool: &[Node]) -> Option<u32> {
    let mut best: Option<(u32, u32)> = None;
    let mut c = pool.first()?.child;
    while let Some(n) = pool.get(c as usize) {
        if best.is_none_or(|(v, _)| n.visits > v) {
            best = Some((
                n.visits,
                ((u64::from(n.score) * u64::from(ONE)) / (2 * u64::from(n.visits.max(1)))) as u32,
            ));
        }
        c = n.sibling;
    }
    best.map(|(_, q)| q)
}

/// Plays `games` games of the table (as `me`, exploring with `epsilon_q16`) against the
/// uniformly random agent and returns (wins, draws, losses): the learning curve's measure.
pub fn versus_random<S: DerefMut<Target = [TdEntry]>>(
    t: &mut TdTable<S>,
    me: Side,
    games: u32,
    seed: u64,
    epsilon_q16: u32,
) -> (u32, u32, u32) {
    let (mut c, mut i) = (NodeClock { ns_per_node: 1 }, NeverInterrupt);
    let mut meter = Meter::new(Budget::Nodes(1 << 40), &mut c, &mut i);
    let mut rng = Rng::new(seed);
    let mut random = RandomAgent::new(seed ^ 0x55);
    let mut r = (0, 0, 0);
    for _ in 0..games {
        let mut b = Board4::EMPTY;
        let mut side = Side::O;
        while b.state() == GameState::Running {
            let c = if side == me {
                t.choose(&b, side, &mut rng, epsilon_q16)
            } else {
                random.choose(&b, side, &mut meter)
            };
            b.play(c.unwrap(), side);
            side = side.other();
        }
        match b.winner() {
            Some(w) if w == me => r.0 += 1,
            None => r.1 += 1,
            _ => r.2 += 1,
        }
    }
    r
}

impl Board4 {
    /// Stones on the board.
    pub const fn stones(&self) -> u8 {
        self.occupied().count_ones() as u8
    }

    /// What holds `cell` (`None` if it is empty or `cell` is off the board).
    pub const fn at(&self, cell: u8) -> Option<Side> {
        if cell >= CELLS {
            return None;
        }
        owner(
            self.mask(Side::O) as u64,
            self.mask(Side::X) as u64,
            1 << cell,
        )
    }

    /// The side whose turn it is by the stone counts: O when both have as many stones, else X.
    pub const fn side_to_move(&self) -> Side {
        if self.mask(Side::O).count_ones() <= self.mask(Side::X).count_ones() {
            Side::O
        } else {
            Side::X
        }
    }
}

/// The length of the `01` grid of an n x n board: `(n + 1)` separator lines of `4n + 1` bytes
/// and `n` rows of `4n + 2` bytes (157 for n = 4).
pub const fn grid_len(n: u8) -> usize {
    let n = n as usize;
    (n + 1) * (4 * n + 1) + n * (4 * n + 2)
}

/// The largest grid (n = 6): a buffer this long always fits [`BoardN::write_grid`](super::nxn::BoardN::write_grid).
pub const MAX_GRID_LEN: usize = grid_len(MAX_N);
