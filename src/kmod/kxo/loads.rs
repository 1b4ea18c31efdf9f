// SPDX-License-Identifier: GPL-2.0

//! The CPU load of each kind of agent of `/dev/kxo`'s AI-vs-AI games, as 1, 5 and 15 minute
//! averages sampled every 5 s (`KXO_IOC_LOADS`): the kxo engine's [`AgentLoads`] behind a
//! lock, with the time of its last sample.

use kernel::{
    new_mutex,
    prelude::*,
    sync::Mutex,
    time::{Instant, Monotonic},
};

use crate::kxo::machine::loads::{AgentLoads, SAMPLE_PERIOD_MS};
use crate::uapi::agent::AgentKind;
use crate::uapi::load::KxoLoads;

/// What the loads' mutex protects.
struct LoadsState {
    loads: AgentLoads,
    last_sample: Instant<Monotonic>,
}

/// The agents' load figures.
#[pin_data]
pub(crate) struct Loads {
    #[pin]
    state: Mutex<LoadsState>,
}

impl Loads {
    /// No load yet; the first sample 5 s from now.
    pub(crate) fn new() -> impl PinInit<Self> {
        pin_init!(Loads {
            state <- new_mutex!(LoadsState {
                loads: AgentLoads::ZERO,
                last_sample: Instant::now(),
            }),
        })
    }

    /// Adds `ns` of CPU time to `kind`'s load, sampling every 5 s.
    pub(crate) fn account(&self, kind: AgentKind, ns: u64) {
        let mut st = self.state.lock();
        st.loads.account(kind, ns);
        let since = st.last_sample.elapsed();
        if since.as_millis() >= i64::from(SAMPLE_PERIOD_MS) {
            st.loads
                .sample(u64::try_from(since.as_nanos()).unwrap_or(0));
            st.last_sample = Instant::now();
        }
    }

    /// The averages of every kind (`KXO_IOC_LOADS`).
    pub(crate) fn averages(&self) -> KxoLoads {
        self.state.lock().loads.averages()
    }
}
