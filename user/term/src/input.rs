//! The bytes a terminal in raw mode sends, decoded into crossterm's [`KeyEvent`]s, for a
//! program that reads its standard input itself (one `poll(2)` loop, no reader thread)
//! instead of through crossterm's event reader.
//!
//! Crossterm's reader keeps its own edge-triggered epoll on the terminal: bytes it has not
//! read when it returns an event (more than its 1 KiB buffer, as in a paste) never wake it
//! again, while a level-triggered `poll(2)` of the same descriptor keeps saying "readable".
//! A loop that polls standard input itself must therefore read the bytes itself; this module
//! turns them into the same [`KeyEvent`]s crossterm's parser gives for them:
//!
//! | bytes | key |
//! | --- | --- |
//! | printable characters (UTF-8) | `Char(c)`, upper-case letters with `SHIFT` |
//! | `\r`, `\t`, DEL (0x7f) | Enter, Tab, Backspace |
//! | 0x01-0x1a (`\n` included) | `Char('a'..='z')` with `CONTROL` (Ctrl-Q is 0x11) |
//! | 0x00, 0x1c-0x1f | `Char(' ')`, `Char('4'..='7')` with `CONTROL` |
//! | ESC alone (nothing follows in the same read) | Esc |
//! | ESC then a key | that key with `ALT` |
//! | `ESC [` A B C D H F Z, with `1;m` modifiers | arrows, Home, End, BackTab (Shift-Tab) |
//! | `ESC [` n `~` | Home (1, 7), Insert, Delete, End (4, 8), PageUp, PageDown, F1-F12 |
//! | `ESC O` A B C D H F P Q R S | arrows, Home, End, F1-F4 |
//!
//! Other sequences (mouse, focus, bracketed paste markers) are dropped whole.
//!
//! ```
//! use kgames_term::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
//! use kgames_term::input::KeyDecoder;
//!
//! let mut d = KeyDecoder::default();
//! let keys = d.feed(b"q\x11\x1b[A\x1b", false);
//! assert_eq!(keys, [
//!     KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE),
//!     KeyEvent::new(KeyCode::Char('q'), KeyModifiers::CONTROL),
//!     KeyEvent::new(KeyCode::Up, KeyModifiers::NONE),
//!     KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE),
//! ]);
//! ```

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Longest unfinished sequence kept between reads; longer ones are garbage and dropped.
const MAX_PENDING: usize = 64;

const ESC: u8 = 0x1b;

/// Decodes terminal input, keeping an escape sequence or character cut at the end of one read
/// until the next.
#[derive(Clone, Debug, Default)]
pub struct KeyDecoder {
    pending: Vec<u8>,
}

/// What the bytes at the start of a buffer are.
enum Step {
    /// A key (maybe none: a dropped sequence), and the bytes it took.
    Key(Option<KeyEvent>, usize),
    /// Not enough bytes to tell.
    Incomplete,
}

fn key(code: KeyCode, modifiers: KeyModifiers) -> Option<KeyEvent> {
    Some(KeyEvent::new(code, modifiers))
}

/// The modifiers of a CSI parameter `m` (xterm: 1 + shift 1, alt 2, ctrl 4).
fn modifiers(m: u32) -> KeyModifiers {
    let bits = m.saturating_sub(1);
    let mut out = KeyModifiers::NONE;
    if bits & 1 != 0 {
        out |= KeyModifiers::SHIFT;
    }
    if bits & 2 != 0 {
        out |= KeyModifiers::ALT;
    }
    if bits & 4 != 0 {
        out |= KeyModifiers::CONTROL;
    }
    out
}

/// A single byte that is not ESC, or the start of a UTF-8 character.
fn plain(b: &[u8]) -> Step {
    let c = b[0];
    let k = match c {
        b'\r' => key(KeyCode::Enter, KeyModifiers::NONE),
        b'\t' => key(KeyCode::Tab, KeyModifiers::NONE),
        0x7f => key(KeyCode::Backspace, KeyModifiers::NONE),
        0 => key(KeyCode::Char(' '), KeyModifiers::CONTROL),
        0x01..=0x1a => key(
            KeyCode::Char(char::from(c - 1 + b'a')),
            KeyModifiers::CONTROL,
        ),
        0x1c..=0x1f => key(
            KeyCode::Char(char::from(c - 0x1c + b'4')),
            KeyModifiers::CONTROL,
        ),
        0x20..=0x7e => {
            let ch = char::from(c);
            let m = if ch.is_ascii_uppercase() {
                KeyModifiers::SHIFT
            } else {
                KeyModifiers::NONE
            };
            key(KeyCode::Char(ch), m)
        }
        _ => {
            // UTF-8: the lead byte says how long the character is.
            let len = match c {
                0xc2..=0xdf => 2,
                0xe0..=0xef => 3,
                0xf0..=0xf4 => 4,
                _ => return Step::Key(None, 1),
            };
            if b.len() < len {
                return Step::Incomplete;
            }
            return match std::str::from_utf8(&b[..len])
                .ok()
                .and_then(|s| s.chars().next())
            {
                Some(ch) => Step::Key(key(KeyCode::Char(ch), KeyModifiers::NONE), len),
                None => Step::Key(None, 1),
            };
        }
    };
    Step::Key(k, 1)
}

/// `ESC [` ...: `b` starts after the `[`; the step counts from the ESC.
fn csi(b: &[u8]) -> Step {
    // Parameters and intermediates, then one final byte 0x40-0x7e.
    let Some(end) = b.iter().position(|c| (0x40..=0x7e).contains(c)) else {
        return Step::Incomplete;
    };
    if b[..end].iter().any(|c| !(0x20..=0x3f).contains(c)) {
        return Step::Key(None, 2 + end + 1); // not a CSI sequence after all: dropped
    }
    let params: Vec<u32> = std::str::from_utf8(&b[..end])
        .unwrap_or("")
        .split(';')
        .map(|p| p.parse().unwrap_or(0))
        .collect();
    let m = modifiers(params.get(1).copied().unwrap_or(1));
    let code = match b[end] {
        b'A' => Some(KeyCode::Up),
        b'B' => Some(KeyCode::Down),
        b'C' => Some(KeyCode::Right),
        b'D' => Some(KeyCode::Left),
        b'H' => Some(KeyCode::Home),
        b'F' => Some(KeyCode::End),
        b'Z' => {
            return Step::Key(key(KeyCode::BackTab, KeyModifiers::SHIFT), 2 + end + 1);
        }
        b'~' => match params.first().copied().unwrap_or(0) {
            1 | 7 => Some(KeyCode::Home),
            2 => Some(KeyCode::Insert),
            3 => Some(KeyCode::Delete),
            4 | 8 => Some(KeyCode::End),
            5 => Some(KeyCode::PageUp),
            6 => Some(KeyCode::PageDown),
            n @ 11..=15 => Some(KeyCode::F((n - 10) as u8)),
            n @ 17..=21 => Some(KeyCode::F((n - 11) as u8)),
            n @ 23..=24 => Some(KeyCode::F((n - 12) as u8)),
            _ => None,
        },
        _ => None,
    };
    Step::Key(code.and_then(|c| key(c, m)), 2 + end + 1)
}

/// The step at the start of `b` (not empty).
fn step(b: &[u8], more: bool) -> Step {
    if b[0] != ESC {
        return plain(b);
    }
    let Some(&next) = b.get(1) else {
        // ESC alone: the Esc key, unless the rest of a sequence may still come.
        return if more {
            Step::Incomplete
        } else {
            Step::Key(key(KeyCode::Esc, KeyModifiers::NONE), 1)
        };
    };
    match next {
        b'[' => csi(&b[2..]),
        b'O' => {
            let Some(&f) = b.get(2) else {
                return if more {
                    Step::Incomplete
                } else {
                    // ESC then O: Alt-O.
                    Step::Key(key(KeyCode::Char('O'), KeyModifiers::ALT), 2)
                };
            };
            let code = match f {
                b'A' => Some(KeyCode::Up),
                b'B' => Some(KeyCode::Down),
                b'C' => Some(KeyCode::Right),
                b'D' => Some(KeyCode::Left),
                b'H' => Some(KeyCode::Home),
                b'F' => Some(KeyCode::End),
                b'P'..=b'S' => Some(KeyCode::F(f - b'P' + 1)),
                _ => None,
            };
            Step::Key(code.and_then(|c| key(c, KeyModifiers::NONE)), 3)
        }
        ESC => Step::Key(key(KeyCode::Esc, KeyModifiers::NONE), 1),
        _ => match plain(&b[1..]) {
            Step::Key(k, n) => Step::Key(
                k.map(|mut k| {
                    k.modifiers |= KeyModifiers::ALT;
                    k
                }),
                n + 1,
            ),
            Step::Incomplete => Step::Incomplete,
        },
    }
}

impl KeyDecoder {
    /// Decodes `bytes` after what an earlier call kept. `more`: more bytes may follow at once
    /// (the read filled its buffer); then a sequence cut at the end is kept for the next
    /// call, and a lone ESC at the end waits too. Without `more` a lone ESC is the Esc key; a
    /// cut CSI sequence or character is still kept (a terminal writes them whole; if the rest
    /// never comes, it is dropped once the next bytes show it cannot be completed).
    pub fn feed(&mut self, bytes: &[u8], more: bool) -> Vec<KeyEvent> {
        self.pending.extend_from_slice(bytes);
        let mut keys = Vec::new();
        let mut at = 0;
        while at < self.pending.len() {
            match step(&self.pending[at..], more) {
                Step::Key(k, n) => {
                    keys.extend(k);
                    at += n.max(1);
                }
                Step::Incomplete => break,
            }
        }
        self.pending.drain(..at.min(self.pending.len()));
        if self.pending.len() > MAX_PENDING {
            self.pending.clear();
        }
        keys
    }

    /// Bytes kept from an unfinished sequence.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }
    fn m(code: KeyCode, m: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, m)
    }
    fn all(bytes: &[u8]) -> Vec<KeyEvent> {
        KeyDecoder::default().feed(bytes, false)
    }

    #[test]
    fn plain_and_control_keys() {
        use KeyModifiers as M;
        assert_eq!(
            all(b"qA?1\r\t\x7f"),
            [
                k(KeyCode::Char('q')),
                m(KeyCode::Char('A'), M::SHIFT),
                k(KeyCode::Char('?')),
                k(KeyCode::Char('1')),
                k(KeyCode::Enter),
                k(KeyCode::Tab),
                k(KeyCode::Backspace),
            ]
        );
        assert_eq!(
            all(b"\x11\x10\x03\x13\n\x00\x1c"),
            [
                m(KeyCode::Char('q'), M::CONTROL),
                m(KeyCode::Char('p'), M::CONTROL),
                m(KeyCode::Char('c'), M::CONTROL),
                m(KeyCode::Char('s'), M::CONTROL),
                m(KeyCode::Char('j'), M::CONTROL),
                m(KeyCode::Char(' '), M::CONTROL),
                m(KeyCode::Char('4'), M::CONTROL),
            ]
        );
        assert_eq!(
            all("é€".as_bytes()),
            [k(KeyCode::Char('é')), k(KeyCode::Char('€'))]
        );
        assert_eq!(all(b"\xff"), [], "not UTF-8: dropped");
    }

    #[test]
    fn escape_sequences() {
        use KeyModifiers as M;
        let keys = all(b"\x1b[A\x1b[B\x1b[C\x1b[D\x1bOA\x1b[H\x1b[F\x1b[Z");
        assert_eq!(
            keys,
            [
                k(KeyCode::Up),
                k(KeyCode::Down),
                k(KeyCode::Right),
                k(KeyCode::Left),
                k(KeyCode::Up),
                k(KeyCode::Home),
                k(KeyCode::End),
                m(KeyCode::BackTab, M::SHIFT),
            ]
        );
        let keys = all(b"\x1b[5~\x1b[6~\x1b[1~\x1b[4~\x1b[7~\x1b[8~\x1b[3~\x1b[15~\x1bOP");
        assert_eq!(
            keys,
            [
                k(KeyCode::PageUp),
                k(KeyCode::PageDown),
                k(KeyCode::Home),
                k(KeyCode::End),
                k(KeyCode::Home),
                k(KeyCode::End),
                k(KeyCode::Delete),
                k(KeyCode::F(5)),
                k(KeyCode::F(1)),
            ]
        );
        assert_eq!(all(b"\x1b[1;5C"), [m(KeyCode::Right, M::CONTROL)]);
        assert_eq!(all(b"\x1b[1;2A"), [m(KeyCode::Up, M::SHIFT)]);
        assert_eq!(all(b"\x1bq"), [m(KeyCode::Char('q'), M::ALT)]);
        assert_eq!(all(b"\x1b\x1b"), [k(KeyCode::Esc), k(KeyCode::Esc)]);
        // Mouse, focus and paste markers are dropped whole; what follows is read.
        assert_eq!(
            all(b"\x1b[<0;3;4Mq\x1b[I\x1b[200~x"),
            [k(KeyCode::Char('q')), k(KeyCode::Char('x'))]
        );
    }

    #[test]
    fn a_sequence_cut_between_reads_is_kept() {
        let mut d = KeyDecoder::default();
        assert_eq!(d.feed(b"j\x1b[", true), [k(KeyCode::Char('j'))]);
        assert_eq!(d.pending(), 2);
        assert_eq!(
            d.feed(b"6~k", false),
            [k(KeyCode::PageDown), k(KeyCode::Char('k'))]
        );
        assert_eq!(d.pending(), 0);
        // A lone ESC at the end of a full buffer waits; at the end of a short read it is Esc.
        assert_eq!(d.feed(b"\x1b", true), []);
        assert_eq!(d.feed(b"[A", false), [k(KeyCode::Up)]);
        assert_eq!(d.feed(b"\x1b", false), [k(KeyCode::Esc)]);
        // A character cut in two.
        let e = "é".as_bytes();
        assert_eq!(d.feed(&e[..1], false), []);
        assert_eq!(d.feed(&e[1..], false), [k(KeyCode::Char('é'))]);
        // Garbage that never ends is not kept forever.
        let mut long = b"\x1b[".to_vec();
        long.extend([b'1'; 100]);
        assert_eq!(d.feed(&long, false), []);
        assert_eq!(d.pending(), 0);
    }
}
