//! `/dev/reversi`: the reversi engine behind the [`Game`] trait (docs/protocol.md, "Reversi").

use core::fmt::Write;

use super::game::{Game, Thought};
use super::reply::{Reply, Word};
use super::scratch::Alloc;
use crate::common::budget::Meter;
use crate::reversi::bitboard::Squares;
use crate::reversi::notation::{square_at, square_name};
use crate::reversi::position::{Color, Position};
use crate::reversi::search::WIN;
use crate::reversi::search::{best_move, Outcome, SearchContext};
use crate::reversi::tt::TtEntry;

/// The last move played, for `06`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Last {
    None,
    Pass,
    Square(u8),
}

/// A move the CPU chose, with its search's score (for `09`'s `score=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReversiCpuMove {
    /// The square.
    pub sq: u8,
    /// The score in discs for the side that moved: the final disc difference when `exact`,
    /// else the estimate (see [`disc_score`]).
    pub score: i32,
    /// True when the search solved the position.
    pub exact: bool,
    /// The last finished midgame depth (0 when the position was solved outright).
    pub depth: u8,
    /// Nodes searched.
    pub nodes: u64,
    /// The search's time in milliseconds.
    pub ms: u32,
}

/// A search score in discs: an exact result as it is; a midgame score in eval units (100
/// per disc) divided by 100, a game end found in the midgame tree as its final difference.
/// Always within -64..=64.
pub fn disc_score(score: i32, exact: bool) -> i32 {
    let discs = if exact {
        score
    } else if score >= WIN - 64 {
        score.saturating_sub(WIN)
    } else if score <= 64 - WIN {
        score.saturating_add(WIN)
    } else {
        score / 100
    };
    discs.clamp(-64, 64)
}

/// A reversi game against the CPU.
#[derive(Clone)]
pub struct Reversi {
    pos: Position,
    human: Color,
    last: Last,
    plies: u32,
    /// The last CPU search in this game, for `09` (`None` before any).
    search: Option<ReversiCpuMove>,
    /// The game's name among the device's games: the nonce of the `00` or `10` that started
    /// it. A search whose [`ReversiScratch::owner`] is this id finds this game's table.
    id: u64,
}

impl Reversi {
    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    fn result_word(&self) -> Word {
        if !self.pos.is_over() {
            return Word::Ok;
        }
        match self.pos.winner() {
            None => Word::Tie,
            Some(c) if c == self.human => Word::Win,
            Some(_) => Word::Lose,
        }
    }

    fn advance(&mut self, next: Position, last: Last) -> Word {
        self.pos = next;
        self.last = last;
        self.plies = self.plies.saturating_add(1);
        self.result_word()
    }
}

const HELP: &str = "\
00 X|O       new game, the human plays X or O (X moves first)
01           the board: 64 cells X/O/-, a tab, the side to move
02 C R       the human moves at column C, row R (0-7)
03           the CPU moves (or passes)
04           the human passes (only without a legal move)
05 MS|N<n>   the CPU's budget per move: 1-9000 ms or a node count
06           the last move (d3, PASS or NONE)
07           the legal moves of the side to move
08           the CPU plays one move for the human
09           status
10 CELLS S   set up: 64 cells X/O/-, a space, X or O to move
11           the position in the notation of 10
99           this help
";

/// The reversi search's memory: its transposition table.
///
/// Invariant: the table holds entries of the game named `owner` only (or nothing, when
/// `owner` is `None`): a search for another game clears it first.
pub struct ReversiScratch<A: Alloc> {
    /// The [`Reversi::id`] of the game the last search was for.
    owner: Option<u64>,
    tt: A::Slice<TtEntry>,
}

impl Game for Reversi {
    const NAME: &'static str = "reversi";
    const EXTRAS: &'static [u8] = &[5, 6, 7, 8, 10, 11];
    const HELP: &'static str = HELP;
    const BOARD_BEFORE_GAME: bool = true;
    type Config = ();

    type Side = Color;
    type Input = u8;
    type Move = ReversiCpuMove;
    type Scratch<A: Alloc> = ReversiScratch<A>;

    fn new_scratch<A: Alloc>(tt_entries: usize, (): &()) -> Option<ReversiScratch<A>> {
        Some(ReversiScratch {
            owner: None,
            tt: A::slice(tt_entries, TtEntry::EMPTY)?,
        })
    }

    fn parse_side(arg: &[u8]) -> Option<Color> {
        match arg {
            [c] => Color::from_letter(*c),
            _ => None,
        }
    }

    fn default_side() -> Color {
        Color::X
    }

    fn side_letter(side: Color) -> u8 {
        side.letter()
    }

    fn start(human: Color, nonce: u64) -> Self {
        Reversi {
            pos: Position::start(),
            human,
            last: Last::None,
            plies: 0,
            search: None,
            id: nonce,
        }
    }

    fn setup(arg: &[u8], human: Color, nonce: u64) -> Option<Self> {
        Some(Reversi {
            pos: Position::parse_setup(arg)?,
            human,
            last: Last::None,
            plies: 0,
            search: None,
            id: nonce,
        })
    }

    fn write_idle_board(out: &mut Reply) {
        let mut b = [0; 67];
        Position::start().write_board(&mut b);
        let _ = out.push(&b);
    }

    fn write_board(&self, out: &mut Reply) {
        let mut b = [0; 67];
        self.pos.write_board(&mut b);
        let _ = out.push(&b);
    }

    fn parse_move(arg: &[u8]) -> Option<u8> {
        match *arg {
            [c @ b'0'..=b'7', b' ', r @ b'0'..=b'7'] => square_at(c - b'0', r - b'0'),
            _ => None,
        }
    }

    fn human_to_move(&self) -> bool {
        self.pos.side_to_move() == self.human
    }

    fn is_over(&self) -> bool {
        self.pos.is_over()
    }

    fn play_human(&mut self, sq: u8) -> Result<Word, Word> {
        let next = self.pos.play(sq).ok_or(Word::IllMove)?;
        Ok(self.advance(next, Last::Square(sq)))
    }

    fn pass_or_resign(&mut self) -> Result<Word, Word> {
        let next = self.pos.pass().ok_or(Word::IllMove)?;
        Ok(self.advance(next, Last::Pass))
    }

    fn think<A: Alloc>(
        &self,
        scratch: &mut ReversiScratch<A>,
        meter: &mut Meter<'_>,
    ) -> Thought<ReversiCpuMove> {
        // The table of this game's earlier searches is kept (+41 Elo at 10,000 nodes a move,
        // docs/engines/reversi.md); another game's is cleared.
        let keep = scratch.owner == Some(self.id);
        scratch.owner = Some(self.id);
        let mut ctx = SearchContext::new(&mut scratch.tt);
        if !keep {
            ctx.clear();
        }
        let r = best_move(&self.pos, &mut ctx, meter);
        match r.outcome {
            Outcome::Move(sq) => Thought::Move(ReversiCpuMove {
                sq,
                score: disc_score(r.score, r.exact),
                exact: r.exact,
                depth: r.depth,
                nodes: r.nodes,
                ms: meter.elapsed_ms(),
            }),
            Outcome::Pass => Thought::Pass,
            Outcome::Interrupted => Thought::Interrupted,
        }
    }

    fn play_thought(&mut self, thought: Thought<ReversiCpuMove>) -> Word {
        let (next, last) = match thought {
            Thought::Move(m) => {
                let next = self.pos.play(m.sq);
                if next.is_some() {
                    self.search = Some(m);
                }
                (next, Last::Square(m.sq))
            }
            Thought::Pass => (self.pos.pass(), Last::Pass),
            Thought::Interrupted => (None, Last::None),
        };
        match next {
            Some(next) => self.advance(next, last),
            None => Word::IllMove,
        }
    }

    fn write_last(&self, out: &mut Reply) {
        let _ = match self.last {
            Last::None => out.push(b"NONE"),
            Last::Pass => out.push(b"PASS"),
            Last::Square(sq) => out.push(&square_name(sq)),
        };
    }

    fn write_legal(&self, out: &mut Reply) {
        for (i, sq) in Squares(self.pos.legal_moves()).enumerate() {
            if i > 0 {
                let _ = out.push(b" ");
            }
            let _ = out.push(&square_name(sq));
        }
    }

    fn write_position(&self, out: &mut Reply) {
        let _ = out.push(&self.pos.setup());
    }

    fn write_status(&self, out: &mut Reply) {
        let _ = write!(
            out,
            " turn={} x={} o={} plies={}",
            char::from(self.pos.side_to_move().letter()),
            self.pos.count_x(),
            self.pos.count_o(),
            self.plies
        );
        if let Some(m) = &self.search {
            let mark = if m.exact { "!" } else { "" };
            let _ = write!(
                out,
                " score={:+}{mark} depth={} nodes={} ms={}",
                m.score, m.depth, m.nodes, m.ms
            );
        }
    }
}
