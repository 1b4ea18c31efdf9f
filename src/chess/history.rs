//! The history heuristic and counter-moves: which quiet moves caused cuts lately, for the
//! move ordering.

use super::moves::Move;
use super::square::Color;

/// The bound of a history value.
pub(crate) const HISTORY_MAX: i32 = 16384;
/// The largest bonus (or penalty) of one cut.
const BONUS_MAX: i32 = 1600;

/// The history heuristic's tables (3 KiB): for each piece (colour and role) and target
/// square, how often a quiet move of it caused a cut lately (bonuses minus penalties,
/// bounded by +-`HISTORY_MAX`), and the quiet reply that last cut after such a move (the
/// counter-move). Quiet moves are ordered by them.
#[derive(Clone, Debug)]
pub struct History {
    table: [[i16; 64]; 12],
    /// For each move (its piece and target square), the quiet reply that last caused a cut
    /// after it (packed; 0: none).
    counters: [[u16; 64]; 12],
}

impl History {
    /// An empty table.
    pub const EMPTY: History = History {
        table: [[0; 64]; 12],
        counters: [[0; 64]; 12],
    };

    /// The bonus of a cut at `depth` (1 and up): 16 d^2 + 32 d, at most 1600 (two cuts at
    /// depth 4 make 512; with depth squared alone, at most 400, the values stayed near 0
    /// and ordered almost nothing when a key took 512 of them).
    pub(crate) fn bonus(depth: i32) -> i32 {
        let d = depth.clamp(0, 64);
        (16 * d * d + 32 * d).min(BONUS_MAX)
    }

    /// The row of `color`'s moving piece of `m` in the tables (0-11).
    fn piece(color: Color, m: Move) -> usize {
        color.index() * 6 + m.role().index()
    }

    fn slot(&mut self, color: Color, m: Move) -> Option<&mut i16> {
        self.table
            .get_mut(Self::piece(color, m))?
            .get_mut(m.to().index())
    }

    /// The value of `color`'s move `m` (its piece and target square).
    pub(crate) fn get(&self, color: Color, m: Move) -> i32 {
        self.table
            .get(Self::piece(color, m))
            .and_then(|t| t.get(m.to().index()))
            .map_or(0, |&h| i32::from(h))
    }

    /// Adds `bonus` (negative: a penalty) with gravity towards 0, so values stay within
    /// +-HISTORY_MAX.
    pub(crate) fn update(&mut self, color: Color, m: Move, bonus: i32) {
        if let Some(h) = self.slot(color, m) {
            *h = gravity(*h, bonus);
        }
    }

    /// The index of `color`'s move `m` in the tables: its piece and its target square.
    pub(crate) fn index(color: Color, m: Move) -> u16 {
        (Self::piece(color, m) * 64 + m.to().index()) as u16
    }

    /// The counter-move to the move of [`History::index`] `prev` (0: none).
    pub(crate) fn counter(&self, prev: u16) -> u16 {
        let (piece, to) = (usize::from(prev / 64), usize::from(prev % 64));
        self.counters
            .get(piece)
            .and_then(|t| t.get(to))
            .copied()
            .unwrap_or(0)
    }

    /// Records `reply` (packed) as the counter-move to the move of index `prev`.
    pub(crate) fn set_counter(&mut self, prev: u16, reply: u16) {
        let (piece, to) = (usize::from(prev / 64), usize::from(prev % 64));
        if let Some(c) = self.counters.get_mut(piece).and_then(|t| t.get_mut(to)) {
            *c = reply;
        }
    }

    /// Halves every value (between the moves of a game).
    pub(crate) fn age(&mut self) {
        for row in self.table.iter_mut() {
            for h in row.iter_mut() {
                *h /= 2;
            }
        }
    }
}

/// `v` plus `bonus` (negative: a penalty) with gravity towards 0: the nearer `v` is to the
/// bound on the bonus's side, the less it moves, so values stay within +-HISTORY_MAX.
#[inline]
pub(crate) fn gravity(v: i16, bonus: i32) -> i16 {
    let v = i32::from(v);
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let v = v + bonus - v * bonus.abs() / HISTORY_MAX;
    v.clamp(-HISTORY_MAX, HISTORY_MAX) as i16
}

impl Default for History {
    fn default() -> Self {
        History::EMPTY
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::moves::MoveList;
    use crate::chess::position::Position;

    fn quiet_moves() -> MoveList {
        let mut list = MoveList::new();
        Position::startpos().legal_moves(&mut list);
        list
    }

    #[test]
    fn two_cuts_at_depth_four_make_512() {
        let list = quiet_moves();
        let (m, other) = (list.get(0).unwrap(), list.get(1).unwrap());
        let mut h = History::EMPTY;
        for _ in 0..2 {
            h.update(Color::White, m, History::bonus(4));
            h.update(Color::White, other, -History::bonus(4));
        }
        assert!(h.get(Color::White, m) >= 512);
        assert!(h.get(Color::White, other) <= -512);
        // The other side's table is untouched.
        assert_eq!(h.get(Color::Black, m), 0);
        h.age();
        assert!(h.get(Color::White, m) >= 256);
    }

    #[test]
    fn values_stay_bounded() {
        let m = quiet_moves().get(0).unwrap();
        let mut h = History::EMPTY;
        for depth in 0..200 {
            h.update(Color::White, m, History::bonus(depth));
            assert!((0..=HISTORY_MAX).contains(&h.get(Color::White, m)));
        }
        assert!(h.get(Color::White, m) > HISTORY_MAX / 2);
        for _ in 0..200 {
            h.update(Color::White, m, -i32::MAX);
            assert!((-HISTORY_MAX..=HISTORY_MAX).contains(&h.get(Color::White, m)));
        }
        assert_eq!(History::bonus(i32::MAX), BONUS_MAX);
        assert_eq!(History::bonus(-5), 0);
    }

    /// A counter-move belongs to the move it answers (piece, colour and target square) and
    /// survives the ageing between moves.
    #[test]
    fn counter_moves_by_piece_and_square() {
        let list = quiet_moves();
        let (m, reply) = (list.get(0).unwrap(), list.get(1).unwrap());
        let mut h = History::EMPTY;
        let white = History::index(Color::White, m);
        let black = History::index(Color::Black, m);
        assert_ne!(white, black);
        assert!(usize::from(white.max(black)) < 12 * 64);
        h.set_counter(white, reply.packed());
        assert_eq!(h.counter(white), reply.packed());
        assert_eq!(h.counter(black), 0);
        h.age();
        assert_eq!(h.counter(white), reply.packed());
        // An index beyond the table is ignored, not a panic.
        h.set_counter(u16::MAX, 1);
        assert_eq!(h.counter(u16::MAX), 0);
    }
}
