//! What both modes share: the game the GUI set up, the engine interface, and the `info` /
//! `bestmove` lines.

use crate::timeman::Limit;
use kgames_chess::common::text::BufWriter;
use kgames_chess::fen::FenError;
use kgames_chess::game::Game;
use kgames_chess::moves::{Move, MoveList};
use kgames_chess::notation::write_uci;
use kgames_chess::position::Position;
use kgames_chess::search::MATE;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

/// The game as the GUI described it: the start (a FEN or the start position), the moves
/// from there, and the resulting game (with its repetition history).
#[derive(Clone, Debug, Default)]
pub struct Setup {
    /// The FEN of the start, `None` for the standard start position.
    pub fen: Option<String>,
    /// The moves played from the start (legal, in UCI notation).
    pub moves: Vec<String>,
    /// The game after those moves.
    pub game: Game,
}

impl Setup {
    /// The setup of a `position` command. A bad FEN is an error (the caller keeps the old
    /// setup); an illegal or malformed move ends the list there, and its message comes back
    /// with the setup of the moves before it.
    pub fn from_command(
        fen: Option<&str>,
        moves: &[String],
    ) -> Result<(Setup, Option<String>), String> {
        let game = match fen {
            None => Game::new(),
            Some(f) => match Position::from_fen(f.as_bytes()) {
                Ok(pos) => Game::from_position(pos),
                Err(e) => {
                    return Err(format!(
                        "invalid FEN ({}): {}",
                        fen_error(e),
                        crate::protocol::clip(f)
                    ))
                }
            },
        };
        let mut setup = Setup {
            fen: fen.map(str::to_string),
            moves: Vec::new(),
            game,
        };
        for (i, text) in moves.iter().enumerate() {
            let parsed = kgames_chess::notation::parse_uci(setup.game.position(), text.as_bytes());
            let problem = match parsed {
                Ok(_) if setup.game.is_over() => Some("the game is already over"),
                Ok(m) => {
                    setup.game.play(m);
                    setup.moves.push(uci(m));
                    None
                }
                Err(_) => Some("illegal or malformed move"),
            };
            if let Some(why) = problem {
                let msg = format!(
                    "position: move {} {}: {why}; ignoring it and the {} after it",
                    i + 1,
                    crate::protocol::clip(text),
                    moves.len() - i - 1
                );
                return Ok((setup, Some(msg)));
            }
        }
        Ok((setup, None))
    }
}

fn fen_error(e: FenError) -> String {
    format!("{e:?}")
}

/// What a search is asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchRequest {
    /// The budget.
    pub limit: Limit,
    /// The deepest iteration (`go depth`).
    pub depth: Option<u32>,
    /// `go infinite`/`go ponder`: `bestmove` only after `stop`.
    pub wait_for_stop: bool,
}

/// A UCI engine behind the front end: it searches in the background and prints its own
/// `info` and `bestmove` lines.
pub trait Engine {
    /// The name for `id name`.
    fn name(&self) -> String;
    /// `ucinewgame`: forget the previous game.
    fn new_game(&mut self) -> Result<(), String>;
    /// Sets the transposition table size in MiB.
    fn set_hash_mb(&mut self, mb: u64) -> Result<(), String>;
    /// Starts searching `setup` (the previous search has ended).
    fn go(&mut self, setup: &Setup, request: SearchRequest) -> Result<(), String>;
    /// Makes the search in flight, if any, return its best move so far, and waits until it
    /// has printed `bestmove`.
    fn stop(&mut self);
    /// Waits for the search in flight, if any, to end by itself.
    fn wait(&mut self);
    /// Whether the search is over: it is printing `bestmove` or its thread has ended
    /// (`None`: no search was started since the last wait).
    fn finished(&self) -> Option<bool>;
    /// True while a search runs (a finished one is joined).
    fn searching(&mut self) -> bool {
        match self.finished() {
            Some(true) => {
                self.wait();
                false
            }
            Some(false) => true,
            None => false,
        }
    }
}

/// [`Engine::finished`] for a search run by `worker` that sets `answered` just before it
/// prints `bestmove` (so a command read after `bestmove` always finds the search over;
/// joining the thread then waits only for that print).
pub fn search_over<T>(worker: Option<&JoinHandle<T>>, answered: &AtomicBool) -> Option<bool> {
    worker.map(|h| h.is_finished() || answered.load(Ordering::Acquire))
}

/// Prints one line to standard output at once (the GUI reads line by line).
pub fn send(line: &str) {
    let mut out = std::io::stdout().lock();
    // A closed pipe means the GUI is gone: nothing to tell anyone.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// A move in UCI notation.
pub fn uci(m: Move) -> String {
    let mut buf = [0u8; 8];
    let mut w = BufWriter::new(&mut buf);
    let _ = write_uci(m, &mut w);
    String::from_utf8_lossy(w.as_bytes()).into_owned()
}

/// The UCI score: `cp N` or `mate N` (moves, negative when being mated).
pub fn score(score: i32) -> String {
    let to_mate = MATE - score.abs();
    if to_mate <= 1000 {
        let moves = (to_mate + 1) / 2;
        format!("mate {}", if score > 0 { moves } else { -moves })
    } else {
        format!("cp {score}")
    }
}

/// Facts for one `info` line.
#[derive(Clone, Debug, Default)]
pub struct Info {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score for the side to move.
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds since the search began.
    pub time_ms: u64,
    /// The principal variation in UCI notation.
    pub pv: Vec<String>,
}

impl Info {
    /// The `info depth ... pv ...` line.
    pub fn line(&self) -> String {
        let nps = self.nodes * 1000 / self.time_ms.max(1);
        let mut line = format!(
            "info depth {} seldepth {} score {} nodes {} nps {} time {}",
            self.depth,
            self.seldepth,
            score(self.score),
            self.nodes,
            nps,
            self.time_ms
        );
        if !self.pv.is_empty() {
            line.push_str(" pv ");
            line.push_str(&self.pv.join(" "));
        }
        line
    }
}

/// A legal move of `game`'s position when the search has none to give (the game is over by
/// a rule the GUI may not apply, e.g. threefold repetition), else `None`.
pub fn any_legal_move(game: &Game) -> Option<Move> {
    let mut list = MoveList::new();
    game.position().legal_moves(&mut list);
    list.get(0)
}

/// The `bestmove` line (`0000` when there is no legal move).
pub fn bestmove_line(m: Option<Move>) -> String {
    match m {
        Some(m) => format!("bestmove {}", uci(m)),
        None => "bestmove 0000".to_string(),
    }
}
