//! Tuning the chess evaluation on the host: [`data`] (the positions file), [`selfplay`] (the
//! generator's games), [`features`] (a position as the evaluation's weighted terms) and
//! [`texel`] (fitting the weights to game results).

pub mod data;
pub mod features;
pub mod selfplay;
pub mod texel;
