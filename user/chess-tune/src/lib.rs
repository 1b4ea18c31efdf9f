//! Tuning the chess evaluation on the host: [`data`] (the positions file), [`selfplay`] (the
//! generator's games), [`features`] (a position as the evaluation's weighted terms),
//! [`texel`] (fitting the weights to game results) and [`nnue`] (training the network).

pub mod data;
pub mod features;
pub mod nnue;
pub mod selfplay;
pub mod texel;
