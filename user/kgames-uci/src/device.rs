//! Device mode: the search runs in the kernel, through a private game on `/dev/chess`
//! ([`kgames_client::Device`]).
//!
//! A `go` whose position continues the game on the device (the same start, and the moves the
//! device has, its own last move included, followed by new ones) appends the new moves with
//! `12`, so the device's search keeps the game's table and history from move to move. Any
//! other position, and the first after `ucinewgame`, rebuilds the game: `00 W`, `10 <FEN>`
//! for a set-up start, all the moves with `12` (as many lines as the 256-byte limit needs,
//! so the device's game has the whole repetition history). Then the budget with `05`, and
//! `03` (black to move: the CPU's side) or `08` (white to move: the CPU plays for the
//! "human"). `06` gives the move and `09` the search's depth, score, nodes and principal
//! variation. `stop` is
//! `KGAMES_IOC_STOP_SEARCH` on the same file from the main thread
//! ([`Transport::stop_search`]): the blocked `03`/`08` returns with the best move so far.

use crate::engine::{
    any_legal_move, bestmove_line, search_over, send, Engine, Info, SearchRequest, Setup,
};
use crate::timeman::Limit;
use kgames_client::protocol::{encode, LINE_MAX};
use kgames_client::{Budget, Request, Response, Sharing, Transport, Word};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The engine behind `/dev/chess`.
pub struct Device {
    dev: Arc<kgames_client::Device>,
    /// The search's thread: it returns the game it left on the device.
    worker: Option<JoinHandle<Option<OnDevice>>>,
    /// The game on the device when no search runs (`None`: unknown, or none).
    on_device: Option<OnDevice>,
    stopped: Arc<AtomicBool>,
    /// Set by the device thread just before it prints `bestmove`.
    answered: Arc<AtomicBool>,
}

impl Device {
    /// Opens `path` and makes the file's game private.
    pub fn open(path: &str) -> Result<Device, String> {
        let dev = kgames_client::Device::open(path, Sharing::Private).map_err(|e| e.to_string())?;
        Ok(Device {
            dev: Arc::new(dev),
            worker: None,
            on_device: None,
            stopped: Arc::new(AtomicBool::new(false)),
            answered: Arc::new(AtomicBool::new(false)),
        })
    }
}

/// Sends one request and returns its reply.
fn command(dev: &kgames_client::Device, r: Request<'_>) -> Result<Response, String> {
    dev.send(r)
        .map_err(|e| format!("{}: {e}", crate::protocol::clip(&encode(&r))))
}

/// Sends a request that must answer one of the words `ok`.
fn expect(dev: &kgames_client::Device, r: Request<'_>, ok: &[Word]) -> Result<Word, String> {
    command(dev, r)?
        .expect(r, ok)
        .map_err(|e| crate::protocol::clip(&e.to_string()))
}

/// The game on the device file after a search: its start and all its moves, the CPU's move
/// included.
#[derive(Clone, Debug, PartialEq, Eq)]
struct OnDevice {
    fen: Option<String>,
    moves: Vec<String>,
}

/// The moves that take the game on the device to `setup`, when `setup` continues it.
fn continuation<'a>(on_device: Option<&OnDevice>, setup: &'a Setup) -> Option<&'a [String]> {
    let game = on_device?;
    if game.fen != setup.fen {
        return None;
    }
    setup.moves.strip_prefix(game.moves.as_slice())
}

/// The arguments of the `12` lines for `moves`, each line within the line limit.
pub fn append_lines(moves: &[String]) -> Vec<String> {
    // "12 " and the newline around the arguments.
    let room = LINE_MAX - 4;
    let mut lines = Vec::new();
    let mut line = String::new();
    for m in moves {
        if !line.is_empty() && line.len() + 1 + m.len() > room {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(m);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Brings the game on the device to `setup` (continuing `on_device` when it can) and runs
/// the CPU's move; returns the UCI move (or `None` when the game has no move) and prints the
/// search's `info` line.
fn search(
    f: &kgames_client::Device,
    on_device: Option<&OnDevice>,
    setup: &Setup,
    request: SearchRequest,
    start: Instant,
) -> Result<Option<String>, String> {
    const MOVED: &[Word] = &[Word::Ok, Word::Check, Word::Mate, Word::Tie];
    let new_moves = match continuation(on_device, setup) {
        Some(moves) => moves,
        None => {
            expect(f, Request::New("W"), &[Word::Ok])?;
            if let Some(fen) = &setup.fen {
                expect(f, Request::Setup(fen), &[Word::Ok])?;
            }
            &setup.moves
        }
    };
    for line in append_lines(new_moves) {
        expect(f, Request::Append(&line), MOVED)?;
    }
    let budget = match request.limit {
        Limit::Millis(ms) => Budget::TimeMs(
            u32::try_from(ms)
                .unwrap_or(Budget::MAX_MS)
                .clamp(1, Budget::MAX_MS),
        ),
        Limit::Nodes(n) => Budget::Nodes(n.clamp(1, Budget::MAX_NODES)),
        Limit::Infinite => Budget::Nodes(Budget::MAX_NODES),
    };
    expect(f, Request::Budget(budget), &[Word::Ok])?;
    let white = setup.game.position().turn() == kgames_chess::square::Color::White;
    let cpu = if white {
        Request::CpuMoveForHuman
    } else {
        Request::CpuMove
    };
    let reply = command(f, cpu)?;
    match reply.word() {
        Some(w) if MOVED.contains(&w) => {}
        Some(Word::NoGame) => return Ok(None),
        _ => return Err(format!("the CPU's move: {}", reply.line())),
    }
    let last = command(f, Request::LastMove)?;
    let mv = last.line().split(' ').nth(1).map(str::to_string);
    let reply = command(f, Request::Status)?;
    let status = reply.status();
    let number = |key| status.number::<i64>(key);
    let info = Info {
        depth: number("depth").unwrap_or(0).max(0) as u32,
        seldepth: 0,
        score: number("score").unwrap_or(0) as i32,
        nodes: number("nodes").unwrap_or(0).max(0) as u64,
        time_ms: start.elapsed().as_millis() as u64,
        pv: status
            .get("pv")
            .map(|pv| {
                pv.split(',')
                    .filter(|m| !m.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default(),
    };
    send(&info.line());
    Ok(mv)
}

/// The search thread: returns the game it left on the device (`None` after an error or
/// when the game had no move: the next search rebuilds it).
fn run(
    file: Arc<kgames_client::Device>,
    on_device: Option<OnDevice>,
    setup: Setup,
    request: SearchRequest,
    stopped: Arc<AtomicBool>,
    answered: Arc<AtomicBool>,
) -> Option<OnDevice> {
    let start = Instant::now();
    let found = match search(&file, on_device.as_ref(), &setup, request, start) {
        Ok(m) => m,
        Err(e) => {
            send(&format!("info string /dev/chess: {e}"));
            None
        }
    };
    while request.wait_for_stop && !stopped.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(1));
    }
    let line = match &found {
        Some(m) => format!("bestmove {m}"),
        None => bestmove_line(any_legal_move(&setup.game)),
    };
    // Before `bestmove`, as in the host engine: a command read after it finds the search over.
    answered.store(true, Ordering::Release);
    send(&line);
    let Setup { fen, mut moves, .. } = setup;
    moves.push(found?);
    Some(OnDevice { fen, moves })
}

impl Engine for Device {
    fn name(&self) -> String {
        "kgames (/dev/chess)".to_string()
    }

    fn new_game(&mut self) -> Result<(), String> {
        self.wait();
        // The next search starts a new game on the device (`00`), with a cleared table.
        self.on_device = None;
        Ok(())
    }

    fn set_hash_mb(&mut self, _mb: u64) -> Result<(), String> {
        Err("Hash is the module parameter tt_entries in device mode".to_string())
    }

    fn go(&mut self, setup: &Setup, mut request: SearchRequest) -> Result<(), String> {
        self.wait();
        if request.depth.take().is_some() {
            send("info string /dev/chess has no depth limit: searching within the budget");
            if request.limit == Limit::Infinite && !request.wait_for_stop {
                request.limit = Limit::Millis(1000);
            }
        }
        self.stopped.store(false, Ordering::Relaxed);
        self.answered.store(false, Ordering::Relaxed);
        let (file, setup, stopped) = (
            Arc::clone(&self.dev),
            setup.clone(),
            Arc::clone(&self.stopped),
        );
        let answered = Arc::clone(&self.answered);
        let on_device = self.on_device.take();
        let handle = std::thread::Builder::new()
            .name("device".into())
            .spawn(move || run(file, on_device, setup, request, stopped, answered))
            .map_err(|e| format!("cannot start the device thread: {e}"))?;
        self.worker = Some(handle);
        Ok(())
    }

    fn stop(&mut self) {
        if self.worker.is_some() {
            self.stopped.store(true, Ordering::Relaxed);
            if let Err(e) = self.dev.stop_search() {
                send(&format!(
                    "info string /dev/chess: the stop ioctl failed: {e}"
                ));
            }
        }
        self.wait();
    }

    fn wait(&mut self) {
        if let Some(handle) = self.worker.take() {
            match handle.join() {
                Ok(game) => self.on_device = game,
                Err(_) => send("info string the device thread failed"),
            }
        }
    }

    fn finished(&self) -> Option<bool> {
        search_over(self.worker.as_ref(), &self.answered)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_that_continues_the_device_game_appends_only_its_new_moves() {
        let text = |v: &[&str]| v.iter().map(|m| m.to_string()).collect::<Vec<_>>();
        let setup =
            |fen: Option<&str>, moves: &[&str]| Setup::from_command(fen, &text(moves)).unwrap().0;
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
        let device = OnDevice {
            fen: None,
            moves: text(&["e2e4", "e7e5"]),
        };
        let on = Some(&device);
        let next = setup(None, &["e2e4", "e7e5", "g1f3", "b8c6"]);
        assert_eq!(continuation(on, &next), Some(&next.moves[2..]));
        let same = setup(None, &["e2e4", "e7e5"]);
        assert_eq!(continuation(on, &same), Some(&[][..]));
        // A take-back, another line, another start, or nothing known: rebuilt.
        assert_eq!(continuation(on, &setup(None, &["e2e4"])), None);
        assert_eq!(continuation(on, &setup(None, &["d2d4", "e7e5"])), None);
        assert_eq!(continuation(on, &setup(Some(fen), &[])), None);
        assert_eq!(continuation(None, &next), None);
    }

    #[test]
    fn append_lines_fit_the_line_limit() {
        let moves: Vec<String> = (0..300)
            .map(|i| if i % 2 == 0 { "g1f3" } else { "e7e8q" }.to_string())
            .collect();
        let lines = append_lines(&moves);
        assert!(lines.len() > 1);
        for l in &lines {
            let line = format!("{}\n", encode(&Request::Append(l)));
            assert!(line.len() <= LINE_MAX, "{line}");
            assert_eq!(
                Request::parse(line.trim_end().as_bytes(), |_| true),
                Ok(Request::Append(l))
            );
        }
        let back: Vec<&str> = lines.iter().flat_map(|l| l.split(' ')).collect();
        assert_eq!(back, moves.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(append_lines(&[]).is_empty());
    }
}
