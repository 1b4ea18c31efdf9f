//! The engine behind a trait, so that the link's state machine runs against `/dev/reversi` in
//! the kernel (a private game: [`kgames_client::Device`]) or, on the host, against the very
//! same session layer compiled as a library ([`kgames_client::InProcess`]).
//!
//! [`ClassicEngine`] speaks the `/dev/reversi` commands over any [`Transport`]: `00`+`10` to
//! start from a position, `05` for the budget, `02`/`04` for the opponent's move or pass, `03`
//! then `06` and `09` for the engine's own move and its search's `score=`.

use std::io;

use kgames_client::{Request, Transport, Word};
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

impl<T: Transport> ClassicEngine<T> {
    fn expect(&mut self, r: Request<'_>, ok: &[Word]) -> io::Result<Word> {
        self.t.send(r)?.expect(r, ok)
    }
}

const MOVE_REPLIES: &[Word] = &[Word::Ok, Word::Win, Word::Lose, Word::Tie];

impl<T: Transport> Engine for ClassicEngine<T> {
    fn start(&mut self, pos: &Position, engine: Color) -> io::Result<()> {
        let human = char::from(engine.other().letter()).to_string();
        self.expect(Request::New(&human), &[Word::Ok])?;
        let setup = pos.setup();
        self.expect(
            Request::Setup(&String::from_utf8_lossy(&setup)),
            &[Word::Ok],
        )?;
        Ok(())
    }

    fn set_budget(&mut self, budget: Budget) -> io::Result<()> {
        self.expect(Request::Budget(budget), &[Word::Ok])
            .map(|_| ())
    }

    fn opponent(&mut self, mv: Option<u8>) -> io::Result<()> {
        let tile;
        let r = match mv {
            Some(sq) => {
                tile = format!("{} {}", sq % 8, sq / 8);
                Request::Move(&tile)
            }
            None => Request::PassOrResign,
        };
        self.expect(r, MOVE_REPLIES).map(|_| ())
    }

    fn think(&mut self) -> io::Result<Decision> {
        self.expect(Request::CpuMove, MOVE_REPLIES)?;
        let last = self.t.send(Request::LastMove)?;
        let mv = match last.line() {
            "PASS" => None,
            sq => Some(parse_square(sq.as_bytes()).ok_or_else(|| {
                io::Error::other(format!("06: unexpected reply {:?}", last.line()))
            })?),
        };
        let score = match mv {
            Some(_) => self.t.send(Request::Status)?.status().disc_score(),
            None => None,
        };
        Ok(Decision { mv, score })
    }
}
