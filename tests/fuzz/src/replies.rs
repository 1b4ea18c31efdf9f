//! The documented reply formats (docs/protocol.md, "Framing and errors" to "/dev/kxo"):
//! every reply a device can give is checked byte by byte against the form of the command
//! that produced it.

use kgames_client::protocol::WORDS;
use kgames_session::session::game::Game;
use kgames_session::session::reply::{Word, REPLY_MAX};

/// The most bytes of a classic reply: the course's client takes each reply in one
/// `read(fd, buf, 1024)`. Only `07` (all legal moves) and `99` (help) may be longer.
pub const CLASSIC_READ: usize = 1024;

/// The reply word `reply` is, byte for byte (its newline included), if it is one.
pub fn word(reply: &[u8]) -> Option<Word> {
    WORDS.into_iter().find(|w| w.as_bytes() == reply)
}

/// The command number of a raw write, if it starts with two digits.
pub fn number(raw: &[u8]) -> Option<u8> {
    match raw {
        [a @ b'0'..=b'9', b @ b'0'..=b'9', ..] => Some((a - b'0') * 10 + (b - b'0')),
        _ => None,
    }
}

/// Panics unless `reply` is a valid reply of device `G` to the write `raw`.
pub fn check<G: Game>(raw: &[u8], reply: &[u8]) {
    let text = || String::from_utf8_lossy(reply).into_owned();
    assert!(reply.len() <= REPLY_MAX, "reply over REPLY_MAX: {}", text());
    assert_eq!(
        reply.last(),
        Some(&b'\n'),
        "reply not ended by a newline: {:?}",
        text()
    );
    if let Some(w) = word(reply) {
        // Chess never answers WIN or LOSE; the other devices never CHECK or MATE.
        let chess = G::NAME == "chess";
        assert!(
            !(chess && matches!(w, Word::Win | Word::Lose)),
            "chess answered {w:?}"
        );
        assert!(
            chess || !matches!(w, Word::Check | Word::Mate),
            "{} answered {w:?}",
            G::NAME
        );
        return;
    }
    let n = number(raw);
    if n != Some(7) && n != Some(99) {
        assert!(
            reply.len() <= CLASSIC_READ,
            "reply over one read: {}",
            text()
        );
    }
    match n {
        Some(1) => board::<G>(reply),
        Some(99) => assert_eq!(reply, G::HELP.as_bytes()),
        Some(6 | 7 | 11) => one_line(reply),
        Some(9) => {
            assert!(reply.starts_with(b"device="), "09: {}", text());
            one_line(reply)
        }
        _ => panic!("command {raw:?} gave the non-word reply {}", text()),
    }
}

/// One line of printable ASCII and its newline.
fn one_line(reply: &[u8]) {
    let (body, _) = reply.split_at(reply.len() - 1);
    assert!(
        body.iter().all(|&b| (0x20..0x7f).contains(&b)),
        "not one printable line: {:?}",
        String::from_utf8_lossy(reply)
    );
}

fn board<G: Game>(reply: &[u8]) {
    match G::NAME {
        "reversi" => {
            assert_eq!(reply.len(), 67, "reversi board length");
            assert!(reply[..64].iter().all(|b| b"XO-".contains(b)), "cells");
            assert_eq!(reply[64], b'\t');
            assert!(b"XO".contains(&reply[65]), "side to move");
            assert_eq!(reply[66], b'\n');
        }
        "chess" => {
            assert_eq!(reply.len(), 129, "chess board length");
            for sq in reply[..128].chunks(2) {
                let ok = sq == b"**" || (b"WB".contains(&sq[0]) && b"KQRBNP".contains(&sq[1]));
                assert!(ok, "square {sq:?}");
            }
            assert_eq!(reply[128], b'\n');
        }
        _ => grid(reply),
    }
}

/// The kxo N x N grid: separator, then per row the cells and a separator (N = 3-6).
fn grid(reply: &[u8]) {
    let n = (3..=6usize)
        .find(|&n| reply.len() == (n + 1) * (4 * n + 1) + n * (4 * n + 2))
        .unwrap_or_else(|| panic!("grid length {}", reply.len()));
    let sep: Vec<u8> = b" ---".repeat(n).into_iter().chain([b'\n']).collect();
    let mut rest = reply;
    for row in 0..=n {
        assert!(rest.starts_with(&sep), "separator line");
        rest = &rest[sep.len()..];
        if row == n {
            break;
        }
        assert_eq!(rest[0], b'|');
        for c in 0..n {
            let cell = &rest[1 + 4 * c..5 + 4 * c];
            assert!(matches!(cell, b" X |" | b" O |" | b"   |"), "cell {cell:?}");
        }
        assert_eq!(rest[1 + 4 * n], b'\n');
        rest = &rest[2 + 4 * n..];
    }
    assert!(rest.is_empty());
}
