//! The library side of `kgames-uci`: a UCI client for driving engines as a GUI would (used by
//! `chess-ladder`, `chess-label`, the protocol tests and the in-VM tests) and where to find
//! Stockfish.

pub mod client;
pub mod stockfish;
