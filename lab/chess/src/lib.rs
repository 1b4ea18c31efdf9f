//! The chess engine's lab: the speed measurements' positions ([`bench`](mod@bench)); tuning the
//! evaluation on the host ([`data`], the positions file; [`selfplay`], the generator's games;
//! [`features`], a position as the evaluation's weighted terms; [`texel`], fitting the weights
//! to game results; [`nnue`], training the network) and finding the reference engine
//! ([`stockfish`]) for the labeller and the ladder.

pub mod bench;
pub mod data;
pub mod features;
pub mod nnue;
pub mod selfplay;
pub mod stockfish;
pub mod texel;
