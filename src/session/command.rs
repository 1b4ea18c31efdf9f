//! Write framing (docs/protocol.md, "Framing and errors", "Choices kgames made"); the
//! command line itself is parsed by [`super::protocol::Request::parse`].

use super::reply::Word;

/// The longest command line, trailing `\n` or `\r\n` included. Longer writes are INVFMT.
pub const LINE_MAX: usize = 256;

/// Checks the framing of one write and returns the line without its line ending.
///
/// One trailing `\n` or `\r\n` is dropped. Too long, any other control byte, NUL or a
/// non-ASCII byte is [`Word::InvFmt`], whatever the command number.
pub fn frame(raw: &[u8]) -> Result<&[u8], Word> {
    if raw.len() > LINE_MAX {
        return Err(Word::InvFmt);
    }
    let line = match raw {
        [rest @ .., b'\r', b'\n'] => rest,
        [rest @ .., b'\n'] => rest,
        _ => raw,
    };
    if line.iter().all(|&b| (0x20..0x7f).contains(&b)) {
        Ok(line)
    } else {
        Err(Word::InvFmt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing() {
        assert_eq!(frame(b"01\n"), Ok(&b"01"[..]));
        assert_eq!(frame(b"01\r\n"), Ok(&b"01"[..]));
        assert_eq!(frame(b"01"), Ok(&b"01"[..]));
        assert_eq!(frame(b""), Ok(&b""[..]));
        assert_eq!(frame(b"01\n\n"), Err(Word::InvFmt));
        assert_eq!(frame(b"0\n1"), Err(Word::InvFmt));
        assert_eq!(frame(b"01\r"), Err(Word::InvFmt));
        assert_eq!(frame(b"01\0"), Err(Word::InvFmt));
        assert_eq!(frame(b"01 \xff"), Err(Word::InvFmt));
        assert_eq!(frame(b"01\t"), Err(Word::InvFmt));
        let mut long = [b' '; LINE_MAX + 1];
        long[0] = b'0';
        long[1] = b'1';
        assert_eq!(frame(&long), Err(Word::InvFmt));
        long[LINE_MAX - 1] = b'\n';
        assert!(frame(&long[..LINE_MAX]).is_ok());
    }
}
