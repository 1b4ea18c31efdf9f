//! The binary record a `/dev/kxo` watcher reads: one per board change of an AI-vs-AI game.
//!
//! One `#[repr(C)]` definition, [`Record`], shared by the kernel, the user tools and the tests
//! (the board logic that checks a record's contents is `kgames_kxo::record`). All fields are
//! in native endianness; there is no implicit padding (the spare bytes are the explicit
//! `reserved` field, always zero).
//!
//! | offset | size | field | meaning |
//! | --- | --- | --- | --- |
//! | 0 | 2 | `version` | layout version, [`Record::VERSION`] |
//! | 2 | 2 | `size` | this record's size in bytes, [`Record::SIZE`] (48) |
//! | 4 | 2 | `game` | game id: the slot number |
//! | 6 | 1 | `move_count` | plies played, 0..=16 |
//! | 7 | 1 | `state` | 0 running, 1 O won, 2 X won, 3 draw |
//! | 8 | 4 | `round` | how many times this slot has restarted |
//! | 12 | 4 | `board` | the packed board (`kxo::board::Board4::packed`) |
//! | 16 | 8 | `seq` | global sequence number (a gap shows lost records) |
//! | 24 | 8 | `lost` | records this reader has lost so far (cumulative) |
//! | 32 | 8 | `moves` | the cells played, ply k in bits 4k..4k+3; bits above `move_count` plies are 0 |
//! | 40 | 1 | `o_agent` | [`AgentKind`] id of the O player |
//! | 41 | 1 | `x_agent` | [`AgentKind`] id of the X player |
//! | 42 | 1 | `flags` | [`Record::FLAG_SNAPSHOT`]: part of a snapshot (after registering or a resume) |
//! | 43 | 5 | `reserved` | zero |
//!
//! Version 2 added `flags` (version 1 had six reserved bytes there). A snapshot record's `seq`
//! may jump past records that were never published (the machine was paused): a reader must
//! not count that gap as lost; `lost` counts what this reader really lost.

use core::mem::{offset_of, size_of};

use super::agent::AgentKind;

/// One board change of one AI-vs-AI game (see the module documentation for the layout).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Record {
    /// Layout version: [`Record::VERSION`].
    pub version: u16,
    /// Size of this record in bytes: [`Record::SIZE`].
    pub size: u16,
    /// Game id (the slot number).
    pub game: u16,
    /// Plies played so far, 0..=16.
    pub move_count: u8,
    /// [`Record::RUNNING`], [`Record::O_WON`], [`Record::X_WON`] or [`Record::DRAW`].
    pub state: u8,
    /// Restarts of this slot so far (tells the games of one slot apart).
    pub round: u32,
    /// The packed board: 2 bits per cell, `00` empty, `01` O, `10` X, cell i at bits 2i..2i+1.
    pub board: u32,
    /// Global sequence number of this record, over all games.
    pub seq: u64,
    /// Records this reader has lost so far (it was too slow), cumulative.
    pub lost: u64,
    /// The cells played: ply k (0-based; O plays even plies) in bits 4k..4k+3.
    pub moves: u64,
    /// [`AgentKind`] id of the O player.
    pub o_agent: u8,
    /// [`AgentKind`] id of the X player.
    pub x_agent: u8,
    /// [`Record::FLAG_SNAPSHOT`] or 0.
    pub flags: u8,
    /// Explicit padding: always zero.
    pub reserved: [u8; 5],
}

// The layout is a contract with user space: pin it down at compile time.
const _: () = assert!(size_of::<Record>() == Record::SIZE);
const _: () = assert!(offset_of!(Record, version) == 0);
const _: () = assert!(offset_of!(Record, size) == 2);
const _: () = assert!(offset_of!(Record, game) == 4);
const _: () = assert!(offset_of!(Record, move_count) == 6);
const _: () = assert!(offset_of!(Record, state) == 7);
const _: () = assert!(offset_of!(Record, round) == 8);
const _: () = assert!(offset_of!(Record, board) == 12);
const _: () = assert!(offset_of!(Record, seq) == 16);
const _: () = assert!(offset_of!(Record, lost) == 24);
const _: () = assert!(offset_of!(Record, moves) == 32);
const _: () = assert!(offset_of!(Record, o_agent) == 40);
const _: () = assert!(offset_of!(Record, x_agent) == 41);
const _: () = assert!(offset_of!(Record, flags) == 42);
const _: () = assert!(offset_of!(Record, reserved) == 43);

/// Copies `src` into `buf` at `at` (a no-op if it would not fit; the offsets used are
/// constants checked by the tests).
fn put(buf: &mut [u8], at: usize, src: &[u8]) {
    if let Some(dst) = buf.get_mut(at..at.saturating_add(src.len())) {
        dst.copy_from_slice(src);
    }
}

impl Record {
    /// The layout version this code writes and reads.
    pub const VERSION: u16 = 2;
    /// The record size in bytes.
    pub const SIZE: usize = 48;
    /// The most plies a game has (16 cells).
    pub const MAX_PLIES: u8 = 16;
    /// `flags` bit: this record belongs to a snapshot (one record per game, sent when a
    /// watcher registers and on resume); a `seq` gap just before it is not a loss.
    pub const FLAG_SNAPSHOT: u8 = 1;

    /// `state`: the game runs.
    pub const RUNNING: u8 = 0;
    /// `state`: O won.
    pub const O_WON: u8 = 1;
    /// `state`: X won.
    pub const X_WON: u8 = 2;
    /// `state`: a draw.
    pub const DRAW: u8 = 3;

    /// The first record of a round: the empty board, no moves, running; `seq` and `lost` 0.
    pub const fn start(game: u16, round: u32, o: AgentKind, x: AgentKind) -> Record {
        Record {
            version: Record::VERSION,
            size: Record::SIZE as u16,
            game,
            move_count: 0,
            state: Record::RUNNING,
            round,
            board: 0,
            seq: 0,
            lost: 0,
            moves: 0,
            o_agent: o.id(),
            x_agent: x.id(),
            flags: 0,
            reserved: [0; 5],
        }
    }

    /// The cell played at ply `ply`, if that ply has been played.
    pub const fn move_at(&self, ply: u8) -> Option<u8> {
        if ply >= self.move_count || ply >= Record::MAX_PLIES {
            None
        } else {
            Some(((self.moves >> (4 * ply as u32)) & 0xF) as u8)
        }
    }

    /// True for a snapshot record ([`Record::FLAG_SNAPSHOT`]).
    pub const fn is_snapshot(&self) -> bool {
        self.flags & Record::FLAG_SNAPSHOT != 0
    }

    /// The wire bytes, field by field in native endianness.
    pub fn to_bytes(self) -> [u8; Record::SIZE] {
        let mut b = [0u8; Record::SIZE];
        put(&mut b, 0, &self.version.to_ne_bytes());
        put(&mut b, 2, &self.size.to_ne_bytes());
        put(&mut b, 4, &self.game.to_ne_bytes());
        put(&mut b, 6, &[self.move_count, self.state]);
        put(&mut b, 8, &self.round.to_ne_bytes());
        put(&mut b, 12, &self.board.to_ne_bytes());
        put(&mut b, 16, &self.seq.to_ne_bytes());
        put(&mut b, 24, &self.lost.to_ne_bytes());
        put(&mut b, 32, &self.moves.to_ne_bytes());
        put(&mut b, 40, &[self.o_agent, self.x_agent, self.flags]);
        put(&mut b, 43, &self.reserved);
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_field_by_field() {
        let mut r = Record::start(0x0203, 0x0405_0607, AgentKind::Negamax, AgentKind::Random);
        r.move_count = 3;
        r.board = (0b01u32 << 10) | (0b01 << 20) | 0b10;
        r.moves = 0xA05;
        r.seq = 0x1112_1314_1516_1718;
        r.lost = 0x2122_2324_2526_2728;
        r.flags = Record::FLAG_SNAPSHOT;
        let b = r.to_bytes();
        assert_eq!(b.len(), 48);
        assert_eq!(Record::from_bytes(&b), Some(r));
        // Each field sits at its documented offset, native endian.
        assert_eq!(b[0..2], 2u16.to_ne_bytes());
        assert_eq!(b[2..4], 48u16.to_ne_bytes());
        assert_eq!(b[4..6], 0x0203u16.to_ne_bytes());
        assert_eq!(b[6], 3); // move_count
        assert_eq!(b[7], 0); // running
        assert_eq!(b[8..12], 0x0405_0607u32.to_ne_bytes());
        assert_eq!(b[12..16], r.board.to_ne_bytes());
        assert_eq!(b[16..24], 0x1112_1314_1516_1718u64.to_ne_bytes());
        assert_eq!(b[24..32], 0x2122_2324_2526_2728u64.to_ne_bytes());
        assert_eq!(b[32..40], 0xA05u64.to_ne_bytes());
        assert_eq!(b[40], 0);
        assert_eq!(b[41], 1);
        assert_eq!(b[42], 1);
        assert_eq!(b[43..48], [0; 5]);
        assert!(r.is_snapshot());
        assert_eq!(r.move_at(0), Some(5));
        assert_eq!(r.move_at(2), Some(10));
        assert_eq!(r.move_at(3), None);
        assert_eq!(r.agents(), Some((AgentKind::Negamax, AgentKind::Random)));
        // The decoder needs a whole record of this layout.
        assert_eq!(Record::from_bytes(&b[..47]), None);
        let mut longer = [0u8; 60];
        longer[..48].copy_from_slice(&b);
        assert_eq!(Record::from_bytes(&longer), Some(r));
        for (at, v) in [(0, 1u8), (2, 47), (43, 1), (47, 1)] {
            let mut bad = b;
            bad[at] = v;
            assert_eq!(Record::from_bytes(&bad), None, "byte {at} = {v}");
        }
    }
}
