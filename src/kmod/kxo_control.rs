// SPDX-License-Identifier: GPL-2.0

//! The control of `/dev/kxo`'s AI-vs-AI machine: what the control ioctls set (stopped, the
//! restart generation, each slot's pairing) and the unloading flag, all atomics that the
//! timer and the games read without a lock.

use core::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, Ordering};

use kernel::prelude::*;

use crate::uapi::pairing::{KxoPairing, ALL_SLOTS, RANDOM};
use crate::uapi::state::MAX_GAMES;

/// The machine's control state.
pub(crate) struct Control {
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
    pub(crate) always: bool,
    /// The timer's period (`kxo_period_ms`).
    pub(crate) period_ms: u32,
}

impl Control {
    /// Running, with each slot's pairing policy at load.
    pub(crate) fn new(
        games: usize,
        pairings: [[u8; 2]; MAX_GAMES],
        always: bool,
        period_ms: u32,
    ) -> Self {
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
    pub(crate) fn should_move(&self, watchers: usize) -> bool {
        !self.unloading() && !self.halted() && (self.always || watchers > 0)
    }

    /// Unloading.
    pub(crate) fn unloading(&self) -> bool {
        self.unloading.load(Ordering::Relaxed)
    }

    /// The unloading flag itself (for waits that end on it).
    pub(crate) fn unloading_flag(&self) -> &AtomicBool {
        &self.unloading
    }

    /// Marks the machine as unloading.
    pub(crate) fn set_unloading(&self) {
        self.unloading.store(true, Ordering::Relaxed);
    }

    /// Stopped by `KXO_IOC_STOP`.
    pub(crate) fn halted(&self) -> bool {
        self.halted.load(Ordering::Relaxed)
    }

    /// The restart generation.
    pub(crate) fn generation(&self) -> u32 {
        self.generation.load(Ordering::Relaxed)
    }

    /// `KXO_IOC_STOP`.
    pub(crate) fn halt(&self) {
        self.halted.store(true, Ordering::Relaxed);
    }

    /// `KXO_IOC_RESTART`.
    pub(crate) fn restart(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
        self.halted.store(false, Ordering::Relaxed);
    }

    /// Slot `slot`'s pairing policy, `[O, X]`.
    pub(crate) fn pairing(&self, slot: usize) -> [u8; 2] {
        self.pairings
            .get(slot)
            .map_or([RANDOM; 2], |p| p.load(Ordering::Relaxed).to_be_bytes())
    }

    /// Every game's pairing policy (zeros past the games).
    pub(crate) fn pairings(&self) -> [[u8; 2]; MAX_GAMES] {
        let mut out = [[0u8; 2]; MAX_GAMES];
        for (i, p) in out.iter_mut().enumerate().take(self.games) {
            *p = self.pairing(i);
        }
        out
    }

    /// `KXO_IOC_SET_PAIRING`: sets the policy of one slot or of all, from their next round.
    /// `EINVAL` (nothing changed) for a slot that is not a game or an unknown agent.
    pub(crate) fn set_pairing(&self, p: KxoPairing) -> Result {
        if !p.sides_valid() || (p.slot != ALL_SLOTS && usize::from(p.slot) >= self.games) {
            return Err(EINVAL);
        }
        let v = u16::from_be_bytes([p.o_agent, p.x_agent]);
        for (i, slot) in self.pairings.iter().enumerate().take(self.games) {
            if p.slot == ALL_SLOTS || usize::from(p.slot) == i {
                slot.store(v, Ordering::Relaxed);
            }
        }
        Ok(())
    }
}
