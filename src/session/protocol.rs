//! The text protocol as types (docs/protocol.md): the [`Request`] each write is parsed into
//! ([`Request::parse`], after [`frame`](super::command::frame)), with the reply [`Word`]s
//! and the CPU's [`Budget`] it names.
//!
//! The arguments that only a game can judge (a move, a position, the side of `00`) are
//! carried as text and parsed by the game ([`super::game::Game`]). Tools build the same
//! requests and encode them with `kgames_client::protocol::encode`, which also holds the
//! decoders of the replies (the `09` status, the `01` boards, `07`'s moves): the module never
//! writes a request or reads a reply, so those are not in `kgames.ko`. The round trip (a line
//! a tool encodes parses back to the same request) is tested there and by the fuzz targets.
//!
//! ```rust
//! use kgames_session::protocol::{Budget, Request, Word};
//!
//! assert_eq!(Request::parse(b"02 3 2", |_| true), Ok(Request::Move("3 2")));
//! assert_eq!(Request::parse(b"05 N5000", |_| true), Ok(Request::Budget(Budget::Nodes(5000))));
//! assert_eq!(Request::parse(b"05 N0", |_| true), Err(Word::InvFmt));
//! assert_eq!(Request::parse(b"42", |n| n != 42), Err(Word::UnkCmd));
//! ```

pub use super::reply::Word;
pub use crate::common::budget::Budget;

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
    /// Parses a framed line (see [`frame`](super::command::frame)). Not two leading digits, or a number `known`
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

#[cfg(test)]
mod tests {
    use super::*;

    fn all(_: u8) -> bool {
        true
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
}
