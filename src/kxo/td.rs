//! A TD(0) state-value learner: afterstate values in Q16.16 in a bounded hash table with
//! least-recently-used eviction, initialised from a heuristic, learning from every game.
//!
//! Values are for O: `ONE` (O wins) down to `-ONE` (X wins), 0 a draw. A player picks the
//! move whose afterstate is best for it (O the highest value, X the lowest), or with
//! probability epsilon a uniformly random move (exploration). After each game the afterstates
//! are updated backwards, each towards the value of the one after it (TD(0) with step
//! `1 / 2^ALPHA_SHIFT`), the last towards the exact result.
//!
//! The table: 4-way buckets of [`TdEntry`] (12 bytes); a board's bucket comes from a
//! multiplicative hash of its packed form; a lookup refreshes the entry's stamp, and an insert
//! into a full bucket replaces the entry with the oldest stamp (LRU within the bucket). A board
//! not in the table has its heuristic value ([`heuristic`]), exact for finished boards.

use core::ops::DerefMut;

use super::board::{Board4, GameState, Side, LINES};
use super::fixed::ONE;
use super::record::RecordBoard;
use crate::common::rng::Rng;
use crate::uapi::agent::AgentKind;
use crate::uapi::record::Record;

/// Entries per bucket.
pub const WAYS: usize = 4;
/// The learning rate is `1 / 2^ALPHA_SHIFT`.
pub const ALPHA_SHIFT: u32 = 3;
/// Exploration while playing the AI-vs-AI games: 1/16 of the moves are random (Q16).
pub const ARENA_EPSILON_Q16: u32 = ONE / 16;
/// Exploration while pre-training: 1/8 of the moves (Q16).
pub const TRAIN_EPSILON_Q16: u32 = ONE / 8;
/// Table memory by default (the module parameter `kxo_td_kb`), in KiB.
pub const DEFAULT_KB: u32 = 1024;
/// Pre-training games at load by default (the module parameter `kxo_td_games`).
pub const DEFAULT_TRAIN_GAMES: u32 = 20_000;

/// One table entry: a packed board, its value for O, and when it was last used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TdEntry {
    key: u32,
    value: i32,
    /// 0: unused.
    stamp: u32,
}

impl TdEntry {
    /// An unused entry.
    pub const EMPTY: TdEntry = TdEntry {
        key: 0,
        value: 0,
        stamp: 0,
    };
}

/// Entries that fit in `kb` KiB.
pub const fn entries_for_kb(kb: u32) -> usize {
    (kb as usize * 1024) / core::mem::size_of::<TdEntry>()
}

/// The exact value of a finished board, `None` while it runs.
pub fn terminal_value(b: &Board4) -> Option<i32> {
    match b.state() {
        GameState::Running => None,
        GameState::OWon => Some(ONE as i32),
        GameState::XWon => Some(-(ONE as i32)),
        GameState::Draw => Some(0),
    }
}

/// The starting value of a board nobody has learned yet: exact when the game is over, else
/// each line held by one side only counts for that side (1 stone: 1/32, 2 stones: 1/8), and
/// the sum is kept within +-1/2.
pub fn heuristic(b: &Board4) -> i32 {
    if let Some(v) = terminal_value(b) {
        return v;
    }
    let (o, x) = (b.mask(Side::O), b.mask(Side::X));
    let weight = |n: u32| -> i32 {
        match n {
            1 => (ONE / 32) as i32,
            2 => (ONE / 8) as i32,
            _ => 0,
        }
    };
    let mut v = 0i32;
    for &l in LINES.iter() {
        let (a, c) = ((o & l).count_ones(), (x & l).count_ones());
        if c == 0 {
            v += weight(a);
        } else if a == 0 {
            v -= weight(c);
        }
    }
    let half = (ONE / 2) as i32;
    v.clamp(-half, half)
}

/// The value table over storage `S` (a `&mut [TdEntry]` or a kernel vector).
pub struct TdTable<S> {
    entries: S,
    /// Unknown boards start from [`heuristic`] (else from 0, for measuring learning alone).
    prior: bool,
    clock: u32,
    /// Games learned from so far.
    games: u64,
}

impl<S: DerefMut<Target = [TdEntry]>> TdTable<S> {
    /// A table over `entries` (all [`TdEntry::EMPTY`]); fewer than [`WAYS`] entries means no
    /// table (every value is the heuristic).
    pub fn new(entries: S) -> Self {
        TdTable {
            entries,
            prior: true,
            clock: 0,
            games: 0,
        }
    }

    /// A table whose unknown boards are worth 0 (no heuristic prior): learning from scratch.
    pub fn without_prior(entries: S) -> Self {
        TdTable {
            prior: false,
            ..TdTable::new(entries)
        }
    }

    /// Games learned from.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Entries in use.
    pub fn used(&self) -> usize {
        self.entries.iter().filter(|e| e.stamp != 0).count()
    }

    fn bucket(&self, key: u32) -> core::ops::Range<usize> {
        let buckets = self.entries.len() / WAYS;
        let h = key.wrapping_mul(0x9E37_79B1) ^ (key >> 16);
        let b = ((u64::from(h) * buckets as u64) >> 32) as usize;
        b * WAYS..b * WAYS + WAYS
    }

    fn tick(&mut self) -> u32 {
        self.clock = self.clock.wrapping_add(1).max(1);
        self.clock
    }

    /// The value of `b` for O (refreshing its entry).
    pub fn value(&mut self, b: &Board4) -> i32 {
        if let Some(v) = terminal_value(b) {
            return v;
        }
        let key = b.packed();
        let range = self.bucket(key);
        let now = self.tick();
        if let Some(e) = self
            .entries
            .get_mut(range)
            .and_then(|bucket| bucket.iter_mut().find(|e| e.stamp != 0 && e.key == key))
        {
            e.stamp = now;
            return e.value;
        }
        if self.prior {
            heuristic(b)
        } else {
            0
        }
    }

    /// Stores `value` for `b` (replacing the least recently used entry of its bucket).
    pub fn store(&mut self, b: &Board4, value: i32) {
        let key = b.packed();
        let range = self.bucket(key);
        let now = self.tick();
        let Some(bucket) = self.entries.get_mut(range) else {
            return;
        };
        let at = match bucket.iter().position(|e| e.stamp != 0 && e.key == key) {
            Some(i) => i,
            None => {
                // The oldest stamp, counting from `now` (wrap-around safe); unused first.
                let mut oldest = 0;
                let mut age = 0u32;
                for (i, e) in bucket.iter().enumerate() {
                    let a = if e.stamp == 0 {
                        u32::MAX
                    } else {
                        now.wrapping_sub(e.stamp)
                    };
                    if a > age || i == 0 {
                        age = a;
                        oldest = i;
                    }
                }
                oldest
            }
        };
        if let Some(e) = bucket.get_mut(at) {
            *e = TdEntry {
                key,
                value,
                stamp: now,
            };
        }
    }

    /// The move for `side`: the best afterstate for it, or with probability `epsilon_q16`
    /// a random legal move. `None` when there is no legal move.
    pub fn choose(
        &mut self,
        b: &Board4,
        side: Side,
        rng: &mut Rng,
        epsilon_q16: u32,
    ) -> Option<u8> {
        self.choose_explored(b, side, rng, epsilon_q16)
            .map(|(c, _)| c)
    }

    /// [`TdTable::choose`], also telling whether the move was a random exploration.
    pub fn choose_explored(
        &mut self,
        b: &Board4,
        side: Side,
        rng: &mut Rng,
        epsilon_q16: u32,
    ) -> Option<(u8, bool)> {
        let legal = b.legal_moves();
        if legal == 0 {
            return None;
        }
        if (rng.next_u64() as u32 >> 16) < epsilon_q16 {
            let c = super::agent::nth_cell(legal, rng.below(legal.count_ones()))?;
            return Some((c, true));
        }
        let mut best: Option<(i32, u8)> = None;
        let mut m = legal;
        while m != 0 {
            let c = m.trailing_zeros() as u8;
            m &= m - 1;
            let Some(after) = b.with(c, side) else {
                continue;
            };
            let v = self.value(&after);
            let mine = if side == Side::O { v } else { -v };
            if best.is_none_or(|(bv, _)| mine > bv) {
                best = Some((mine, c));
            }
        }
        best.map(|(_, c)| (c, false))
    }

    /// Learns from one finished (or unfinished) game given as its record: the afterstates are
    /// replayed from the moves and updated backwards by TD(0). A record that does not replay
    /// is ignored.
    pub fn learn(&mut self, rec: &Record) {
        self.learn_masked(rec, 0);
    }

    /// [`TdTable::learn`], except that no value flows back across the plies set in
    /// `explored` (bit k: ply k was a random exploration move, whose result says nothing
    /// about the position before it).
    pub fn learn_masked(&mut self, rec: &Record, explored: u16) {
        let n = usize::from(rec.move_count.min(Record::MAX_PLIES));
        let mut states = [Board4::EMPTY; Record::MAX_PLIES as usize];
        let mut b = Board4::EMPTY;
        for ply in 0..n {
            let Some(cell) = rec.move_at(ply as u8) else {
                return;
            };
            if !b.play(cell, Side::of_ply(ply as u8)) {
                return;
            }
            if let Some(s) = states.get_mut(ply) {
                *s = b;
            }
        }
        if n == 0 || rec.board4() != Some(b) {
            return;
        }
        let Some(last) = states.get(n - 1) else {
            return;
        };
        let mut target = self.value(last);
        for (ply, s) in states.iter().enumerate().take(n - 1).rev() {
            let v = self.value(s);
            if explored & (1 << (ply + 1)) != 0 {
                target = v;
                continue;
            }
            let nv = v + ((target - v) >> ALPHA_SHIFT);
            self.store(s, nv);
            target = nv;
        }
        self.games = self.games.saturating_add(1);
    }

    /// Pre-training: plays `games` games and learns from each, in turn self-play (both sides
    /// from this table), this table as O against the uniformly random mover, and the random
    /// mover as O against this table. The table explores with [`TRAIN_EPSILON_Q16`]; no value
    /// flows back across an exploration move. (Self-play alone teaches X that every position
    /// is lost, which O can force on this board; the games against the random mover teach it
    /// which positions a fallible O still loses.)
    pub fn train(&mut self, games: u32, rng: &mut Rng) {
        for k in 0..games {
            let td = AgentKind::TdLearning;
            let mut rec = Record::start(0, 0, td, td);
            let mut explored = 0u16;
            let random_side = match k % 3 {
                0 => None,
                1 => Some(Side::X),
                _ => Some(Side::O),
            };
            while let Some(b) = rec.board4().filter(|b| b.state() == GameState::Running) {
                let side = rec.side_to_move();
                let choice = if random_side == Some(side) {
                    let legal = b.legal_moves();
                    super::agent::nth_cell(legal, rng.below(legal.count_ones())).map(|c| (c, false))
                } else {
                    self.choose_explored(&b, side, rng, TRAIN_EPSILON_Q16)
                };
                let Some((c, random)) = choice else {
                    break;
                };
                if random {
                    explored |= 1 << rec.move_count;
                }
                let Some(next) = rec.played(c) else {
                    break;
                };
                rec = next;
            }
            self.learn_masked(&rec, explored);
        }
    }
}

// The learning curve's measure (host only).
#[cfg(not(MODULE))]
pub use super::host::versus_random;

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::vec;

    #[test]
    fn lookups_stores_and_lru_eviction() {
        let mut t = TdTable::new(vec![TdEntry::EMPTY; 8]);
        let b = Board4::from_masks(1, 2).unwrap();
        assert_eq!(t.value(&b), heuristic(&b));
        t.store(&b, 1234);
        assert_eq!(t.value(&b), 1234);
        assert_eq!(t.used(), 1);
        // Fill far beyond the table: it stays bounded, and the most recent survive.
        let mut boards = std::vec::Vec::new();
        for c in 0..16u8 {
            for d in 0..16u8 {
                if c != d {
                    boards.push(Board4::from_masks(1 << c, 1 << d).unwrap());
                }
            }
        }
        for (i, bd) in boards.iter().enumerate() {
            t.store(bd, i as i32);
        }
        assert_eq!(t.used(), 8);
        let last = boards.last().unwrap();
        assert_eq!(t.value(last), boards.len() as i32 - 1);
        // A refreshed entry outlives an older one of the same bucket.
        let mut t = TdTable::new(vec![TdEntry::EMPTY; 4]);
        for (i, bd) in boards.iter().take(4).enumerate() {
            t.store(bd, 100 + i as i32);
        }
        assert_eq!(t.value(&boards[0]), 100); // refresh the oldest
        t.store(&boards[4], 7); // evicts boards[1], now the least recently used
        assert_eq!(t.value(&boards[0]), 100);
        assert_eq!(t.value(&boards[1]), heuristic(&boards[1]));
        assert_eq!(t.value(&boards[4]), 7);
    }

    #[test]
    fn heuristic_is_exact_at_the_end_and_bounded() {
        let won = Board4::from_masks(0b111, 0b1_0001_0000).unwrap();
        assert_eq!(heuristic(&won), ONE as i32);
        assert_eq!(heuristic(&Board4::EMPTY), 0);
        let b = Board4::from_masks(0b0110_0000, 0).unwrap();
        assert!(heuristic(&b) > 0 && heuristic(&b) <= (ONE / 2) as i32);
    }

    #[test]
    fn learning_beats_the_random_agent() {
        let mut t = TdTable::new(vec![TdEntry::EMPTY; entries_for_kb(DEFAULT_KB)]);
        let before = versus_random(&mut t, Side::X, 2000, 1, 0);
        t.train(100_000, &mut Rng::new(2));
        assert_eq!(t.games(), 100_000);
        let as_o = versus_random(&mut t, Side::O, 2000, 1, 0);
        let as_x = versus_random(&mut t, Side::X, 2000, 1, 0);
        std::eprintln!(
            "td vs random (w, d, l): as X before {before:?} after {as_x:?}; as O {as_o:?}"
        );
        assert!(
            as_o.2 <= 20,
            "more than 1% lost as O after training: {as_o:?}"
        );
        assert!(as_x.2 < before.2, "as X: {before:?} -> {as_x:?}");
        // Learning alone (no heuristic prior): a table that knows nothing loses often as X,
        // and far less after training.
        let mut blank = TdTable::without_prior(vec![TdEntry::EMPTY; entries_for_kb(DEFAULT_KB)]);
        let untrained = versus_random(&mut blank, Side::X, 2000, 1, 0);
        blank.train(100_000, &mut Rng::new(2));
        let trained = versus_random(&mut blank, Side::X, 2000, 1, 0);
        std::eprintln!("td without prior as X: untrained {untrained:?} trained {trained:?}");
        assert!(trained.2 * 2 < untrained.2, "{untrained:?} -> {trained:?}");
    }
}
