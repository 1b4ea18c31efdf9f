//! The binary record a `/dev/kxo` watcher reads: one per board change of an AI-vs-AI game.
//!
//! One `#[repr(C)]` definition, [`Record`], shared by the kernel and the user tools (which
//! depend on the host crate `kgames-kxo`). All fields are in native endianness; there is no
//! implicit padding (the spare bytes are the explicit `reserved` field, always zero).
//!
//! | offset | size | field | meaning |
//! | --- | --- | --- | --- |
//! | 0 | 2 | `version` | layout version, [`Record::VERSION`] |
//! | 2 | 2 | `size` | this record's size in bytes, [`Record::SIZE`] (48) |
//! | 4 | 2 | `game` | game id: the slot number |
//! | 6 | 1 | `move_count` | plies played, 0..=16 |
//! | 7 | 1 | `state` | [`GameState`]: 0 running, 1 O won, 2 X won, 3 draw |
//! | 8 | 4 | `round` | how many times this slot has restarted |
//! | 12 | 4 | `board` | the packed board ([`Board4::packed`]) |
//! | 16 | 8 | `seq` | global sequence number (a gap shows lost records) |
//! | 24 | 8 | `lost` | records this reader has lost so far (cumulative) |
//! | 32 | 8 | `moves` | the cells played, ply k in bits 4k..4k+3; bits above `move_count` plies are 0 |
//! | 40 | 1 | `o_agent` | [`AgentKind`] id of the O player |
//! | 41 | 1 | `x_agent` | [`AgentKind`] id of the X player |
//! | 42 | 6 | `reserved` | zero |

use core::mem::{offset_of, size_of};

use super::agent::AgentKind;
use super::board::{Board4, GameState, Side, CELLS};

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
    /// The [`GameState`] as its `u8` value.
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
    /// Explicit padding: always zero.
    pub reserved: [u8; 6],
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
const _: () = assert!(offset_of!(Record, reserved) == 42);

/// Copies `src` into `buf` at `at` (a no-op if it would not fit; the offsets used are
/// constants checked by the tests).
fn put(buf: &mut [u8], at: usize, src: &[u8]) {
    if let Some(dst) = buf.get_mut(at..at.saturating_add(src.len())) {
        dst.copy_from_slice(src);
    }
}

/// The `N` bytes of `bytes` at `at`.
fn get<const N: usize>(bytes: &[u8], at: usize) -> Option<[u8; N]> {
    bytes.get(at..at.checked_add(N)?)?.try_into().ok()
}

impl Record {
    /// The layout version this code writes and reads.
    pub const VERSION: u16 = 1;
    /// The record size in bytes.
    pub const SIZE: usize = 48;

    /// The first record of a round: the empty board, no moves, running; `seq` and `lost` 0.
    pub const fn start(game: u16, round: u32, o: AgentKind, x: AgentKind) -> Record {
        Record {
            version: Record::VERSION,
            size: Record::SIZE as u16,
            game,
            move_count: 0,
            state: GameState::Running.to_u8(),
            round,
            board: 0,
            seq: 0,
            lost: 0,
            moves: 0,
            o_agent: o.id(),
            x_agent: x.id(),
            reserved: [0; 6],
        }
    }

    /// The decoded board (`None` if a cell holds `11`).
    pub const fn board4(&self) -> Option<Board4> {
        Board4::from_packed(self.board)
    }

    /// The decoded game state.
    pub const fn game_state(&self) -> Option<GameState> {
        GameState::from_u8(self.state)
    }

    /// The cell played at ply `ply`, if that ply has been played.
    pub const fn move_at(&self, ply: u8) -> Option<u8> {
        if ply >= self.move_count || ply >= CELLS {
            None
        } else {
            Some(((self.moves >> (4 * ply as u32)) & 0xF) as u8)
        }
    }

    /// The side to move next (O after an even number of plies).
    pub const fn side_to_move(&self) -> Side {
        Side::of_ply(self.move_count)
    }

    /// The record after the side to move plays `cell`: board, move count, moves and state
    /// updated; every other field (ids, round, `seq`, `lost`) copied. `None` if the move is
    /// illegal, the game is over, or the record does not decode.
    pub fn played(&self, cell: u8) -> Option<Record> {
        if self.game_state()? != GameState::Running || self.move_count >= CELLS {
            return None;
        }
        let board = self.board4()?.with(cell, self.side_to_move())?;
        let mut next = *self;
        next.board = board.packed();
        next.moves |= u64::from(cell & 0xF) << (4 * u32::from(self.move_count));
        next.move_count += 1;
        next.state = board.state().to_u8();
        Some(next)
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
        put(&mut b, 40, &[self.o_agent, self.x_agent]);
        put(&mut b, 42, &self.reserved);
        b
    }

    /// Decodes the first [`Record::SIZE`] bytes of `bytes`. `None` if there are fewer, or the
    /// version or size field is not this layout's, or `reserved` is not zero. The contents
    /// are not checked: see [`Record::is_consistent`].
    pub fn from_bytes(bytes: &[u8]) -> Option<Record> {
        let [move_count, state] = get::<2>(bytes, 6)?;
        let [o_agent, x_agent] = get::<2>(bytes, 40)?;
        let r = Record {
            version: u16::from_ne_bytes(get(bytes, 0)?),
            size: u16::from_ne_bytes(get(bytes, 2)?),
            game: u16::from_ne_bytes(get(bytes, 4)?),
            move_count,
            state,
            round: u32::from_ne_bytes(get(bytes, 8)?),
            board: u32::from_ne_bytes(get(bytes, 12)?),
            seq: u64::from_ne_bytes(get(bytes, 16)?),
            lost: u64::from_ne_bytes(get(bytes, 24)?),
            moves: u64::from_ne_bytes(get(bytes, 32)?),
            o_agent,
            x_agent,
            reserved: get(bytes, 42)?,
        };
        (r.version == Record::VERSION
            && usize::from(r.size) == Record::SIZE
            && r.reserved == [0; 6])
            .then_some(r)
    }

    /// True when the record describes a real game: known agent ids, at most 16 moves, no move
    /// bits beyond `move_count`, and replaying `moves` from the empty board (O first) is legal
    /// at every ply and gives exactly `board` and `state`.
    pub fn is_consistent(&self) -> bool {
        if AgentKind::from_id(self.o_agent).is_none()
            || AgentKind::from_id(self.x_agent).is_none()
            || self.move_count > CELLS
        {
            return false;
        }
        let used_bits = 4 * u32::from(self.move_count);
        if used_bits < 64 && self.moves >> used_bits != 0 {
            return false;
        }
        let mut board = Board4::EMPTY;
        for ply in 0..self.move_count {
            let Some(cell) = self.move_at(ply) else {
                return false;
            };
            if !board.play(cell, Side::of_ply(ply)) {
                return false;
            }
        }
        board.packed() == self.board && Some(board.state()) == self.game_state()
    }
}

/// True when `next` is the board change right after `prev` in one game: the same game id,
/// round and agents; one more move; the game was running; the new cell was empty before and
/// is now held by the side whose turn it was (O on even plies); no other cell changed; the
/// move history is `prev`'s extended by that cell; and `next.state` is the new board's state.
/// Sequence numbers and lost counts are not compared.
pub fn is_successor(prev: &Record, next: &Record) -> bool {
    if prev.game != next.game
        || prev.round != next.round
        || prev.o_agent != next.o_agent
        || prev.x_agent != next.x_agent
        || prev.move_count >= CELLS
        || next.move_count != prev.move_count + 1
        || prev.game_state() != Some(GameState::Running)
    {
        return false;
    }
    let (Some(before), Some(after)) = (prev.board4(), next.board4()) else {
        return false;
    };
    let Some(cell) = next.move_at(prev.move_count) else {
        return false;
    };
    let side = Side::of_ply(prev.move_count);
    let bit = 1u16 << (cell & 0xF);
    let shift = 4 * u32::from(prev.move_count);
    let low = (1u64 << shift).wrapping_sub(1); // the bits of plies before this one
    before.empty() & bit != 0
        && after.mask(side) == before.mask(side) | bit
        && after.mask(side.other()) == before.mask(side.other())
        && next.moves & low == prev.moves & low
        && prev.moves & !low == 0
        && next.moves >> shift == u64::from(cell)
        && before.winner().is_none()
        && next.game_state() == Some(after.state())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
    use crate::kxo::agent::{Agent, RandomAgent};

    fn sample() -> Record {
        let mut r = Record::start(0x0203, 0x0405_0607, AgentKind::Negamax, AgentKind::Random);
        r = r.played(5).unwrap().played(0).unwrap().played(10).unwrap();
        r.seq = 0x1112_1314_1516_1718;
        r.lost = 0x2122_2324_2526_2728;
        r
    }

    #[test]
    fn bytes_round_trip_field_by_field() {
        let r = sample();
        let b = r.to_bytes();
        assert_eq!(b.len(), 48);
        assert_eq!(Record::from_bytes(&b), Some(r));
        // Each field sits at its documented offset, native endian.
        assert_eq!(b[0..2], 1u16.to_ne_bytes());
        assert_eq!(b[2..4], 48u16.to_ne_bytes());
        assert_eq!(b[4..6], 0x0203u16.to_ne_bytes());
        assert_eq!(b[6], 3); // move_count
        assert_eq!(b[7], 0); // running
        assert_eq!(b[8..12], 0x0405_0607u32.to_ne_bytes());
        // O on 5 and 10, X on 0.
        let board = (0b01u32 << 10) | (0b01 << 20) | 0b10;
        assert_eq!(b[12..16], board.to_ne_bytes());
        assert_eq!(b[16..24], 0x1112_1314_1516_1718u64.to_ne_bytes());
        assert_eq!(b[24..32], 0x2122_2324_2526_2728u64.to_ne_bytes());
        assert_eq!(b[32..40], 0xA05u64.to_ne_bytes()); // plies 5, 0, 10
        assert_eq!(b[40], 0);
        assert_eq!(b[41], 1);
        assert_eq!(b[42..48], [0; 6]);
        // The decoder needs a whole record of this layout.
        assert_eq!(Record::from_bytes(&b[..47]), None);
        let mut longer = [0u8; 60];
        longer[..48].copy_from_slice(&b);
        assert_eq!(Record::from_bytes(&longer), Some(r));
        for (at, v) in [(0, 2u8), (2, 47), (42, 1), (47, 1)] {
            let mut bad = b;
            bad[at] = v;
            assert_eq!(Record::from_bytes(&bad), None, "byte {at} = {v}");
        }
    }

    #[test]
    fn consistency_replays_the_moves() {
        let r = sample();
        assert!(r.is_consistent());
        assert_eq!(r.move_at(0), Some(5));
        assert_eq!(r.move_at(2), Some(10));
        assert_eq!(r.move_at(3), None);
        let mut bad = r;
        bad.board ^= 0b11 << 30; // cell 15 becomes 11
        assert!(!bad.is_consistent());
        let mut bad = r;
        bad.moves |= 7 << 12; // a 4th ply that move_count does not cover
        assert!(!bad.is_consistent());
        let mut bad = r;
        bad.state = GameState::OWon.to_u8();
        assert!(!bad.is_consistent());
        let mut bad = r;
        bad.x_agent = 9;
        assert!(!bad.is_consistent());
        // A repeated cell in the history is no game.
        let mut bad = r;
        bad.moves = 0x505;
        assert!(!bad.is_consistent());
    }

    #[test]
    fn successors_follow_the_rules() {
        let r = sample();
        let next = r.played(3).unwrap(); // X (ply 3) on 3
        assert!(is_successor(&r, &next));
        assert!(!is_successor(&next, &r));
        assert!(!is_successor(&r, &r));
        // Wrong side moved: O's stone on cell 3.
        let mut wrong = next;
        wrong.board = r.board | 0b01 << 6;
        assert!(!is_successor(&r, &wrong));
        // The cell was already taken.
        let mut taken = r;
        taken.move_count += 1;
        taken.moves |= 5 << 12;
        assert!(!is_successor(&r, &taken));
        // History rewritten.
        let mut rewritten = next;
        rewritten.moves ^= 1;
        assert!(!is_successor(&r, &rewritten));
        // Another game, round or pairing.
        for f in [
            |n: &mut Record| n.game += 1,
            |n: &mut Record| n.round += 1,
            |n: &mut Record| n.o_agent = 1,
        ] {
            let mut other = next;
            f(&mut other);
            assert!(!is_successor(&r, &other));
        }
        // Two stones at once.
        let mut two = next;
        two.board |= 0b10 << 28;
        assert!(!is_successor(&r, &two));
        // A wrong state.
        let mut state = next;
        state.state = GameState::Draw.to_u8();
        assert!(!is_successor(&r, &state));
    }

    #[test]
    fn random_games_decode_as_chains_of_successors() {
        let (mut c, mut i) = (NodeClock { ns_per_node: 1 }, NeverInterrupt);
        let mut meter = Meter::new(Budget::Nodes(1 << 40), &mut c, &mut i);
        let mut endings = [0u32; 4];
        for seed in 0..300u64 {
            let mut agent = RandomAgent::new(seed);
            let mut r = Record::start(7, seed as u32, AgentKind::Random, AgentKind::Random);
            r.seq = seed * 100;
            assert!(r.is_consistent());
            let mut prev = Record::from_bytes(&r.to_bytes()).unwrap();
            while let Some(cell) = agent.choose(&r.board4().unwrap(), r.side_to_move(), &mut meter)
            {
                r = r.played(cell).unwrap();
                r.seq += 1;
                let decoded = Record::from_bytes(&r.to_bytes()).unwrap();
                assert_eq!(decoded, r);
                assert!(decoded.is_consistent());
                assert!(is_successor(&prev, &decoded));
                prev = decoded;
            }
            assert!(r.game_state().unwrap().is_over());
            assert_eq!(r.played(0), None);
            endings[usize::from(r.state)] += 1;
        }
        // Random play produces wins for both sides and some draws.
        assert_eq!(endings[0], 0);
        assert!(endings[1] > 0 && endings[2] > 0, "{endings:?}");
    }
}
