//! The line to a game, a [`Transport`] of `kgames-client`: the device (one descriptor, a
//! private game unless `--shared`) or, for tests and demonstrations without the module, the
//! same session layer run in this process (`--sim`).

use std::sync::Arc;

use kgames_client::in_process::TT_ENTRIES;
use kgames_client::{Device, InProcess, Sharing, Transport};
use kgames_session::chess_game::Chess;
use kgames_session::nxn_game::Nxn;
use kgames_session::reversi_game::Reversi;

use crate::kind::Kind;

/// The label of the simulation in the status line.
pub const SIM_LABEL: &str = "simulated device (--sim)";

/// The session layer of `kind` in this process (`--sim`).
pub fn sim(kind: Kind) -> Arc<dyn Transport> {
    match kind {
        Kind::Reversi => Arc::new(InProcess::<Reversi>::new(TT_ENTRIES).labelled(SIM_LABEL)),
        Kind::Chess => Arc::new(InProcess::<Chess>::new(TT_ENTRIES).labelled(SIM_LABEL)),
        Kind::Kxo => Arc::new(InProcess::<Nxn>::new(TT_ENTRIES).labelled(SIM_LABEL)),
    }
}

/// Opens the line for `kind`: the simulation, or the device at `path` (default: the game's
/// device). The error is a sentence that says what to load when the device is missing.
pub fn open(
    kind: Kind,
    path: Option<&str>,
    shared: bool,
    sim: bool,
) -> Result<Arc<dyn Transport>, String> {
    if sim {
        return Ok(self::sim(kind));
    }
    let path = path.map_or_else(|| kind.device().to_string(), str::to_string);
    let sharing = if shared {
        Sharing::Shared
    } else {
        Sharing::Private
    };
    match Device::open(&path, sharing) {
        Ok(d) => Ok(Arc::new(d)),
        Err(e) if sharing == Sharing::Private && e.to_string().contains("KGAMES_IOC_PRIVATE") => {
            Err(format!("{e}; an older module? try --shared"))
        }
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kgames_client::{Request, Word};

    #[test]
    fn the_simulation_answers_like_the_device() {
        let l = sim(Kind::Reversi);
        assert_eq!(l.send(Request::New("X")).unwrap().word(), Some(Word::Ok));
        assert_eq!(l.send(Request::Board).unwrap().text().len(), 67);
        assert_eq!(l.label(), SIM_LABEL);
    }

    #[test]
    fn a_missing_device_says_what_to_load() {
        let e = open(Kind::Chess, Some("/nonexistent/chess"), false, false).err();
        assert!(e.is_some_and(|e| e.contains("insmod kgames.ko")));
    }
}
