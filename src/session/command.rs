//! Write framing and command-line splitting (docs/protocol.md, "Framing and errors",
//! "Choices kgames made").

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

/// A framed line split into its command number and its arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Command<'a> {
    /// The two-digit command number, 0-99.
    pub number: u8,
    /// The bytes after the single space following the number; `None` when the line is only
    /// the number.
    pub args: Option<&'a [u8]>,
}

impl<'a> Command<'a> {
    /// Splits a framed line. Not two leading digits, or a number `known` rejects, is
    /// [`Word::UnkCmd`]; a number followed by anything but one space and at least one byte is
    /// [`Word::InvFmt`].
    pub fn split(line: &'a [u8], known: impl Fn(u8) -> bool) -> Result<Self, Word> {
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
        Ok(Command { number, args })
    }

    /// For a command without arguments: INVFMT if any were given.
    pub fn no_args(&self) -> Result<(), Word> {
        match self.args {
            None => Ok(()),
            Some(_) => Err(Word::InvFmt),
        }
    }

    /// For a command that requires arguments: INVFMT if none were given.
    pub fn args(&self) -> Result<&'a [u8], Word> {
        self.args.ok_or(Word::InvFmt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(n: u8) -> bool {
        n <= 11 || n == 99
    }

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

    #[test]
    fn splitting() {
        assert_eq!(
            Command::split(b"00 X", all),
            Ok(Command {
                number: 0,
                args: Some(&b"X"[..])
            })
        );
        assert_eq!(
            Command::split(b"99", all),
            Ok(Command {
                number: 99,
                args: None
            })
        );
        assert_eq!(Command::split(b"", all), Err(Word::UnkCmd));
        assert_eq!(Command::split(b"0", all), Err(Word::UnkCmd));
        assert_eq!(Command::split(b"ab", all), Err(Word::UnkCmd));
        assert_eq!(Command::split(b"42", all), Err(Word::UnkCmd));
        assert_eq!(Command::split(b"42 garbage", all), Err(Word::UnkCmd));
        assert_eq!(Command::split(b" 01", all), Err(Word::UnkCmd));
        assert_eq!(Command::split(b"00X", all), Err(Word::InvFmt));
        assert_eq!(Command::split(b"01 ", all), Err(Word::InvFmt));
        assert_eq!(Command::split(b"001", all), Err(Word::InvFmt));
        let c = Command::split(b"02  3 2", all);
        assert_eq!(
            c,
            Ok(Command {
                number: 2,
                args: Some(&b" 3 2"[..])
            })
        );
    }
}
