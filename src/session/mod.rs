//! The protocol and session layer shared by every device (docs/protocol.md, "Framing and errors").
//!
//! A device's game plugs in through the [`Game`](game::Game) trait; everything else lives
//! here once: write framing and the line limit ([`command`]), reply words and the reply buffer
//! ([`reply`]), the command state machine of one game ([`state`]), and the table of live games
//! with its caps and idle eviction ([`table`]). `/dev/kxo`'s AI-vs-AI machine (its record
//! ring, control flags and load averages) lives in the kxo engine (`src/kxo/machine`), the
//! module parameters' one policy in `src/params`. This is `core`-only code: the kernel module
//! wraps it in locks, files and user copies, and the host crate tests it with a fake clock.

pub mod chess_game;
pub mod command;
pub mod cursor;
pub mod game;
pub mod nxn_game;
pub mod protocol;
pub mod reply;
pub mod reversi_game;
pub mod scratch;
pub mod state;
pub mod table;
pub mod turns;

#[cfg(test)]
mod tests;
