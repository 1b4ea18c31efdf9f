//! A device's reply, typed: the reply word, the `09` status, the legal moves.

use std::fmt;
use std::io;

use crate::protocol::{self, legal_moves, legal_tiles, Request, Status, Word};

/// The whole reply to one [`Request`], `\n` included, with typed views of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    text: String,
}

impl Response {
    /// The reply `text` (as read, newline included).
    pub fn new(text: String) -> Self {
        Response { text }
    }

    /// The reply as read.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The reply without its final newline.
    pub fn line(&self) -> &str {
        self.text.strip_suffix('\n').unwrap_or(&self.text)
    }

    /// The reply word, if the reply is one (`OK`, `ILLMOVE`, ...).
    pub fn word(&self) -> Option<Word> {
        protocol::parse_word(&self.text)
    }

    /// True when the reply is a word that refuses the command (nothing changed).
    pub fn rejected(&self) -> bool {
        self.word().is_some_and(protocol::is_rejection)
    }

    /// True for the replies of a move that was played: `OK` or a result word.
    pub fn accepted(&self) -> bool {
        self.word().is_some_and(|w| !protocol::is_rejection(w))
    }

    /// The reply word if it is one of `expected`; otherwise an error that names the request
    /// and the reply (`02 3 2: ILLMOVE`).
    pub fn expect(&self, request: Request<'_>, expected: &[Word]) -> io::Result<Word> {
        match self.word() {
            Some(w) if expected.contains(&w) => Ok(w),
            _ => Err(io::Error::other(format!(
                "{}: {:?}",
                protocol::encode(&request),
                self.text
            ))),
        }
    }

    /// The reply as a `09` status line.
    pub fn status(&self) -> Status<'_> {
        Status::parse(&self.text)
    }

    /// The moves of a reversi or chess `07` reply.
    pub fn legal_moves(&self) -> impl Iterator<Item = &str> {
        legal_moves(&self.text)
    }

    /// The tiles (`C R`) of an N x N `07` reply.
    pub fn legal_tiles(&self) -> impl Iterator<Item = &str> {
        legal_tiles(&self.text)
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_views() {
        let r = Response::new("ILLMOVE\n".into());
        assert_eq!(r.word(), Some(Word::IllMove));
        assert!(r.rejected() && !r.accepted());
        let e = r.expect(Request::Move("3 2"), &[Word::Ok]).unwrap_err();
        assert_eq!(e.to_string(), "02 3 2: \"ILLMOVE\\n\"");
        assert!(Response::new("MATE\n".into()).accepted());
        let board = Response::new("d3\n".into());
        assert_eq!((board.word(), board.line()), (None, "d3"));
        assert!(!board.accepted() && !board.rejected());
        let s = Response::new("device=reversi state=playing human=X\n".into());
        assert_eq!(s.status().get("human"), Some("X"));
        let l = Response::new("c3 e3\n".into());
        assert_eq!(l.legal_moves().collect::<Vec<_>>(), ["c3", "e3"]);
    }
}
