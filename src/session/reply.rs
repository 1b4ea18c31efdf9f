//! Reply words (docs/protocol.md, "Framing and errors") and the fixed-size reply buffer.

use core::fmt;

/// The most bytes one reply can hold. Every reply of the classic commands fits one read of
/// 1024 bytes; only `07` in positions with very many moves can be longer.
pub const REPLY_MAX: usize = 2048;

/// A one-word reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Word {
    /// `OK\n`: done.
    Ok,
    /// `UNKCMD\n`: the command number is not known.
    UnkCmd,
    /// `INVFMT\n`: known command, malformed arguments.
    InvFmt,
    /// `NOGAME\n`: the command needs a game in progress.
    NoGame,
    /// `OOT\n`: out of turn.
    Oot,
    /// `ILLMOVE\n`: well-formed but illegal.
    IllMove,
    /// `WIN\n`: the game ended, the human won.
    Win,
    /// `LOSE\n`: the game ended, the human lost.
    Lose,
    /// `TIE\n`: the game ended in a draw.
    Tie,
    /// `CHECK\n`: chess, the side to move is in check.
    Check,
    /// `MATE\n`: chess, the side to move is checkmated.
    Mate,
}

impl Word {
    /// The reply bytes, newline included.
    pub const fn as_bytes(self) -> &'static [u8] {
        match self {
            Word::Ok => b"OK\n",
            Word::UnkCmd => b"UNKCMD\n",
            Word::InvFmt => b"INVFMT\n",
            Word::NoGame => b"NOGAME\n",
            Word::Oot => b"OOT\n",
            Word::IllMove => b"ILLMOVE\n",
            Word::Win => b"WIN\n",
            Word::Lose => b"LOSE\n",
            Word::Tie => b"TIE\n",
            Word::Check => b"CHECK\n",
            Word::Mate => b"MATE\n",
        }
    }
}

/// A reply under construction or ready to be read: at most [`REPLY_MAX`] bytes.
///
/// Invariant: `len <= REPLY_MAX`. Writes that do not fit are refused whole.
#[derive(Clone)]
pub struct Reply {
    buf: [u8; REPLY_MAX],
    len: usize,
}

impl Default for Reply {
    fn default() -> Self {
        Self::new()
    }
}

impl Reply {
    /// An empty reply.
    pub const fn new() -> Self {
        Reply {
            buf: [0; REPLY_MAX],
            len: 0,
        }
    }

    /// Empties the reply.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Replaces the reply with one word.
    pub fn set_word(&mut self, w: Word) {
        self.clear();
        let _ = self.push(w.as_bytes());
    }

    /// Appends bytes whole, or refuses without changing anything.
    pub fn push(&mut self, bytes: &[u8]) -> fmt::Result {
        let end = self.len.checked_add(bytes.len()).ok_or(fmt::Error)?;
        let dst = self.buf.get_mut(self.len..end).ok_or(fmt::Error)?;
        dst.copy_from_slice(bytes);
        self.len = end;
        Ok(())
    }

    /// Copies another reply.
    pub fn copy_from(&mut self, other: &Reply) {
        self.clear();
        let _ = self.push(other.as_bytes());
    }

    /// The reply bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }

    /// The bytes from `pos` on (empty past the end).
    pub fn from(&self, pos: usize) -> &[u8] {
        self.as_bytes().get(pos..).unwrap_or(&[])
    }

    /// Number of bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Free space left.
    pub fn remaining_mut(&mut self) -> &mut [u8] {
        self.buf.get_mut(self.len..).unwrap_or(&mut [])
    }

    /// Marks `n` more bytes of [`remaining_mut`](Self::remaining_mut) as written.
    pub fn advance(&mut self, n: usize) {
        self.len = self.len.saturating_add(n).min(REPLY_MAX);
    }
}

impl fmt::Write for Reply {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push(s.as_bytes())
    }
}
