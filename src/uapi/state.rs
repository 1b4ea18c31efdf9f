//! The state of the `/dev/kxo` AI-vs-AI machine, as `KXO_IOC_STATE` copies it (anyone may
//! ask; nothing is written to the device).

use core::mem::{offset_of, size_of};

/// Most AI-vs-AI game slots (`kxo_games` is 1 to this).
pub const MAX_GAMES: usize = 32;

/// `KXO_IOC_STATE`'s argument. `#[repr(C)]`, native endianness, 96 bytes, no implicit padding.
///
/// | offset | size | field | meaning |
/// | --- | --- | --- | --- |
/// | 0 | 4 | `games` | AI-vs-AI games (`kxo_games`) |
/// | 4 | 4 | `period_ms` | the timer period (`kxo_period_ms`) |
/// | 8 | 4 | `watchers` | registered watchers |
/// | 12 | 1 | `paused` | 1 while publishing is paused (`KXO_IOC_PAUSE`) |
/// | 13 | 1 | `stopped` | 1 after `KXO_IOC_STOP` (until `KXO_IOC_RESTART`) |
/// | 14 | 1 | `always` | 1 when the games run with no watcher (`kxo_always`) |
/// | 15 | 1 | `agents` | bit i set: agent id i is in the pairings (td joins after training) |
/// | 16 | 8 | `seq` | the sequence number of the latest record |
/// | 24 | 8 | `reserved` | zero |
/// | 32 | 64 | `pairings` | per slot i < `games`: O's then X's agent id, or `pairing::RANDOM` (0xff); zero beyond |
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct KxoState {
    /// AI-vs-AI games.
    pub games: u32,
    /// The timer period in milliseconds.
    pub period_ms: u32,
    /// Registered watchers.
    pub watchers: u32,
    /// 1 while publishing is paused.
    pub paused: u8,
    /// 1 after `KXO_IOC_STOP`.
    pub stopped: u8,
    /// 1 when the games run with no watcher open.
    pub always: u8,
    /// Bit i: agent id i takes part in the pairings.
    pub agents: u8,
    /// The latest record's sequence number.
    pub seq: u64,
    /// Zero.
    pub reserved: [u8; 8],
    /// Per slot: the pairing policy, `[O, X]` (agent ids or `pairing::RANDOM`).
    pub pairings: [[u8; 2]; MAX_GAMES],
}

const _: () = assert!(size_of::<KxoState>() == KxoState::SIZE);
const _: () = assert!(offset_of!(KxoState, watchers) == 8);
const _: () = assert!(offset_of!(KxoState, paused) == 12);
const _: () = assert!(offset_of!(KxoState, agents) == 15);
const _: () = assert!(offset_of!(KxoState, seq) == 16);
const _: () = assert!(offset_of!(KxoState, pairings) == 32);

impl KxoState {
    /// The size in bytes.
    pub const SIZE: usize = 32 + 2 * MAX_GAMES;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let s = KxoState {
            games: 9,
            period_ms: 100,
            watchers: 3,
            paused: 1,
            stopped: 0,
            always: 1,
            agents: 0b10111,
            seq: 0x0102_0304_0506_0708,
            reserved: [0; 8],
            pairings: [[2, 0xff]; MAX_GAMES],
        };
        let b = s.to_bytes();
        assert_eq!(b[0..4], 9u32.to_ne_bytes());
        assert_eq!(b[12..16], [1, 0, 1, 0b10111]);
        assert_eq!(KxoState::from_bytes(&b), Some(s));
        assert_eq!(b[32..34], [2, 0xff]);
        assert_eq!(KxoState::from_bytes(&b[..KxoState::SIZE - 1]), None);
    }
}
