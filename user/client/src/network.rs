//! A chess network file (chess-nnue's format) read for a whole run, for the tools that take
//! `--net FILE` (kgames-uci, chess-datagen).

use kgames_chess::nnue::Network;
use std::path::Path;

/// The network in the file at `path`, kept for the rest of the process (its bytes are
/// leaked), or a message that names the file.
pub fn load_network(path: &Path) -> Result<Network<'static>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    Network::parse(bytes).map_err(|e| format!("{}: not a network ({e})", path.display()))
}
