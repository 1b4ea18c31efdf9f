//! The transposition table: a caller-allocated slice of [`TtEntry`], one entry per slot.
//!
//! Memory: 16 bytes per entry (`size_of::<TtEntry>() == 16`), so 65536 entries are 1 MiB. Any
//! length works (0 disables the table); a key maps to slot `(key_hi32 * len) >> 32`, so at
//! most 2^32 slots are used.

use super::bitboard::Bitboard;
use crate::common::rng::GOLDEN_GAMMA;

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score is at least the stored one (a fail high).
    Lower,
    /// The true score is at most the stored one (a fail low).
    Upper,
    /// The stored score is exact.
    Exact,
}

impl Bound {
    /// The bound a fail-soft search's `best` proves for the window `alpha0..beta` it was
    /// searched with.
    #[inline]
    pub(crate) fn of(best: i32, alpha0: i32, beta: i32) -> Bound {
        if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }
}

/// Flag bits of [`TtEntry::flags`].
const FLAG_LOWER: u8 = 1;
const FLAG_UPPER: u8 = 2;
/// Set when the score is an exact-solver disc score, clear for a midgame score.
const FLAG_SOLVED: u8 = 4;

/// No move stored.
pub(crate) const NO_MOVE: u8 = 0xFF;

/// One slot of the transposition table (16 bytes, `Copy`; [`TtEntry::EMPTY`] when unused).
///
/// Invariant: `flags == 0` means the slot holds nothing; otherwise `key` is the full 64-bit
/// hash of the position (side to move's discs, opponent's discs), and `best` is a square
/// (0..=63) or `NO_MOVE`. A stored move is only a hint: the search re-checks its legality.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    key: u64,
    score: i16,
    depth: u8,
    flags: u8,
    best: u8,
    generation: u8,
}

impl TtEntry {
    /// An unused slot.
    pub const EMPTY: TtEntry = TtEntry {
        key: 0,
        score: 0,
        depth: 0,
        flags: 0,
        best: NO_MOVE,
        generation: 0,
    };
}

impl Default for TtEntry {
    fn default() -> Self {
        TtEntry::EMPTY
    }
}

/// A table hit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    pub score: i32,
    pub depth: u8,
    pub bound: Option<Bound>,
    pub best: u8,
}

/// The hash of a position from the mover's point of view.
#[inline]
pub(crate) fn hash(me: Bitboard, opp: Bitboard) -> u64 {
    let a = me.wrapping_mul(GOLDEN_GAMMA);
    let b = opp.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(29);
    let mut z = a ^ b;
    z ^= z >> 32;
    z = z.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    z ^ (z >> 32)
}

/// The table as seen by one search: the slots and the current generation.
pub(crate) struct Table<'a> {
    slots: &'a mut [TtEntry],
    generation: u8,
}

impl<'a> Table<'a> {
    pub(crate) fn new(slots: &'a mut [TtEntry], generation: u8) -> Self {
        Table { slots, generation }
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        let len = (self.slots.len() as u64).min(1 << 32);
        (((key >> 32) * len) >> 32) as usize
    }

    /// Looks `key` up among the midgame (`solved == false`) or solver entries. A hit of the
    /// other kind still returns its move, with `bound == None`.
    #[inline]
    pub(crate) fn probe(&self, key: u64, solved: bool) -> Option<Hit> {
        let e = self.slots.get(self.index(key))?;
        if e.flags == 0 || e.key != key {
            return None;
        }
        let bound = if (e.flags & FLAG_SOLVED != 0) != solved {
            None
        } else {
            match e.flags & (FLAG_LOWER | FLAG_UPPER) {
                FLAG_LOWER => Some(Bound::Lower),
                FLAG_UPPER => Some(Bound::Upper),
                _ => Some(Bound::Exact),
            }
        };
        Some(Hit {
            score: i32::from(e.score),
            depth: e.depth,
            bound,
            best: e.best,
        })
    }

    /// Starts loading `key`'s slot into the cache ahead of its probe (prefetching), so that
    /// the misses of a node's children overlap instead of coming one after the other. A hint
    /// only: x86-64's `prefetcht0`, nothing on other architectures.
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        if let Some(e) = self.slots.get(self.index(key)) {
            crate::common::cache::prefetch(e);
        }
    }

    /// Stores a result; replaces the slot unless it holds a deeper result of this search for
    /// another position.
    #[inline]
    pub(crate) fn store(
        &mut self,
        key: u64,
        solved: bool,
        depth: u8,
        bound: Bound,
        score: i32,
        best: u8,
    ) {
        let i = self.index(key);
        let generation = self.generation;
        let Some(e) = self.slots.get_mut(i) else {
            return;
        };
        if e.flags != 0 && e.key != key && e.generation == generation && e.depth > depth {
            return;
        }
        let mut flags = match bound {
            Bound::Lower => FLAG_LOWER,
            Bound::Upper => FLAG_UPPER,
            Bound::Exact => FLAG_LOWER | FLAG_UPPER,
        };
        if solved {
            flags |= FLAG_SOLVED;
        }
        *e = TtEntry {
            key,
            score: score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            depth,
            flags,
            best,
            generation,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_is_16_bytes() {
        assert_eq!(core::mem::size_of::<TtEntry>(), 16);
    }

    #[test]
    fn store_probe_and_kinds() {
        let mut slots = [TtEntry::EMPTY; 7];
        let mut t = Table::new(&mut slots, 1);
        let k = hash(0x1234, 0x5678_0000);
        assert!(t.probe(k, false).is_none());
        t.store(k, false, 5, Bound::Lower, 300, 19);
        let h = t.probe(k, false).unwrap();
        assert_eq!(
            (h.score, h.depth, h.bound, h.best),
            (300, 5, Some(Bound::Lower), 19)
        );
        let h = t.probe(k, true).unwrap();
        assert_eq!((h.bound, h.best), (None, 19));
        let mut none: [TtEntry; 0] = [];
        let mut t0 = Table::new(&mut none, 0);
        t0.store(k, true, 1, Bound::Exact, 1, 2);
        assert!(t0.probe(k, true).is_none());
    }
}
