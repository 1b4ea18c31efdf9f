//! The control of `/dev/kxo`'s AI-vs-AI machine: what the control ioctls set (stopped, the
//! restart generation, each slot's pairing) and the unloading flag, all atomics that the
//! timer and the games read without a lock.

use core::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, Ordering};

use crate::uapi::pairing::{KxoPairing, ALL_SLOTS, RANDOM};
use crate::uapi::state::MAX_GAMES;

/// The machine's control state.
pub struct Control {
    /// Unloading: no more moves, every wait ends.
    unloading: AtomicBool,
    /// Stopped by `KXO_IOC_STOP`.
    halted: AtomicBool,
    /// Bumped by `KXO_IOC_RESTART`; a slot whose generation differs restarts its game.
    generation: AtomicU32,
    /// Per slot, the pairing policy `O << 8 | X` (agent ids or [`RANDOM`]), read at the start
    /// of each of its rounds (`KXO_IOC_SET_PAIRING`). Slots past `games` are unused.
    pairings: [AtomicU16; MAX_GAMES],
    /// The number of games (`kxo_games`).
    games: usize,
    /// The games run with no watcher too (`kxo_always`).
    pub always: bool,
    /// The timer's period (`kxo_period_ms`).
    pub period_ms: u32,
}

impl Control {
    /// Running, with each slot's pairing policy at load.
    pub fn new(games: usize, pairings: [[u8; 2]; MAX_GAMES], always: bool, period_ms: u32) -> Self {
        Control {
            unloading: AtomicBool::new(false),
            halted: AtomicBool::new(false),
            generation: AtomicU32::new(0),
            pairings: pairings.map(|p| AtomicU16::new(u16::from_be_bytes(p))),
            games: games.min(MAX_GAMES),
            always,
            period_ms,
        }
    }

    /// True when the timer should queue moves, with `watchers` registered.
    pub fn should_move(&self, watchers: usize) -> bool {
        !self.unloading() && !self.halted() && (self.always || watchers > 0)
    }

    /// Unloading.
    pub fn unloading(&self) -> bool {
        self.unloading.load(Ordering::Relaxed)
    }

    /// The unloading flag itself (for waits that end on it).
    pub fn unloading_flag(&self) -> &AtomicBool {
        &self.unloading
    }

    /// Marks the machine as unloading.
    pub fn set_unloading(&self) {
        self.unloading.store(true, Ordering::Relaxed);
    }

    /// Stopped by `KXO_IOC_STOP`.
    pub fn halted(&self) -> bool {
        self.halted.load(Ordering::Relaxed)
    }

    /// The restart generation.
    pub fn generation(&self) -> u32 {
        self.generation.load(Ordering::Relaxed)
    }

    /// `KXO_IOC_STOP`.
    pub fn halt(&self) {
        self.halted.store(true, Ordering::Relaxed);
    }

    /// `KXO_IOC_RESTART`.
    pub fn restart(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
        self.halted.store(false, Ordering::Relaxed);
    }

    /// Slot `slot`'s pairing policy, `[O, X]`.
    pub fn pairing(&self, slot: usize) -> [u8; 2] {
        self.pairings
            .get(slot)
            .map_or([RANDOM; 2], |p| p.load(Ordering::Relaxed).to_be_bytes())
    }

    /// Every game's pairing policy (zeros past the games).
    pub fn pairings(&self) -> [[u8; 2]; MAX_GAMES] {
        let mut out = [[0u8; 2]; MAX_GAMES];
        for (i, p) in out.iter_mut().enumerate().take(self.games) {
            *p = self.pairing(i);
        }
        out
    }

    /// `KXO_IOC_SET_PAIRING`: sets the policy of one slot or of all, from their next round.
    /// False (nothing changed; the device answers `EINVAL`) for a slot that is not a game or
    /// an unknown agent.
    pub fn set_pairing(&self, p: KxoPairing) -> bool {
        if !p.sides_valid() || (p.slot != ALL_SLOTS && usize::from(p.slot) >= self.games) {
            return false;
        }
        let v = u16::from_be_bytes([p.o_agent, p.x_agent]);
        for (i, slot) in self.pairings.iter().enumerate().take(self.games) {
            if p.slot == ALL_SLOTS || usize::from(p.slot) == i {
                slot.store(v, Ordering::Relaxed);
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairing(slot: u16, o: u8, x: u8) -> KxoPairing {
        KxoPairing {
            slot,
            o_agent: o,
            x_agent: x,
        }
    }

    #[test]
    fn pairings_are_set_per_slot_or_for_all_and_bad_ones_change_nothing() {
        let c = Control::new(3, [[RANDOM; 2]; MAX_GAMES], false, 100);
        assert!(c.set_pairing(pairing(1, 0, 2)));
        assert_eq!(
            c.pairings()[..4],
            [[RANDOM; 2], [0, 2], [RANDOM; 2], [0, 0]]
        );
        assert!(!c.set_pairing(pairing(3, 0, 2)), "slot 3 is not a game");
        assert!(!c.set_pairing(pairing(ALL_SLOTS, 0, 200)), "no agent 200");
        assert_eq!(c.pairing(1), [0, 2]);
        assert!(c.set_pairing(pairing(ALL_SLOTS, 1, 1)));
        assert!(c.pairings()[..3].iter().all(|p| *p == [1, 1]));
    }

    #[test]
    fn the_games_move_with_a_watcher_or_always_until_stopped() {
        let c = Control::new(1, [[RANDOM; 2]; MAX_GAMES], false, 100);
        assert!(!c.should_move(0) && c.should_move(1));
        c.halt();
        assert!(!c.should_move(1));
        c.restart();
        assert!(c.should_move(1) && c.generation() == 1);
        let always = Control::new(1, [[RANDOM; 2]; MAX_GAMES], true, 100);
        assert!(always.should_move(0));
        always.set_unloading();
        assert!(!always.should_move(5));
    }
}
