//! The one record ring of `/dev/kxo`, read the way `/dev/kmsg` is read: every record is
//! published once into a ring over caller-owned storage, and each reader keeps only a
//! [`Cursor`] (its position, its lost count and how far its snapshot has gone). Publishing is
//! O(1), reading is O(records read), and a reader costs a few bytes whatever the ring's size.
//!
//! A reader that falls further behind than the ring holds skips to the oldest record still
//! held; what it skipped is added to its `lost` count, which every record it reads carries.
//! A reader starts with a snapshot, one record per game (the games' latest, flagged
//! [`Record::FLAG_SNAPSHOT`]), taken when the reader first reads; its live records then
//! start with the first one published after the snapshot began. A snapshot longer than one
//! read is taken from the games' latest records at each read: the records published between
//! its first and last read are not read (they are older than the snapshot records that
//! follow them) and count as lost.

use core::ops::DerefMut;

use crate::uapi::record::Record;

/// The ring: `buf[pos % buf.len()]` holds the record published at position `pos`, for the
/// last `buf.len()` positions before `next`.
///
/// Invariant: `buf` is the same buffer (same length) at every call.
#[derive(Debug)]
pub struct RecordRing<B> {
    buf: B,
    next: u64,
}

/// Where a reader is: everything a reader of the ring owns.
///
/// Invariant: `pos <= next` of the ring it reads, once the snapshot has begun.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor {
    /// The ring position of its next live record.
    pos: u64,
    /// Records this reader skipped so far.
    lost: u64,
    /// Its snapshot: not begun, or the number of games given so far.
    snapshot: Snapshot,
}

/// A reader's snapshot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Snapshot {
    /// Not begun: the reader has not read yet.
    Pending,
    /// Begun at the ring position in the cursor; this many games given.
    Given(u32),
    /// Complete: the reader reads live records.
    Done,
}

impl Default for Cursor {
    fn default() -> Self {
        Self::NEW
    }
}

impl Cursor {
    /// A new reader: its snapshot comes first.
    pub const NEW: Cursor = Cursor {
        pos: 0,
        lost: 0,
        snapshot: Snapshot::Pending,
    };

    /// Records this reader skipped so far.
    #[cfg(not(MODULE))]
    pub const fn lost(&self) -> u64 {
        self.lost
    }
}

impl<B: DerefMut<Target = [Record]>> RecordRing<B> {
    /// An empty ring over `buf` (its length is the ring's capacity; 0 holds nothing).
    pub const fn new(buf: B) -> Self {
        RecordRing { buf, next: 0 }
    }

    /// The records the ring can hold.
    pub fn capacity(&self) -> usize {
        self.buf.len()
    }

    /// The position the next record gets (the number of records published so far).
    #[cfg(not(MODULE))]
    pub const fn next(&self) -> u64 {
        self.next
    }

    /// The position of the oldest record still held.
    pub fn oldest(&self) -> u64 {
        self.next.saturating_sub(self.capacity() as u64)
    }

    /// Publishes `r`, overwriting the oldest record when the ring is full.
    pub fn push(&mut self, r: Record) {
        let buf = &mut *self.buf;
        let cap = buf.len() as u64;
        if cap > 0 {
            if let Some(slot) = buf.get_mut((self.next % cap) as usize) {
                *slot = r;
            }
        }
        self.next = self.next.wrapping_add(1);
    }

    /// True when `cur` has something to read: the rest of its snapshot, or a live record.
    pub fn readable(&self, cur: &Cursor) -> bool {
        match cur.snapshot {
            Snapshot::Pending | Snapshot::Given(_) => true,
            Snapshot::Done => cur.pos < self.next,
        }
    }

    /// Reads into `out` what `cur` has: its snapshot (from `latest`, the games' latest records)
    /// first, then live records; each carries the reader's `lost` count. Returns how many.
    pub fn read(&self, cur: &mut Cursor, latest: &[Record], out: &mut [Record]) -> usize {
        let mut n = 0;
        if cur.snapshot == Snapshot::Pending {
            cur.pos = self.next;
            cur.snapshot = Snapshot::Given(0);
        }
        if let Snapshot::Given(given) = cur.snapshot {
            let mut given = given as usize;
            for (o, l) in out.iter_mut().zip(latest.iter().skip(given)) {
                *o = *l;
                o.flags |= Record::FLAG_SNAPSHOT;
                given += 1;
                n += 1;
            }
            if given < latest.len() {
                cur.snapshot = Snapshot::Given(u32::try_from(given).unwrap_or(u32::MAX));
            } else {
                // Records published since the snapshot began are older than its records.
                cur.lost = cur.lost.saturating_add(self.next.saturating_sub(cur.pos));
                cur.pos = self.next;
                cur.snapshot = Snapshot::Done;
            }
            for o in out.iter_mut().take(n) {
                o.lost = cur.lost;
            }
            if cur.snapshot != Snapshot::Done {
                return n;
            }
        }
        let oldest = self.oldest();
        if cur.pos < oldest {
            cur.lost = cur.lost.saturating_add(oldest - cur.pos);
            cur.pos = oldest;
        }
        let buf = &*self.buf;
        let cap = buf.len() as u64;
        for o in out.iter_mut().skip(n) {
            if cur.pos >= self.next || cap == 0 {
                break;
            }
            let Some(r) = buf.get((cur.pos % cap) as usize) else {
                break;
            };
            *o = *r;
            o.lost = cur.lost;
            cur.pos += 1;
            n += 1;
        }
        n
    }
}

/// What `/dev/kxo` publishes to its watchers: the [`RecordRing`], the latest record of each
/// game (a reader's snapshot), the number of the latest record published, and pause and
/// resume. The device keeps it behind one lock and wakes its readers when a call says so.
///
/// Invariant: `latest` has one record per game, the same length at every call.
#[derive(Debug)]
pub struct RecordLog<B, L> {
    ring: RecordRing<B>,
    latest: L,
    seq: u64,
    paused: bool,
}

/// The log's figures (`KXO_IOC_STATE` and a kxo player's `09`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogFigures {
    /// The games (records in `latest`).
    pub games: usize,
    /// The number of the latest record published.
    pub seq: u64,
    /// Paused (`KXO_IOC_PAUSE`).
    pub paused: bool,
}

impl<B: DerefMut<Target = [Record]>, L: DerefMut<Target = [Record]>> RecordLog<B, L> {
    /// A log over the ring's storage `ring` for the games whose first records are `latest`.
    pub const fn new(ring: B, latest: L) -> Self {
        RecordLog {
            ring: RecordRing::new(ring),
            latest,
            seq: 0,
            paused: false,
        }
    }

    /// Publishes a record: numbers it, keeps it as its game's latest, and puts it in the ring
    /// unless paused. True when it went into the ring (readers have something new).
    pub fn publish(&mut self, mut r: Record) -> bool {
        self.seq = self.seq.wrapping_add(1);
        r.seq = self.seq;
        if let Some(l) = self.latest.get_mut(usize::from(r.game)) {
            *l = r;
        }
        if !self.paused {
            self.ring.push(r);
        }
        !self.paused
    }

    /// `KXO_IOC_PAUSE`: records are numbered and kept as latest, not put in the ring.
    pub fn pause(&mut self) {
        self.paused = true;
    }

    /// `KXO_IOC_RESUME`: publishing again, with a snapshot (every game's latest, flagged
    /// [`Record::FLAG_SNAPSHOT`]) in the ring for every reader. True when it was paused
    /// (readers have something new).
    pub fn resume(&mut self) -> bool {
        if !self.paused {
            return false;
        }
        self.paused = false;
        for r in self.latest.iter() {
            let mut r = *r;
            r.flags |= Record::FLAG_SNAPSHOT;
            self.ring.push(r);
        }
        true
    }

    /// `cur` has a record to read (the rest of its snapshot or a live record).
    pub fn readable(&self, cur: &Cursor) -> bool {
        self.ring.readable(cur)
    }

    /// Reads up to `out.len()` records for the reader at `cur` (see [`RecordRing::read`]).
    pub fn read(&self, cur: &mut Cursor, out: &mut [Record]) -> usize {
        self.ring.read(cur, &self.latest, out)
    }

    /// The log's figures.
    pub fn figures(&self) -> LogFigures {
        LogFigures {
            games: self.latest.len(),
            seq: self.seq,
            paused: self.paused,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uapi::agent::AgentKind;

    extern crate std;
    use std::{vec, vec::Vec};

    fn rec(game: u16, seq: u64) -> Record {
        let mut r = Record::start(game, 0, AgentKind::Random, AgentKind::Random);
        r.seq = seq;
        r
    }

    fn read_all(
        ring: &RecordRing<Vec<Record>>,
        cur: &mut Cursor,
        latest: &[Record],
    ) -> Vec<(u64, u64, bool)> {
        let mut out = [Record::default(); 16];
        let n = ring.read(cur, latest, &mut out);
        out[..n]
            .iter()
            .map(|r| (r.seq, r.lost, r.is_snapshot()))
            .collect()
    }

    #[test]
    fn snapshot_first_then_live_records() {
        let latest = [rec(0, 10), rec(1, 11)];
        let mut ring = RecordRing::new(vec![Record::default(); 4]);
        ring.push(rec(0, 10));
        let mut cur = Cursor::NEW;
        assert!(ring.readable(&cur));
        // Registered before record 12: it reads the snapshot, then 12 and 13.
        assert_eq!(
            read_all(&ring, &mut cur, &latest),
            [(10, 0, true), (11, 0, true)]
        );
        assert!(!ring.readable(&cur));
        ring.push(rec(0, 12));
        ring.push(rec(1, 13));
        assert!(ring.readable(&cur));
        assert_eq!(
            read_all(&ring, &mut cur, &latest),
            [(12, 0, false), (13, 0, false)]
        );
        assert_eq!(read_all(&ring, &mut cur, &latest), []);
    }

    #[test]
    fn a_slow_reader_skips_to_the_oldest_and_counts_what_it_lost() {
        let latest = [rec(0, 1)];
        let mut ring = RecordRing::new(vec![Record::default(); 4]);
        let mut cur = Cursor::NEW;
        assert_eq!(read_all(&ring, &mut cur, &latest).len(), 1);
        for s in 2..=10 {
            ring.push(rec(0, s));
        }
        // 9 published into 4 places: 2..=6 lost.
        assert_eq!(
            read_all(&ring, &mut cur, &latest),
            [(7, 5, false), (8, 5, false), (9, 5, false), (10, 5, false)]
        );
        assert_eq!(cur.lost(), 5);
        // A second reader, registered late, reads its snapshot and then nothing old.
        let mut late = Cursor::NEW;
        assert_eq!(read_all(&ring, &mut late, &[rec(0, 10)]), [(10, 0, true)]);
        ring.push(rec(0, 11));
        assert_eq!(read_all(&ring, &mut late, &latest), [(11, 0, false)]);
        assert_eq!(read_all(&ring, &mut cur, &latest), [(11, 5, false)]);
    }

    #[test]
    fn a_snapshot_over_several_reads_counts_what_was_published_meanwhile() {
        let mut latest = [rec(0, 1), rec(1, 2), rec(2, 3)];
        let mut ring = RecordRing::new(vec![Record::default(); 4]);
        let mut cur = Cursor::NEW;
        let mut one = [Record::default(); 1];
        assert_eq!(ring.read(&mut cur, &latest, &mut one), 1);
        assert_eq!((one[0].seq, one[0].lost), (1, 0));
        ring.push(rec(1, 4));
        latest[1] = rec(1, 4);
        assert_eq!(ring.read(&mut cur, &latest, &mut one), 1);
        assert_eq!((one[0].seq, one[0].lost), (4, 0));
        // The last snapshot record: record 4 was published during the snapshot.
        assert_eq!(ring.read(&mut cur, &latest, &mut one), 1);
        assert_eq!(
            (one[0].seq, one[0].lost, one[0].is_snapshot()),
            (3, 1, true)
        );
        assert!(!ring.readable(&cur));
    }

    #[test]
    fn a_cursor_is_24_bytes() {
        assert_eq!(core::mem::size_of::<Cursor>(), 24);
    }

    #[test]
    fn an_empty_ring_loses_everything_and_never_panics() {
        let mut ring = RecordRing::new(Vec::new());
        let mut cur = Cursor::NEW;
        let mut out = [Record::default(); 4];
        assert_eq!(ring.read(&mut cur, &[], &mut out), 0);
        ring.push(rec(0, 1));
        assert!(ring.readable(&cur));
        assert_eq!(ring.read(&mut cur, &[], &mut out), 0);
        assert_eq!(cur.lost(), 1);
        assert!(!ring.readable(&cur));
    }

    #[test]
    fn the_log_numbers_records_and_a_resume_gives_a_flagged_snapshot() {
        let mut log = RecordLog::new(vec![Record::default(); 8], vec![rec(0, 0), rec(1, 0)]);
        let mut cur = Cursor::NEW;
        let mut out = [Record::default(); 8];
        assert_eq!(
            log.read(&mut cur, &mut out),
            2,
            "the snapshot of both games"
        );
        assert!(
            log.publish(rec(1, 99)),
            "a published record wakes the readers"
        );
        log.pause();
        assert!(!log.publish(rec(0, 99)), "paused: nothing for the readers");
        assert_eq!(
            log.figures(),
            LogFigures {
                games: 2,
                seq: 2,
                paused: true
            }
        );
        assert!(log.resume() && !log.resume(), "only a paused log resumes");
        let n = log.read(&mut cur, &mut out);
        let got: Vec<(u16, u64, bool)> = out[..n]
            .iter()
            .map(|r| (r.game, r.seq, r.is_snapshot()))
            .collect();
        // The live record, then the snapshot of the resume: game 0's latest is the record
        // published while paused, which never went into the ring.
        assert_eq!(got, [(1, 1, false), (0, 2, true), (1, 1, true)]);
        assert!(!log.readable(&cur));
    }
}
