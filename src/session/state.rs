//! The command state machine of one game (docs/protocol.md, "Framing and errors",
//! "Extra commands").
//!
//! [`Session::execute`] answers a command at once, or hands back a copy of the game to search
//! ([`Action::Think`]) and marks the session busy; the caller searches without holding any
//! lock and then calls [`Session::finish`] (or [`Session::cancel`] after a signal). While busy,
//! only `01` may be answered (from the position before the move): the caller makes every
//! other command wait until the session is idle again.

use core::fmt::Write;

use super::command::frame;
use super::game::{Game, Thought};
use super::protocol::Request;
use super::reply::{Reply, Word};
use crate::common::budget::Budget;
use crate::uapi::state::KxoState;

/// Table figures shown by `09`, and the device's own extra `key=value` pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CommandContext {
    /// Live games of the device.
    pub games: usize,
    /// Cap on live games of the device.
    pub max_games: usize,
    /// Appended to `09` before its newline (each pair preceded by a space).
    pub extra: StatusExtra,
    /// A number the device makes different for each command (a counter): a `00` or `10`
    /// seeds its game from it, or names the game by it ([`Game::parse_new`]).
    pub nonce: u64,
}

/// A short text the device appends to `09`.
///
/// Invariant: `len <= 128`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatusExtra {
    buf: [u8; 128],
    len: usize,
}

impl Default for StatusExtra {
    fn default() -> Self {
        StatusExtra {
            buf: [0; 128],
            len: 0,
        }
    }
}

impl StatusExtra {
    /// The text.
    pub fn as_bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }

    /// What a kxo player file's `09` adds: the AI-vs-AI machine's figures `s`, and whether
    /// the TD agent is trained (docs/protocol.md, "kxo machine keys").
    pub fn kxo_machine(s: &KxoState, td_ready: bool) -> Self {
        let mut out = StatusExtra::default();
        // 99 bytes at most (every figure at its widest): the buffer's 128 hold it.
        let _ = out.write_fmt(format_args!(
            " ai_games={} watchers={} paused={} stopped={} seq={} td_ready={}",
            s.games,
            s.watchers,
            s.paused,
            s.stopped,
            s.seq,
            u8::from(td_ready)
        ));
        out
    }
}

impl core::fmt::Write for StatusExtra {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len.checked_add(s.len()).ok_or(core::fmt::Error)?;
        let dst = self.buf.get_mut(self.len..end).ok_or(core::fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// What the caller does after [`Session::execute`].
pub enum Action<G> {
    /// The reply is ready.
    Done,
    /// Search a move for the side to move of this copy, then call [`Session::finish`].
    Think(G),
}

/// One game slot: the game (if one was started), the human's side, the CPU's budget.
///
/// Invariant: while `busy`, `game` is `Some`, in progress, and no command but `01` runs.
#[derive(Clone)]
pub struct Session<G: Game> {
    game: Option<G>,
    human: G::Side,
    budget: Budget,
    busy: bool,
    /// The device's settings for new games.
    config: G::Config,
}

impl<G: Game> Default for Session<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game> Session<G> {
    /// No game yet, the default side and budget, the game's default settings.
    pub fn new() -> Self {
        Self::with_config(G::Config::default())
    }

    /// No game yet, the default side and budget; new games use `config`.
    pub fn with_config(config: G::Config) -> Self {
        Session {
            game: None,
            human: G::default_side(),
            budget: Budget::DEFAULT,
            busy: false,
            config,
        }
    }

    /// True for the command numbers this device knows.
    pub fn known(n: u8) -> bool {
        matches!(n, 0..=4 | 9 | 99) || G::EXTRAS.contains(&n)
    }

    /// True while a CPU search is in flight.
    pub fn is_busy(&self) -> bool {
        self.busy
    }

    /// The CPU's budget per move.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// The game, if one was started.
    pub fn game(&self) -> Option<&G> {
        self.game.as_ref()
    }

    /// True if the raw write may be answered while a search is in flight (`01`).
    pub fn answers_while_busy(raw: &[u8]) -> bool {
        matches!(frame(raw), Ok(b"01"))
    }

    fn in_progress(&mut self) -> Result<&mut G, Word> {
        match self.game.as_mut() {
            Some(g) if !g.is_over() => Ok(g),
            _ => Err(Word::NoGame),
        }
    }

    fn started(&self) -> Result<&G, Word> {
        self.game.as_ref().ok_or(Word::NoGame)
    }

    /// Runs one write. The reply goes to `out` (replaced), unless a search is needed.
    pub fn execute(&mut self, raw: &[u8], env: &CommandContext, out: &mut Reply) -> Action<G> {
        out.clear();
        match self.dispatch(raw, env, out) {
            Ok(Some(copy)) => {
                self.busy = true;
                Action::Think(copy)
            }
            Ok(None) => Action::Done,
            Err(w) => {
                out.set_word(w);
                Action::Done
            }
        }
    }

    fn dispatch(
        &mut self,
        raw: &[u8],
        env: &CommandContext,
        out: &mut Reply,
    ) -> Result<Option<G>, Word> {
        let line = frame(raw)?;
        if self.busy && line != b"01" {
            // The caller waits for the search; reaching this is a caller bug: change nothing.
            Request::parse(line, Self::known)?;
            return Err(Word::Oot);
        }
        let word = match Request::parse(line, Self::known)? {
            Request::New(args) => {
                let (side, game) =
                    G::parse_new(args.as_bytes(), &self.config, env.nonce).ok_or(Word::InvFmt)?;
                self.human = side;
                self.game = Some(game);
                Word::Ok
            }
            Request::Board => {
                match &self.game {
                    Some(g) => g.write_board(out),
                    None if G::BOARD_BEFORE_GAME => G::write_idle_board(out),
                    None => return Err(Word::NoGame),
                }
                return Ok(None);
            }
            Request::Move(args) => {
                let input = G::parse_move(args.as_bytes()).ok_or(Word::InvFmt)?;
                let g = self.in_progress()?;
                if !g.human_to_move() {
                    return Err(Word::Oot);
                }
                g.play_human(input)?
            }
            r @ (Request::CpuMove | Request::CpuMoveForHuman) => {
                let g = self.in_progress()?;
                if g.human_to_move() != (r == Request::CpuMoveForHuman) {
                    return Err(Word::Oot);
                }
                return Ok(Some(g.clone()));
            }
            Request::PassOrResign => {
                let g = self.in_progress()?;
                if !g.human_to_move() {
                    return Err(Word::Oot);
                }
                g.pass_or_resign()?
            }
            Request::Budget(b) => {
                self.budget = b;
                Word::Ok
            }
            r @ (Request::LastMove | Request::LegalMoves | Request::Position) => {
                let g = self.started()?;
                match r {
                    Request::LastMove => g.write_last(out),
                    Request::LegalMoves => g.write_legal(out),
                    _ => g.write_position(out),
                }
                let _ = out.push(b"\n");
                return Ok(None);
            }
            Request::Status => {
                self.write_status(env, out);
                return Ok(None);
            }
            Request::Append(args) => self.in_progress()?.append(args.as_bytes())?,
            Request::Setup(args) => {
                let g = G::setup(args.as_bytes(), self.human, env.nonce).ok_or(Word::InvFmt)?;
                self.game = Some(g);
                Word::Ok
            }
            Request::Help => {
                let _ = out.push(G::HELP.as_bytes());
                return Ok(None);
            }
        };
        out.set_word(word);
        Ok(None)
    }

    fn write_status(&self, env: &CommandContext, out: &mut Reply) {
        let state = match &self.game {
            None => "none",
            Some(g) if g.is_over() => "over",
            Some(_) => "playing",
        };
        let _ = write!(out, "device={} state={}", G::NAME, state);
        let _ = write!(out, " human={}", char::from(G::side_letter(self.human)));
        if let Some(g) = &self.game {
            g.write_status(out);
        }
        let _ = match self.budget {
            Budget::TimeMs(ms) => write!(out, " budget={ms}ms"),
            Budget::Nodes(n) => write!(out, " budget=N{n}"),
        };
        let _ = write!(out, " games={}/{}", env.games, env.max_games);
        let _ = out.push(env.extra.as_bytes());
        let _ = out.push(b"\n");
    }

    /// Applies the search result of [`Action::Think`] and writes its reply. An interrupted
    /// search changes nothing (the caller returns `ERESTARTSYS`).
    pub fn finish(&mut self, thought: Thought<G::Move>, out: &mut Reply) {
        self.busy = false;
        out.clear();
        if matches!(thought, Thought::Interrupted) {
            return;
        }
        let word = match self.game.as_mut() {
            Some(g) if !g.is_over() => g.play_thought(thought),
            _ => Word::NoGame,
        };
        out.set_word(word);
    }

    /// Ends a search without playing anything.
    pub fn cancel(&mut self) {
        self.busy = false;
    }
}
