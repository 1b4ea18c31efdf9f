//! The full-screen client: one loop over `kgames_term`'s events (keys, the CPU worker's
//! result, signals, the clock for the thinking indicator), the game, and a redraw.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use kgames_term::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, MouseButton, MouseEvent, MouseEventKind,
};
use kgames_term::events::{Event, Events, Sender};
use kgames_term::keys;
use kgames_term::look::Look;
use kgames_term::ratatui::layout::Rect;
use kgames_term::screen::Screen;

use crate::clocks::Clocks;
use crate::cpu::{CpuMove, CpuResult};
use crate::game::{Next, Options, Play, State};
use crate::kind::Kind;
use crate::link;
use crate::notation;
use crate::render::{self, View};
use kgames_client::{Request, Transport};

/// The clock: the spinner turns and an interrupt is repeated this often.
pub const TICK: Duration = Duration::from_millis(150);

/// Where new links come from (the switch key opens another device).
#[derive(Clone, Debug, Default)]
pub struct Opener {
    /// `--device`, for the first game type only.
    pub device: Option<String>,
    /// `--shared`.
    pub shared: bool,
    /// `--sim`.
    pub sim: bool,
}

impl Opener {
    /// Opens the line of `kind`.
    pub fn open(&self, kind: Kind, first: bool) -> Result<Arc<dyn Transport>, String> {
        let dev = if first { self.device.as_deref() } else { None };
        link::open(kind, dev, self.shared, self.sim)
    }
}

/// The screen's state around the game.
pub struct App {
    /// The game.
    pub play: Play,
    /// The input line.
    pub input: String,
    /// The cursor (display column, row).
    pub cursor: (u8, u8),
    /// Chess: the picked piece.
    pub selected: Option<usize>,
    /// Show the legal moves.
    pub show_legal: bool,
    /// Show the key help.
    pub help: bool,
    /// Glyphs and colours.
    pub look: Look,
    /// Looking back: the plies shown (fewer than played) and the game as it was then.
    pub looking: Option<(usize, State)>,
    /// The time each side spent in this game.
    pub clocks: Clocks,
    cpu: Option<CpuMove>,
    interrupting: bool,
    spin: usize,
    opener: Opener,
    label: String,
}

/// What a key asks of the loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep going.
    Go,
    /// Quit.
    Quit,
}

impl App {
    /// The app around a game (not started yet), drawn in `look`.
    pub fn new(play: Play, opener: Opener, look: Look) -> App {
        App {
            look,
            looking: None,
            clocks: Clocks::new(),
            input: String::new(),
            cursor: (3, 4),
            selected: None,
            show_legal: false,
            help: false,
            cpu: None,
            interrupting: false,
            spin: 0,
            opener,
            label: play.link.label(),
            play,
        }
    }

    /// The frame's view.
    pub fn view(&self) -> View<'_> {
        View {
            st: self.looking.as_ref().map_or(&self.play.st, |(_, st)| st),
            looking: self.looking.as_ref().map(|(k, _)| *k),
            clocks: {
                let st = &self.play.st;
                let sides = st.kind.sides();
                let idx = |side: char| usize::from(side != sides[0]);
                let now = Instant::now();
                (
                    self.clocks.spent(idx(st.human), now),
                    self.clocks.spent(idx(st.kind.other(st.human)), now),
                )
            },
            input: &self.input,
            cursor: self.cursor,
            selected: self.selected,
            thinking: self.cpu.as_ref().map(|_| self.spin),
            show_legal: self.show_legal,
            label: &self.label,
            look: self.look,
            help: self.help,
        }
    }

    /// True while the CPU's move is in flight.
    pub fn thinking(&self) -> bool {
        self.cpu.is_some()
    }

    /// Starts a new game (the first from `fen`) and, if the CPU opens, its move.
    pub fn new_game(&mut self, fen: Option<&str>, tx: &Sender<CpuResult>) {
        self.selected = None;
        self.looking = None;
        self.clocks = Clocks::new();
        self.input.clear();
        let n = match self.play.start(fen) {
            Ok(n) => n,
            Err(e) => {
                self.play.st.message = e;
                return;
            }
        };
        let c = self.play.st.n() / 2;
        self.cursor = (c.saturating_sub(1), c);
        self.after(n, tx);
    }

    fn after(&mut self, n: Next, tx: &Sender<CpuResult>) {
        if n == Next::Cpu {
            self.start_cpu(tx);
        }
    }

    fn start_cpu(&mut self, tx: &Sender<CpuResult>) {
        let tx = tx.clone();
        match CpuMove::start(self.play.link.clone(), Request::CpuMove, move |r| {
            tx.send(r);
        }) {
            Ok(c) => {
                self.cpu = Some(c);
                self.interrupting = false;
            }
            Err(e) => self.play.st.message = format!("cannot start the CPU's move: {e}"),
        }
    }

    /// Runs the clock of the side to move (none once the game is over).
    pub fn follow_clock(&mut self) {
        let st = &self.play.st;
        let to_move = (!st.over).then(|| usize::from(st.to_move != st.kind.sides()[0]));
        self.clocks.follow(to_move, Instant::now());
    }

    /// The CPU's result arrived.
    pub fn cpu_result(&mut self, r: CpuResult, tx: &Sender<CpuResult>) {
        self.cpu = None;
        let n = self.play.cpu_done(r);
        // Still looking back: the same ply, with the move list grown.
        if let Some((k, _)) = self.looking {
            self.looking = self.play.st.at_ply(k).map(|st| (k, st));
        }
        // After an interrupt the person decides (Enter lets the CPU move).
        if n == Next::Cpu && !self.interrupting {
            self.start_cpu(tx);
        }
        self.interrupting = false;
    }

    /// The clock ticked: turn the spinner, repeat a pending interrupt.
    pub fn tick(&mut self) {
        self.spin = self.spin.wrapping_add(1);
        if self.interrupting {
            if let Some(c) = &self.cpu {
                c.interrupt();
            }
        }
    }

    fn interrupt(&mut self) {
        if let Some(c) = &self.cpu {
            self.interrupting = true;
            self.play.st.message = "interrupting the CPU's move...".into();
            c.interrupt();
        }
    }

    fn switch_game(&mut self, tx: &Sender<CpuResult>) {
        let kind = self.play.st.kind.next();
        match self.opener.open(kind, false) {
            Ok(l) => {
                let opts = Options {
                    fen: None,
                    ..self.play.opts.clone()
                };
                self.label = l.label();
                self.play = Play::new(kind, l, opts, kind.default_side());
                self.new_game(None, tx);
            }
            Err(e) => self.play.st.message = e,
        }
    }

    fn enter(&mut self, tx: &Sender<CpuResult>) {
        let typed = std::mem::take(&mut self.input);
        if !typed.trim().is_empty() {
            self.selected = None;
            let n = self.play.human_move(&typed);
            return self.after(n, tx);
        }
        match self.play.next() {
            Next::Cpu => return self.start_cpu(tx),
            Next::Over => {
                self.play.st.message = "the game is over: n for a new game, q to quit".into();
                return;
            }
            Next::Human => {}
        }
        let (c, r) = self.cursor;
        let st = &self.play.st;
        let text = match st.kind {
            Kind::Reversi => notation::square_name(c, r),
            Kind::Kxo => format!("{c} {r}"),
            Kind::Chess => {
                let here = st.index(c, r);
                match self.selected.take() {
                    Some(from) if from != here => {
                        let name = |i: usize| {
                            let i = i as u8;
                            format!("{}{}", char::from(b'a' + i % 8), char::from(b'1' + i / 8))
                        };
                        let mut m = format!("{}{}", name(from), name(here));
                        // A pawn reaching the last rank by the cursor becomes a queen.
                        let promo = format!("{m}q");
                        if self.play.translate(&m).is_err() && self.play.translate(&promo).is_ok() {
                            m = promo;
                        }
                        m
                    }
                    Some(_) => {
                        self.play.st.message = "piece put back".into();
                        return;
                    }
                    None => {
                        let own = st.cell_char(here);
                        let white = st.human == 'W';
                        if own == '.' || own.is_ascii_uppercase() != white {
                            self.play.st.message =
                                "pick one of your pieces (Enter on it or click it), then its target".into();
                        } else {
                            self.selected = Some(here);
                            self.play.st.message =
                                "now Enter on (or click) the target square (Esc cancels)".into();
                        }
                        return;
                    }
                }
            }
        };
        let n = self.play.human_move(&text);
        self.after(n, tx);
    }

    /// A mouse report on a frame of `area`: a left click on a square of the board moves the
    /// cursor there and plays it as Enter would (chess: a click on one of your pieces picks
    /// it, even with another picked; a click on a target moves it).
    pub fn mouse(&mut self, m: MouseEvent, area: Rect, tx: &Sender<CpuResult>) {
        if m.kind != MouseEventKind::Down(MouseButton::Left) || self.cpu.is_some() || self.help {
            return;
        }
        self.looking = None;
        let Some((c, r)) = render::board_cell(area, &self.view(), m.column, m.row) else {
            return;
        };
        self.cursor = (c, r);
        self.input.clear();
        let st = &self.play.st;
        if st.kind == Kind::Chess {
            let here = st.index(c, r);
            let own = st.cell_char(here);
            let mine = own != '.' && own.is_ascii_uppercase() == (st.human == 'W');
            if mine && self.selected.is_some_and(|s| s != here) {
                self.selected = None;
            }
        }
        self.enter(tx);
    }

    /// Handles one key.
    pub fn key(&mut self, k: KeyEvent, tx: &Sender<CpuResult>) -> Flow {
        if k.kind == KeyEventKind::Release {
            return Flow::Go;
        }
        if self.help {
            self.help = false;
            return Flow::Go;
        }
        if self.cpu.is_some() {
            if k.code == KeyCode::Esc || keys::ctrl(&k, 'c') {
                self.interrupt();
            } else if keys::plain(&k, 'q') {
                return Flow::Quit;
            }
            return Flow::Go;
        }
        if keys::ctrl(&k, 'c') {
            return Flow::Quit;
        }
        // Looking back through the moves: < and > (or Page Up and Page Down) step, any other
        // key returns to the game first.
        let back = matches!(k.code, KeyCode::PageUp)
            || (self.input.is_empty() && matches!(k.code, KeyCode::Char('<' | ',')));
        let forward = matches!(k.code, KeyCode::PageDown)
            || (self.input.is_empty() && matches!(k.code, KeyCode::Char('>' | '.')));
        if back || forward {
            let played = self.play.st.moves.len();
            let now = self.looking.as_ref().map_or(played, |(k, _)| *k);
            let want = if back {
                now.saturating_sub(1)
            } else {
                now.saturating_add(1)
            };
            self.looking = if want >= played {
                None
            } else {
                self.play.st.at_ply(want).map(|st| (want, st))
            };
            return Flow::Go;
        }
        if self.looking.take().is_some() && k.code == KeyCode::Esc {
            return Flow::Go;
        }
        let n = self.play.st.n();
        match k.code {
            KeyCode::Esc => {
                self.input.clear();
                self.selected = None;
            }
            KeyCode::Enter => self.enter(tx),
            KeyCode::Backspace => {
                self.input.pop();
            }
            KeyCode::Left => self.cursor.0 = self.cursor.0.saturating_sub(1),
            KeyCode::Right => self.cursor.0 = (self.cursor.0 + 1).min(n - 1),
            KeyCode::Up => self.cursor.1 = self.cursor.1.saturating_sub(1),
            KeyCode::Down => self.cursor.1 = (self.cursor.1 + 1).min(n - 1),
            KeyCode::Char(c) if self.input.is_empty() && "qnstlpr?".contains(c) => {
                return self.command(c, tx)
            }
            KeyCode::Char(c) if (c.is_ascii_graphic() || c == ' ') && self.input.len() < 40 => {
                self.input.push(c);
            }
            _ => {}
        }
        Flow::Go
    }

    fn command(&mut self, c: char, tx: &Sender<CpuResult>) -> Flow {
        let kind = self.play.st.kind;
        match c {
            'q' => return Flow::Quit,
            'n' => self.new_game(None, tx),
            's' => {
                self.play.st.human = kind.other(self.play.st.human);
                self.new_game(None, tx);
            }
            't' => self.switch_game(tx),
            'l' => self.show_legal = !self.show_legal,
            '?' => self.help = true,
            'p' if kind == Kind::Reversi => {
                let n = self.play.pass_or_resign();
                self.after(n, tx);
            }
            'r' if kind == Kind::Chess => {
                let n = self.play.pass_or_resign();
                self.after(n, tx);
            }
            _ => self.play.st.message = format!("{c}: no such key in {kind} (? lists the keys)"),
        }
        Flow::Go
    }
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("play: {msg}");
    ExitCode::FAILURE
}

/// Runs the full-screen client on a started-or-not game, drawn in `look`; the exit status.
pub fn run(play: Play, opener: Opener, look: Look) -> ExitCode {
    let mut events: Events<CpuResult> = Events::new(TICK);
    if let Err(e) = events.spawn_input().and_then(|()| events.spawn_signals()) {
        return fail(e);
    }
    let tx = events.sender();
    let fen = play.opts.fen.clone();
    let mut app = App::new(play, opener, look);
    let mut screen = match Screen::enter() {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    // A terminal that cannot report the mouse still plays by keys.
    let _ = screen.enable_mouse();
    app.new_game(fen.as_deref(), &tx);
    if screen.is_sizeless() {
        let (w, h) = kgames_term::screen::FALLBACK_SIZE;
        app.play.st.message = format!("the terminal reports no size (0x0): drawing {w}x{h}");
    }
    let mut signal = None;
    // The last frame's area: where a mouse report lands.
    let mut area = Rect::default();
    loop {
        let view = app.view();
        let drawn = screen.terminal().draw(|f| {
            area = f.area();
            render::draw(f, &view)
        });
        if let Err(e) = drawn {
            drop(screen);
            return fail(e);
        }
        let flow = match events.wait() {
            Event::Key(k) => app.key(k, &tx),
            Event::Msg(r) => {
                app.cpu_result(r, &tx);
                Flow::Go
            }
            Event::Tick => {
                app.tick();
                Flow::Go
            }
            Event::Resize(..) => Flow::Go,
            Event::Mouse(m) => {
                app.mouse(m, area, &tx);
                Flow::Go
            }
            Event::Signal(s) => {
                signal = Some(s);
                Flow::Quit
            }
            Event::InputClosed => Flow::Quit,
        };
        if flow == Flow::Quit {
            break;
        }
        app.follow_clock();
    }
    drop(screen); // the terminal is back before anything else
    match signal {
        Some(s) => ExitCode::from(128u8.saturating_add(u8::try_from(s).unwrap_or(0))),
        None => ExitCode::SUCCESS,
    }
}
