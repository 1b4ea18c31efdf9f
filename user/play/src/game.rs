//! One game against the device, independent of the screen: starting it, the person's moves
//! (translated by [`crate::notation`]), the CPU's moves, and everything shown about the game,
//! read back from the device after each change (`01`/`11`, `06`, `07`, `09`).

use std::sync::Arc;

use kgames_chess::position::Position;
use kgames_chess::square::{Color, Role, Square};

use crate::cpu::CpuResult;
use crate::kind::Kind;
use crate::notation;
use crate::words;
use kgames_client::protocol::{self, Grid, ReversiBoard};
use kgames_client::{Budget, Request, Response, Transport, Word};

/// Choices from the command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The CPU's budget (`05`), reversi and chess.
    pub budget: Option<Budget>,
    /// kxo: the board size N (3-6).
    pub size: Option<u8>,
    /// kxo: playouts per tile T (1-100).
    pub playouts: Option<u8>,
    /// kxo: work items P (1-10).
    pub workers: Option<u8>,
    /// The first game's position (`10` argument: a FEN, or reversi's 64 cells and side).
    pub fen: Option<String>,
}

/// The board's contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cells {
    /// Reversi: 64 cells `X`/`O`/`-`, index 8 * row + column.
    Reversi([u8; 64]),
    /// Chess: the position (from `11`).
    Chess(Box<Position>),
    /// kxo: N x N cells `X`/`O`/` `, index N * row + column.
    Kxo {
        /// The side N.
        n: u8,
        /// The cells.
        cells: Vec<u8>,
    },
}

/// A side's last move: the cells to highlight and its text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Last {
    /// Board indexes (as in [`Cells`]).
    pub cells: Vec<usize>,
    /// Reversi: the discs the move turned over, while it is the latest move (the other
    /// side's next move empties it).
    pub flipped: Vec<usize>,
    /// `d3`, `e2e4 (WPe2-e4)`, `1 2`, `pass`.
    pub text: String,
    /// The move list's form: `d3`, `pass`, SAN (`Nf3`, `O-O`, `exd5+`), `1 2`.
    pub note: String,
}

/// Who made a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mover {
    /// The person.
    Human,
    /// The CPU.
    Cpu,
}

/// What the program does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// Wait for the person.
    Human,
    /// Start the CPU's move (`03`).
    Cpu,
    /// The game is over.
    Over,
}

/// Everything shown about the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// The game type.
    pub kind: Kind,
    /// The person's side letter.
    pub human: char,
    /// The board.
    pub cells: Cells,
    /// The side to move.
    pub to_move: char,
    /// True once the device says the game is over.
    pub over: bool,
    /// The result in words, once over.
    pub result: Option<String>,
    /// The person's last move.
    pub last_human: Option<Last>,
    /// The CPU's last move.
    pub last_cpu: Option<Last>,
    /// The legal moves of the side to move, as the device lists them (`07`).
    pub legal: Vec<String>,
    /// The device's `09` line.
    pub status: String,
    /// The latest message (a reply in words, an input error).
    pub message: String,
    /// The moves of this game in the move list's form ([`Last::note`]), one per ply.
    pub moves: Vec<String>,
    /// The board before the first move and after each one (`moves.len() + 1` boards).
    pub history: Vec<Cells>,
    /// The ply the game started at (0: the first side to move; chess from a FEN: its move
    /// number and side), for numbering the move list.
    pub first_ply: u32,
}

impl State {
    /// The side length of the board.
    pub fn n(&self) -> u8 {
        match &self.cells {
            Cells::Kxo { n, .. } => *n,
            _ => 8,
        }
    }

    /// The board index of display column `col`, display row `row` (row 0 at the top).
    pub fn index(&self, col: u8, row: u8) -> usize {
        let n = self.n();
        match self.kind {
            Kind::Chess => usize::from(7 - row.min(7)) * 8 + usize::from(col),
            _ => usize::from(row) * usize::from(n) + usize::from(col),
        }
    }

    /// Column labels.
    pub fn col_label(&self, col: u8) -> char {
        match self.kind {
            Kind::Kxo => char::from(b'0' + col),
            _ => char::from(b'a' + col),
        }
    }

    /// Row labels (display row 0 at the top).
    pub fn row_label(&self, row: u8) -> char {
        match self.kind {
            Kind::Reversi => char::from(b'1' + row),
            Kind::Chess => char::from(b'8' - row),
            Kind::Kxo => char::from(b'0' + row),
        }
    }

    /// The character of a cell: `X`/`O`/`.` (reversi), `K`..`p` (chess, white upper case),
    /// `X`/`O`/` ` (kxo).
    pub fn cell_char(&self, index: usize) -> char {
        match &self.cells {
            Cells::Reversi(c) => match c.get(index) {
                Some(b'X') => 'X',
                Some(b'O') => 'O',
                _ => '.',
            },
            Cells::Chess(p) => Square::new(index as u32)
                .and_then(|s| p.piece_at(s))
                .map_or('.', |pc| {
                    let c = char::from(pc.role.upper_char());
                    if pc.color == Color::White {
                        c
                    } else {
                        c.to_ascii_lowercase()
                    }
                }),
            Cells::Kxo { cells, .. } => match cells.get(index) {
                Some(b'X') => 'X',
                Some(b'O') => 'O',
                _ => ' ',
            },
        }
    }

    /// Board indexes the legal moves reach (for all moves, or chess moves from `from`).
    pub fn legal_targets(&self, from: Option<usize>) -> Vec<usize> {
        self.legal
            .iter()
            .filter_map(|m| match self.kind {
                Kind::Chess => {
                    let (f, t) = notation::classic_squares(m)?;
                    (from.is_none() || from == Some(f.index())).then_some(t.index())
                }
                Kind::Reversi => notation::grid_square(m, 8)
                    .ok()
                    .map(|(c, r)| usize::from(r) * 8 + usize::from(c)),
                Kind::Kxo => notation::grid_square(m, self.n())
                    .ok()
                    .map(|(c, r)| usize::from(r) * usize::from(self.n()) + usize::from(c)),
            })
            .collect()
    }

    /// Reversi disc counts (X, O).
    pub fn discs(&self) -> Option<(usize, usize)> {
        match &self.cells {
            Cells::Reversi(c) => Some((
                c.iter().filter(|&&x| x == b'X').count(),
                c.iter().filter(|&&x| x == b'O').count(),
            )),
            _ => None,
        }
    }

    /// Chess: the pieces each colour has taken, as letters (white's captures are black
    /// pieces, lower case), counted against the starting set.
    pub fn captured(&self) -> Option<(String, String)> {
        let Cells::Chess(p) = &self.cells else {
            return None;
        };
        let taken = |victim: Color| {
            let mut s = String::new();
            for (role, start) in [
                (Role::Queen, 1),
                (Role::Rook, 2),
                (Role::Bishop, 2),
                (Role::Knight, 2),
                (Role::Pawn, 8),
            ] {
                let have = p
                    .by_piece(kgames_chess::square::Piece {
                        color: victim,
                        role,
                    })
                    .count() as usize;
                for _ in have..start {
                    let c = char::from(role.upper_char());
                    s.push(if victim == Color::White {
                        c
                    } else {
                        c.to_ascii_lowercase()
                    });
                }
            }
            s
        };
        Some((taken(Color::Black), taken(Color::White)))
    }

    /// Chess: each colour's material in pawns (P 1, N 3, B 3, R 5, Q 9), white first.
    pub fn material(&self) -> Option<(u32, u32)> {
        let Cells::Chess(p) = &self.cells else {
            return None;
        };
        let sum = |color: Color| {
            [
                (Role::Pawn, 1),
                (Role::Knight, 3),
                (Role::Bishop, 3),
                (Role::Rook, 5),
                (Role::Queen, 9),
            ]
            .iter()
            .map(|&(role, value)| {
                value
                    * p.by_piece(kgames_chess::square::Piece { color, role })
                        .count()
            })
            .sum::<u32>()
        };
        Some((sum(Color::White), sum(Color::Black)))
    }

    /// Chess: the side to move is in check.
    pub fn in_check(&self) -> bool {
        matches!(&self.cells, Cells::Chess(p) if p.is_check())
    }

    /// The board as text (the line-mode display).
    pub fn board_text(&self) -> String {
        let n = self.n();
        let mut s = String::from("  ");
        for c in 0..n {
            s.push(' ');
            s.push(self.col_label(c));
        }
        s.push('\n');
        for r in 0..n {
            s.push(self.row_label(r));
            s.push(' ');
            for c in 0..n {
                s.push(' ');
                let ch = self.cell_char(self.index(c, r));
                s.push(if ch == ' ' { '.' } else { ch });
            }
            s.push('\n');
        }
        s
    }

    /// One line: whose move, counts or check, the last moves.
    pub fn summary(&self) -> String {
        let k = self.kind;
        let mut s = match &self.result {
            Some(r) => r.clone(),
            None if self.to_move == self.human => {
                format!("{} to move (you)", k.side_name(self.to_move))
            }
            None => format!("{} to move (CPU)", k.side_name(self.to_move)),
        };
        if let Some((x, o)) = self.discs() {
            s += &format!("; X {x}, O {o}");
        }
        if self.in_check() && !self.over {
            s += "; check";
        }
        if let Some((w, b)) = self.captured() {
            if !w.is_empty() || !b.is_empty() {
                s += &format!("; white took {}, black took {}", or_none(&w), or_none(&b));
            }
        }
        if let Some(l) = &self.last_human {
            s += &format!("; you: {}", l.text);
        }
        if let Some(l) = &self.last_cpu {
            s += &format!("; CPU: {}", l.text);
        }
        s
    }
}

/// One line of the move list: `1.` (or `1...` when the game started with the second side)
/// and the plies of that move number, as indexes into [`State::moves`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLine {
    /// `12.` or `12...`.
    pub label: String,
    /// One or two indexes into [`State::moves`].
    pub plies: Vec<usize>,
}

impl State {
    /// The move list, one line per move number.
    pub fn move_lines(&self) -> Vec<MoveLine> {
        let mut lines: Vec<MoveLine> = Vec::new();
        for i in 0..self.moves.len() {
            let ply = self.first_ply as usize + i;
            let number = ply / 2 + 1;
            match lines.last_mut() {
                Some(l) if ply % 2 == 1 && i > 0 => l.plies.push(i),
                _ => lines.push(MoveLine {
                    label: format!("{number}.{}", if ply % 2 == 1 { ".." } else { "" }),
                    plies: vec![i],
                }),
            }
        }
        lines
    }

    /// The game as it was after `plies` plies (0: the start), to look at: the board of then,
    /// no last moves, no legal moves. `None` past the moves played.
    pub fn at_ply(&self, plies: usize) -> Option<State> {
        let cells = self.history.get(plies)?.clone();
        Some(State {
            cells,
            last_human: None,
            last_cpu: None,
            legal: Vec::new(),
            ..self.clone()
        })
    }
}

fn or_none(s: &str) -> &str {
    if s.is_empty() {
        "-"
    } else {
        s
    }
}

/// A game on a line to the device.
pub struct Play {
    /// The line.
    pub link: Arc<dyn Transport>,
    /// The command-line choices.
    pub opts: Options,
    /// What is shown.
    pub st: State,
}

impl Play {
    /// A game of `kind` with the person on `human`; nothing sent yet ([`Play::start`]).
    pub fn new(kind: Kind, link: Arc<dyn Transport>, opts: Options, human: char) -> Play {
        let cells = match kind {
            Kind::Reversi => Cells::Reversi([b'-'; 64]),
            Kind::Chess => Cells::Chess(Box::new(Position::startpos())),
            Kind::Kxo => Cells::Kxo {
                n: 4,
                cells: vec![b' '; 16],
            },
        };
        Play {
            link,
            opts,
            st: State {
                kind,
                human,
                cells,
                to_move: kind.sides()[0],
                over: false,
                result: None,
                last_human: None,
                last_cpu: None,
                legal: Vec::new(),
                status: String::new(),
                message: String::new(),
                moves: Vec::new(),
                history: Vec::new(),
                first_ply: 0,
            },
        }
    }

    /// Sends `r`; a failure of the line itself is a message.
    fn send(&self, r: Request<'_>) -> Result<Response, String> {
        self.link
            .send(r)
            .map_err(|e| format!("{}: {}: {e}", self.link.label(), protocol::encode(&r)))
    }

    /// Sends a command that must answer `OK`.
    fn send_ok(&self, r: Request<'_>) -> Result<(), String> {
        let reply = self.send(r)?;
        match reply.word() {
            Some(Word::Ok) => Ok(()),
            _ => Err(format!(
                "\"{}\": {}",
                protocol::encode(&r),
                words::describe(&reply)
            )),
        }
    }

    /// Starts a new game (from `fen` if given) and reads it back.
    pub fn start(&mut self, fen: Option<&str>) -> Result<Next, String> {
        let kind = self.st.kind;
        let human = self.st.human.to_string();
        if let (Some(b), true) = (self.opts.budget, kind != Kind::Kxo) {
            self.send_ok(Request::Budget(b))?;
        }
        self.send_ok(Request::New(&human))?;
        if kind == Kind::Kxo
            && (self.opts.size.is_some()
                || self.opts.playouts.is_some()
                || self.opts.workers.is_some())
        {
            // Omitted values keep the device's defaults (the module parameters, from 09).
            let st = self.send(Request::Status)?;
            let st = st.status();
            let get = |k: &str, v: Option<u8>| v.or_else(|| st.number(k)).unwrap_or_default();
            let args = format!(
                "{human} {} {} {}",
                get("n", self.opts.size),
                get("playouts", self.opts.playouts),
                get("workers", self.opts.workers)
            );
            self.send_ok(Request::New(&args))?;
        }
        if let Some(f) = fen {
            self.send_ok(Request::Setup(f))?;
        }
        self.st.over = false;
        self.st.result = None;
        self.st.last_human = None;
        self.st.last_cpu = None;
        self.st.message = format!("new game: you play {}", kind.side_name(self.st.human));
        self.refresh()?;
        self.st.moves.clear();
        self.st.history = vec![self.st.cells.clone()];
        let second = usize::from(self.st.to_move != kind.sides()[0]);
        self.st.first_ply = match &self.st.cells {
            Cells::Chess(p) => p.fullmoves().saturating_sub(1).saturating_mul(2) + second as u32,
            _ => second as u32,
        };
        Ok(self.next())
    }

    /// Reads the board, the status and the legal moves back.
    pub fn refresh(&mut self) -> Result<(), String> {
        let kind = self.st.kind;
        let reply = self.send(Request::Status)?;
        let status = reply.status();
        if status.get("device").is_none() {
            return Err(format!("09: {}", words::describe(&reply)));
        }
        match kind {
            Kind::Reversi => {
                let b = self.send(Request::Board)?;
                let board = ReversiBoard::parse(b.text())
                    .ok_or_else(|| format!("01: {}", words::describe(&b)))?;
                self.st.cells = Cells::Reversi(board.cells);
                self.st.to_move = char::from(board.to_move);
            }
            Kind::Chess => {
                let f = self.send(Request::Position)?;
                let pos = Position::from_fen(f.line().as_bytes())
                    .map_err(|_| format!("11: {}", words::describe(&f)))?;
                self.st.to_move = if pos.turn() == Color::White { 'W' } else { 'B' };
                self.st.cells = Cells::Chess(Box::new(pos));
            }
            Kind::Kxo => {
                let g = self.send(Request::Board)?;
                let grid =
                    Grid::parse(g.text()).ok_or_else(|| format!("01: {}", words::describe(&g)))?;
                self.st.cells = Cells::Kxo {
                    n: grid.n(),
                    cells: grid.tiles().to_vec(),
                };
                if let Some(t) = status.get("turn").and_then(|t| t.chars().next()) {
                    self.st.to_move = t;
                }
            }
        }
        self.st.over = status.get("state") == Some("over");
        if self.st.over && self.st.result.is_none() {
            self.st.result = Some("The game is over".into());
        }
        self.st.status = reply.line().to_string();
        let legal = self.send(Request::LegalMoves)?;
        self.st.legal = if legal.word().is_some() {
            Vec::new()
        } else if kind == Kind::Kxo {
            legal.legal_tiles().map(str::to_string).collect()
        } else {
            legal.legal_moves().map(str::to_string).collect()
        };
        Ok(())
    }

    /// What comes next.
    pub fn next(&self) -> Next {
        if self.st.over {
            Next::Over
        } else if self.st.to_move == self.st.human {
            Next::Human
        } else {
            Next::Cpu
        }
    }

    /// The `02` argument of what the person typed, or why it is wrong.
    pub fn translate(&self, text: &str) -> Result<String, String> {
        match &self.st.cells {
            Cells::Reversi(_) => notation::reversi_move(text),
            Cells::Chess(p) => notation::chess_move(p, text),
            Cells::Kxo { n, .. } => notation::kxo_move(text, *n),
        }
    }

    /// The person's move as typed. An error changes nothing and is put in the message.
    pub fn human_move(&mut self, text: &str) -> Next {
        if self.st.over {
            self.st.message = "the game is over: n for a new game".into();
            return self.next();
        }
        match self.translate(text) {
            Ok(arg) => {
                let r = self.send(Request::Move(&arg));
                self.answer(r, Mover::Human, "")
            }
            Err(e) => {
                self.st.message = e;
                self.next()
            }
        }
    }

    /// `04`: the person passes (reversi) or resigns (chess).
    pub fn pass_or_resign(&mut self) -> Next {
        let what = match self.st.kind {
            Kind::Chess => "you resign",
            Kind::Reversi => "you pass",
            Kind::Kxo => "a pass",
        };
        let r = self.send(Request::PassOrResign);
        let resigned =
            self.st.kind == Kind::Chess && matches!(&r, Ok(s) if s.word() == Some(Word::Ok));
        let previous = self.st.last_human.clone();
        let next = self.answer(r, Mover::Human, what);
        if resigned {
            // 06 still names the last move played: a resignation is none.
            self.st.last_human = previous;
            self.st.result = Some("You resigned: the CPU wins".into());
        }
        next
    }

    /// The result of the CPU's `03`.
    pub fn cpu_done(&mut self, r: CpuResult) -> Next {
        match r {
            CpuResult::Reply(s) => self.answer(Ok(s), Mover::Cpu, ""),
            CpuResult::Interrupted => {
                self.st.message =
                    "CPU move interrupted: the game is unchanged (Enter lets the CPU move)".into();
                let _ = self.refresh();
                Next::Human
            }
            CpuResult::Failed(e) => {
                self.st.message = format!("the CPU's move failed: {e}");
                Next::Human
            }
        }
    }

    fn answer(&mut self, r: Result<Response, String>, who: Mover, what: &str) -> Next {
        let reply = match r {
            Ok(s) => s,
            Err(e) => {
                self.st.message = e;
                return self.next();
            }
        };
        if !reply.accepted() {
            let what = if what.is_empty() { "your move" } else { what };
            let what = if who == Mover::Cpu {
                "the CPU's move"
            } else {
                what
            };
            self.st.message = format!("{what}: {}", words::describe(&reply));
            return self.next();
        }
        let before = self.st.cells.clone();
        if let Err(e) = self.refresh() {
            self.st.message = e;
            return self.next();
        }
        let last = self.last_move(&before);
        // A move or a pass is a ply of the move list (a resignation is none).
        if let Some(l) = &last {
            if before != self.st.cells || l.note == "pass" {
                self.st.moves.push(l.note.clone());
                self.st.history.push(self.st.cells.clone());
            }
        }
        let said = if reply.word() == Some(Word::Ok) {
            String::new()
        } else {
            format!(": {}", words::describe(&reply))
        };
        self.st.message = match (&last, what) {
            (Some(l), "") if who == Mover::Human => format!("you played {}{said}", l.text),
            (Some(l), "") => format!("the CPU played {}{said}", l.text),
            _ => format!("{what}{said}"),
        };
        let (mine, other) = match who {
            Mover::Human => (&mut self.st.last_human, &mut self.st.last_cpu),
            Mover::Cpu => (&mut self.st.last_cpu, &mut self.st.last_human),
        };
        *mine = last;
        if let Some(o) = other {
            o.flipped.clear();
        }
        if let Some(r) = reply
            .word()
            .and_then(|w| words::result(w, who, self.st.kind))
        {
            let mut r = r.to_string();
            if let Some((x, o)) = self.st.discs() {
                r += &format!(" (X {x}, O {o})");
            }
            self.st.result = Some(r);
            self.st.over = true;
        }
        self.next()
    }

    /// The move just made: `06` (reversi, chess), or the new mark (kxo).
    fn last_move(&self, before: &Cells) -> Option<Last> {
        match (&self.st.cells, before) {
            (Cells::Kxo { n, cells }, Cells::Kxo { cells: old, .. }) => {
                let i = cells.iter().zip(old).position(|(a, b)| a != b)?;
                let n = usize::from(*n);
                let text = format!("{} {}", i % n, i / n);
                Some(Last {
                    cells: vec![i],
                    note: text.clone(),
                    text,
                    ..Last::default()
                })
            }
            (Cells::Reversi(now), old) => {
                let r = self.send(Request::LastMove).ok()?;
                let t = r.line();
                if t == "PASS" {
                    return Some(Last {
                        text: "pass".into(),
                        note: "pass".into(),
                        ..Last::default()
                    });
                }
                let (c, row) = notation::grid_square(t, 8).ok()?;
                // Turned over: a disc before, the other colour now.
                let flipped = match old {
                    Cells::Reversi(old) => (0..64)
                        .filter(|&i| matches!((old[i], now[i]), (b'X', b'O') | (b'O', b'X')))
                        .collect(),
                    _ => Vec::new(),
                };
                Some(Last {
                    cells: vec![usize::from(row) * 8 + usize::from(c)],
                    flipped,
                    text: t.to_string(),
                    note: t.to_string(),
                })
            }
            (Cells::Chess(_), old) => {
                let r = self.send(Request::LastMove).ok()?;
                let mut parts = r.line().split(' ');
                let (classic, uci) = (parts.next()?, parts.next()?);
                let (f, t) = notation::classic_squares(classic)?;
                // SAN needs the position before the move.
                let note = match old {
                    Cells::Chess(p) => kgames_chess::notation::parse_uci(p, uci.as_bytes())
                        .map(|m| notation::san(p, m))
                        .unwrap_or_else(|_| uci.to_string()),
                    _ => uci.to_string(),
                };
                Some(Last {
                    cells: vec![f.index(), t.index()],
                    text: format!("{uci} ({classic})"),
                    note,
                    ..Last::default()
                })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::sim;

    fn play(kind: Kind, human: char, opts: Options) -> Play {
        Play::new(kind, sim(kind), opts, human)
    }

    #[test]
    fn reversi_moves_and_last_moves() {
        let mut p = play(
            Kind::Reversi,
            'X',
            Options {
                budget: Some(Budget::Nodes(200)),
                ..Options::default()
            },
        );
        assert_eq!(p.start(None).unwrap(), Next::Human);
        assert_eq!(p.st.legal, ["d3", "c4", "f5", "e6"]);
        assert_eq!(p.human_move("zz"), Next::Human);
        assert!(p.st.message.contains("not a square"));
        assert_eq!(p.human_move("a1"), Next::Human);
        assert!(p.st.message.contains("illegal move"), "{}", p.st.message);
        assert_eq!(p.human_move("d3"), Next::Cpu);
        assert_eq!(p.st.last_human.as_ref().unwrap().text, "d3");
        // d3 (index 19) turns d4 (27) over.
        assert_eq!(p.st.last_human.as_ref().unwrap().cells, [19]);
        assert_eq!(p.st.last_human.as_ref().unwrap().flipped, [27]);
        assert_eq!(p.st.discs(), Some((4, 1)));
        let r = p.link.send(Request::CpuMove).unwrap();
        assert_eq!(p.cpu_done(CpuResult::Reply(r)), Next::Human);
        assert!(p
            .st
            .last_cpu
            .as_ref()
            .is_some_and(|l| !l.flipped.is_empty()));
        assert!(
            p.st.last_human.as_ref().unwrap().flipped.is_empty(),
            "only the latest move's discs are marked"
        );
        assert!(
            p.st.summary().contains("you: d3; CPU: "),
            "{}",
            p.st.summary()
        );
    }

    #[test]
    fn chess_mate_in_one_from_a_fen() {
        let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        let mut p = play(Kind::Chess, 'W', Options::default());
        assert_eq!(p.start(Some(fen)).unwrap(), Next::Human);
        assert_eq!(p.human_move("a1a8"), Next::Over);
        assert_eq!(p.st.result.as_deref(), Some("Checkmate: you win"));
        assert!(p.st.in_check());
        assert_eq!(p.st.last_human.as_ref().unwrap().text, "a1a8 (WRa1-a8)");
        assert_eq!(p.human_move("a8a7"), Next::Over);
        assert!(p.st.message.contains("over"));
    }

    #[test]
    fn chess_resign_and_black_starts_with_the_cpu() {
        let mut p = play(
            Kind::Chess,
            'B',
            Options {
                budget: Some(Budget::Nodes(2000)),
                ..Options::default()
            },
        );
        assert_eq!(p.start(None).unwrap(), Next::Cpu);
        let r = p.link.send(Request::CpuMove).unwrap();
        assert_eq!(p.cpu_done(CpuResult::Reply(r)), Next::Human);
        assert_eq!(p.pass_or_resign(), Next::Over);
        assert_eq!(p.st.result.as_deref(), Some("You resigned: the CPU wins"));
    }

    #[test]
    fn kxo_size_and_a_whole_game() {
        let mut p = play(
            Kind::Kxo,
            'X',
            Options {
                size: Some(3),
                playouts: Some(2),
                ..Options::default()
            },
        );
        assert_eq!(p.start(None).unwrap(), Next::Cpu);
        assert_eq!(p.st.n(), 3);
        assert!(
            p.st.status.contains("n=3 playouts=2 workers="),
            "{}",
            p.st.status
        );
        let mut next = Next::Cpu;
        for _ in 0..9 {
            next = match next {
                Next::Cpu => {
                    let r = p.link.send(Request::CpuMove).unwrap();
                    p.cpu_done(CpuResult::Reply(r))
                }
                Next::Human => {
                    let m = p.st.legal[0].clone();
                    p.human_move(&m)
                }
                Next::Over => break,
            };
        }
        assert_eq!(next, Next::Over);
        assert!(p.st.result.is_some());
        assert!(p.st.last_cpu.is_some() && p.st.last_human.is_some());
        assert_eq!(p.st.board_text().lines().count(), 4);
    }

    #[test]
    fn interrupted_cpu_move_changes_nothing() {
        let mut p = play(Kind::Reversi, 'O', Options::default());
        assert_eq!(p.start(None).unwrap(), Next::Cpu);
        let before = p.st.cells.clone();
        assert_eq!(p.cpu_done(CpuResult::Interrupted), Next::Human);
        assert!(p.st.message.contains("CPU move interrupted"));
        assert_eq!(p.st.cells, before);
        assert_eq!(p.next(), Next::Cpu);
    }
}
