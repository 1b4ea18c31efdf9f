//! The three games: their devices, sides and names.

use std::fmt;

/// A game type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// Reversi on /dev/reversi (X moves first).
    Reversi,
    /// Chess on /dev/chess (white moves first).
    Chess,
    /// N x N tic-tac-toe on /dev/kxo (O moves first).
    Kxo,
}

impl Kind {
    /// The device node.
    pub fn device(self) -> &'static str {
        match self {
            Kind::Reversi => "/dev/reversi",
            Kind::Chess => "/dev/chess",
            Kind::Kxo => "/dev/kxo",
        }
    }

    /// The name shown.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Reversi => "reversi",
            Kind::Chess => "chess",
            Kind::Kxo => "kxo",
        }
    }

    /// The two side letters, the first mover's first.
    pub fn sides(self) -> [char; 2] {
        match self {
            Kind::Reversi => ['X', 'O'],
            Kind::Chess => ['W', 'B'],
            Kind::Kxo => ['O', 'X'],
        }
    }

    /// The side letter the person plays by default: the first mover.
    pub fn default_side(self) -> char {
        match self {
            // kxo: X, as the classic console game's default (the CPU, O, opens).
            Kind::Kxo => 'X',
            k => k.sides()[0],
        }
    }

    /// The other side.
    pub fn other(self, side: char) -> char {
        let [a, b] = self.sides();
        if side == a {
            b
        } else {
            a
        }
    }

    /// A side letter of this game from `--as` (X, O, W, B; lower case too).
    pub fn side(self, text: &str) -> Option<char> {
        let c = text.trim().to_ascii_uppercase();
        self.sides()
            .into_iter()
            .find(|s| c.len() == 1 && c.starts_with(*s))
    }

    /// The next game type (the switch key).
    pub fn next(self) -> Kind {
        match self {
            Kind::Reversi => Kind::Chess,
            Kind::Chess => Kind::Kxo,
            Kind::Kxo => Kind::Reversi,
        }
    }

    /// A side's name in words.
    pub fn side_name(self, side: char) -> &'static str {
        match side {
            'W' => "white",
            'B' => "black",
            'X' => "X",
            _ => "O",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_of_each_game() {
        assert_eq!(Kind::Chess.side("w"), Some('W'));
        assert_eq!(Kind::Chess.side("X"), None);
        assert_eq!(Kind::Reversi.side("o"), Some('O'));
        assert_eq!(Kind::Kxo.default_side(), 'X');
        assert_eq!(Kind::Kxo.other('X'), 'O');
        assert_eq!(Kind::Reversi.next().next().next(), Kind::Reversi);
    }
}
