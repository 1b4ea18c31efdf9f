//! The serial Othello link's line framing and parser (user/othello: `lines`, `wire`).
//!
//! The input is a byte stream and, in its first byte, a chunk size: the stream is framed
//! whole and in chunks of that size, which must give the same lines. Invariants: the framer
//! never holds more than `MAX_LINE` bytes; every line is at most `MAX_LINE` bytes without an
//! end byte; a line that parses as a command or a message prints back as exactly itself.

use othello::lines::{Line, Lines};
use othello::wire::{Cmd, Msg, MAX_LINE};

/// Runs the target.
pub fn run(data: &[u8]) {
    let Some((&k, stream)) = data.split_first() else {
        return;
    };
    let whole = frame(stream, stream.len().max(1));
    let chunked = frame(stream, usize::from(k % 17) + 1);
    assert_eq!(whole, chunked, "framing depends on how the stream is split");
    for line in &whole {
        let Line::Text(t) = line else { continue };
        assert!(
            t.len() <= MAX_LINE && !t.is_empty(),
            "line of {} bytes",
            t.len()
        );
        assert!(
            !t.contains(&b'\r') && !t.contains(&b'\n'),
            "end byte in a line"
        );
        if let Some(c) = Cmd::parse(t) {
            assert_eq!(
                c.text().as_bytes(),
                &t[..],
                "command {c:?} prints differently"
            );
        }
        if let Some(m) = Msg::parse(t) {
            assert_eq!(
                m.text().as_bytes(),
                &t[..],
                "message {m:?} prints differently"
            );
        }
    }
}

fn frame(stream: &[u8], chunk: usize) -> Vec<Line> {
    let mut lines = Lines::new();
    let mut out = Vec::new();
    for c in stream.chunks(chunk) {
        lines.push(c, &mut out);
        assert!(
            lines.pending() <= MAX_LINE,
            "{} bytes pending",
            lines.pending()
        );
    }
    out
}
