//! A small sorted move list for one search node (88 bytes, on the stack).

use super::bitboard::{square_bit, Bitboard};

/// Moves kept sorted; more than this (only in contrived set-up positions: reachable positions
/// have at most 33 moves) are searched afterwards in square order.
pub(crate) const CAPACITY: usize = 36;

/// Moves with an ordering score, best first.
///
/// Invariant: `items[..len]` are `score << 6 | square` sorted by decreasing value, `len <=
/// CAPACITY`; `rest` holds moves that did not fit; `cursor` counts the moves handed out.
pub(crate) struct MoveList {
    items: [u16; CAPACITY],
    len: u8,
    cursor: u8,
    rest: Bitboard,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub(crate) fn new() -> Self {
        MoveList {
            items: [0; CAPACITY],
            len: 0,
            cursor: 0,
            rest: 0,
        }
    }

    /// Adds `sq` with ordering score `score` (clamped to 0..=1023), keeping the order.
    #[inline]
    pub(crate) fn push(&mut self, sq: u8, score: i32) {
        let v = (score.clamp(0, 1023) as u16) << 6 | u16::from(sq & 63);
        let len = usize::from(self.len);
        if len >= CAPACITY {
            self.rest |= square_bit(sq);
            return;
        }
        // Insertion sort from the back.
        let mut i = len;
        while i > 0 {
            let prev = self.items.get(i - 1).copied().unwrap_or(u16::MAX);
            if prev >= v {
                break;
            }
            if let Some(slot) = self.items.get_mut(i) {
                *slot = prev;
            }
            i -= 1;
        }
        if let Some(slot) = self.items.get_mut(i) {
            *slot = v;
        }
        self.len += 1;
    }

    /// The next move in order, or `None` when all were handed out.
    #[inline]
    pub(crate) fn next_move(&mut self) -> Option<u8> {
        if self.cursor < self.len {
            let v = self.items.get(usize::from(self.cursor)).copied()?;
            self.cursor += 1;
            return Some((v & 63) as u8);
        }
        if self.rest == 0 {
            return None;
        }
        let sq = self.rest.trailing_zeros() as u8;
        self.rest &= self.rest.wrapping_sub(1);
        Some(sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_then_overflow() {
        let mut l = MoveList::new();
        l.push(5, 10);
        l.push(6, 900);
        l.push(7, 10);
        l.push(8, 2000);
        let mut got = [0u8; 4];
        for g in got.iter_mut() {
            *g = l.next_move().unwrap();
        }
        assert_eq!(got, [8, 6, 7, 5]);
        assert_eq!(l.next_move(), None);

        let mut l = MoveList::new();
        for sq in 0..64u8 {
            l.push(sq, i32::from(sq));
        }
        let mut seen = 0u64;
        let mut n = 0;
        while let Some(sq) = l.next_move() {
            seen |= square_bit(sq);
            n += 1;
        }
        assert_eq!((seen, n), (!0, 64));
    }
}
