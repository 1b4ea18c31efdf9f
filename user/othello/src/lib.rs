//! The serial Othello protocol of the AVR boards (docs/protocol.md, "Serial Othello
//! protocol") spoken by kgames:
//! the words ([`wire`]), bounded line framing ([`lines`]), the engine behind a trait
//! ([`engine`], over a `kgames-client` transport to `/dev/reversi` or the session layer in
//! process), the engine side's state machine ([`link`]),
//! the serial line ([`serial`]), the referee of two participants ([`referee`]) and the
//! text display ([`display`]).

pub mod display;
pub mod engine;
pub mod lines;
pub mod link;
pub mod referee;
pub mod runner;
pub mod serial;
pub mod wire;
