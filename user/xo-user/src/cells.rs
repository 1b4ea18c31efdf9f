//! The 4 x 4 board of a record: cell contents and cell names.
//!
//! Cell i (0-15, i = 4 * row + col) is named by its column letter `A`-`D` (`'A' + i % 4`)
//! and its row number `1`-`4` (`1 + i / 4`): cell 0 is `A1` (top left), cell 5 is `B2`,
//! cell 15 is `D4` (bottom right).

use kgames_uapi::record::Record;

/// Columns and rows of the board.
pub const SIDE: u8 = 4;

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Empty (`00`).
    Empty,
    /// O (`01`).
    O,
    /// X (`10`).
    X,
    /// `11`: not a valid cell (shown as `?`).
    Bad,
}

/// The mark in cell `i` of a packed board (2 bits per cell, cell i at bits 2i..2i+1).
pub fn mark(board: u32, i: u8) -> Mark {
    match (board >> (2 * u32::from(i % 16))) & 3 {
        0 => Mark::Empty,
        1 => Mark::O,
        2 => Mark::X,
        _ => Mark::Bad,
    }
}

/// The name of cell `i`: `A1` .. `D4`.
pub fn cell_name(i: u8) -> String {
    let i = i % 16;
    format!("{}{}", char::from(b'A' + i % SIDE), 1 + i / SIDE)
}

/// The last cell played, if any.
pub fn last_move(r: &Record) -> Option<u8> {
    r.move_count.checked_sub(1).and_then(|p| r.move_at(p))
}

/// The moves so far as cell names joined by ` -> ` (`B2 -> C3 -> A1`).
pub fn moves_text(r: &Record) -> String {
    (0..r.move_count)
        .filter_map(|p| r.move_at(p))
        .map(cell_name)
        .collect::<Vec<_>>()
        .join(" -> ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use kgames_kxo::kxo::record::RecordBoard;
    use kgames_uapi::agent::AgentKind;

    #[test]
    fn names_and_marks() {
        assert_eq!(cell_name(0), "A1");
        assert_eq!(cell_name(5), "B2");
        assert_eq!(cell_name(3), "D1");
        assert_eq!(cell_name(12), "A4");
        assert_eq!(cell_name(15), "D4");
        let r = Record::start(0, 0, AgentKind::Negamax, AgentKind::Random);
        let r = r.played(5).unwrap().played(10).unwrap().played(0).unwrap();
        assert_eq!(moves_text(&r), "B2 -> C3 -> A1");
        assert_eq!(last_move(&r), Some(0));
        assert_eq!(mark(r.board, 5), Mark::O);
        assert_eq!(mark(r.board, 10), Mark::X);
        assert_eq!(mark(r.board, 1), Mark::Empty);
        assert_eq!(mark(3 << 2, 1), Mark::Bad);
        assert_eq!(last_move(&Record::default()), None);
    }
}
