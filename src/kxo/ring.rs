//! A watcher's bounded queue of records: a ring over caller-owned storage (the kernel keeps
//! one preallocated buffer per watcher). When the ring is full the oldest record is dropped and
//! counted, so a slow reader never holds the games up and always knows what it lost.

use crate::uapi::record::Record;

/// The ring's indices over a buffer of `cap` records.
///
/// Invariant: `head < cap` (when `cap > 0`) and `len <= cap`, for the `cap` of the buffer
/// every call passes (the same buffer each time).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ring {
    head: usize,
    len: usize,
    lost: u64,
}

impl Ring {
    /// An empty ring.
    pub const EMPTY: Ring = Ring {
        head: 0,
        len: 0,
        lost: 0,
    };

    /// Records queued.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// True when nothing is queued.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Records dropped so far because the ring was full.
    pub const fn lost(&self) -> u64 {
        self.lost
    }

    /// Queues `r`, dropping (and counting) the oldest record if `buf` is full.
    pub fn push(&mut self, buf: &mut [Record], r: Record) {
        let cap = buf.len();
        if cap == 0 {
            self.lost = self.lost.saturating_add(1);
            return;
        }
        if self.len >= cap {
            self.head = (self.head + 1) % cap;
            self.len = cap - 1;
            self.lost = self.lost.saturating_add(1);
        }
        let at = (self.head + self.len) % cap;
        if let Some(slot) = buf.get_mut(at) {
            *slot = r;
            self.len += 1;
        }
    }

    /// The oldest queued record, with `lost` set to this reader's count so far.
    pub fn pop(&mut self, buf: &[Record]) -> Option<Record> {
        let cap = buf.len();
        if self.len == 0 || cap == 0 {
            return None;
        }
        let mut r = *buf.get(self.head)?;
        self.head = (self.head + 1) % cap;
        self.len -= 1;
        r.lost = self.lost;
        Some(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uapi::agent::AgentKind;

    fn rec(seq: u64) -> Record {
        let mut r = Record::start(0, 0, AgentKind::Random, AgentKind::Random);
        r.seq = seq;
        r
    }

    #[test]
    fn fifo_with_overflow_counting() {
        let mut buf = [Record::default(); 4];
        let mut q = Ring::EMPTY;
        assert_eq!(q.pop(&buf), None);
        for s in 1..=3 {
            q.push(&mut buf, rec(s));
        }
        assert_eq!(q.pop(&buf).map(|r| r.seq), Some(1));
        for s in 4..=9 {
            q.push(&mut buf, rec(s));
        }
        // 2..=9 pushed into 4 places: 2, 3, 4, 5 dropped.
        assert_eq!(q.len(), 4);
        assert_eq!(q.lost(), 4);
        let got: Vec<(u64, u64)> = core::iter::from_fn(|| q.pop(&buf))
            .map(|r| (r.seq, r.lost))
            .collect();
        assert_eq!(got, [(6, 4), (7, 4), (8, 4), (9, 4)]);
        assert!(q.is_empty());
        // An empty buffer loses everything and never panics.
        let mut none: [Record; 0] = [];
        q.push(&mut none, rec(1));
        assert_eq!(q.pop(&none), None);
        assert_eq!(q.lost(), 5);
    }

    extern crate std;
    use std::vec::Vec;
}
