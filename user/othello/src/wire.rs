//! The words of the protocol: squares, colours, the commands to an engine and its messages.
//!
//! Coordinates are a column letter `A`-`H` and a row digit `1`-`8` (`D3` is column 3, row 2,
//! square 19, the `d3` of `/dev/reversi`). Black moves first: black is the device's `X`,
//! white its `O`. Words are upper case and exact: one space between a word and its argument.

use kgames_reversi::position::Color;

/// The longest line the protocol has (`MV D3`) is 5 bytes; a line longer than this many
/// bytes (without its end) is answered `ER` and discarded.
pub const MAX_LINE: usize = 16;

/// The protocol's default move time, in seconds.
pub const DEFAULT_MOVE_TIME: u8 = 2;

/// `D3` to square 19; `None` unless exactly an upper-case column and a row digit.
pub fn parse_square(s: &[u8]) -> Option<u8> {
    match *s {
        [c @ b'A'..=b'H', r @ b'1'..=b'8'] => Some((r - b'1') * 8 + (c - b'A')),
        _ => None,
    }
}

/// Square 19 to `D3`.
pub fn square_text(sq: u8) -> String {
    let sq = sq & 63;
    format!(
        "{}{}",
        char::from(b'A' + (sq & 7)),
        char::from(b'1' + (sq >> 3))
    )
}

/// Square 19 to `d3` (the one-line move list form of common Othello tools).
pub fn square_lower(sq: u8) -> String {
    square_text(sq).to_ascii_lowercase()
}

/// `B` (black, the device's `X`) or `W` (white, `O`).
pub fn parse_colour(s: &[u8]) -> Option<Color> {
    match s {
        b"B" => Some(Color::X),
        b"W" => Some(Color::O),
        _ => None,
    }
}

/// The protocol letter of a colour: `B` for `X`, `W` for `O`.
pub fn colour_letter(c: Color) -> char {
    match c {
        Color::X => 'B',
        Color::O => 'W',
    }
}

/// A line sent to an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmd {
    /// `AT`: ping.
    At,
    /// `RST`: reset (no game, default colour and move time).
    Rst,
    /// `SP B` / `SP W`: the opponent's colour (the engine takes the other), from the next `NG`.
    Sp(Color),
    /// `NG`: new game.
    Ng,
    /// `EG`: end the game.
    Eg,
    /// `ST n`: move time of n seconds, 1-9.
    St(u8),
    /// `MV <sq>`: the opponent's move.
    Mv(u8),
    /// `PS`: the opponent passes.
    Ps,
    /// `OK`: acknowledges the engine's last message.
    Ok,
    /// `PL`: play on after `IL`/`IT`.
    Pl,
    /// `IL`: the engine's last move was refused as illegal (relayed by a referee).
    Il,
    /// `IT`: the engine's last move was refused as late (relayed by a referee).
    It,
}

impl Cmd {
    /// Parses one line (without its end); `None` is answered `ER`.
    pub fn parse(line: &[u8]) -> Option<Cmd> {
        Some(match line {
            b"AT" => Cmd::At,
            b"RST" => Cmd::Rst,
            b"NG" => Cmd::Ng,
            b"EG" => Cmd::Eg,
            b"PS" => Cmd::Ps,
            b"OK" => Cmd::Ok,
            b"PL" => Cmd::Pl,
            b"IL" => Cmd::Il,
            b"IT" => Cmd::It,
            [b'S', b'P', b' ', c] => Cmd::Sp(parse_colour(&[*c])?),
            [b'S', b'T', b' ', n @ b'1'..=b'9'] => Cmd::St(n - b'0'),
            [b'M', b'V', b' ', sq @ ..] => Cmd::Mv(parse_square(sq)?),
            _ => return None,
        })
    }

    /// The line's text (without its end).
    pub fn text(self) -> String {
        match self {
            Cmd::At => "AT".into(),
            Cmd::Rst => "RST".into(),
            Cmd::Sp(c) => format!("SP {}", colour_letter(c)),
            Cmd::Ng => "NG".into(),
            Cmd::Eg => "EG".into(),
            Cmd::St(n) => format!("ST {n}"),
            Cmd::Mv(sq) => format!("MV {}", square_text(sq)),
            Cmd::Ps => "PS".into(),
            Cmd::Ok => "OK".into(),
            Cmd::Pl => "PL".into(),
            Cmd::Il => "IL".into(),
            Cmd::It => "IT".into(),
        }
    }
}

/// A line sent by an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Msg {
    /// `OK`: done.
    Ok,
    /// `ER`: a bad line, nothing changed.
    Er,
    /// `IL`: the opponent's move is illegal (void; the opponent moves again).
    Il,
    /// `IT`: the opponent's move came later than the clock allows (void; it moves again).
    It,
    /// `MM <sq>`: the engine's move.
    Mm(u8),
    /// `MP`: the engine passes.
    Mp,
    /// `WN`: the engine wins.
    Wn,
    /// `LS`: the engine loses.
    Ls,
    /// `TE`: a tie.
    Te,
    /// `QT`: the engine resigns.
    Qt,
    /// `PL`: the engine plays on after its own move was refused (`IL`/`IT` relayed to it).
    Pl,
}

impl Msg {
    /// Parses one line (without its end).
    pub fn parse(line: &[u8]) -> Option<Msg> {
        Some(match line {
            b"OK" => Msg::Ok,
            b"ER" => Msg::Er,
            b"IL" => Msg::Il,
            b"IT" => Msg::It,
            b"MP" => Msg::Mp,
            b"WN" => Msg::Wn,
            b"LS" => Msg::Ls,
            b"TE" => Msg::Te,
            b"QT" => Msg::Qt,
            b"PL" => Msg::Pl,
            [b'M', b'M', b' ', sq @ ..] => Msg::Mm(parse_square(sq)?),
            _ => return None,
        })
    }

    /// The line's text (without its end).
    pub fn text(self) -> String {
        match self {
            Msg::Ok => "OK".into(),
            Msg::Er => "ER".into(),
            Msg::Il => "IL".into(),
            Msg::It => "IT".into(),
            Msg::Mm(sq) => format!("MM {}", square_text(sq)),
            Msg::Mp => "MP".into(),
            Msg::Wn => "WN".into(),
            Msg::Ls => "LS".into(),
            Msg::Te => "TE".into(),
            Msg::Qt => "QT".into(),
            Msg::Pl => "PL".into(),
        }
    }

    /// True for the messages the engine keeps and resends until acknowledged by `OK`.
    pub fn needs_ack(self) -> bool {
        matches!(
            self,
            Msg::Mm(_) | Msg::Mp | Msg::Wn | Msg::Ls | Msg::Te | Msg::Qt
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip() {
        for sq in 0..64 {
            assert_eq!(parse_square(square_text(sq).as_bytes()), Some(sq));
        }
        assert_eq!(parse_square(b"D3"), Some(19));
        assert_eq!(square_lower(37), "f5");
        for bad in [&b"d3"[..], b"I1", b"A9", b"A0", b"A", b"A11", b""] {
            assert_eq!(parse_square(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn every_command_parses_and_prints_back() {
        let all = [
            Cmd::At,
            Cmd::Rst,
            Cmd::Sp(Color::X),
            Cmd::Sp(Color::O),
            Cmd::Ng,
            Cmd::Eg,
            Cmd::St(1),
            Cmd::St(9),
            Cmd::Mv(0),
            Cmd::Mv(63),
            Cmd::Ps,
            Cmd::Ok,
            Cmd::Pl,
            Cmd::Il,
            Cmd::It,
        ];
        for c in all {
            assert_eq!(Cmd::parse(c.text().as_bytes()), Some(c), "{c:?}");
        }
        assert_eq!(Cmd::parse(b"SP B"), Some(Cmd::Sp(Color::X)));
        assert_eq!(Cmd::parse(b"MV D3"), Some(Cmd::Mv(19)));
        for bad in [
            &b"ST 0"[..],
            b"ST 10",
            b"ST x",
            b"ST",
            b"SP X",
            b"SP",
            b"MV",
            b"MV d3",
            b"MV  D3",
            b"MV D3 ",
            b"at",
            b" AT",
            b"AT ",
            b"NGX",
            b"MM D3",
            b"",
        ] {
            assert_eq!(Cmd::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn every_message_parses_and_prints_back() {
        let all = [
            Msg::Ok,
            Msg::Er,
            Msg::Il,
            Msg::It,
            Msg::Mm(19),
            Msg::Mp,
            Msg::Wn,
            Msg::Ls,
            Msg::Te,
            Msg::Qt,
            Msg::Pl,
        ];
        for m in all {
            assert_eq!(Msg::parse(m.text().as_bytes()), Some(m), "{m:?}");
        }
        for bad in [&b"MM"[..], b"MM Z9", b"MV D3", b"ok", b"WN "] {
            assert_eq!(Msg::parse(bad), None, "{bad:?}");
        }
        assert!(Msg::Mm(0).needs_ack() && Msg::Qt.needs_ack() && !Msg::Ok.needs_ack());
    }
}
