//! The AI-vs-AI board: 4 x 4 cells, 3 in a row wins, O moves first.
//!
//! Cell `i` is row `i / 4`, column `i % 4` (row 0 first). A [`Board4`] keeps one `u16` bitmask
//! per side (bit `i` = cell `i`); the wire form ([`Board4::packed`]) is 2 bits per cell in a
//! `u32`: `00` empty, `01` O, `10` X, cell `i` at bits `2i..2i+1`. Win detection tests the
//! side's mask against the 24 winning lines of [`LINES`] (no per-cell loops).

/// Cells on the board.
pub const CELLS: u8 = 16;
/// Cells per row and per column.
pub const WIDTH: u8 = 4;
/// Stones in a row that win.
pub const IN_A_ROW: u8 = 3;
/// A mask with every cell set.
pub const ALL: u16 = 0xFFFF;

/// A player: O moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The first player.
    O,
    /// The second player.
    X,
}

impl Side {
    /// The opponent.
    pub const fn other(self) -> Side {
        match self {
            Side::O => Side::X,
            Side::X => Side::O,
        }
    }

    /// 0 for O, 1 for X (an index into per-side tables).
    pub const fn index(self) -> usize {
        match self {
            Side::O => 0,
            Side::X => 1,
        }
    }

    /// The side that makes ply `ply` (0-based): O on even plies, X on odd ones.
    pub const fn of_ply(ply: u8) -> Side {
        if ply & 1 == 0 {
            Side::O
        } else {
            Side::X
        }
    }

    /// The letter drawn for this side.
    pub const fn letter(self) -> u8 {
        match self {
            Side::O => b'O',
            Side::X => b'X',
        }
    }

    /// The 2-bit cell code of this side in the packed form (`01` O, `10` X).
    pub const fn code(self) -> u32 {
        match self {
            Side::O => 0b01,
            Side::X => 0b10,
        }
    }
}

/// How a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum GameState {
    /// Moves remain and nobody has a line.
    Running = 0,
    /// O completed a line.
    OWon = 1,
    /// X completed a line.
    XWon = 2,
    /// The board is full and nobody has a line.
    Draw = 3,
}

impl GameState {
    /// The wire value (the enum discriminant).
    pub const fn to_u8(self) -> u8 {
        self as u8
    }

    /// Decodes a wire value; `None` for anything above 3.
    pub const fn from_u8(v: u8) -> Option<GameState> {
        match v {
            0 => Some(GameState::Running),
            1 => Some(GameState::OWon),
            2 => Some(GameState::XWon),
            3 => Some(GameState::Draw),
            _ => None,
        }
    }

    /// The state after `side` completed a line.
    pub const fn won_by(side: Side) -> GameState {
        match side {
            Side::O => GameState::OWon,
            Side::X => GameState::XWon,
        }
    }

    /// True unless the game is still running.
    pub const fn is_over(self) -> bool {
        !matches!(self, GameState::Running)
    }
}

/// The mask of `IN_A_ROW` cells starting at (`row`, `col`) and stepping by (`dr`, `dc`).
const fn line(row: u8, col: u8, dr: i8, dc: i8) -> u16 {
    let mut mask = 0u16;
    let mut k = 0;
    while k < IN_A_ROW as i8 {
        let r = row as i8 + dr * k;
        let c = col as i8 + dc * k;
        mask |= 1 << (r * WIDTH as i8 + c);
        k += 1;
    }
    mask
}

/// Builds the 24 winning lines: 8 horizontal, 8 vertical, 4 diagonal, 4 anti-diagonal.
const fn build_lines() -> [u16; 24] {
    let mut lines = [0u16; 24];
    let mut n = 0;
    let span = WIDTH - IN_A_ROW + 1; // starting positions along a line: 2
    let mut a = 0;
    while a < WIDTH {
        let mut b = 0;
        while b < span {
            lines[n] = line(a, b, 0, 1); // row a, columns b..b+3
            lines[n + 1] = line(b, a, 1, 0); // column a, rows b..b+3
            n += 2;
            b += 1;
        }
        a += 1;
    }
    let mut r = 0;
    while r < span {
        let mut c = 0;
        while c < span {
            lines[n] = line(r, c, 1, 1);
            lines[n + 1] = line(r, c + IN_A_ROW - 1, 1, -1);
            n += 2;
            c += 1;
        }
        r += 1;
    }
    lines
}

/// The 24 winning lines of the 4 x 4, 3-in-a-row board, as cell masks.
pub const LINES: [u16; 24] = build_lines();

/// Spreads the 16 bits of `m` to the even bits of a `u32` (bit i to bit 2i).
const fn spread(m: u16) -> u32 {
    let mut v = m as u32;
    v = (v | (v << 8)) & 0x00FF_00FF;
    v = (v | (v << 4)) & 0x0F0F_0F0F;
    v = (v | (v << 2)) & 0x3333_3333;
    (v | (v << 1)) & 0x5555_5555
}

/// The inverse of [`spread`]: gathers the even bits of `v` (bit 2i to bit i).
const fn gather(v: u32) -> u16 {
    let mut v = v & 0x5555_5555;
    v = (v | (v >> 1)) & 0x3333_3333;
    v = (v | (v >> 2)) & 0x0F0F_0F0F;
    v = (v | (v >> 4)) & 0x00FF_00FF;
    ((v | (v >> 8)) & 0xFFFF) as u16
}

/// True when `mask` contains a whole winning line.
pub const fn has_line(mask: u16) -> bool {
    let mut i = 0;
    while i < LINES.len() {
        if mask & LINES[i] == LINES[i] {
            return true;
        }
        i += 1;
    }
    false
}

/// A 4 x 4 board.
///
/// Invariant: no cell holds both sides (`o & x == 0`). The board itself does not enforce turn
/// order: [`Board4::play`] takes the side, and [`Board4::side_to_move`] derives the side from
/// the stone counts (O moves first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board4 {
    o: u16,
    x: u16,
}

/// Who holds the tile `bit` of a board whose O and X tiles are the masks `o` and `x` (both
/// boards, 4 x 4 and N x N).
pub(crate) const fn owner(o: u64, x: u64, bit: u64) -> Option<Side> {
    if o & bit != 0 {
        Some(Side::O)
    } else if x & bit != 0 {
        Some(Side::X)
    } else {
        None
    }
}

impl Board4 {
    /// The empty board.
    pub const EMPTY: Board4 = Board4 { o: 0, x: 0 };

    /// A board from the two side masks; `None` if they overlap.
    pub const fn from_masks(o: u16, x: u16) -> Option<Board4> {
        if o & x != 0 {
            None
        } else {
            Some(Board4 { o, x })
        }
    }

    /// The cells of `side`.
    pub const fn mask(&self, side: Side) -> u16 {
        match side {
            Side::O => self.o,
            Side::X => self.x,
        }
    }

    /// The occupied cells.
    pub const fn occupied(&self) -> u16 {
        self.o | self.x
    }

    /// The empty cells (whether or not the game is over).
    pub const fn empty(&self) -> u16 {
        !self.occupied()
    }

    /// The cells a move may go to: the empty cells while nobody has a line, else none.
    pub const fn legal_moves(&self) -> u16 {
        if self.winner().is_some() {
            0
        } else {
            self.empty()
        }
    }

    /// True when `cell` is a legal move now.
    pub const fn is_legal(&self, cell: u8) -> bool {
        cell < CELLS && self.legal_moves() & (1 << cell) != 0
    }

    /// The side that has a complete line, if any (O is reported first should both have one,
    /// which no game can reach).
    pub const fn winner(&self) -> Option<Side> {
        if has_line(self.o) {
            Some(Side::O)
        } else if has_line(self.x) {
            Some(Side::X)
        } else {
            None
        }
    }

    /// True when every cell is taken.
    pub const fn is_full(&self) -> bool {
        self.occupied() == ALL
    }

    /// The game state: a line wins, else a full board is a draw.
    pub const fn state(&self) -> GameState {
        match self.winner() {
            Some(side) => GameState::won_by(side),
            None if self.is_full() => GameState::Draw,
            None => GameState::Running,
        }
    }

    /// `side` takes `cell`. Returns false, changing nothing, unless the move is legal
    /// ([`Board4::is_legal`]: the cell exists and is empty and nobody has won yet).
    pub fn play(&mut self, cell: u8, side: Side) -> bool {
        if !self.is_legal(cell) {
            return false;
        }
        let bit = 1u16 << cell;
        match side {
            Side::O => self.o |= bit,
            Side::X => self.x |= bit,
        }
        true
    }

    /// The board after `side` takes `cell`, if that is legal.
    pub fn with(mut self, cell: u8, side: Side) -> Option<Board4> {
        self.play(cell, side).then_some(self)
    }

    /// The wire form: 2 bits per cell, `00` empty, `01` O, `10` X, cell i at bits 2i..2i+1.
    pub const fn packed(&self) -> u32 {
        spread(self.o) | (spread(self.x) << 1)
    }

    /// Decodes the wire form; `None` if any cell holds the invalid code `11`.
    pub const fn from_packed(packed: u32) -> Option<Board4> {
        let o = gather(packed);
        let x = gather(packed >> 1);
        Board4::from_masks(o, x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: [&str; 4]) -> Board4 {
        let mut b = Board4::EMPTY;
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.bytes().enumerate() {
                let cell = (r * 4 + c) as u8;
                let side = match ch {
                    b'O' => Side::O,
                    b'X' => Side::X,
                    _ => continue,
                };
                b = Board4::from_masks(
                    b.mask(Side::O) | u16::from(side == Side::O) << cell,
                    b.mask(Side::X) | u16::from(side == Side::X) << cell,
                )
                .unwrap();
            }
        }
        b
    }

    #[test]
    fn twenty_four_distinct_lines_of_three() {
        assert_eq!(LINES.len(), 24);
        for (i, l) in LINES.iter().enumerate() {
            assert_eq!(l.count_ones(), 3, "line {i}: {l:#06x}");
            assert!(!LINES[..i].contains(l), "duplicate line {l:#06x}");
        }
        // Exact lines from the board geometry (cell = 4 * row + col).
        for cells in [
            [0u8, 1, 2],  // row 0, left
            [1, 2, 3],    // row 0, right
            [12, 13, 14], // row 3, left
            [0, 4, 8],    // column 0, top
            [7, 11, 15],  // column 3, bottom
            [0, 5, 10],   // main diagonal, top
            [5, 10, 15],  // main diagonal, bottom
            [4, 9, 14],   // lower diagonal
            [3, 6, 9],    // anti-diagonal, top
            [2, 5, 8],    // upper anti-diagonal
            [7, 10, 13],  // lower anti-diagonal
        ] {
            let mask = cells.iter().fold(0u16, |m, &c| m | 1 << c);
            assert!(LINES.contains(&mask), "{cells:?} missing");
        }
        // Not lines: broken or wrapping triples.
        for cells in [[2u8, 3, 4], [0, 1, 3], [3, 7, 12], [0, 5, 15]] {
            let mask = cells.iter().fold(0u16, |m, &c| m | 1 << c);
            assert!(!LINES.contains(&mask), "{cells:?} is not a line");
        }
        // Every 3-cell set that is a straight run on the grid is in the table: brute force.
        let mut count = 0;
        for a in 0..16u8 {
            for (dr, dc) in [(0i8, 1i8), (1, 0), (1, 1), (1, -1)] {
                let (r, c) = ((a / 4) as i8, (a % 4) as i8);
                let (r2, c2) = (r + 2 * dr, c + 2 * dc);
                if (0..4).contains(&r2) && (0..4).contains(&c2) {
                    count += 1;
                    let m = (0..3).fold(0u16, |m, k| m | 1 << ((r + k * dr) * 4 + c + k * dc));
                    assert!(LINES.contains(&m));
                }
            }
        }
        assert_eq!(count, 24);
    }

    #[test]
    fn packing_round_trips_and_rejects_code_11() {
        let b = board(["O.X.", "....", ".XO.", "...X"]);
        // cell 0 O (01), cell 2 X (10 << 4), cell 9 X, cell 10 O, cell 15 X.
        let expect = 0b01 | 0b10 << 4 | 0b10 << 18 | 0b01 << 20 | 0b10 << 30;
        assert_eq!(b.packed(), expect);
        assert_eq!(Board4::from_packed(expect), Some(b));
        assert_eq!(Board4::EMPTY.packed(), 0);
        assert_eq!(Board4::from_packed(0), Some(Board4::EMPTY));
        for cell in 0..16 {
            assert_eq!(Board4::from_packed(0b11 << (2 * cell)), None, "cell {cell}");
        }
        // Every single-cell code round-trips.
        for cell in 0..16u8 {
            for side in [Side::O, Side::X] {
                let p = side.code() << (2 * cell);
                let b = Board4::from_packed(p).unwrap();
                assert_eq!(b.at(cell), Some(side));
                assert_eq!(b.packed(), p);
            }
        }
    }

    #[test]
    fn wins_draws_and_legal_moves() {
        let b = board(["OOO.", "XX..", "....", "...."]);
        assert_eq!(b.winner(), Some(Side::O));
        assert_eq!(b.state(), GameState::OWon);
        assert_eq!(b.legal_moves(), 0);
        let b = board(["O...", ".X..", "O.X.", "...X"]);
        assert_eq!(b.winner(), Some(Side::X)); // 5, 10, 15
        let b = board(["O...", "O...", "X...", "...."]);
        assert_eq!(b.winner(), None);
        assert_eq!(b.legal_moves(), !0b1_0001_0001);
        // A full board without a line: rows of OOXX / XXOO alternate.
        let full = board(["OOXX", "XXOO", "OOXX", "XXOO"]);
        assert!(full.is_full());
        assert_eq!(full.winner(), None);
        assert_eq!(full.state(), GameState::Draw);
        assert_eq!(full.legal_moves(), 0);
    }

    #[test]
    fn play_checks_legality() {
        let mut b = Board4::EMPTY;
        assert_eq!(b.side_to_move(), Side::O);
        assert!(b.play(5, Side::O));
        assert_eq!(b.side_to_move(), Side::X);
        assert!(!b.play(5, Side::X));
        assert!(!b.play(16, Side::X));
        assert!(!b.play(255, Side::X));
        assert_eq!(b.at(5), Some(Side::O));
        assert_eq!(b.stones(), 1);
        let won = board(["XXX.", "OO..", "....", "...."]);
        assert_eq!(won.with(3, Side::O), None);
    }
}
