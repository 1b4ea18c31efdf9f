//! What the stream sources (the device, a replayed file) give the UI loop. A source that
//! cannot go on (a closed device, a read error, a record of another layout) is not a message:
//! the loop ends with that error.

use std::time::Duration;

use kgames_uapi::load::KxoLoads;
use kgames_uapi::record::Record;
use kgames_uapi::state::KxoState;

/// One message of a stream source. `at` is the arrival time since the source started (what
/// `--record` writes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    /// The records of one `read` of the device, in order.
    Records {
        /// Arrival time.
        at: Duration,
        /// The decoded records.
        records: Vec<Record>,
    },
    /// A sample of the per-agent load figures (`KXO_IOC_LOADS`).
    Loads {
        /// Sample time.
        at: Duration,
        /// The figures.
        loads: KxoLoads,
    },
    /// A sample of the machine's state (`KXO_IOC_STATE`).
    State {
        /// Sample time.
        at: Duration,
        /// The state.
        state: KxoState,
    },
    /// A replayed file ended (the display stays until the user quits).
    ReplayEnd,
}
