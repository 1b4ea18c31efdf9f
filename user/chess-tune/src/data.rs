//! The positions file: one position per line, `<FEN>;<result>`, the result of the game the
//! position came from as white's score: `1`, `0.5` or `0`.

use std::fmt;

/// A game's result from white's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result3 {
    /// White won.
    WhiteWins,
    /// A draw.
    Draw,
    /// Black won.
    BlackWins,
}

impl Result3 {
    /// White's score in halves of a point (2, 1, 0).
    pub fn white_halves(self) -> u32 {
        match self {
            Result3::WhiteWins => 2,
            Result3::Draw => 1,
            Result3::BlackWins => 0,
        }
    }

    /// The result written in a line.
    pub fn text(self) -> &'static str {
        match self {
            Result3::WhiteWins => "1",
            Result3::Draw => "0.5",
            Result3::BlackWins => "0",
        }
    }
}

/// One line of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position.
    pub fen: String,
    /// The game's result.
    pub result: Result3,
}

impl fmt::Display for Sample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{};{}", self.fen, self.result.text())
    }
}

/// Parses one line (`None` for a malformed one).
pub fn parse_line(line: &str) -> Option<Sample> {
    let (fen, result) = line.trim_end().rsplit_once(';')?;
    let result = match result {
        "1" => Result3::WhiteWins,
        "0.5" => Result3::Draw,
        "0" => Result3::BlackWins,
        _ => return None,
    };
    Some(Sample {
        fen: fen.to_string(),
        result,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip() {
        let s = Sample {
            fen: "8/8/8/8/8/8/8/K6k w - - 0 1".to_string(),
            result: Result3::Draw,
        };
        assert_eq!(s.to_string(), "8/8/8/8/8/8/8/K6k w - - 0 1;0.5");
        assert_eq!(parse_line(&s.to_string()), Some(s));
        assert_eq!(parse_line("x;2"), None);
        assert_eq!(parse_line("no result"), None);
    }
}
