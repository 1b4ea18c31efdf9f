//! Shared host-test helpers: a link over the in-process session layer, with a fake clock.

#![allow(dead_code)]

use kgames_client::in_process::TT_ENTRIES;
use kgames_client::InProcess;
use kgames_common::budget::Budget;
use kgames_reversi::position::Position;
use kgames_session::reversi_game::Reversi;
use othello::engine::ClassicEngine;
use othello::lines::{Line, Lines};
use othello::link::{Config, Link};

/// A link and its clock.
pub struct H {
    pub link: Link<ClassicEngine<InProcess<Reversi>>>,
    pub now: u64,
    pub lines: Lines,
}

/// A deterministic config: 2000 nodes per engine move.
pub fn cfg() -> Config {
    Config {
        budget: Some(Budget::Nodes(2000)),
        ..Config::default()
    }
}

/// A position from its 64 cells and side.
pub fn pos(cells: &str, side: char) -> Position {
    Position::parse_setup(format!("{cells} {side}").as_bytes()).expect("valid setup")
}

impl H {
    pub fn new(cfg: Config) -> H {
        H {
            link: Link::new(
                ClassicEngine {
                    t: InProcess::new(TT_ENTRIES),
                },
                cfg,
            ),
            now: 0,
            lines: Lines::new(),
        }
    }

    /// Lets the engine move while it wants; collects everything sent.
    pub fn settle(&mut self, out: &mut Vec<String>) {
        out.extend(self.link.take_output());
        while self.link.wants_move() {
            let t = self.now;
            self.link.engine_move(&|| t).expect("engine move");
            out.extend(self.link.take_output());
        }
    }

    /// Feeds raw bytes (framed) at the current time; returns what was sent.
    pub fn raw(&mut self, bytes: &[u8]) -> Vec<String> {
        let mut framed = Vec::new();
        self.lines.push(bytes, &mut framed);
        let mut out = Vec::new();
        for l in framed {
            self.link.input(&l, self.now).expect("input");
            self.settle(&mut out);
        }
        out
    }

    /// Sends one line (with `\r`).
    pub fn send(&mut self, line: &str) -> Vec<String> {
        self.raw(format!("{line}\r").as_bytes())
    }

    /// Sends a line and expects exactly these lines back.
    pub fn expect(&mut self, line: &str, want: &[&str]) {
        let got = self.send(line);
        assert_eq!(got, want, "after {line:?}");
    }

    /// Advances the clock and runs the resend timer.
    pub fn wait(&mut self, ms: u64) -> Vec<String> {
        self.now += ms;
        self.link.tick(self.now);
        let mut out = Vec::new();
        self.settle(&mut out);
        out
    }

    /// Feeds one already framed line.
    pub fn line(&mut self, l: &Line) -> Vec<String> {
        self.link.input(l, self.now).expect("input");
        let mut out = Vec::new();
        self.settle(&mut out);
        out
    }
}
