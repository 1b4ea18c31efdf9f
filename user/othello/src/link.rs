//! The engine's side of the protocol: one game of the kernel's engine against whatever is on
//! the other end of the line.
//!
//! [`Link`] is a pure state machine over an [`Engine`]: the caller feeds it framed lines with
//! their arrival time ([`Link::input`]), lets the engine move when [`Link::wants_move`], calls
//! [`Link::tick`] at [`Link::deadline`] for resends, and writes out [`Link::take_output`].
//! Times are milliseconds on any monotonic base.
//!
//! Rules (docs/tools/othello-link.md):
//! - replies `OK`/`ER`/`IL`/`IT`/`PL` go out at once; `MM`, `MP`, `WN`, `LS`, `TE`, `QT` are
//!   kept until the opponent's `OK` (its next `MV`/`PS` counts as one), one at a time, and
//!   resent every `resend_ms` up to `retries` times; then the game is abandoned;
//! - the opponent's clock runs from the `OK` to `NG`, or from the sending of the engine's
//!   move, or from an `IL`/`IT`; a move later than the move time is `IT`, an illegal one (or
//!   one out of turn) `IL`: either is void and the opponent moves again (`PL` is optional);
//!   `max_violations` in a row lose the game by forfeit (`WN`);
//! - an `IL`/`IT` relayed to the engine about its own unacknowledged move takes it back; the
//!   engine answers `PL` and moves again (`max_violations` in a row: `LS`).

use std::collections::VecDeque;
use std::io;

use kgames_common::budget::Budget;
use kgames_reversi::position::{Color, Position};

use crate::engine::Engine;
use crate::lines::Line;
use crate::wire::{Cmd, Msg, DEFAULT_MOVE_TIME};

/// The link's settings from its command line.
#[derive(Clone, Debug)]
pub struct Config {
    /// A fixed engine budget (`--budget`); `None`: the move time less `margin_ms`.
    pub budget: Option<Budget>,
    /// Safety margin between the engine's budget and the move time, ms.
    pub margin_ms: u32,
    /// The position every `NG` starts from (`--position`); `None`: the start position.
    pub position: Option<Position>,
    /// Resign (`QT`) once an exact search proves the game lost.
    pub resign: bool,
    /// Resend an unacknowledged message after this many ms.
    pub resend_ms: u64,
    /// Resends before the game is abandoned.
    pub retries: u32,
    /// Consecutive `IL`/`IT` that lose the game.
    pub max_violations: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            budget: None,
            margin_ms: 300,
            position: None,
            resign: false,
            resend_ms: 1000,
            retries: 3,
            max_violations: 3,
        }
    }
}

/// Whether a game runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// No game yet (or after `RST`).
    Idle,
    /// A game in progress.
    Playing,
    /// The game ended (result, `EG`, forfeit, resignation or abandon).
    Over,
}

/// A result from the engine's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The engine won.
    Win,
    /// The engine lost.
    Lose,
    /// A tie.
    Tie,
}

/// What the display shows: independent of the engine.
#[derive(Clone, Debug)]
pub struct View {
    /// The game state.
    pub phase: Phase,
    /// The current position.
    pub pos: Position,
    /// The moves so far (`None`: a pass).
    pub moves: Vec<Option<u8>>,
    /// The opponent's colour.
    pub opp: Color,
    /// The move time in seconds.
    pub move_time: u8,
    /// Milliseconds used by X (black) and O (white).
    pub used_ms: [u64; 2],
    /// The result once known.
    pub result: Option<Outcome>,
    /// Games started so far (`NG`s).
    pub games: u32,
}

impl View {
    /// The engine's colour.
    pub fn engine(&self) -> Color {
        self.opp.other()
    }
}

/// A message waiting for its `OK`.
#[derive(Clone, Copy, Debug)]
struct Unacked {
    msg: Msg,
    sent: u64,
    resends: u32,
}

/// The engine side of one serial line.
pub struct Link<E: Engine> {
    engine: E,
    cfg: Config,
    view: View,
    before_engine: Option<Position>,
    unacked: Option<Unacked>,
    queue: VecDeque<Msg>,
    opp_since: u64,
    opp_violations: u32,
    eng_violations: u32,
    out: Vec<String>,
    notes: Vec<String>,
}

fn idx(c: Color) -> usize {
    match c {
        Color::X => 0,
        Color::O => 1,
    }
}

impl<E: Engine> Link<E> {
    /// No game yet; the opponent plays black, 2 s per move.
    pub fn new(engine: E, cfg: Config) -> Self {
        Link {
            engine,
            view: View {
                phase: Phase::Idle,
                pos: cfg.position.unwrap_or_else(Position::start),
                moves: Vec::new(),
                opp: Color::X,
                move_time: DEFAULT_MOVE_TIME,
                used_ms: [0; 2],
                result: None,
                games: 0,
            },
            cfg,
            before_engine: None,
            unacked: None,
            queue: VecDeque::new(),
            opp_since: 0,
            opp_violations: 0,
            eng_violations: 0,
            out: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// The state for the display.
    pub fn view(&self) -> &View {
        &self.view
    }

    /// Lines to write, in order (without their ends).
    pub fn take_output(&mut self) -> Vec<String> {
        std::mem::take(&mut self.out)
    }

    /// Events worth showing (violations, resends, abandons).
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// When [`tick`](Self::tick) must run next (a resend), if ever.
    pub fn deadline(&self) -> Option<u64> {
        self.unacked
            .map(|u| u.sent.saturating_add(self.cfg.resend_ms))
    }

    /// True when the engine is to move now.
    pub fn wants_move(&self) -> bool {
        self.view.phase == Phase::Playing
            && self.unacked.is_none()
            && self.view.pos.side_to_move() == self.view.engine()
            && !self.view.pos.is_over()
    }

    fn reply(&mut self, m: Msg) {
        self.out.push(m.text());
    }

    fn announce(&mut self, m: Msg, now: u64) {
        if self.unacked.is_some() {
            self.queue.push_back(m);
        } else {
            self.out.push(m.text());
            self.unacked = Some(Unacked {
                msg: m,
                sent: now,
                resends: 0,
            });
        }
    }

    fn budget(&self) -> Budget {
        self.cfg.budget.unwrap_or_else(|| {
            let ms = u32::from(self.view.move_time) * 1000;
            Budget::TimeMs(ms.saturating_sub(self.cfg.margin_ms).max(50))
        })
    }

    /// Handles one framed line that arrived at `now`.
    pub fn input(&mut self, line: &Line, now: u64) -> io::Result<()> {
        let cmd = match line {
            Line::Text(t) => Cmd::parse(t),
            Line::TooLong => None,
        };
        let Some(cmd) = cmd else {
            self.reply(Msg::Er);
            return Ok(());
        };
        match cmd {
            Cmd::At => self.reply(Msg::Ok),
            Cmd::Rst => {
                self.drop_game();
                self.view.phase = Phase::Idle;
                self.view.opp = Color::X;
                self.view.move_time = DEFAULT_MOVE_TIME;
                self.reply(Msg::Ok);
            }
            Cmd::Sp(c) => {
                self.view.opp = c;
                self.reply(Msg::Ok);
            }
            Cmd::St(n) => {
                self.view.move_time = n;
                if self.view.phase == Phase::Playing {
                    self.engine.set_budget(self.budget())?;
                }
                self.reply(Msg::Ok);
            }
            Cmd::Ng => self.new_game(now)?,
            Cmd::Eg => {
                if self.view.phase == Phase::Playing {
                    self.view.phase = Phase::Over;
                    self.notes.push("game ended by EG".into());
                }
                self.drop_game();
                self.reply(Msg::Ok);
            }
            Cmd::Mv(sq) => self.opponent(Some(sq), now)?,
            Cmd::Ps => self.opponent(None, now)?,
            Cmd::Ok => self.acknowledged(now),
            Cmd::Pl => {}
            Cmd::Il | Cmd::It => self.refused(cmd, now)?,
        }
        Ok(())
    }

    fn drop_game(&mut self) {
        self.unacked = None;
        self.queue.clear();
    }

    fn new_game(&mut self, now: u64) -> io::Result<()> {
        self.drop_game();
        let pos = self.cfg.position.unwrap_or_else(Position::start);
        self.engine.start(&pos, self.view.engine())?;
        self.engine.set_budget(self.budget())?;
        self.view.pos = pos;
        self.view.moves.clear();
        self.view.used_ms = [0; 2];
        self.view.result = None;
        self.view.phase = Phase::Playing;
        self.view.games = self.view.games.saturating_add(1);
        self.before_engine = None;
        self.opp_violations = 0;
        self.eng_violations = 0;
        self.opp_since = now;
        self.reply(Msg::Ok);
        self.check_end(now);
        Ok(())
    }

    fn opponent(&mut self, mv: Option<u8>, now: u64) -> io::Result<()> {
        if self.view.phase != Phase::Playing {
            self.reply(Msg::Er);
            return Ok(());
        }
        // The opponent's move shows it got ours: it acknowledges.
        if matches!(self.unacked, Some(u) if matches!(u.msg, Msg::Mm(_) | Msg::Mp)) {
            self.unacked = None;
        }
        let pos = self.view.pos;
        let used = now.saturating_sub(self.opp_since);
        let next = if pos.side_to_move() != self.view.opp {
            Err((Msg::Il, "a move out of turn".to_string()))
        } else if used > u64::from(self.view.move_time) * 1000 {
            Err((Msg::It, format!("a move after {used} ms")))
        } else {
            match mv {
                Some(sq) => pos.play(sq),
                None => pos.pass(),
            }
            .ok_or((Msg::Il, "an illegal move".to_string()))
        };
        let next = match next {
            Ok(next) => next,
            Err((m, what)) => {
                self.violation(m, &what, now);
                return Ok(());
            }
        };
        self.engine.opponent(mv)?;
        self.view.pos = next;
        self.view.moves.push(mv);
        let i = idx(self.view.opp);
        self.view.used_ms[i] = self.view.used_ms[i].saturating_add(used);
        self.opp_violations = 0;
        self.reply(Msg::Ok);
        self.check_end(now);
        Ok(())
    }

    fn violation(&mut self, m: Msg, what: &str, now: u64) {
        self.reply(m);
        self.opp_violations = self.opp_violations.saturating_add(1);
        self.opp_since = now;
        self.notes.push(format!(
            "{}: {what} ({} of {} allowed in a row)",
            m.text(),
            self.opp_violations,
            self.cfg.max_violations
        ));
        if self.opp_violations >= self.cfg.max_violations {
            self.notes.push("the opponent forfeits".into());
            self.finish(Outcome::Win, now);
        }
    }

    fn acknowledged(&mut self, now: u64) {
        let Some(u) = self.unacked.take() else {
            return;
        };
        if matches!(u.msg, Msg::Mm(_) | Msg::Mp) {
            self.eng_violations = 0;
        }
        if let Some(m) = self.queue.pop_front() {
            self.announce(m, now);
        }
    }

    /// `IL`/`IT` about the engine's own unacknowledged move: take it back, `PL`, move again.
    fn refused(&mut self, cmd: Cmd, now: u64) -> io::Result<()> {
        let (Some(u), Some(before)) = (self.unacked, self.before_engine) else {
            self.reply(Msg::Er);
            return Ok(());
        };
        if !matches!(u.msg, Msg::Mm(_) | Msg::Mp) {
            self.reply(Msg::Er);
            return Ok(());
        }
        self.drop_game();
        self.view.pos = before;
        self.view.moves.pop();
        self.view.result = None;
        self.view.phase = Phase::Playing;
        self.before_engine = None;
        self.engine.start(&before, self.view.engine())?;
        self.eng_violations = self.eng_violations.saturating_add(1);
        self.notes.push(format!(
            "our {} was refused with {}",
            u.msg.text(),
            cmd.text()
        ));
        self.reply(Msg::Pl);
        if self.eng_violations >= self.cfg.max_violations {
            self.notes.push("the engine forfeits".into());
            self.finish(Outcome::Lose, now);
        }
        Ok(())
    }

    /// The engine's turn: searches through the engine and announces `MM`/`MP` (or `QT`).
    /// `now` is read after the search: the opponent's clock starts when the move is sent.
    pub fn engine_move(&mut self, now: &dyn Fn() -> u64) -> io::Result<()> {
        let t0 = now();
        let d = self.engine.think()?;
        let t1 = now();
        let me = self.view.engine();
        let i = idx(me);
        self.view.used_ms[i] = self.view.used_ms[i].saturating_add(t1.saturating_sub(t0));
        let pos = self.view.pos;
        let next = match d.mv {
            Some(sq) => pos.play(sq),
            None => pos.pass(),
        }
        .ok_or_else(|| io::Error::other(format!("the engine's move {:?} is illegal", d.mv)))?;
        if self.cfg.resign && matches!(d.score, Some((s, true)) if s < 0) {
            self.notes.push(format!(
                "resigning: the exact result is {:+}",
                d.score.map_or(0, |s| s.0)
            ));
            self.view.phase = Phase::Over;
            self.view.result = Some(Outcome::Lose);
            self.announce(Msg::Qt, t1);
            return Ok(());
        }
        self.before_engine = Some(pos);
        self.view.pos = next;
        self.view.moves.push(d.mv);
        self.announce(d.mv.map_or(Msg::Mp, Msg::Mm), t1);
        self.opp_since = t1;
        self.check_end(t1);
        Ok(())
    }

    fn check_end(&mut self, now: u64) {
        let pos = self.view.pos;
        if !pos.is_over() {
            return;
        }
        let r = match pos.winner() {
            None => Outcome::Tie,
            Some(c) if c == self.view.engine() => Outcome::Win,
            Some(_) => Outcome::Lose,
        };
        self.finish(r, now);
    }

    fn finish(&mut self, r: Outcome, now: u64) {
        self.view.phase = Phase::Over;
        self.view.result = Some(r);
        let m = match r {
            Outcome::Win => Msg::Wn,
            Outcome::Lose => Msg::Ls,
            Outcome::Tie => Msg::Te,
        };
        self.announce(m, now);
    }

    /// Resends the unacknowledged message when its time has come; abandons the game after
    /// `retries` resends.
    pub fn tick(&mut self, now: u64) {
        let Some(mut u) = self.unacked else {
            return;
        };
        if now < u.sent.saturating_add(self.cfg.resend_ms) {
            return;
        }
        if u.resends >= self.cfg.retries {
            self.notes.push(format!(
                "no OK for {} after {} resends: game abandoned",
                u.msg.text(),
                u.resends
            ));
            self.drop_game();
            if self.view.phase == Phase::Playing {
                self.view.phase = Phase::Over;
            }
            return;
        }
        u.resends += 1;
        u.sent = now;
        self.out.push(u.msg.text());
        self.notes
            .push(format!("resent {} ({})", u.msg.text(), u.resends));
        self.unacked = Some(u);
    }
}
