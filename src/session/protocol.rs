//! The text protocol as types (docs/protocol.md): what a tool sends ([`Request`], with its
//! encoder, [`core::fmt::Display`]) and what it reads back ([`Word`], [`Status`],
//! [`legal_moves`], [`legal_tiles`]), with the limits a sender must keep ([`LINE_MAX`], [`Budget::MAX_MS`],
//! [`Budget::MAX_NODES`], [`NXN_SIZES`]).
//!
//! The encoder and the reply decoders are for user space: the module (`--cfg MODULE`) builds
//! without them. The session parses every write with [`Request::parse`] (after [`frame`]), so a line a tool
//! encodes here is, byte for byte, one the devices understand; the round trip is tested below
//! and by the fuzz targets. The arguments that only a game can judge (a move, a position, the
//! side of `00`) are carried as text and parsed by the game ([`super::game::Game`]).
//!
//! ```rust
//! use kgames_session::protocol::{Request, Status, Word};
//! use kgames_session::common::budget::Budget;
//!
//! assert_eq!(Request::Move("3 2").to_string(), "02 3 2");
//! assert_eq!(Request::Budget(Budget::Nodes(5000)).to_string(), "05 N5000");
//! assert_eq!(Request::parse(b"05 N5000", |_| true), Ok(Request::Budget(Budget::Nodes(5000))));
//! assert_eq!(Word::parse("ILLMOVE\n"), Some(Word::IllMove));
//! let s = Status::parse("device=reversi state=playing human=X turn=O budget=1000ms games=1/256\n");
//! assert_eq!(s.get("turn"), Some("O"));
//! assert_eq!(s.budget(), Some(Budget::TimeMs(1000)));
//! ```

#[cfg(not(MODULE))]
use core::fmt;
#[cfg(not(MODULE))]
use core::ops::RangeInclusive;

#[cfg(not(MODULE))]
pub use super::command::{frame, LINE_MAX};
pub use super::reply::Word;
#[cfg(not(MODULE))]
pub use super::reply::REPLY_MAX;
pub use crate::common::budget::Budget;
#[cfg(not(MODULE))]
use crate::kxo::nxn;

/// The board sizes N of the N x N game (`00 X N`).
#[cfg(not(MODULE))]
pub const NXN_SIZES: RangeInclusive<u8> = nxn::MIN_N..=nxn::MAX_N;
/// The playouts per tile T of the N x N game (`00 X N T`).
#[cfg(not(MODULE))]
pub const NXN_PLAYOUTS: RangeInclusive<u8> = nxn::MIN_PLAYOUTS..=nxn::MAX_PLAYOUTS;
/// The work items P of the N x N game (`00 X N T P`): the groups its free tiles are dealt over.
#[cfg(not(MODULE))]
pub const NXN_WORKERS: RangeInclusive<u8> = nxn::MIN_WORKERS..=nxn::MAX_WORKERS;

/// One command line, typed: the command number and its arguments.
///
/// Text arguments are a game's own notation, checked by the game when the device parses them:
/// a reversi or N x N move is `C R` (`3 2`), a chess move `e2e4` or the classic `WPe2-e4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request<'a> {
    /// `00 <args>`: a new game (`X`, `W`, `O 4 30 2`).
    New(&'a str),
    /// `01`: the board.
    Board,
    /// `02 <move>`: the human's move.
    Move(&'a str),
    /// `03`: the CPU moves for its side.
    CpuMove,
    /// `04`: the human passes (reversi, N x N) or resigns (chess).
    PassOrResign,
    /// `05 <ms>` or `05 N<nodes>`: the CPU's budget per move.
    Budget(Budget),
    /// `06`: the last move.
    LastMove,
    /// `07`: the legal moves of the side to move.
    LegalMoves,
    /// `08`: the CPU moves for the human's side.
    CpuMoveForHuman,
    /// `09`: the status line.
    Status,
    /// `10 <position>`: a game from a position (reversi's 66 bytes, a FEN).
    Setup(&'a str),
    /// `11`: the position, in the form of `10`.
    Position,
    /// `12 <moves>`: chess, UCI moves appended for whichever side is to move.
    Append(&'a str),
    /// `99`: the help text.
    Help,
}

impl<'a> Request<'a> {
    /// The two-digit command number.
    #[cfg(not(MODULE))]
    pub const fn number(&self) -> u8 {
        match self {
            Request::New(_) => 0,
            Request::Board => 1,
            Request::Move(_) => 2,
            Request::CpuMove => 3,
            Request::PassOrResign => 4,
            Request::Budget(_) => 5,
            Request::LastMove => 6,
            Request::LegalMoves => 7,
            Request::CpuMoveForHuman => 8,
            Request::Status => 9,
            Request::Setup(_) => 10,
            Request::Position => 11,
            Request::Append(_) => 12,
            Request::Help => 99,
        }
    }

    /// True for the commands that ask the CPU to search (the write blocks for the move).
    #[cfg(not(MODULE))]
    pub const fn searches(&self) -> bool {
        matches!(self, Request::CpuMove | Request::CpuMoveForHuman)
    }

    /// Parses a framed line (see [`frame`]). Not two leading digits, or a number `known`
    /// rejects, is [`Word::UnkCmd`]; a number followed by anything but one space and at least
    /// one byte, arguments where none are taken, none where some are needed and a malformed
    /// budget are [`Word::InvFmt`]. A framed line is printable ASCII, so its text arguments
    /// are `str`.
    #[inline]
    pub fn parse(line: &'a [u8], known: fn(u8) -> bool) -> Result<Self, Word> {
        let (number, rest) = match line {
            [a @ b'0'..=b'9', b @ b'0'..=b'9', rest @ ..] => ((a - b'0') * 10 + (b - b'0'), rest),
            _ => return Err(Word::UnkCmd),
        };
        if !known(number) {
            return Err(Word::UnkCmd);
        }
        let args = match rest {
            [] => None,
            [b' ', args @ ..] if !args.is_empty() => Some(args),
            _ => return Err(Word::InvFmt),
        };
        let text = || -> Result<&'a str, Word> {
            let a = args.ok_or(Word::InvFmt)?;
            core::str::from_utf8(a).map_err(|_| Word::InvFmt)
        };
        let bare = |r: Request<'a>| match args {
            None => Ok(r),
            Some(_) => Err(Word::InvFmt),
        };
        match number {
            0 => Ok(Request::New(text()?)),
            1 => bare(Request::Board),
            2 => Ok(Request::Move(text()?)),
            3 => bare(Request::CpuMove),
            4 => bare(Request::PassOrResign),
            5 => Budget::parse(args.ok_or(Word::InvFmt)?)
                .map(Request::Budget)
                .ok_or(Word::InvFmt),
            6 => bare(Request::LastMove),
            7 => bare(Request::LegalMoves),
            8 => bare(Request::CpuMoveForHuman),
            9 => bare(Request::Status),
            10 => Ok(Request::Setup(text()?)),
            11 => bare(Request::Position),
            12 => Ok(Request::Append(text()?)),
            99 => bare(Request::Help),
            _ => Err(Word::UnkCmd),
        }
    }
}

/// The command line without its `\n`: `02 3 2`.
#[cfg(not(MODULE))]
impl fmt::Display for Request<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}", self.number())?;
        match self {
            Request::New(a) | Request::Move(a) | Request::Setup(a) | Request::Append(a) => {
                write!(f, " {a}")
            }
            Request::Budget(b) => write!(f, " {b}"),
            _ => Ok(()),
        }
    }
}

/// A `09` status line: `key=value` pairs separated by single spaces (docs/protocol.md, `09`).
#[cfg(not(MODULE))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status<'a> {
    line: &'a str,
}

#[cfg(not(MODULE))]
impl<'a> Status<'a> {
    /// The status of a `09` reply (its newline, if any, dropped).
    pub fn parse(reply: &'a str) -> Self {
        Status {
            line: reply.strip_suffix('\n').unwrap_or(reply),
        }
    }

    /// The pairs in their order.
    pub fn pairs(&self) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        self.line.split(' ').filter_map(|kv| kv.split_once('='))
    }

    /// The value of `key`, if the line has it.
    pub fn get(&self, key: &str) -> Option<&'a str> {
        self.pairs().find(|&(k, _)| k == key).map(|(_, v)| v)
    }

    /// The value of `key` as a number.
    pub fn number<T: core::str::FromStr>(&self, key: &str) -> Option<T> {
        self.get(key)?.parse().ok()
    }

    /// `budget=`: `1000ms` or `N5000`.
    pub fn budget(&self) -> Option<Budget> {
        let v = self.get("budget")?;
        Budget::parse(v.strip_suffix("ms").unwrap_or(v).as_bytes())
    }

    /// Reversi's `score=`: discs for the side that moved, and whether it is exact (`+12!`).
    pub fn disc_score(&self) -> Option<(i32, bool)> {
        let v = self.get("score")?;
        let (v, exact) = match v.strip_suffix('!') {
            Some(v) => (v, true),
            None => (v, false),
        };
        Some((v.parse().ok()?, exact))
    }

    /// `state=`: true once a game was started and has not ended.
    pub fn playing(&self) -> bool {
        self.get("state") == Some("playing")
    }
}

/// The moves of a reversi or chess `07` reply, separated by single spaces (none for an empty
/// line): `c3`, `WPe2-e4`.
#[cfg(not(MODULE))]
pub fn legal_moves(reply: &str) -> impl Iterator<Item = &str> {
    let line = reply.strip_suffix('\n').unwrap_or(reply);
    line.split(' ').filter(|m| !m.is_empty())
}

/// The free tiles of an N x N `07` reply, `C R` pairs separated by commas: `0 0`.
#[cfg(not(MODULE))]
pub fn legal_tiles(reply: &str) -> impl Iterator<Item = &str> {
    let line = reply.strip_suffix('\n').unwrap_or(reply);
    line.split(',').filter(|m| !m.is_empty())
}

/// A reversi `01` board: 64 cells `X`/`O`/`-` in index order (8 * row + column), a tab, the
/// side to move, `\n` (67 bytes).
#[cfg(not(MODULE))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReversiBoard {
    /// The cells, `X`, `O` or `-`.
    pub cells: [u8; 64],
    /// The side to move, `X` or `O`.
    pub to_move: u8,
}

#[cfg(not(MODULE))]
impl ReversiBoard {
    /// The board of a `01` reply, or `None` for any other reply.
    pub fn parse(reply: &str) -> Option<Self> {
        let b = reply.as_bytes();
        let (cells, tail) = (b.get(..64)?, b.get(64..)?);
        let to_move = match tail {
            [b'\t', s @ (b'X' | b'O'), b'\n'] => *s,
            _ => return None,
        };
        if !cells.iter().all(|c| matches!(c, b'X' | b'O' | b'-')) {
            return None;
        }
        let mut out = [0; 64];
        out.copy_from_slice(cells);
        Some(ReversiBoard {
            cells: out,
            to_move,
        })
    }
}

/// The most tiles of an N x N grid (6 x 6).
#[cfg(not(MODULE))]
pub const GRID_MAX: usize = nxn::MAX_TILES;

/// An N x N `01` grid: rows of `| C |` tiles between ` ---` separator lines.
#[cfg(not(MODULE))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    n: u8,
    tiles: [u8; GRID_MAX],
}

#[cfg(not(MODULE))]
impl Grid {
    /// The grid of a `01` reply, or `None` for any other reply.
    pub fn parse(reply: &str) -> Option<Self> {
        let mut lines = reply.lines();
        let sep = lines.next()?;
        let n = u8::try_from(sep.len() / 4).ok()?;
        if !NXN_SIZES.contains(&n) || sep.len() != 4 * usize::from(n) {
            return None;
        }
        let mut tiles = [b' '; GRID_MAX];
        for row in 0..usize::from(n) {
            let r = lines.next()?.as_bytes();
            if r.len() != 1 + 4 * usize::from(n) || lines.next()? != sep {
                return None;
            }
            for col in 0..usize::from(n) {
                let t = match r.get(4 * col..4 * col + 4)? {
                    [b'|', b' ', c @ (b'X' | b'O' | b' '), b' '] => *c,
                    _ => return None,
                };
                *tiles.get_mut(row * usize::from(n) + col)? = t;
            }
        }
        (lines.next().is_none() && reply.ends_with('\n')).then_some(Grid { n, tiles })
    }

    /// The side N.
    pub fn n(&self) -> u8 {
        self.n
    }

    /// The tiles `X`/`O`/` ` in row order (N * row + column).
    pub fn tiles(&self) -> &[u8] {
        let n = usize::from(self.n);
        self.tiles.get(..n * n).unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec::Vec;

    fn all(_: u8) -> bool {
        true
    }

    #[test]
    fn every_request_round_trips() {
        let requests = [
            Request::New("X"),
            Request::New("O 4 30 2"),
            Request::Board,
            Request::Move("3 2"),
            Request::Move("e7e8q"),
            Request::CpuMove,
            Request::PassOrResign,
            Request::Budget(Budget::TimeMs(1)),
            Request::Budget(Budget::TimeMs(Budget::MAX_MS)),
            Request::Budget(Budget::Nodes(Budget::MAX_NODES)),
            Request::LastMove,
            Request::LegalMoves,
            Request::CpuMoveForHuman,
            Request::Status,
            Request::Setup("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            Request::Position,
            Request::Append("e2e4 e7e5"),
            Request::Help,
        ];
        for r in requests {
            let line = r.to_string();
            assert_eq!(Request::parse(line.as_bytes(), all), Ok(r), "{line}");
            assert_eq!(frame(line.as_bytes()), Ok(line.as_bytes()));
            assert_eq!(
                line.as_bytes()[..2],
                *alloc::format!("{:02}", r.number()).as_bytes()
            );
        }
    }

    #[test]
    fn malformed_lines() {
        assert_eq!(Request::parse(b"", all), Err(Word::UnkCmd));
        assert_eq!(Request::parse(b"42", all), Err(Word::UnkCmd));
        assert_eq!(Request::parse(b"12 e2e4", |n| n != 12), Err(Word::UnkCmd));
        assert_eq!(Request::parse(b"00X", all), Err(Word::InvFmt));
        assert_eq!(Request::parse(b"01 ", all), Err(Word::InvFmt));
        assert_eq!(Request::parse(b"01 x", all), Err(Word::InvFmt));
        assert_eq!(Request::parse(b"02", all), Err(Word::InvFmt));
        for bad in ["05 0", "05 9001", "05 010", "05 -5", "05 1.5", "05 N", "05"] {
            assert_eq!(
                Request::parse(bad.as_bytes(), all),
                Err(Word::InvFmt),
                "{bad}"
            );
        }
        assert_eq!(Request::parse(b"02  3 2", all), Ok(Request::Move(" 3 2")));
    }

    #[test]
    fn words_parse_back() {
        for w in Word::ALL {
            let text = core::str::from_utf8(w.as_bytes()).unwrap();
            assert_eq!(Word::parse(text), Some(w));
            assert_eq!(Word::parse(text.trim_end()), Some(w));
        }
        assert_eq!(Word::parse("d3\n"), None);
        assert_eq!(Word::parse("OK\n\n"), None);
    }

    #[test]
    fn boards_parse_back() {
        use crate::reversi::position::Position;
        let mut b = [0u8; 67];
        Position::start().write_board(&mut b);
        let text = core::str::from_utf8(&b).unwrap();
        let board = ReversiBoard::parse(text).unwrap();
        assert_eq!(
            (board.cells[27], board.cells[28], board.to_move),
            (b'O', b'X', b'X')
        );
        assert_eq!(ReversiBoard::parse(&text[..66]), None);
        assert_eq!(ReversiBoard::parse("OK\n"), None);

        let grid = " --- --- ---\n| X |   | O |\n --- --- ---\n|   |   |   |\n --- --- ---\n|   | X |   |\n --- --- ---\n";
        let g = Grid::parse(grid).unwrap();
        assert_eq!(g.n(), 3);
        assert_eq!(g.tiles(), b"X O    X ");
        assert_eq!(Grid::parse(&grid[..grid.len() - 1]), None);
        assert_eq!(Grid::parse("NOGAME\n"), None);
    }

    #[test]
    fn status_and_legal_moves() {
        let s = Status::parse("device=chess state=over human=W budget=N300 games=2/256\n");
        assert_eq!(s.get("device"), Some("chess"));
        assert!(!s.playing());
        assert_eq!(s.budget(), Some(Budget::Nodes(300)));
        assert_eq!(s.number::<u32>("fullmoves"), None);
        assert_eq!(s.get("games"), Some("2/256"));
        let r = Status::parse("device=reversi state=playing plies=3 score=-12! budget=N9");
        assert_eq!(r.disc_score(), Some((-12, true)));
        assert_eq!(Status::parse("score=+3 x=1").disc_score(), Some((3, false)));
        assert_eq!(Status::parse("score=+0").disc_score(), Some((0, false)));
        assert_eq!(
            Status::parse("device=reversi state=none").disc_score(),
            None
        );
        assert_eq!(Status::parse("score=x!").disc_score(), None);
        let m: Vec<&str> = legal_moves("c3 e3 c5\n").collect();
        assert_eq!(m, ["c3", "e3", "c5"]);
        let m: Vec<&str> = legal_tiles("0 0,1 0,2 0\n").collect();
        assert_eq!(m, ["0 0", "1 0", "2 0"]);
        let m: Vec<&str> = legal_tiles("2 2\n").collect();
        assert_eq!(m, ["2 2"]);
        assert_eq!(legal_tiles("\n").count(), 0);
        assert_eq!(legal_moves("\n").count(), 0);
    }
}
