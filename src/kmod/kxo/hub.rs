// SPDX-License-Identifier: GPL-2.0

//! The `/dev/kxo` hub: what the AI-vs-AI machine, its watchers and its players share, one
//! part per job, each with its own lock or none: [`Records`] (the record ring and its
//! readers), [`Control`] (the control ioctls' flags and the pairings), [`Loads`] (the agents'
//! CPU load), [`SharedTd`] (the TD agent's table and its training), and the queue that wakes
//! player files' polls.

use kernel::{
    fs::File,
    new_poll_condvar,
    prelude::*,
    sync::poll::{PollCondVar, PollTable},
};

use super::loads::Loads;
use super::records::Records;
use super::td::SharedTd;
use crate::kxo::machine::control::Control;
use crate::params::KxoConfig;
use crate::session::state::StatusExtra;
use crate::uapi::record::Record;
use crate::uapi::state::KxoState;

/// The parts of the machine that files and the games share.
#[pin_data]
pub(crate) struct Hub {
    /// Where the records go and the watchers read them.
    #[pin]
    pub(crate) records: Records,
    /// The control ioctls' flags, the pairings, unloading.
    pub(crate) control: Control,
    /// The agents' CPU load.
    #[pin]
    pub(crate) loads: Loads,
    /// The TD agent's table.
    #[pin]
    pub(crate) td: SharedTd,
    /// Woken after a player file's command (its reply is ready) and at unload: player files'
    /// `poll` registers on it, so a reply wakes no watcher.
    #[pin]
    replies: PollCondVar,
}

impl Hub {
    /// A hub for the games of `cfg` whose first records are `latest`.
    pub(crate) fn new(cfg: &KxoConfig, latest: KVec<Record>) -> Result<impl PinInit<Self, Error>> {
        let control = Control::new(latest.len(), cfg.pairings, cfg.always, cfg.period_ms);
        let records = Records::new(latest, cfg.ring)?;
        let td = SharedTd::new(cfg.td_entries)?;
        Ok(try_pin_init!(Hub {
            records <- records,
            control,
            loads <- Loads::new(),
            td <- td,
            replies <- new_poll_condvar!(),
        }))
    }

    /// True when the timer should queue moves.
    pub(crate) fn should_move(&self) -> bool {
        self.control.should_move(self.records.watchers())
    }

    /// Unloading.
    pub(crate) fn unloading(&self) -> bool {
        self.control.unloading()
    }

    /// Marks the machine as unloading and wakes every reader and poll.
    pub(crate) fn shut_down(&self) {
        self.control.set_unloading();
        self.records.wake();
        self.replies.notify_all();
    }

    /// Waits until a watcher at `cur` has a record, the module unloads, or `left` is set (its
    /// file became a player file; see [`Records::wait`]).
    pub(crate) fn wait_records(
        &self,
        cur: &crate::kxo::machine::ring::Cursor,
        left: &core::sync::atomic::AtomicBool,
    ) -> Result {
        self.records.wait(cur, self.control.unloading_flag(), left)
    }

    /// Registers a player file's `poll` on the queue woken when a player's reply is ready.
    pub(crate) fn poll_replies(&self, file: &File, table: &PollTable<'_>) {
        table.register_wait(file, &self.replies);
    }

    /// A player file's reply is ready: wakes the player files' polls (and no watcher).
    pub(crate) fn reply_ready(&self) {
        self.replies.notify_all();
    }

    /// The machine's state (`KXO_IOC_STATE`).
    pub(crate) fn machine_state(&self) -> KxoState {
        let r = self.records.figures();
        KxoState {
            games: u32::try_from(r.games).unwrap_or(u32::MAX),
            period_ms: self.control.period_ms,
            watchers: u32::try_from(self.records.watchers()).unwrap_or(u32::MAX),
            paused: u8::from(r.paused),
            stopped: u8::from(self.control.halted()),
            always: u8::from(self.control.always),
            agents: self.td.agents(),
            seq: r.seq,
            reserved: [0; 8],
            pairings: self.control.pairings(),
        }
    }

    /// The machine's figures for a player file's `09`.
    pub(crate) fn status(&self) -> StatusExtra {
        StatusExtra::kxo_machine(&self.machine_state(), self.td.ready())
    }
}
