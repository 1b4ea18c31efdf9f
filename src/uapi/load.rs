//! The fixed-point format of the per-agent load figures (`KXO_IOC_LOADS`).
//!
//! A load is a number of CPUs kept busy by one agent kind, with [`FSHIFT`] = 11 fraction
//! bits, as the kernel's `loadavg`: [`FIXED_1`] (2048) is one CPU busy all the time.

use super::agent::AgentKind;

/// Fraction bits of the fixed-point loads.
pub const FSHIFT: u32 = 11;
/// 1.0 in fixed point: one CPU fully busy.
pub const FIXED_1: u64 = 1 << FSHIFT;

/// What `KXO_IOC_LOADS` copies: for each agent id (index), the 1, 5 and 15 minute averages.
pub type KxoLoads = [[u64; 3]; AgentKind::COUNT];

// The tools print loads in hundredths (host only).
#[cfg(not(MODULE))]
pub use super::host::hundredths;
