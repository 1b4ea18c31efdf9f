//! An independent, deliberately plain reversi referee for checking the device byte for byte.

/// Board cells `X`, `O`, `-` (index 8*row + col) and the side to move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board {
    /// The 64 cells.
    pub cells: [u8; 64],
    /// `X` or `O`.
    pub to_move: u8,
}

const DIRS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

fn other(c: u8) -> u8 {
    if c == b'X' {
        b'O'
    } else {
        b'X'
    }
}

impl Board {
    /// The start position.
    pub fn start() -> Board {
        let mut cells = [b'-'; 64];
        cells[27] = b'O';
        cells[36] = b'O';
        cells[28] = b'X';
        cells[35] = b'X';
        Board {
            cells,
            to_move: b'X',
        }
    }

    /// The 67-byte `01` form.
    pub fn bytes(&self) -> Vec<u8> {
        let mut v = self.cells.to_vec();
        v.push(b'\t');
        v.push(self.to_move);
        v.push(b'\n');
        v
    }

    fn flips(&self, sq: usize, me: u8) -> Vec<usize> {
        let mut all = Vec::new();
        if self.cells[sq] != b'-' {
            return all;
        }
        let (r0, c0) = ((sq / 8) as i32, (sq % 8) as i32);
        for (dr, dc) in DIRS {
            let mut run = Vec::new();
            let (mut r, mut c) = (r0 + dr, c0 + dc);
            while (0..8).contains(&r) && (0..8).contains(&c) {
                let i = (r * 8 + c) as usize;
                if self.cells[i] == other(me) {
                    run.push(i);
                } else {
                    if self.cells[i] == me {
                        all.extend(&run);
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        all
    }

    /// The legal squares of the side to move, in index order.
    pub fn moves(&self) -> Vec<usize> {
        (0..64)
            .filter(|&s| !self.flips(s, self.to_move).is_empty())
            .collect()
    }

    /// Plays `sq` for the side to move; false if illegal.
    pub fn play(&mut self, sq: usize) -> bool {
        let f = self.flips(sq, self.to_move);
        if f.is_empty() {
            return false;
        }
        for i in f {
            self.cells[i] = self.to_move;
        }
        self.cells[sq] = self.to_move;
        self.to_move = other(self.to_move);
        true
    }

    /// Passes; false if the side to move has a move.
    pub fn pass(&mut self) -> bool {
        if !self.moves().is_empty() {
            return false;
        }
        self.to_move = other(self.to_move);
        true
    }

    /// True when neither side can move.
    pub fn over(&self) -> bool {
        let mut o = self.clone();
        o.to_move = other(o.to_move);
        self.moves().is_empty() && o.moves().is_empty()
    }

    /// The number of discs of `c`.
    pub fn count(&self, c: u8) -> usize {
        self.cells.iter().filter(|&&x| x == c).count()
    }

    /// The result word for the human playing `human`.
    pub fn result_for(&self, human: u8) -> &'static [u8] {
        let (h, c) = (self.count(human), self.count(other(human)));
        match h.cmp(&c) {
            std::cmp::Ordering::Greater => b"WIN\n",
            std::cmp::Ordering::Less => b"LOSE\n",
            std::cmp::Ordering::Equal => b"TIE\n",
        }
    }
}

/// `d3` to a square index.
pub fn parse_square(s: &[u8]) -> Option<usize> {
    match s {
        [c @ b'a'..=b'h', r @ b'1'..=b'8'] => {
            Some(usize::from(r - b'1') * 8 + usize::from(c - b'a'))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_and_first_move() {
        let mut b = Board::start();
        assert_eq!(b.moves(), vec![19, 26, 37, 44]);
        assert!(b.play(19));
        assert_eq!(b.cells[27], b'X');
        assert_eq!(b.to_move, b'O');
        assert!(!b.pass());
        assert_eq!(parse_square(b"d3"), Some(19));
    }
}
