//! Who plays a `/dev/kxo` AI-vs-AI game: the pairing policy of a game slot, as
//! `KXO_IOC_SET_PAIRING` takes it and `KXO_IOC_STATE` reports it (docs/protocol.md, "ioctls").
//!
//! Each side of a slot is either a fixed agent (its [`AgentKind`] id) or [`RANDOM`]: drawn
//! uniformly from the agents in the pairings at the start of each round (td joins them once
//! trained), as the machine does by default. A policy takes effect at the slot's next round;
//! the game in progress is not disturbed. A fixed td plays even before its pre-training is
//! done.

use super::agent::AgentKind;

/// A side drawn at random each round.
pub const RANDOM: u8 = 0xff;
/// [`KxoPairing::slot`] value that addresses every slot.
pub const ALL_SLOTS: u16 = 0xffff;

/// `KXO_IOC_SET_PAIRING`'s argument. `#[repr(C)]`, native endianness, 4 bytes, no padding.
///
/// | offset | size | field | meaning |
/// | --- | --- | --- | --- |
/// | 0 | 2 | `slot` | the game slot, or [`ALL_SLOTS`] |
/// | 2 | 1 | `o_agent` | agent id of O, or [`RANDOM`] |
/// | 3 | 1 | `x_agent` | agent id of X, or [`RANDOM`] |
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct KxoPairing {
    /// The slot, or [`ALL_SLOTS`].
    pub slot: u16,
    /// O's agent id, or [`RANDOM`].
    pub o_agent: u8,
    /// X's agent id, or [`RANDOM`].
    pub x_agent: u8,
}

const _: () = assert!(core::mem::size_of::<KxoPairing>() == KxoPairing::SIZE);

impl KxoPairing {
    /// The size in bytes.
    pub const SIZE: usize = 4;

    /// Both sides are a known agent id or [`RANDOM`].
    pub fn sides_valid(self) -> bool {
        side_valid(self.o_agent) && side_valid(self.x_agent)
    }
}

/// `id` is an agent id or [`RANDOM`].
pub fn side_valid(id: u8) -> bool {
    id == RANDOM || AgentKind::from_id(id).is_some()
}

/// The side `name` names, case-insensitive: `random` (or `any`) for [`RANDOM`], the draw;
/// else an agent by its tag (`nega`, `rand`, `mcts`, `td`, `mc`) or its name (`negamax`).
/// The agent that plays random moves is therefore spelled `rand`.
pub fn parse_side(name: &str) -> Option<u8> {
    if name.eq_ignore_ascii_case("random") || name.eq_ignore_ascii_case("any") {
        return Some(RANDOM);
    }
    AgentKind::ALL
        .into_iter()
        .find(|k| k.tag().eq_ignore_ascii_case(name) || k.name().eq_ignore_ascii_case(name))
        .map(AgentKind::id)
}

// The inverse of `parse_side`, for the tools (host only).
#[cfg(not(MODULE))]
pub use super::host::side_name;

/// Parses `O:X` (e.g. `mcts:negamax`, `td:random`) into the two sides.
pub fn parse_pair(spec: &str) -> Option<(u8, u8)> {
    let (o, x) = spec.split_once(':')?;
    Some((parse_side(o.trim())?, parse_side(x.trim())?))
}

/// Parses a comma-separated list of `O:X` pairs (the `kxo_pairings` module parameter, e.g.
/// `mcts:nega,td:random`) and deals it round-robin over `slots`: slot i takes pair
/// i mod n. An empty list leaves every slot random. `None` for a malformed pair or a list
/// longer than `slots`.
pub fn parse_round_robin(spec: &str, slots: &mut [[u8; 2]]) -> Option<()> {
    for s in slots.iter_mut() {
        *s = [RANDOM; 2];
    }
    let spec = spec.trim();
    if spec.is_empty() {
        return Some(());
    }
    let n = spec.split(',').count();
    if n > slots.len() {
        return None;
    }
    for (i, pair) in spec.split(',').enumerate() {
        let (o, x) = parse_pair(pair)?;
        for s in slots.iter_mut().skip(i).step_by(n) {
            *s = [o, x];
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_names() {
        assert_eq!(parse_pair("mcts:negamax"), Some((2, 0)));
        assert_eq!(parse_pair("td:random"), Some((3, RANDOM)));
        assert_eq!(parse_pair("rand:MC"), Some((1, 4)));
        assert_eq!(parse_pair("any:NEGA"), Some((RANDOM, 0)));
        assert_eq!(parse_pair("mcts"), None);
        assert_eq!(parse_pair("chess:td"), None);
        for id in [0, 1, 2, 3, 4, RANDOM] {
            assert_eq!(parse_side(side_name(id)), Some(id));
        }
        assert_eq!(side_name(9), "?");
    }

    #[test]
    fn round_robin() {
        let mut s = [[0u8; 2]; 5];
        assert_eq!(parse_round_robin("mcts:nega,td:random", &mut s), Some(()));
        assert_eq!(s, [[2, 0], [3, RANDOM], [2, 0], [3, RANDOM], [2, 0]]);
        assert_eq!(parse_round_robin("", &mut s), Some(()));
        assert_eq!(s, [[RANDOM; 2]; 5]);
        assert_eq!(parse_round_robin("mcts:nega,,td:mc", &mut s), None);
        assert_eq!(parse_round_robin("mcts:chess", &mut s), None);
        assert_eq!(parse_round_robin("a:b,a:b,a:b,a:b,a:b,a:b", &mut s), None);
        let mut one = [[0u8; 2]; 1];
        assert_eq!(parse_round_robin("mc:mc,td:td", &mut one), None);
    }

    #[test]
    fn bytes_round_trip_and_validity() {
        let p = KxoPairing {
            slot: ALL_SLOTS,
            o_agent: 2,
            x_agent: RANDOM,
        };
        assert_eq!(KxoPairing::from_bytes(p.to_bytes()), p);
        assert!(p.sides_valid());
        assert!(!KxoPairing { x_agent: 5, ..p }.sides_valid());
    }
}
