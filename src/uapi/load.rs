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

/// A load in hundredths, rounded to nearest: `hundredths(FIXED_1) == 100`. Print it as
/// `h / 100` `.` `h % 100` (two digits), like `/proc/loadavg`.
#[cfg(not(MODULE))]
pub const fn hundredths(load: u64) -> u64 {
    load.saturating_mul(100).saturating_add(FIXED_1 / 2) >> FSHIFT
}
