//! The engine behind a trait, so that the link's state machine runs against `/dev/reversi` in
//! the kernel (a private game: [`kgames_client::Device`]) or, on the host, against the very
//! same session layer compiled as a library ([`kgames_client::InProcess`]).
//!
//! [`ClassicEngine`] speaks the `/dev/reversi` commands over any [`Transport`]: `00`+`10` to
//! start from a position, `05` for the budget, `02`/`04` for the opponent's move or pass, `03`
//! then `06` and `09` for the engine's own move and its search's `score=`.

use std::io;

use kgames_client::{status_value, Transport};
use kgames_common::budget::Budget;
use kgames_reversi::notation::parse_square;
use kgames_reversi::position::{Color, Position};

/// The engine's decision for its own turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The square, or `None` for a pass.
    pub mv: Option<u8>,
    /// The search's score in discs for the engine, and whether it was solved exactly.
    pub score: Option<(i32, bool)>,
}

/// What the link needs from an engine. The caller checks legality on its own copy of the
/// position first: the engine is only told legal moves.
pub trait Engine {
    /// Starts a game from `pos`, the engine playing `engine`.
    fn start(&mut self, pos: &Position, engine: Color) -> io::Result<()>;
    /// Sets the budget of the engine's moves.
    fn set_budget(&mut self, budget: Budget) -> io::Result<()>;
    /// Plays the opponent's move (`None`: its pass).
    fn opponent(&mut self, mv: Option<u8>) -> io::Result<()>;
    /// The engine moves (or passes when it has no move).
    fn think(&mut self) -> io::Result<Decision>;
}

/// An [`Engine`] over the `/dev/reversi` commands.
pub struct ClassicEngine<T: Transport> {
    /// The command channel.
    pub t: T,
}

fn bad(what: &str, reply: &str) -> io::Error {
    io::Error::other(format!("{what}: unexpected reply {:?}", reply.trim_end()))
}

/// Reads `score=+12!` from a `09` line.
pub fn parse_score(status: &str) -> Option<(i32, bool)> {
    let v = status_value(status, "score")?;
    let (v, exact) = match v.strip_suffix('!') {
        Some(v) => (v, true),
        None => (v, false),
    };
    Some((v.parse().ok()?, exact))
}

impl<T: Transport> ClassicEngine<T> {
    fn expect(&mut self, line: &str, ok: &[&str]) -> io::Result<String> {
        let r = self.t.cmd(line)?;
        if ok.iter().any(|w| r == format!("{w}\n")) {
            Ok(r)
        } else {
            Err(bad(line, &r))
        }
    }
}

const MOVE_REPLIES: &[&str] = &["OK", "WIN", "LOSE", "TIE"];

impl<T: Transport> Engine for ClassicEngine<T> {
    fn start(&mut self, pos: &Position, engine: Color) -> io::Result<()> {
        let human = char::from(engine.other().letter());
        self.expect(&format!("00 {human}"), &["OK"])?;
        let setup = pos.setup();
        self.expect(&format!("10 {}", String::from_utf8_lossy(&setup)), &["OK"])?;
        Ok(())
    }

    fn set_budget(&mut self, budget: Budget) -> io::Result<()> {
        let arg = match budget {
            Budget::TimeMs(ms) => ms.to_string(),
            Budget::Nodes(n) => format!("N{n}"),
        };
        self.expect(&format!("05 {arg}"), &["OK"]).map(|_| ())
    }

    fn opponent(&mut self, mv: Option<u8>) -> io::Result<()> {
        let line = match mv {
            Some(sq) => format!("02 {} {}", sq % 8, sq / 8),
            None => "04".into(),
        };
        self.expect(&line, MOVE_REPLIES).map(|_| ())
    }

    fn think(&mut self) -> io::Result<Decision> {
        self.expect("03", MOVE_REPLIES)?;
        let last = self.t.cmd("06")?;
        let mv = match last.trim_end() {
            "PASS" => None,
            sq => Some(parse_square(sq.as_bytes()).ok_or_else(|| bad("06", &last))?),
        };
        let status = self.t.cmd("09")?;
        let score = if mv.is_some() {
            parse_score(&status)
        } else {
            None
        };
        Ok(Decision { mv, score })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_from_status_lines() {
        let s = "device=reversi state=playing human=X turn=X x=3 o=4 plies=3 score=-12! budget=N9 games=1/256";
        assert_eq!(parse_score(s), Some((-12, true)));
        assert_eq!(parse_score("score=+3 budget=1ms"), Some((3, false)));
        assert_eq!(parse_score("score=+0"), Some((0, false)));
        assert_eq!(parse_score("device=reversi state=none"), None);
        assert_eq!(parse_score("score=x!"), None);
    }
}
