//! Host only: the user-space half of the interface, which `kgames.ko` never runs (the one
//! `not(MODULE)` gate in `mod.rs` leaves it out of the module). The module writes records,
//! copies the state and the loads out (through the kernel crate's `AsBytes`) and reads a
//! pairing in (`FromBytes`); the tools and tests decode and encode the same bytes with these
//! methods, name the sides for people ([`side_name`], re-exported by
//! [`pairing`](super::pairing)) and print loads in hundredths ([`hundredths`], by
//! [`load`](super::load)).

use super::agent::AgentKind;
use super::load::{FIXED_1, FSHIFT};
use super::pairing::{KxoPairing, RANDOM};
use super::record::Record;
use super::state::{KxoState, MAX_GAMES};

/// The `N` bytes of `bytes` at `at`.
fn get<const N: usize>(bytes: &[u8], at: usize) -> Option<[u8; N]> {
    bytes.get(at..at.checked_add(N)?)?.try_into().ok()
}

impl Record {
    /// The agents of O and X, if both ids are known.
    pub const fn agents(&self) -> Option<(AgentKind, AgentKind)> {
        match (
            AgentKind::from_id(self.o_agent),
            AgentKind::from_id(self.x_agent),
        ) {
            (Some(o), Some(x)) => Some((o, x)),
            _ => None,
        }
    }

    /// Decodes the first [`Record::SIZE`] bytes of `bytes`. `None` if there are fewer, or the
    /// version or size field is not this layout's, or `reserved` is not zero. The contents
    /// are not checked: see `kgames_kxo::record::RecordBoard::is_consistent`.
    pub fn from_bytes(bytes: &[u8]) -> Option<Record> {
        let [move_count, state] = get::<2>(bytes, 6)?;
        let [o_agent, x_agent, flags] = get::<3>(bytes, 40)?;
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
            flags,
            reserved: get(bytes, 43)?,
        };
        (r.version == Record::VERSION
            && usize::from(r.size) == Record::SIZE
            && r.reserved == [0; 5])
            .then_some(r)
    }
}

impl KxoPairing {
    /// The wire bytes.
    pub fn to_bytes(self) -> [u8; KxoPairing::SIZE] {
        let s = self.slot.to_ne_bytes();
        [s[0], s[1], self.o_agent, self.x_agent]
    }

    /// Decodes the wire bytes.
    pub fn from_bytes(b: [u8; KxoPairing::SIZE]) -> KxoPairing {
        KxoPairing {
            slot: u16::from_ne_bytes([b[0], b[1]]),
            o_agent: b[2],
            x_agent: b[3],
        }
    }
}

/// The name of side `id` as [`parse_side`](super::pairing::parse_side) reads it: `random`
/// for [`RANDOM`], the agent's tag in lower case otherwise (`?` for an unknown id).
pub fn side_name(id: u8) -> &'static str {
    match AgentKind::from_id(id) {
        _ if id == RANDOM => "random",
        Some(AgentKind::Negamax) => "nega",
        Some(AgentKind::Random) => "rand",
        Some(AgentKind::Mcts) => "mcts",
        Some(AgentKind::TdLearning) => "td",
        Some(AgentKind::MonteCarlo) => "mc",
        None => "?",
    }
}

impl KxoState {
    /// The wire bytes, field by field in native endianness.
    pub fn to_bytes(self) -> [u8; KxoState::SIZE] {
        let mut b = [0u8; KxoState::SIZE];
        let fields: [(usize, &[u8]); 5] = [
            (0, &self.games.to_ne_bytes()),
            (4, &self.period_ms.to_ne_bytes()),
            (8, &self.watchers.to_ne_bytes()),
            (12, &[self.paused, self.stopped, self.always, self.agents]),
            (16, &self.seq.to_ne_bytes()),
        ];
        for (at, src) in fields {
            if let Some(dst) = b.get_mut(at..at + src.len()) {
                dst.copy_from_slice(src);
            }
        }
        for (i, p) in self.pairings.iter().enumerate() {
            if let Some(dst) = b.get_mut(32 + 2 * i..34 + 2 * i) {
                dst.copy_from_slice(p);
            }
        }
        b
    }

    /// Decodes the wire bytes (`None` if fewer than [`KxoState::SIZE`]).
    pub fn from_bytes(b: &[u8]) -> Option<KxoState> {
        let b: &[u8; KxoState::SIZE] = b.get(..KxoState::SIZE)?.try_into().ok()?;
        let u32_at = |at: usize| {
            let mut w = [0u8; 4];
            w.copy_from_slice(&b[at..at + 4]);
            u32::from_ne_bytes(w)
        };
        let mut seq = [0u8; 8];
        seq.copy_from_slice(&b[16..24]);
        let mut reserved = [0u8; 8];
        reserved.copy_from_slice(&b[24..32]);
        let mut pairings = [[0u8; 2]; MAX_GAMES];
        for (i, p) in pairings.iter_mut().enumerate() {
            p.copy_from_slice(&b[32 + 2 * i..34 + 2 * i]);
        }
        Some(KxoState {
            games: u32_at(0),
            period_ms: u32_at(4),
            watchers: u32_at(8),
            paused: b[12],
            stopped: b[13],
            always: b[14],
            agents: b[15],
            seq: u64::from_ne_bytes(seq),
            reserved,
            pairings,
        })
    }
}

impl AgentKind {
    /// The kind named `name` (as [`AgentKind::name`] prints it).
    pub fn from_name(name: &str) -> Option<AgentKind> {
        AgentKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A load in hundredths, rounded to nearest: `hundredths(FIXED_1) == 100`. Print it as
/// `h / 100` `.` `h % 100` (two digits), like `/proc/loadavg`.
pub const fn hundredths(load: u64) -> u64 {
    load.saturating_mul(100).saturating_add(FIXED_1 / 2) >> FSHIFT
}
