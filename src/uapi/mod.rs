//! The user-space interface of `kgames.ko`, defined once (`core`-only).
//!
//! The module (`src/kmod`), the user tools (`user/`) and the in-VM tests (`tests/vmtest`) all
//! take these definitions from here; nothing restates them.
//!
//! - [`ioctl`]: the `_IO`/`_IOR` encoding as `const fn`s and every ioctl number.
//! - [`agent`]: the kxo agent ids and names.
//! - [`record`]: the 48-byte record a `/dev/kxo` watcher reads.
//! - [`load`]: the fixed-point format of the per-agent load figures.
//! - [`state`]: the `/dev/kxo` machine state of `KXO_IOC_STATE`.
//! - [`pairing`]: who plays a kxo game slot (`KXO_IOC_SET_PAIRING`).

pub mod agent;
pub mod ioctl;
pub mod load;
pub mod pairing;
pub mod record;
pub mod state;

/// Host only: the user-space decoders and encoders of the records, the state and the
/// pairings, and the agents' names for people.
#[cfg(not(MODULE))]
mod host;
