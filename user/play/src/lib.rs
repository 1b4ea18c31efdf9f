//! `play`: a person plays reversi, chess and N x N tic-tac-toe against the kernel's CPU
//! players (`/dev/reversi`, `/dev/chess`, `/dev/kxo`), in the terminal (ratatui) or line by
//! line (`--plain`, for the serial console and scripts).

pub mod app;
pub mod args;
pub mod clocks;
pub mod cpu;
pub mod game;
pub mod kind;
pub mod link;
pub mod notation;
pub mod picture;
pub mod plain;
pub mod render;
pub mod words;
