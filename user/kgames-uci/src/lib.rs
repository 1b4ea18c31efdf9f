//! The library side of `kgames-uci`: a UCI client for driving engines as a GUI would (used by
//! `chess-ladder`, the protocol tests and the in-VM tests).

pub mod client;
