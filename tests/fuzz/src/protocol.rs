//! The typed protocol (`kgames_session::protocol`, encoded and decoded by
//! `kgames_client::protocol`): any line the device's parser takes as a
//! [`Request`] encodes back to a line that parses to the same request, and encodes to itself
//! again (the round trip the tools rely on: a request a tool sends is the one the device
//! reads); the reply decoders (status, boards, legal moves, words) take any text without a
//! panic, and what they decode is consistent with it.

use kgames_client::protocol::{
    encode, legal_moves, legal_tiles, parse_word, Grid, ReversiBoard, Status,
};
use kgames_session::session::command::frame;
use kgames_session::session::protocol::Request;

/// Runs the target on one input: a write for the framing and the parser, then the same bytes
/// (as text, when they are UTF-8) for the reply decoders.
pub fn run(data: &[u8]) {
    // The device frames a write before it parses it (`Request::parse` takes framed lines).
    if let Ok(request) = frame(data).and_then(|line| Request::parse(line, |_| true)) {
        let line = encode(&request);
        assert_eq!(
            frame(line.as_bytes()),
            Ok(line.as_bytes()),
            "{line:?} is not framed"
        );
        let again = Request::parse(line.as_bytes(), |_| true);
        assert_eq!(again, Ok(request), "{line:?} parses to another request");
        assert_eq!(encode(&request), line, "the encoding is not stable");
    }
    let Ok(text) = core::str::from_utf8(data) else {
        return;
    };
    if let Some(w) = parse_word(text) {
        assert_eq!(w.as_bytes().trim_ascii_end(), text.trim_end().as_bytes());
    }
    let status = Status::parse(text);
    for (k, v) in status.pairs() {
        assert_eq!(
            status.get(k).map(|_| ()),
            Some(()),
            "{k}={v} not found again"
        );
    }
    let _ = (status.budget(), status.disc_score(), status.playing());
    if let Some(b) = ReversiBoard::parse(text) {
        assert!(
            b.cells.iter().all(|c| matches!(c, b'X' | b'O' | b'-')),
            "{text:?}"
        );
        assert!(matches!(b.to_move, b'X' | b'O'), "{text:?}");
    }
    if let Some(g) = Grid::parse(text) {
        let n = usize::from(g.n());
        assert_eq!(g.tiles().len(), n * n);
        assert!(
            g.tiles().iter().all(|c| matches!(c, b'X' | b'O' | b' ')),
            "{text:?}"
        );
    }
    assert!(legal_moves(text).all(|m| !m.is_empty() && !m.contains(' ')));
    assert!(legal_tiles(text).all(|m| !m.is_empty()));
}
