//! The kxo engine (core-only; compiled into kgames.ko and into the host crate kgames-kxo).
//!
//! - [`board`]: the AI-vs-AI board (4 x 4, 3 in a row wins, O first), packed 2 bits per cell.
//! - [`agent`]: the [`agent::Agent`] trait, the agent kinds, and the uniform random agent.
//! - [`negamax`]: the negamax agent (principal variation search with a transposition table).
//! - [`record`]: the binary record streamed to `/dev/kxo` watchers.
//! - [`nxn`]: the N x N human-vs-CPU game and its Monte Carlo player.
//! - [`load`]: per-agent CPU load averages in fixed point.

pub mod agent;
pub mod board;

pub mod load;
pub mod negamax;
pub mod nxn;
pub mod record;

#[cfg(test)]
mod solver;
