//! Finding the Stockfish program (Debian installs it in /usr/games, which is not always on
//! PATH).

use std::path::PathBuf;

/// `given` when set, else `stockfish` on PATH, else /usr/games/stockfish; `None` when there
/// is none.
pub fn find_stockfish(given: Option<String>) -> Option<String> {
    if let Some(s) = given {
        return Some(s);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path).chain([PathBuf::from("/usr/games")]) {
        let candidate = dir.join("stockfish");
        if candidate.is_file() {
            return Some(candidate.to_string_lossy().into_owned());
        }
    }
    None
}
