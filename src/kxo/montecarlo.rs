//! Flat Monte Carlo on the 4 x 4 board (the N x N player's algorithm, [`super::nxn`], on the
//! AI-vs-AI board): every free cell is scored by `playouts` random games after it, 2 per win
//! and 1 per draw of the side to move; the best score plays, ties to the lowest cell.

use super::agent::Agent;
use super::agent::AgentKind;
use super::board::{Board4, Side};
use super::playout::{playout, wins_at};
use crate::common::budget::{Meter, SearchEnd};
use crate::common::rng::Rng;

/// Playouts per cell by default (as the N x N player's `kxo_playouts`).
pub const DEFAULT_PLAYOUTS: u32 = 30;

/// The flat Monte Carlo agent.
pub struct MonteCarlo {
    rng: Rng,
    playouts: u32,
}

impl MonteCarlo {
    /// An agent with `playouts` per cell (at least 1) and generator seed `seed`.
    pub const fn new(playouts: u32, seed: u64) -> Self {
        MonteCarlo {
            rng: Rng::new(seed),
            playouts: if playouts == 0 { 1 } else { playouts },
        }
    }
}

impl Agent for MonteCarlo {
    fn choose(&mut self, board: &Board4, side: Side, meter: &mut Meter<'_>) -> Option<u8> {
        let legal = board.legal_moves();
        if legal == 0 {
            return None;
        }
        let mut best: Option<(u32, u8)> = None;
        let mut m = legal;
        'cells: while m != 0 {
            let cell = m.trailing_zeros() as u8;
            m &= m - 1;
            let Some(after) = board.with(cell, side) else {
                continue;
            };
            let score = if wins_at(after.mask(side), cell) {
                2 * self.playouts
            } else {
                let mut s = 0u32;
                for _ in 0..self.playouts {
                    if meter.tick().is_some() {
                        break 'cells;
                    }
                    s += match playout(&after, side.other(), &mut self.rng) {
                        Some(w) if w == side => 2,
                        Some(_) => 0,
                        None => 1,
                    };
                }
                s
            };
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, cell));
            }
        }
        if meter.stopped() == Some(SearchEnd::Interrupted) {
            return None;
        }
        Some(best.map_or(legal.trailing_zeros() as u8, |(_, c)| c))
    }

    fn kind(&self) -> AgentKind {
        AgentKind::MonteCarlo
    }
}
