//! The positions file: one position per line, `<FEN>;<result>`, the result of the game the
//! position came from as white's score: `1`, `0.5` or `0`; `chess-label` appends a third
//! field, `<FEN>;<result>;<cp>`: a reference engine's score of the position in centipawns,
//! from white's side.

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
    /// A reference engine's score in centipawns from white's side (`chess-label`).
    pub score: Option<i32>,
}

impl fmt::Display for Sample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{};{}", self.fen, self.result.text())?;
        match self.score {
            Some(cp) => write!(f, ";{cp}"),
            None => Ok(()),
        }
    }
}

/// Parses one line (`None` for a malformed one).
pub fn parse_line(line: &str) -> Option<Sample> {
    let mut fields = line.trim_end().split(';');
    let (fen, result) = (fields.next()?, fields.next()?);
    let score = match fields.next() {
        Some(cp) => Some(cp.parse().ok()?),
        None => None,
    };
    if fields.next().is_some() {
        return None;
    }
    let result = match result {
        "1" => Result3::WhiteWins,
        "0.5" => Result3::Draw,
        "0" => Result3::BlackWins,
        _ => return None,
    };
    Some(Sample {
        fen: fen.to_string(),
        result,
        score,
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
            score: None,
        };
        assert_eq!(s.to_string(), "8/8/8/8/8/8/8/K6k w - - 0 1;0.5");
        assert_eq!(parse_line(&s.to_string()), Some(s.clone()));
        let labelled = Sample {
            score: Some(-37),
            ..s
        };
        assert_eq!(labelled.to_string(), "8/8/8/8/8/8/8/K6k w - - 0 1;0.5;-37");
        assert_eq!(parse_line(&labelled.to_string()), Some(labelled));
        assert_eq!(parse_line("x;2"), None);
        assert_eq!(parse_line("x;1;12a"), None);
        assert_eq!(parse_line("x;1;12;3"), None);
        assert_eq!(parse_line("no result"), None);
    }
}
