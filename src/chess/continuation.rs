//! Continuation history: which quiet moves caused cuts lately after a given move one ply
//! and two plies before, for the move ordering.
//!
//! One table of `i16` in caller-owned memory ([`CONTINUATION_ENTRIES`], 1,152 KiB), a row
//! for each earlier move and a column for each reply, both by their piece (colour and role)
//! and target square ([`History::index`](super::history::History), 768 each). The moves one
//! ply and two plies before share the table without meeting: the move a ply before is the
//! opponent's (a row of the other colour than the reply's), the move two plies before one's
//! own (the same colour). Values move with the history heuristic's bonuses and gravity and
//! stay within +-`HISTORY_MAX`.

use super::history::gravity;

/// The moves by piece and target square (12 pieces x 64 squares).
const PIECE_TO: usize = 12 * 64;
/// The entries of a whole table (589,824 `i16`: 1,152 KiB); fewer cover only the first rows.
pub const CONTINUATION_ENTRIES: usize = PIECE_TO * PIECE_TO;

/// The entry of reply `cur` after the earlier move `prev` (both [`History::index`]
/// values; `None` for an index beyond 767, such as the search's "no move").
///
/// [`History::index`]: super::history::History
#[inline]
fn index(prev: u16, cur: u16) -> Option<usize> {
    let (prev, cur) = (usize::from(prev), usize::from(cur));
    if prev >= PIECE_TO || cur >= PIECE_TO {
        return None;
    }
    Some(prev * PIECE_TO + cur)
}

/// The value of reply `cur` after `prev` in `table` (0 when it has no such entry).
#[inline]
pub(crate) fn get(table: &[i16], prev: u16, cur: u16) -> i32 {
    index(prev, cur)
        .and_then(|i| table.get(i))
        .map_or(0, |&v| i32::from(v))
}

/// Adds `bonus` (negative: a penalty) to reply `cur` after `prev`, with the history
/// heuristic's gravity.
#[inline]
pub(crate) fn update(table: &mut [i16], prev: u16, cur: u16, bonus: i32) {
    if let Some(v) = index(prev, cur).and_then(|i| table.get_mut(i)) {
        *v = gravity(*v, bonus);
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::chess::history::{History, HISTORY_MAX};
    use crate::chess::moves::MoveList;
    use crate::chess::position::Position;
    use crate::chess::square::Color;
    use std::vec;

    /// A reply's value belongs to the move before it: bounded, and another earlier move, an
    /// index out of range or an empty table see nothing.
    #[test]
    fn values_by_earlier_move_and_reply() {
        let mut list = MoveList::new();
        Position::startpos().legal_moves(&mut list);
        let (a, b) = (list.get(0).unwrap(), list.get(1).unwrap());
        let prev = History::index(Color::Black, a);
        let other = History::index(Color::Black, b);
        let reply = History::index(Color::White, b);
        let mut table = vec![0i16; CONTINUATION_ENTRIES];
        for depth in 0..100 {
            update(&mut table, prev, reply, History::bonus(depth));
            assert!((0..=HISTORY_MAX).contains(&get(&table, prev, reply)));
        }
        assert!(get(&table, prev, reply) > HISTORY_MAX / 2);
        assert_eq!(get(&table, other, reply), 0);
        assert_eq!(get(&table, reply, prev), 0);
        for _ in 0..100 {
            update(&mut table, prev, reply, -i32::MAX);
        }
        assert!(get(&table, prev, reply) < -HISTORY_MAX / 2);
        assert_eq!(table.iter().filter(|&&v| v != 0).count(), 1);
        update(&mut table, u16::MAX, reply, 100);
        assert_eq!(get(&table, u16::MAX, reply), 0);
        update(&mut [], prev, reply, 100);
        assert_eq!(get(&[], prev, reply), 0);
        let last = (PIECE_TO - 1) as u16;
        update(&mut table, last, last, 100);
        assert_eq!(table.last().copied(), Some(100));
    }
}
