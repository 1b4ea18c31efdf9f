//! The line to a game: the device (one descriptor, a private game unless `--shared`) or, for
//! tests and demonstrations without the module, the same session layer run in this process
//! (`--sim`).
//!
//! A command is one `write` of the line and its `\n`, then reads until end of file (the reply
//! of the file's last command; `07` in chess can exceed one 1024-byte read).

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use kgames_common::common::budget::{Clock, Interrupt, Meter};
use kgames_session::chess_game::Chess;
use kgames_session::game::Game;
use kgames_session::nxn_game::Nxn;
use kgames_session::reply::Reply;
use kgames_session::reversi_game::Reversi;
use kgames_session::state::{Action, Env, Session};
use kgames_uapi::ioctl::KGAMES_IOC_PRIVATE;
use kgames_uapi::user::ioctl_none;
use nix::sys::pthread::Pthread;

use crate::kind::Kind;

/// Where commands go. `cmd` may run in a worker thread (the CPU's move) while another thread
/// calls `interrupt`.
pub trait Link: Send + Sync {
    /// Sends one command line (without `\n`) and returns the whole reply. A CPU move that was
    /// interrupted is `Err` of kind [`io::ErrorKind::Interrupted`] (the game is unchanged).
    fn cmd(&self, line: &str) -> io::Result<String>;
    /// Interrupts the `cmd` running in `thread`.
    fn interrupt(&self, thread: Pthread);
    /// What the status line says about the line (`/dev/chess, private game`).
    fn label(&self) -> String;
}

/// An open device file.
#[derive(Debug)]
pub struct DeviceLink {
    file: File,
    label: String,
}

impl DeviceLink {
    /// Opens `path` read-write; detaches it to a private game unless `shared`. The error is a
    /// sentence that says what to load when the device is missing.
    pub fn open(path: &str, shared: bool) -> Result<DeviceLink, String> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| {
                if e.kind() == io::ErrorKind::NotFound {
                    format!(
                        "{path}: {e}: the kgames module is not loaded; load it with `sudo insmod kgames.ko` (`make run` boots a VM with it loaded)"
                    )
                } else {
                    format!("{path}: {e}")
                }
            })?;
        if !shared {
            ioctl_none(&file, KGAMES_IOC_PRIVATE).map_err(|e| {
                format!(
                    "{path}: the private-game ioctl failed ({e}); an older module? try --shared"
                )
            })?;
        }
        let what = if shared {
            "shared game"
        } else {
            "private game"
        };
        Ok(DeviceLink {
            file,
            label: format!("{path}, {what}"),
        })
    }
}

impl Link for DeviceLink {
    fn cmd(&self, line: &str) -> io::Result<String> {
        let bytes = format!("{line}\n");
        let n = (&self.file).write(bytes.as_bytes())?;
        if n != bytes.len() {
            return Err(io::Error::other(format!(
                "short write: {n} of {}",
                bytes.len()
            )));
        }
        let mut out = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            match (&self.file).read(&mut buf) {
                Ok(0) => break,
                Ok(k) => out.extend_from_slice(&buf[..k]),
                // The reply is kept: a read a signal interrupted continues where it stopped.
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    fn interrupt(&self, thread: Pthread) {
        crate::cpu::kick(thread);
    }

    fn label(&self) -> String {
        self.label.clone()
    }
}

/// One session of each game, in this process.
enum SimGame {
    Reversi(Box<Session<Reversi>>),
    Chess(Box<Session<Chess>>),
    Kxo(Box<Session<Nxn>>),
}

/// The session layer in this process (`--sim`): the device's replies without the device.
pub struct SimLink {
    game: Mutex<SimGame>,
    stop: AtomicBool,
}

struct WallClock(Instant);

impl Clock for WallClock {
    fn now_ns(&mut self, _nodes: u64) -> u64 {
        u64::try_from(self.0.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

struct Flag<'a>(&'a AtomicBool);

impl Interrupt for Flag<'_> {
    fn pending(&mut self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

impl SimLink {
    /// A fresh session of `kind`.
    pub fn new(kind: Kind) -> SimLink {
        let game = match kind {
            Kind::Reversi => SimGame::Reversi(Box::default()),
            Kind::Chess => SimGame::Chess(Box::default()),
            Kind::Kxo => SimGame::Kxo(Box::default()),
        };
        SimLink {
            game: Mutex::new(game),
            stop: AtomicBool::new(false),
        }
    }

    fn run<G: Game>(
        &self,
        pick: impl Fn(&mut SimGame) -> Option<&mut Session<G>>,
        line: &str,
    ) -> io::Result<String> {
        let mut out = Reply::new();
        let env = Env {
            games: 1,
            max_games: 1,
            ..Env::default()
        };
        let (copy, budget) = {
            let mut g = self.game.lock().map_err(|_| io::Error::other("poisoned"))?;
            let s = pick(&mut g).ok_or_else(|| io::Error::other("wrong game"))?;
            match s.execute(line.as_bytes(), &env, &mut out) {
                Action::Done => return Ok(String::from_utf8_lossy(out.as_bytes()).into_owned()),
                Action::Think(copy) => (copy, s.budget()),
            }
        };
        // The search runs without the lock, like the module's.
        self.stop.store(false, Ordering::SeqCst);
        let mut scratch = G::new_scratch::<kgames_session::HeapAlloc>(65536)
            .ok_or_else(|| io::Error::other("no memory for the search"))?;
        let mut clock = WallClock(Instant::now());
        let mut flag = Flag(&self.stop);
        let mut meter = Meter::new(budget, &mut clock, &mut flag);
        let thought = copy.think(&mut scratch, &mut meter);
        let mut g = self.game.lock().map_err(|_| io::Error::other("poisoned"))?;
        let s = pick(&mut g).ok_or_else(|| io::Error::other("wrong game"))?;
        if self.stop.swap(false, Ordering::SeqCst) {
            s.cancel();
            return Err(io::Error::from(io::ErrorKind::Interrupted));
        }
        s.finish(thought, &mut out);
        Ok(String::from_utf8_lossy(out.as_bytes()).into_owned())
    }
}

impl Link for SimLink {
    fn cmd(&self, line: &str) -> io::Result<String> {
        let kind = match *self.game.lock().map_err(|_| io::Error::other("poisoned"))? {
            SimGame::Reversi(_) => Kind::Reversi,
            SimGame::Chess(_) => Kind::Chess,
            SimGame::Kxo(_) => Kind::Kxo,
        };
        match kind {
            Kind::Reversi => self.run(
                |g| match g {
                    SimGame::Reversi(s) => Some(&mut **s),
                    _ => None,
                },
                line,
            ),
            Kind::Chess => self.run(
                |g| match g {
                    SimGame::Chess(s) => Some(&mut **s),
                    _ => None,
                },
                line,
            ),
            Kind::Kxo => self.run(
                |g| match g {
                    SimGame::Kxo(s) => Some(&mut **s),
                    _ => None,
                },
                line,
            ),
        }
    }

    fn interrupt(&self, _thread: Pthread) {
        self.stop.store(true, Ordering::SeqCst);
    }

    fn label(&self) -> String {
        "simulated device (--sim)".into()
    }
}

/// Opens the line for `kind`: the simulation, or the device at `path`.
pub fn open(
    kind: Kind,
    path: Option<&str>,
    shared: bool,
    sim: bool,
) -> Result<Arc<dyn Link>, String> {
    if sim {
        return Ok(Arc::new(SimLink::new(kind)));
    }
    let path = path.map_or_else(|| kind.device().to_string(), str::to_string);
    Ok(Arc::new(DeviceLink::open(&path, shared)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_simulation_answers_like_the_device() {
        let l = SimLink::new(Kind::Reversi);
        assert_eq!(l.cmd("00 X").unwrap(), "OK\n");
        assert_eq!(l.cmd("02 3 2").unwrap(), "OK\n");
        assert_eq!(l.cmd("05 N500").unwrap(), "OK\n");
        assert_eq!(l.cmd("03").unwrap(), "OK\n");
        assert_eq!(l.cmd("01").unwrap().len(), 67);
        assert_eq!(l.cmd("zz").unwrap(), "UNKCMD\n");
        let l = SimLink::new(Kind::Kxo);
        assert_eq!(l.cmd("00 O 3 5 2").unwrap(), "OK\n");
        assert_eq!(l.cmd("02 1 1").unwrap(), "OK\n");
        assert_eq!(l.cmd("00 O 7").unwrap(), "INVFMT\n");
    }

    #[test]
    fn a_missing_device_says_what_to_load() {
        let e = DeviceLink::open("/nonexistent/chess", false).unwrap_err();
        assert!(e.contains("insmod kgames.ko"), "{e}");
    }
}
