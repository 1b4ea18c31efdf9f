//! Splitting a byte stream into protocol lines, with a bounded buffer.
//!
//! A line ends at `\r` (the protocol's end) or at `\n`; a `\n` right after a `\r` ends
//! nothing (so `\r\n` is one end), and empty lines are skipped (a person's extra Enter, a
//! `\n\r` pair). A line of more than [`MAX_LINE`] bytes is reported once as
//! [`Line::TooLong`] when its end arrives; its bytes are dropped as they come, so the buffer
//! never holds more than [`MAX_LINE`] bytes. Lines may be split across reads in any way.

use crate::wire::MAX_LINE;

/// One framed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line's bytes, without its end (at most [`MAX_LINE`]).
    Text(Vec<u8>),
    /// A line longer than [`MAX_LINE`], discarded.
    TooLong,
}

/// The framing state between reads.
#[derive(Debug, Default)]
pub struct Lines {
    buf: Vec<u8>,
    too_long: bool,
    after_cr: bool,
}

impl Lines {
    /// An empty framer.
    pub fn new() -> Self {
        Lines::default()
    }

    /// Bytes held for an unfinished line (never more than [`MAX_LINE`]).
    pub fn pending(&self) -> usize {
        self.buf.len()
    }

    /// Feeds the bytes of one read; appends the lines they complete to `out`.
    pub fn push(&mut self, bytes: &[u8], out: &mut Vec<Line>) {
        for &b in bytes {
            let after_cr = core::mem::replace(&mut self.after_cr, b == b'\r');
            match b {
                b'\n' if after_cr => {}
                b'\r' | b'\n' => {
                    if self.too_long {
                        out.push(Line::TooLong);
                    } else if !self.buf.is_empty() {
                        out.push(Line::Text(core::mem::take(&mut self.buf)));
                    }
                    self.buf.clear();
                    self.too_long = false;
                }
                _ if self.too_long => {}
                _ if self.buf.len() >= MAX_LINE => {
                    self.buf.clear();
                    self.too_long = true;
                }
                _ => self.buf.push(b),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(chunks: &[&[u8]]) -> Vec<Line> {
        let mut l = Lines::new();
        let mut out = Vec::new();
        for c in chunks {
            l.push(c, &mut out);
        }
        out
    }

    fn text(s: &str) -> Line {
        Line::Text(s.as_bytes().to_vec())
    }

    #[test]
    fn cr_lf_and_crlf_end_lines() {
        assert_eq!(
            split(&[b"AT\rNG\nEG\r\nOK\r"]),
            [text("AT"), text("NG"), text("EG"), text("OK")]
        );
        assert_eq!(split(&[b"\r\n\n\rAT\n\r"]), [text("AT")]);
    }

    #[test]
    fn lines_split_across_reads() {
        assert_eq!(
            split(&[b"M", b"V D", b"3", b"\r", b"\nPS\r"]),
            [text("MV D3"), text("PS")]
        );
        // A `\n` after a `\r` that ended the previous read is still part of that end.
        assert_eq!(split(&[b"AT\r", b"\nAT\r"]), [text("AT"), text("AT")]);
        assert_eq!(split(&[b"AT"]), []);
    }

    #[test]
    fn long_lines_are_reported_once_and_not_kept() {
        let mut l = Lines::new();
        let mut out = Vec::new();
        for _ in 0..10_000 {
            l.push(b"XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", &mut out);
            assert!(l.pending() <= MAX_LINE);
        }
        l.push(b"\rAT\r", &mut out);
        assert_eq!(out, [Line::TooLong, text("AT")]);
        let exact = "A".repeat(MAX_LINE);
        assert_eq!(split(&[exact.as_bytes(), b"\r"]), [text(&exact)]);
        let over = "A".repeat(MAX_LINE + 1);
        assert_eq!(split(&[over.as_bytes(), b"\n"]), [Line::TooLong]);
    }
}
