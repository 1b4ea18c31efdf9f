//! The session layer of a device, run in this process: the device's replies without the
//! module (`kgames-session`, the code the module compiles).
//!
//! As on the device, the commands of the game run one at a time, except `01`, which answers
//! at once during a search from the position before the move; the search runs without the
//! session's lock, on the host's [`WallClock`], with the table size of the module's
//! `tt_entries`. The `09` figures are those of a device with one game (`games=1/1`).

use std::io;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use kgames_common::budget::{Interrupt, Meter};
use kgames_session::game::{Game, Thought};
use kgames_session::reply::Reply;
use kgames_session::state::{Action, CommandContext, Session};
use kgames_session::HeapAlloc;

use crate::clock::WallClock;
use crate::protocol::{self, Request};
use crate::{Response, Transport};

/// The module's default `tt_entries`: the table size that makes a node-budget search here
/// play the device's moves.
pub const TT_ENTRIES: usize = 65_536;

/// One game of device `G` in this process.
pub struct InProcess<G: Game> {
    session: Mutex<Session<G>>,
    /// Held by every command but `01` for its whole run, search included (the commands of a
    /// game run one at a time); it holds the search's memory.
    turn: Mutex<G::Scratch<HeapAlloc>>,
    interrupted: AtomicBool,
    stop: AtomicBool,
    label: String,
    /// Counts the commands, as the device does: each gets the next value as its nonce (a
    /// `00` or `10` names its game by it: chess keeps a game's table until a new game).
    commands: AtomicU64,
}

struct Flag<'a>(&'a AtomicBool);

impl Interrupt for Flag<'_> {
    fn pending(&mut self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

fn lock<T>(m: &Mutex<T>) -> io::Result<MutexGuard<'_, T>> {
    m.lock()
        .map_err(|_| io::Error::other("the in-process session panicked"))
}

impl<G: Game + Send> InProcess<G> {
    /// A session with the game's default settings and a table of `tt_entries` entries
    /// ([`TT_ENTRIES`] as the module loads by default).
    pub fn new(tt_entries: usize) -> Self {
        Self::with_config(G::Config::default(), tt_entries)
    }

    /// A session whose new games use `config` (the device's module parameters).
    ///
    /// # Panics
    ///
    /// When the host cannot allocate the table.
    pub fn with_config(config: G::Config, tt_entries: usize) -> Self {
        let scratch = G::new_scratch::<HeapAlloc>(tt_entries, &config)
            .expect("the host allocator never returns None");
        InProcess {
            session: Mutex::new(Session::with_config(config)),
            turn: Mutex::new(scratch),
            interrupted: AtomicBool::new(false),
            stop: AtomicBool::new(false),
            label: format!("{} in this process", G::NAME),
            commands: AtomicU64::new(0),
        }
    }

    /// The same, with `label` as its [`Transport::label`].
    pub fn labelled(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    fn env(&self) -> CommandContext {
        CommandContext {
            games: 1,
            max_games: 1,
            nonce: self
                .commands
                .fetch_add(1, Ordering::Relaxed)
                .wrapping_add(1),
            ..CommandContext::default()
        }
    }
}

fn text(out: &Reply) -> String {
    String::from_utf8_lossy(out.as_bytes()).into_owned()
}

impl<G: Game + Send> Transport for InProcess<G>
where
    G::Side: Send,
{
    fn send(&self, request: Request<'_>) -> io::Result<Response> {
        self.run(&protocol::encode(&request)).map(Response::new)
    }

    fn send_raw(&self, line: &str) -> io::Result<Response> {
        self.run(line).map(Response::new)
    }

    fn interrupt(&self) {
        self.interrupted.store(true, Ordering::SeqCst);
    }

    fn stop_search(&self) -> io::Result<()> {
        self.stop.store(true, Ordering::SeqCst);
        Ok(())
    }

    fn label(&self) -> String {
        self.label.clone()
    }
}

impl<G: Game + Send> InProcess<G>
where
    G::Side: Send,
{
    /// Runs one command line (without `\n`) as the device does: `01` at once, any other
    /// command after the one before it, its search without the session's lock.
    fn run(&self, line: &str) -> io::Result<String> {
        let raw = format!("{line}\n");
        let mut out = Reply::new();
        if Session::<G>::answers_while_busy(raw.as_bytes()) {
            lock(&self.session)?.execute(raw.as_bytes(), &self.env(), &mut out);
            return Ok(text(&out));
        }
        let mut scratch = lock(&self.turn)?;
        let (copy, budget) = {
            let mut s = lock(&self.session)?;
            match s.execute(raw.as_bytes(), &self.env(), &mut out) {
                Action::Done => return Ok(text(&out)),
                Action::Think(copy) => (copy, s.budget()),
            }
        };
        // The search runs without the session's lock, like the module's.
        self.interrupted.store(false, Ordering::SeqCst);
        let thought = {
            let mut clock = WallClock::stoppable(&self.stop);
            let mut flag = Flag(&self.interrupted);
            let mut meter = Meter::new(budget, &mut clock, &mut flag);
            copy.think(&mut *scratch, &mut meter)
        };
        self.stop.store(false, Ordering::SeqCst);
        let mut s = lock(&self.session)?;
        if matches!(thought, Thought::Interrupted) || self.interrupted.swap(false, Ordering::SeqCst)
        {
            s.cancel();
            return Err(io::Error::from(io::ErrorKind::Interrupted));
        }
        s.finish(thought, &mut out);
        Ok(text(&out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Budget;
    use kgames_session::chess_game::Chess;
    use kgames_session::nxn_game::Nxn;
    use kgames_session::reversi_game::Reversi;
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    /// The reply's text.
    fn text(r: io::Result<Response>) -> String {
        r.unwrap().text().to_string()
    }

    #[test]
    fn answers_like_the_device() {
        let t = InProcess::<Reversi>::new(TT_ENTRIES);
        assert_eq!(text(t.send(Request::New("X"))), "OK\n");
        assert_eq!(text(t.send(Request::Move("3 2"))), "OK\n");
        assert_eq!(text(t.send(Request::Budget(Budget::Nodes(500)))), "OK\n");
        assert_eq!(text(t.send(Request::CpuMove)), "OK\n");
        assert_eq!(text(t.send(Request::Board)).len(), 67);
        assert_eq!(text(t.send_raw("zz")), "UNKCMD\n");
        assert_eq!(text(t.send_raw(&"0".repeat(256))), "INVFMT\n");
        assert!(text(t.send(Request::Status)).contains(" games=1/1"));
        let t = InProcess::<Nxn>::new(TT_ENTRIES);
        assert_eq!(text(t.send(Request::New("O 3 5 2"))), "OK\n");
        assert_eq!(text(t.send(Request::Move("1 1"))), "OK\n");
        assert_eq!(text(t.send(Request::New("O 7"))), "INVFMT\n");
        assert_eq!(t.label(), "kxo in this process");
        assert_eq!(t.labelled("sim").label(), "sim");
    }

    /// A chess search of 9 s, ended from another thread.
    fn long_search(end: impl Fn(&InProcess<Chess>)) -> (io::Result<Response>, Duration, String) {
        let t = Arc::new(InProcess::<Chess>::new(1024));
        assert_eq!(text(t.send(Request::New("B"))), "OK\n");
        assert_eq!(text(t.send(Request::Budget(Budget::TimeMs(9000)))), "OK\n");
        let before = text(t.send(Request::Board));
        let t0 = Instant::now();
        let cpu = {
            let t = Arc::clone(&t);
            std::thread::spawn(move || t.send(Request::CpuMove))
        };
        std::thread::sleep(Duration::from_millis(100));
        // `01` answers during the search, from the position before the move.
        assert_eq!(text(t.send(Request::Board)), before);
        end(&t);
        let r = cpu.join().unwrap();
        (r, t0.elapsed(), text(t.send(Request::LastMove)))
    }

    #[test]
    fn an_interrupt_discards_the_search() {
        let (r, took, last) = long_search(|t| t.interrupt());
        assert_eq!(r.unwrap_err().kind(), io::ErrorKind::Interrupted);
        assert!(took < Duration::from_secs(5), "{took:?}");
        assert_eq!(last, "NONE\n");
    }

    #[test]
    fn a_stop_plays_the_best_move_so_far() {
        let (r, took, last) = long_search(|t| t.stop_search().unwrap());
        assert_eq!(text(r), "OK\n");
        assert!(took < Duration::from_secs(5), "{took:?}");
        assert_ne!(last, "NONE\n");
    }
}
