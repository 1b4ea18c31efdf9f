//! Fuzz targets over the `core` code that the kernel module runs on user input.
//!
//! Each target takes any byte string and panics only when an invariant breaks: the session
//! layer of each device ([`session`]), several files and users on one device's game table
//! ([`multi`]), the engines' position setup and move application ([`engines`]), and the kxo
//! record encoder, decoder and consistency check ([`record`]), and the serial Othello link's
//! line framing and parser ([`othello`]). The libFuzzer drivers in
//! `src/bin` call [`run`]; `tests/corpus.rs` replays the stored corpus through it.

pub mod engines;
pub mod multi;
pub mod othello;
pub mod record;
pub mod replies;
pub mod session;

/// The targets, by name (the name of the driver binary and of the corpus folder).
pub const TARGETS: &[&str] = &[
    "session_reversi",
    "session_chess",
    "session_kxo",
    "multi",
    "reversi_setup",
    "chess_fen",
    "kxo_record",
    "othello_line",
];

/// Runs the target `name` on `data`. Returns false for an unknown name.
pub fn run(name: &str, data: &[u8]) -> bool {
    use kgames_session::session::{chess_game::Chess, nxn_game::Nxn, reversi_game::Reversi};
    match name {
        "session_reversi" => session::run::<Reversi>(data, session::SEARCH_NODES),
        "session_chess" => session::run::<Chess>(data, session::SEARCH_NODES),
        "session_kxo" => session::run::<Nxn>(data, session::PLAYOUT_NODES),
        "multi" => multi::run(data),
        "reversi_setup" => engines::reversi(data),
        "chess_fen" => engines::chess(data),
        "kxo_record" => record::run(data),
        "othello_line" => othello::run(data),
        _ => return false,
    }
    true
}
