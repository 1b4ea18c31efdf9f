//! The text protocol as a tool speaks it (docs/protocol.md): the requests a tool sends, typed
//! by the session layer ([`Request`], the enum the device parses every write into) and
//! encoded here ([`encode`]), and the decoders of what it reads back: the reply [`Word`]s
//! ([`parse_word`]), the `09` [`Status`], the `01` boards ([`ReversiBoard`], [`Grid`]) and
//! `07`'s moves ([`legal_moves`], [`legal_tiles`]); with the limits a sender must keep
//! ([`LINE_MAX`], [`Budget::MAX_MS`], [`Budget::MAX_NODES`], [`NXN_SIZES`]).
//!
//! The module never builds a line or reads a reply, so none of this is in `kgames.ko`: the
//! device has the parser ([`Request::parse`], after [`frame`]), the tools have its encoder.
//! A line encoded here is, byte for byte, one the device's parser takes back to the same
//! request; the round trip is tested below and by the fuzz target `protocol`.
//!
//! ```rust
//! use kgames_client::protocol::{encode, parse_word, Budget, Request, Status, Word};
//!
//! assert_eq!(encode(&Request::Move("3 2")), "02 3 2");
//! assert_eq!(encode(&Request::Budget(Budget::Nodes(5000))), "05 N5000");
//! assert_eq!(Request::parse(b"05 N5000", |_| true), Ok(Request::Budget(Budget::Nodes(5000))));
//! assert_eq!(parse_word("ILLMOVE\n"), Some(Word::IllMove));
//! let s = Status::parse("device=reversi state=playing human=X turn=O budget=1000ms games=1/256\n");
//! assert_eq!(s.get("turn"), Some("O"));
//! assert_eq!(s.budget(), Some(Budget::TimeMs(1000)));
//! ```

use std::fmt::Write;
use std::ops::RangeInclusive;

pub use kgames_session::command::{frame, LINE_MAX};
pub use kgames_session::common::budget::Budget;
use kgames_session::kxo::nxn;
pub use kgames_session::protocol::Request;
pub use kgames_session::reply::{Word, REPLY_MAX};

/// The board sizes N of the N x N game (`00 X N`).
pub const NXN_SIZES: RangeInclusive<u8> = nxn::MIN_N..=nxn::MAX_N;
/// The playouts per tile T of the N x N game (`00 X N T`).
pub const NXN_PLAYOUTS: RangeInclusive<u8> = nxn::MIN_PLAYOUTS..=nxn::MAX_PLAYOUTS;
/// The work items P of the N x N game (`00 X N T P`): the groups its free tiles are dealt over.
pub const NXN_WORKERS: RangeInclusive<u8> = nxn::MIN_WORKERS..=nxn::MAX_WORKERS;

/// The two-digit command number of `request`.
pub const fn number(request: &Request<'_>) -> u8 {
    match request {
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

/// The argument of `05`: `1000` (ms) or `N5000` (nodes).
pub fn budget_arg(budget: Budget) -> String {
    match budget {
        Budget::TimeMs(ms) => ms.to_string(),
        Budget::Nodes(n) => format!("N{n}"),
    }
}

/// The command line of `request`, without its `\n`: `02 3 2`.
pub fn encode(request: &Request<'_>) -> String {
    let mut line = format!("{:02}", number(request));
    let _ = match request {
        Request::New(a) | Request::Move(a) | Request::Setup(a) | Request::Append(a) => {
            write!(line, " {a}")
        }
        Request::Budget(b) => write!(line, " {}", budget_arg(*b)),
        _ => Ok(()),
    };
    line
}

/// Every reply word, in the order of docs/protocol.md.
pub const WORDS: [Word; 11] = [
    Word::Ok,
    Word::UnkCmd,
    Word::InvFmt,
    Word::NoGame,
    Word::Oot,
    Word::IllMove,
    Word::Win,
    Word::Lose,
    Word::Tie,
    Word::Check,
    Word::Mate,
];

/// The word a reply is (`ILLMOVE\n` or `ILLMOVE`), or `None` for any other reply.
pub fn parse_word(reply: &str) -> Option<Word> {
    let text = reply.strip_suffix('\n').unwrap_or(reply).as_bytes();
    WORDS
        .into_iter()
        .find(|w| w.as_bytes().strip_suffix(b"\n") == Some(text))
}

/// The word without its newline: `ILLMOVE`.
pub fn word_name(word: Word) -> &'static str {
    let b = word.as_bytes();
    std::str::from_utf8(b.get(..b.len().saturating_sub(1)).unwrap_or(b)).unwrap_or("")
}

/// True for the words that refuse a command: nothing changed.
pub const fn is_rejection(word: Word) -> bool {
    matches!(
        word,
        Word::UnkCmd | Word::InvFmt | Word::NoGame | Word::Oot | Word::IllMove
    )
}

/// True for the words that end a game.
pub const fn ends_game(word: Word) -> bool {
    matches!(word, Word::Win | Word::Lose | Word::Tie | Word::Mate)
}

/// A `09` status line: `key=value` pairs separated by single spaces (docs/protocol.md, `09`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status<'a> {
    line: &'a str,
}

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
    pub fn number<T: std::str::FromStr>(&self, key: &str) -> Option<T> {
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
pub fn legal_moves(reply: &str) -> impl Iterator<Item = &str> {
    let line = reply.strip_suffix('\n').unwrap_or(reply);
    line.split(' ').filter(|m| !m.is_empty())
}

/// The free tiles of an N x N `07` reply, `C R` pairs separated by commas: `0 0`.
pub fn legal_tiles(reply: &str) -> impl Iterator<Item = &str> {
    let line = reply.strip_suffix('\n').unwrap_or(reply);
    line.split(',').filter(|m| !m.is_empty())
}

/// A reversi `01` board: 64 cells `X`/`O`/`-` in index order (8 * row + column), a tab, the
/// side to move, `\n` (67 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReversiBoard {
    /// The cells, `X`, `O` or `-`.
    pub cells: [u8; 64],
    /// The side to move, `X` or `O`.
    pub to_move: u8,
}

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
pub const GRID_MAX: usize = nxn::MAX_TILES;

/// An N x N `01` grid: rows of `| C |` tiles between ` ---` separator lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    n: u8,
    tiles: [u8; GRID_MAX],
}

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
            let line = encode(&r);
            assert_eq!(Request::parse(line.as_bytes(), all), Ok(r), "{line}");
            assert_eq!(frame(line.as_bytes()), Ok(line.as_bytes()));
            assert_eq!(
                line.as_bytes()[..2],
                *format!("{:02}", number(&r)).as_bytes()
            );
        }
        assert_eq!(budget_arg(Budget::TimeMs(1000)), "1000");
        assert_eq!(budget_arg(Budget::Nodes(5000)), "N5000");
    }

    #[test]
    fn words_parse_back() {
        for w in WORDS {
            let text = std::str::from_utf8(w.as_bytes()).unwrap();
            assert_eq!(parse_word(text), Some(w));
            assert_eq!(parse_word(text.trim_end()), Some(w));
            assert_eq!(format!("{}\n", word_name(w)), text);
        }
        assert_eq!(parse_word("d3\n"), None);
        assert_eq!(parse_word("OK\n\n"), None);
        assert!(is_rejection(Word::IllMove) && !is_rejection(Word::Mate));
        assert!(ends_game(Word::Tie) && !ends_game(Word::Check));
    }

    #[test]
    fn boards_parse_back() {
        use kgames_session::reversi::position::Position;
        let mut b = [0u8; 67];
        Position::start().write_board(&mut b);
        let text = std::str::from_utf8(&b).unwrap();
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
