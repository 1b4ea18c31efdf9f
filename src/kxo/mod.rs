//! The kxo engine (core-only; compiled into kgames.ko and into the host crate kgames-kxo).
//!
//! - [`board`]: the AI-vs-AI board (4 x 4, 3 in a row wins, O first), packed 2 bits per cell.
//! - [`agent`]: the [`agent::Agent`] trait, the agent kinds, and the uniform random agent.
//! - [`negamax`]: the negamax agent (principal variation search with a transposition table).
//! - [`record`]: the binary record streamed to `/dev/kxo` watchers.
//! - [`nxn`]: the N x N human-vs-CPU game and its Monte Carlo player.
//! - `fixed`: Q16.16 `ln` and `sqrt` for the agents.
//! - [`playout`]: random playouts and immediate-win detection (the Monte Carlo inner loop).
//! - [`mcts`]: the MCTS agent (UCT on a preallocated node pool).
//! - [`td`]: the TD(0) learning agent (a bounded LRU value table).
//! - [`montecarlo`]: the flat Monte Carlo agent on the 4 x 4 board.
//! - [`arena`]: the AI-vs-AI match logic (pairing, restart, one move per step, records).
//! - [`machine`]: what the device's AI-vs-AI machine keeps besides its games: the record ring
//!   the watchers read, the control flags and pairings, the agents' load averages.

pub mod agent;
pub mod arena;
pub mod board;
pub mod fixed;
pub mod machine;
pub mod mcts;
pub mod montecarlo;
pub mod negamax;
pub mod nxn;
pub mod playout;
pub mod record;
pub mod td;

/// Host only: the records' checks, MCTS's root value, TD's score against random play.
#[cfg(not(MODULE))]
mod host;

#[cfg(test)]
mod solver;
