//! Device mode: the search runs in the kernel, through a private game on `/dev/chess`
//! ([`kgames_client::Device`]).
//!
//! Each `go` rebuilds the game on the device: `00 W`, `10 <FEN>` for a set-up start, the
//! moves with `12` (as many lines as the 256-byte limit needs, so the device's game has the
//! whole repetition history), the budget with `05`, then `03` (black to move: the CPU's
//! side) or `08` (white to move: the CPU plays for the "human"). `06` gives the move and `09`
//! the search's depth, score, nodes and principal variation. `stop` is
//! `KGAMES_IOC_STOP_SEARCH` on the same file from the main thread
//! ([`Transport::stop_search`]): the blocked `03`/`08` returns with the best move so far.

use crate::engine::{any_legal_move, bestmove_line, send, Engine, Info, SearchRequest, Setup};
use crate::timeman::Limit;
use kgames_client::{status_value, Sharing, Transport};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The device's line limit, `\n` included.
const LINE_MAX: usize = 256;
/// The largest time budget `05` accepts (ms).
const MAX_MS: u64 = 9000;
/// The largest node budget `05` accepts.
const MAX_NODES: u64 = 1_000_000_000_000;

/// The engine behind `/dev/chess`.
pub struct Device {
    dev: Arc<kgames_client::Device>,
    worker: Option<JoinHandle<()>>,
    stopped: Arc<AtomicBool>,
}

impl Device {
    /// Opens `path` and makes the file's game private.
    pub fn open(path: &str) -> Result<Device, String> {
        let dev = kgames_client::Device::open(path, Sharing::Private).map_err(|e| e.to_string())?;
        Ok(Device {
            dev: Arc::new(dev),
            worker: None,
            stopped: Arc::new(AtomicBool::new(false)),
        })
    }
}

/// Sends one command line and returns its reply.
fn command(dev: &kgames_client::Device, line: &str) -> Result<String, String> {
    dev.cmd(line)
        .map_err(|e| format!("{}: {e}", crate::protocol::clip(line)))
}

/// Sends a command that must answer one of `ok` words.
fn expect(dev: &kgames_client::Device, line: &str, ok: &[&str]) -> Result<String, String> {
    let reply = command(dev, line)?;
    let word = reply.trim_end();
    if ok.contains(&word) {
        Ok(word.to_string())
    } else {
        Err(format!("{}: {word}", crate::protocol::clip(line)))
    }
}

/// The `12` lines for `moves`, each within the line limit.
pub fn append_lines(moves: &[String]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::from("12");
    for m in moves {
        if line.len() + 1 + m.len() + 1 > LINE_MAX {
            lines.push(std::mem::replace(&mut line, String::from("12")));
        }
        line.push(' ');
        line.push_str(m);
    }
    if line.len() > 2 {
        lines.push(line);
    }
    lines
}

/// Sets up the game on the device and runs the CPU's move; returns the UCI move (or
/// `None` when the game has no move) and prints the search's `info` line.
fn search(
    f: &kgames_client::Device,
    setup: &Setup,
    request: SearchRequest,
    start: Instant,
) -> Result<Option<String>, String> {
    expect(f, "00 W", &["OK"])?;
    if let Some(fen) = &setup.fen {
        expect(f, &format!("10 {fen}"), &["OK"])?;
    }
    for line in append_lines(&setup.moves) {
        expect(f, &line, &["OK", "CHECK", "MATE", "TIE"])?;
    }
    let budget = match request.limit {
        Limit::Millis(ms) => ms.clamp(1, MAX_MS).to_string(),
        Limit::Nodes(n) => format!("N{}", n.clamp(1, MAX_NODES)),
        Limit::Infinite => format!("N{MAX_NODES}"),
    };
    expect(f, &format!("05 {budget}"), &["OK"])?;
    let white = setup.game.position().turn() == kgames_chess::square::Color::White;
    let reply = command(f, if white { "08" } else { "03" })?;
    match reply.trim_end() {
        "OK" | "CHECK" | "MATE" | "TIE" => {}
        "NOGAME" => return Ok(None),
        other => return Err(format!("the CPU's move: {other}")),
    }
    let last = command(f, "06")?;
    let mv = last.split_whitespace().nth(1).map(str::to_string);
    let status = command(f, "09")?;
    let number = |key| status_value(&status, key).and_then(|v| v.parse::<i64>().ok());
    let info = Info {
        depth: number("depth").unwrap_or(0).max(0) as u32,
        seldepth: 0,
        score: number("score").unwrap_or(0) as i32,
        nodes: number("nodes").unwrap_or(0).max(0) as u64,
        time_ms: start.elapsed().as_millis() as u64,
        pv: status_value(&status, "pv")
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

fn run(
    file: Arc<kgames_client::Device>,
    setup: Setup,
    request: SearchRequest,
    stopped: Arc<AtomicBool>,
) {
    let start = Instant::now();
    let found = match search(&file, &setup, request, start) {
        Ok(m) => m,
        Err(e) => {
            send(&format!("info string /dev/chess: {e}"));
            None
        }
    };
    while request.wait_for_stop && !stopped.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(1));
    }
    let line = match found {
        Some(m) => format!("bestmove {m}"),
        None => bestmove_line(any_legal_move(&setup.game)),
    };
    send(&line);
}

impl Engine for Device {
    fn name(&self) -> String {
        "kgames (/dev/chess)".to_string()
    }

    fn new_game(&mut self) -> Result<(), String> {
        self.wait();
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
        let (file, setup, stopped) = (
            Arc::clone(&self.dev),
            setup.clone(),
            Arc::clone(&self.stopped),
        );
        let handle = std::thread::Builder::new()
            .name("device".into())
            .spawn(move || run(file, setup, request, stopped))
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
            if handle.join().is_err() {
                send("info string the device thread failed");
            }
        }
    }

    fn finished(&self) -> Option<bool> {
        self.worker.as_ref().map(JoinHandle::is_finished)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn append_lines_fit_the_line_limit() {
        let moves: Vec<String> = (0..300)
            .map(|i| if i % 2 == 0 { "g1f3" } else { "e7e8q" }.to_string())
            .collect();
        let lines = append_lines(&moves);
        assert!(lines
            .iter()
            .all(|l| l.len() < LINE_MAX && l.starts_with("12 ")));
        let back: Vec<&str> = lines.iter().flat_map(|l| l[3..].split(' ')).collect();
        assert_eq!(back, moves.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(append_lines(&[]).is_empty());
    }
}
