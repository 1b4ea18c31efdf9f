//! Text forms: square names (`d3`), the `10`/`11` setup line and the 67-byte `01` board.

use super::position::{Color, Position};

/// Length of the `10`/`11` setup form: 64 cells, a space, the side to move.
pub const SETUP_LEN: usize = 66;
/// Length of the `01` board: 64 cells, a tab, the side to move, a newline.
pub const BOARD_LEN: usize = 67;

/// The name of square `sq` (taken modulo 64): column letter `a`-`h`, row digit `1`-`8`.
/// `square_name(19) == *b"d3"`.
pub const fn square_name(sq: u8) -> [u8; 2] {
    let sq = sq & 63;
    [b'a' + (sq & 7), b'1' + (sq >> 3)]
}

// The tools' parser of square names (host only).
#[cfg(not(MODULE))]
pub use super::host::parse_square;

/// The square of column `col` and row `row` (both 0-7), as in `02 C R`.
pub const fn square_at(col: u8, row: u8) -> Option<u8> {
    if col < 8 && row < 8 {
        Some(row * 8 + col)
    } else {
        None
    }
}

/// The X and O discs of 64 cells `X`/`O`/`-` (the cells of `10` and `01`).
pub(super) fn parse_cells(cells: &[u8]) -> Option<(u64, u64)> {
    if cells.len() != 64 {
        return None;
    }
    let (mut x, mut o) = (0u64, 0u64);
    for (i, &c) in cells.iter().enumerate() {
        let bit = 1u64 << (i & 63);
        match c {
            b'X' => x |= bit,
            b'O' => o |= bit,
            b'-' => {}
            _ => return None,
        }
    }
    Some((x, o))
}

fn write_cells(pos: &Position, out: &mut [u8]) {
    for (i, c) in out.iter_mut().take(64).enumerate() {
        *c = pos.cell(i as u8).letter();
    }
}

impl Position {
    /// Parses the setup form of `10`: exactly 64 cells `X`/`O`/`-` (row-major, index 8*row +
    /// col), one space, and `X` or `O` for the side to move. Anything else (other lengths,
    /// lower case, trailing bytes) is rejected. The board is taken as given: it need not be
    /// reachable from the start.
    pub fn parse_setup(s: &[u8]) -> Option<Position> {
        if s.len() != SETUP_LEN || s.get(64) != Some(&b' ') {
            return None;
        }
        let (x, o) = parse_cells(s.get(..64)?)?;
        let side = Color::from_letter(*s.get(65)?)?;
        Position::from_bitboards(x, o, side)
    }

    /// Writes the setup form (the reply of `11`, without its newline).
    pub fn write_setup(&self, out: &mut [u8; SETUP_LEN]) {
        write_cells(self, out);
        out[64] = b' ';
        out[65] = self.side_to_move().letter();
    }

    /// The setup form as an array.
    pub fn setup(&self) -> [u8; SETUP_LEN] {
        let mut out = [0; SETUP_LEN];
        self.write_setup(&mut out);
        out
    }

    /// Writes the 67-byte board of `01`: 64 cells, `\t`, the side to move, `\n`.
    pub fn write_board(&self, out: &mut [u8; BOARD_LEN]) {
        write_cells(self, out);
        out[64] = b'\t';
        out[65] = self.side_to_move().letter();
        out[66] = b'\n';
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START_BOARD: &[u8; 67] =
        b"---------------------------OX------XO---------------------------\tX\n";

    #[test]
    fn square_names_round_trip() {
        assert_eq!(square_name(19), *b"d3");
        assert_eq!(square_name(0), *b"a1");
        assert_eq!(square_name(63), *b"h8");
        assert_eq!(square_at(3, 2), Some(19));
        assert_eq!(square_at(8, 2), None);
        for sq in 0..64u8 {
            assert_eq!(parse_square(&square_name(sq)), Some(sq));
        }
        for bad in [
            &b""[..],
            b"d",
            b"d33",
            b"i1",
            b"a0",
            b"a9",
            b"D3",
            b"3d",
            b" d3",
        ] {
            assert_eq!(parse_square(bad), None);
        }
    }

    #[test]
    fn start_board_is_the_protocol_one() {
        let mut b = [0u8; 67];
        Position::start().write_board(&mut b);
        assert_eq!(&b, START_BOARD);
        assert_eq!(Position::parse_board(START_BOARD), Some(Position::start()));
    }

    #[test]
    fn setup_round_trip_and_rejects() {
        let mut s = [0u8; 66];
        s[..64].copy_from_slice(&START_BOARD[..64]);
        s[64] = b' ';
        s[65] = b'O';
        let p = Position::parse_setup(&s).unwrap();
        assert_eq!(p.side_to_move(), Color::O);
        assert_eq!(p.setup(), s);
        let mut bad = s;
        bad[65] = b'x';
        assert!(Position::parse_setup(&bad).is_none());
        bad = s;
        bad[64] = b'\t';
        assert!(Position::parse_setup(&bad).is_none());
        bad = s;
        bad[3] = b'.';
        assert!(Position::parse_setup(&bad).is_none());
        assert!(Position::parse_setup(&s[..65]).is_none());
        let mut long = [b' '; 67];
        long[..66].copy_from_slice(&s);
        assert!(Position::parse_setup(&long).is_none());
        long[66] = b'\n';
        assert!(Position::parse_setup(&long).is_none());
        assert!(Position::parse_setup(b"").is_none());
    }
}
