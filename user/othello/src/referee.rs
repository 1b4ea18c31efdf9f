//! The referee of `othello-match`: two participants over the protocol, one game at a time.
//!
//! Each participant is an engine speaking the protocol (a link, a board, a program), or a
//! person ([`Peer::human`]) who types the opponent's words (`MV D3`, `PS`; `QT` resigns). The
//! referee sets each engine up (`RST`, `ST n`, `SP`, `NG`), turns the mover's `MM`/`MP` into
//! `MV`/`PS` for the other, acknowledges with `OK` once the other accepted, and relays the
//! other's `IT`. Its own copy of the game and its own clocks judge first: an illegal move is
//! `IL`, a move later than the move time plus `grace_ms` is `IT` (either is void and the same
//! side moves again; `max_violations` in a row lose by forfeit). Anything else out of place
//! stops the game as a protocol violation, reported with the offending line: a malformed or
//! unexpected line, `IL` for a legal move, silence past the deadline, a hang-up, a wrong
//! result word.

use std::collections::VecDeque;
use std::io;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use kgames_reversi::position::{Color, Position};

use crate::display;
use crate::lines::{Line, Lines};
use crate::serial::{Event, LineWriter};
use crate::wire::{colour_letter, Cmd, Msg};

/// One side of the match.
pub struct Peer {
    /// Its name in the results.
    pub name: String,
    /// A person at this terminal rather than an engine.
    pub human: bool,
    rx: Receiver<Event>,
    w: LineWriter,
    lines: Lines,
    queue: VecDeque<(Line, Instant)>,
    gone: bool,
}

/// What a read gave.
enum Got {
    Line(Vec<u8>, Instant),
    TooLong,
    Timeout,
    Hangup,
}

impl Peer {
    /// A participant reading from `rx` and writing through `w`.
    pub fn new(name: &str, human: bool, rx: Receiver<Event>, w: LineWriter) -> Peer {
        Peer {
            name: name.into(),
            human,
            rx,
            w,
            lines: Lines::new(),
            queue: VecDeque::new(),
            gone: false,
        }
    }

    fn send(&mut self, text: &str) -> io::Result<()> {
        self.w.line(text)
    }

    /// Drops whatever the peer sent that nobody read (waiting `settle` for stragglers).
    fn drain(&mut self, settle: Duration) {
        self.queue.clear();
        let until = Instant::now() + settle;
        while let Ok(ev) = self
            .rx
            .recv_timeout(until.saturating_duration_since(Instant::now()))
        {
            if matches!(ev, Event::Hangup) {
                self.gone = true;
                break;
            }
        }
        self.lines = Lines::new();
    }

    fn recv(&mut self, deadline: Instant) -> Got {
        loop {
            if let Some((l, at)) = self.queue.pop_front() {
                return match l {
                    Line::Text(t) => Got::Line(t, at),
                    Line::TooLong => Got::TooLong,
                };
            }
            if self.gone {
                return Got::Hangup;
            }
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(wait) {
                Ok(Event::Data(bytes, at)) => {
                    let mut out = Vec::new();
                    self.lines.push(&bytes, &mut out);
                    self.queue.extend(out.into_iter().map(|l| (l, at)));
                }
                Ok(Event::Hangup) | Err(RecvTimeoutError::Disconnected) => self.gone = true,
                Err(RecvTimeoutError::Timeout) => return Got::Timeout,
            }
        }
    }
}

/// The match's rules.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Seconds per move (1-9), sent to the engines with `ST`.
    pub move_time: u8,
    /// Transport allowance on top of the move time before the referee says `IT`, ms.
    pub grace_ms: u64,
    /// How long an engine may take to answer a command, ms.
    pub reply_ms: u64,
    /// Consecutive `IL`/`IT` that lose the game.
    pub max_violations: u32,
    /// The position every game starts from.
    pub position: Option<Position>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            move_time: 2,
            grace_ms: 500,
            reply_ms: 3000,
            max_violations: 3,
            position: None,
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// Neither side can move.
    Finished,
    /// This peer resigned (`QT`).
    Resigned(usize),
    /// This peer lost by repeated `IL`/`IT`.
    Forfeit(usize),
    /// This peer broke the protocol: the offending line and what was expected.
    Violation {
        /// The peer.
        by: usize,
        /// The line (empty for silence or a hang-up).
        line: String,
        /// What went wrong.
        why: String,
    },
}

/// One game's record.
#[derive(Clone, Debug)]
pub struct Record {
    /// The peer playing black (moving first).
    pub black: usize,
    /// The moves (`None`: a pass).
    pub moves: Vec<Option<u8>>,
    /// The final position.
    pub pos: Position,
    /// How it ended.
    pub end: End,
}

impl Record {
    /// The winner's peer index, `None` for a tie or a stopped game.
    pub fn winner(&self) -> Option<usize> {
        let white = 1 - self.black;
        match &self.end {
            End::Finished => match self.pos.winner() {
                Some(Color::X) => Some(self.black),
                Some(Color::O) => Some(white),
                None => None,
            },
            End::Resigned(p) | End::Forfeit(p) => Some(1 - p),
            End::Violation { .. } => None,
        }
    }

    /// The move list as one line of lower-case squares, passes left out (`f5d6c3...`).
    pub fn transcript(&self) -> String {
        self.moves
            .iter()
            .flatten()
            .map(|&sq| crate::wire::square_lower(sq))
            .collect()
    }
}

/// The referee of one game.
struct Game<'a> {
    peers: &'a mut [Peer; 2],
    s: &'a Settings,
    black: usize,
    pos: Position,
    moves: Vec<Option<u8>>,
    log: &'a mut dyn FnMut(&str),
}

type Step<T> = Result<T, End>;

fn violation(by: usize, line: &[u8], why: &str) -> End {
    End::Violation {
        by,
        line: String::from_utf8_lossy(line).escape_debug().to_string(),
        why: why.into(),
    }
}

impl Game<'_> {
    fn colour(&self, i: usize) -> Color {
        if i == self.black {
            Color::X
        } else {
            Color::O
        }
    }

    fn send(&mut self, i: usize, text: &str) -> Step<()> {
        let name = self.peers[i].name.clone();
        (self.log)(&format!("-> {name}: {text}"));
        self.peers[i]
            .send(text)
            .map_err(|e| violation(i, b"", &format!("write failed: {e}")))
    }

    /// The next line from peer `i` before `deadline`.
    fn read(&mut self, i: usize, deadline: Instant, what: &str) -> Step<(Vec<u8>, Instant)> {
        match self.peers[i].recv(deadline) {
            Got::Line(l, at) => {
                let name = self.peers[i].name.clone();
                (self.log)(&format!("<- {name}: {}", String::from_utf8_lossy(&l)));
                Ok((l, at))
            }
            Got::TooLong => Err(violation(i, b"(too long)", &format!("expected {what}"))),
            Got::Timeout => Err(violation(i, b"", &format!("no {what} in time"))),
            Got::Hangup => Err(violation(i, b"", &format!("hung up waiting for {what}"))),
        }
    }

    /// Sends an engine a command and expects `OK` (a person is not asked).
    fn command(&mut self, i: usize, c: Cmd) -> Step<()> {
        if self.peers[i].human {
            return Ok(());
        }
        self.send(i, &c.text())?;
        let deadline = Instant::now() + Duration::from_millis(self.s.reply_ms);
        let what = format!("OK to {}", c.text());
        let (l, _) = self.read(i, deadline, &what)?;
        if l == b"OK" {
            Ok(())
        } else {
            Err(violation(i, &l, &format!("expected {what}")))
        }
    }

    fn setup(&mut self) -> Step<()> {
        for i in 0..2 {
            if !self.peers[i].human {
                self.peers[i].drain(Duration::from_millis(100));
            }
        }
        for i in [self.black, 1 - self.black] {
            self.command(i, Cmd::Rst)?;
            self.command(i, Cmd::St(self.s.move_time))?;
            let opp = self.colour(1 - i);
            self.command(i, Cmd::Sp(opp))?;
            if self.peers[i].human {
                let you = colour_letter(self.colour(i));
                let board = display::board(&self.pos);
                let text =
                    format!("new game: you play {you}; type MV D3, PS, or QT to resign\n{board}");
                self.tell_human(i, &text);
            }
        }
        self.command(self.black, Cmd::Ng)?;
        self.command(1 - self.black, Cmd::Ng)
    }

    fn tell_human(&mut self, i: usize, text: &str) {
        if self.peers[i].human {
            for l in text.lines() {
                let _ = self.peers[i].send(l);
            }
        }
    }

    /// Reads the mover's next move: `Some(mv)`, or `None` when it resigned.
    fn their_move(&mut self, m: usize, deadline: Instant) -> Step<(Option<Option<u8>>, Instant)> {
        loop {
            let (l, at) = self.read(m, deadline, "move")?;
            let msg = if self.peers[m].human {
                match Cmd::parse(&l) {
                    Some(Cmd::Mv(sq)) => Some(Msg::Mm(sq)),
                    Some(Cmd::Ps) => Some(Msg::Mp),
                    Some(Cmd::Ok | Cmd::Pl) => Some(Msg::Pl),
                    Some(Cmd::Eg) => Some(Msg::Qt),
                    _ => Msg::parse(&l).filter(|m| *m == Msg::Qt),
                }
            } else {
                Msg::parse(&l)
            };
            match msg {
                Some(Msg::Mm(sq)) => return Ok((Some(Some(sq)), at)),
                Some(Msg::Mp) => return Ok((Some(None), at)),
                Some(Msg::Qt) => return Ok((None, at)),
                Some(Msg::Pl | Msg::Ok) => continue,
                _ if self.peers[m].human => {
                    let _ = self.peers[m].send("ER");
                }
                _ => return Err(violation(m, &l, "expected MM, MP or QT")),
            }
        }
    }

    /// `IL`/`IT` to the mover; true when that was one too many.
    fn refuse(&mut self, m: usize, word: Msg, viol: &mut [u32; 2]) -> Step<bool> {
        self.send(m, &word.text())?;
        viol[m] += 1;
        Ok(viol[m] >= self.s.max_violations)
    }

    fn play(&mut self) -> Step<End> {
        self.setup()?;
        let mut since = Instant::now();
        let mut viol = [0u32; 2];
        let allowed = Duration::from_millis(u64::from(self.s.move_time) * 1000 + self.s.grace_ms);
        while !self.pos.is_over() {
            let m = if self.pos.side_to_move() == Color::X {
                self.black
            } else {
                1 - self.black
            };
            let n = 1 - m;
            let deadline = since + allowed + Duration::from_millis(self.s.reply_ms);
            let (mv, at) = self.their_move(m, deadline)?;
            let Some(mv) = mv else {
                self.send(m, "OK")?;
                let _ = self.command(n, Cmd::Eg);
                return Ok(End::Resigned(m));
            };
            let next = match mv {
                Some(sq) => self.pos.play(sq),
                None => self.pos.pass(),
            };
            let refusal = if at.saturating_duration_since(since) > allowed {
                Some(Msg::It)
            } else if next.is_none() {
                Some(Msg::Il)
            } else {
                None
            };
            if let Some(word) = refusal {
                if self.refuse(m, word, &mut viol)? {
                    return Ok(End::Forfeit(m));
                }
                since = Instant::now();
                continue;
            }
            let Some(next) = next else { continue };
            let fwd = mv.map_or(Cmd::Ps, Cmd::Mv);
            if self.peers[n].human {
                let text = mv.map_or(Msg::Mp, Msg::Mm).text();
                self.tell_human(n, &format!("{text}\n{}", display::board(&next)));
            } else {
                self.send(n, &fwd.text())?;
                let deadline = Instant::now() + Duration::from_millis(self.s.reply_ms);
                let what = format!("OK or IT to {}", fwd.text());
                let (l, _) = self.read(n, deadline, &what)?;
                match &l[..] {
                    b"OK" => {}
                    b"IT" => {
                        if self.refuse(m, Msg::It, &mut viol)? {
                            return Ok(End::Forfeit(m));
                        }
                        since = Instant::now();
                        continue;
                    }
                    _ => return Err(violation(n, &l, &format!("expected {what}"))),
                }
            }
            self.send(m, "OK")?;
            viol[m] = 0;
            self.pos = next;
            self.moves.push(mv);
            since = Instant::now();
        }
        self.results()?;
        Ok(End::Finished)
    }

    /// Each engine's own result word must match the board.
    fn results(&mut self) -> Step<()> {
        for i in [self.black, 1 - self.black] {
            let want = match self.pos.winner() {
                None => Msg::Te,
                Some(c) if c == self.colour(i) => Msg::Wn,
                Some(_) => Msg::Ls,
            };
            if self.peers[i].human {
                let text = match want {
                    Msg::Wn => "you win",
                    Msg::Ls => "you lose",
                    _ => "a tie",
                };
                self.tell_human(i, text);
                continue;
            }
            let deadline = Instant::now() + Duration::from_millis(self.s.reply_ms);
            loop {
                let (l, _) = self.read(i, deadline, "result")?;
                if l == b"OK" || l == b"PL" {
                    continue;
                }
                if Msg::parse(&l) != Some(want) {
                    return Err(violation(i, &l, &format!("expected {}", want.text())));
                }
                self.send(i, "OK")?;
                break;
            }
        }
        Ok(())
    }
}

/// Plays one game, `black` moving first; `log` sees every line.
pub fn play_game(
    peers: &mut [Peer; 2],
    black: usize,
    s: &Settings,
    log: &mut dyn FnMut(&str),
) -> Record {
    let mut g = Game {
        peers,
        s,
        black,
        pos: s.position.unwrap_or_else(Position::start),
        moves: Vec::new(),
        log,
    };
    let end = g.play().unwrap_or_else(|e| e);
    if !matches!(end, End::Finished) {
        // Best effort: tell the engines the game is over.
        for i in 0..2 {
            if !g.peers[i].human && !g.peers[i].gone {
                let _ = g.peers[i].send("EG");
            }
        }
    }
    Record {
        black,
        moves: g.moves,
        pos: g.pos,
        end,
    }
}
