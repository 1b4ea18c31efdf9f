//! Fuzz targets over the `core` code that the kernel module runs on user input.
//!
//! Each target takes any byte string and panics only when an invariant breaks: the session
//! layer of each device ([`session`]), several files and users on one device's game table
//! ([`multi`]), the engines' position setup and move application ([`engines`]), the kxo
//! record encoder, decoder and consistency check ([`record`]), the serial Othello link's
//! line framing and parser ([`othello`]), deep CPU searches on random legal positions
//! ([`search`]), and the typed protocol's encoder and decoders ([`protocol`]). The libFuzzer drivers in
//! `src/bin` call [`run`]; `tests/corpus.rs` replays the stored corpus through it.

pub mod engines;
pub mod multi;
pub mod othello;
pub mod protocol;
pub mod record;
pub mod replies;
pub mod search;
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
    "search_deep",
    "protocol",
];

/// Runs the target `name` on `data`. Returns false for an unknown name.
pub fn run(name: &str, data: &[u8]) -> bool {
    use kgames_session::session::chess_game::{Chess, ChessConfig};
    use kgames_session::session::nxn_game::{Nxn, NxnConfig};
    use kgames_session::session::reversi_game::Reversi;
    use session::{MAX_PLAYOUT_NODES, MAX_SEARCH_NODES, PLAYOUT_NODES, SEARCH_NODES};
    match name {
        "session_reversi" => session::run::<Reversi>(data, (), SEARCH_NODES, MAX_SEARCH_NODES),
        "session_chess" => {
            session::run::<Chess>(data, ChessConfig::default(), SEARCH_NODES, MAX_SEARCH_NODES)
        }
        "session_kxo" => {
            // Each input as on a freshly loaded module with `kxo_playouts=2` (the game seeds
            // derive from the config and the command nonce, so an input replays alike alone or
            // after others); see `session::KXO_PLAYOUTS` for the playouts.
            let config = NxnConfig {
                playouts: session::KXO_PLAYOUTS,
                ..NxnConfig::default()
            };
            session::run::<Nxn>(data, config, PLAYOUT_NODES, MAX_PLAYOUT_NODES)
        }
        "multi" => multi::run(data),
        "reversi_setup" => engines::reversi(data),
        "chess_fen" => engines::chess(data),
        "kxo_record" => record::run(data),
        "othello_line" => othello::run(data),
        "search_deep" => search::run(data),
        "protocol" => protocol::run(data),
        _ => return false,
    }
    true
}
