//! Per-agent CPU load averages in fixed point, computed like the kernel's `loadavg`.
//!
//! Units: a load is a number of CPUs kept busy by one agent kind, in fixed point with
//! [`FSHIFT`] = 11 fraction bits: [`FIXED_1`] (2048) means one CPU busy all the time, 1024
//! half a CPU. Every [`SAMPLE_PERIOD_MS`] (5 s) the caller folds the CPU time the agent used
//! during the period ([`LoadAvg::account`]) into three exponentially decayed averages
//! ([`LoadAvg::sample`]): windows of 1, 5 and 15 minutes, with the decay factors
//! [`EXP_1`], [`EXP_5`], [`EXP_15`] = `FIXED_1 / e^(5 s / window)`, so a sample's weight
//! falls to 1/e after one window (12, 60 and 180 samples). The arithmetic is the kernel's
//! `calc_load`: integers only, rounding up while the load rises.

use crate::uapi::agent::AgentKind;
#[cfg(not(MODULE))]
pub use crate::uapi::load::hundredths;
use crate::uapi::load::KxoLoads;
pub use crate::uapi::load::FIXED_1;
#[cfg(not(MODULE))]
pub use crate::uapi::load::FSHIFT;
/// The sampling period the decay factors assume, in milliseconds.
pub const SAMPLE_PERIOD_MS: u32 = 5000;
/// `FIXED_1 / e^(5 s / 1 min)`: decay per sample of the 1-minute average.
pub const EXP_1: u64 = 1884;
/// `FIXED_1 / e^(5 s / 5 min)`: decay per sample of the 5-minute average.
pub const EXP_5: u64 = 2014;
/// `FIXED_1 / e^(5 s / 15 min)`: decay per sample of the 15-minute average.
pub const EXP_15: u64 = 2037;
/// The decay factors of the three windows, in the order of [`LoadAvg::averages`].
pub const EXP: [u64; 3] = [EXP_1, EXP_5, EXP_15];
/// The largest active value folded in (1024 CPUs), which keeps every product far from
/// overflowing a `u64`.
pub const MAX_ACTIVE: u64 = 1024 * FIXED_1;

/// One decay step: `(load * exp + active * (FIXED_1 - exp)) / FIXED_1`, rounded up when
/// `active >= load` (the kernel's `calc_load`). `exp` must be at most `FIXED_1`.
pub const fn calc_load(load: u64, exp: u64, active: u64) -> u64 {
    let exp = if exp > FIXED_1 { FIXED_1 } else { exp };
    let mut new = load
        .saturating_mul(exp)
        .saturating_add(active.saturating_mul(FIXED_1 - exp));
    if active >= load {
        new = new.saturating_add(FIXED_1 - 1);
    }
    new / FIXED_1
}

/// The fixed-point share of one CPU that `busy_ns` of CPU time over `period_ns` is
/// (`busy_ns * FIXED_1 / period_ns`, truncated, at most [`MAX_ACTIVE`]; 0 for an empty
/// period).
pub const fn active_from_ns(busy_ns: u64, period_ns: u64) -> u64 {
    if period_ns == 0 {
        return 0;
    }
    // No 128-bit division in the kernel (no __udivti3): saturate instead. A product this
    // large is already far above MAX_ACTIVE for any period under a year.
    let a = busy_ns.saturating_mul(FIXED_1) / period_ns;
    if a > MAX_ACTIVE {
        MAX_ACTIVE
    } else {
        a
    }
}

/// The three load averages of one agent kind and the CPU time it used in the current period.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadAvg {
    avg: [u64; 3],
    busy_ns: u64,
}

impl LoadAvg {
    /// No load, nothing accounted.
    pub const ZERO: LoadAvg = LoadAvg {
        avg: [0; 3],
        busy_ns: 0,
    };

    /// Adds `ns` nanoseconds of CPU time used by the agent in the current period.
    pub fn account(&mut self, ns: u64) {
        self.busy_ns = self.busy_ns.saturating_add(ns);
    }

    /// Ends a period of `period_ns` nanoseconds (nominally [`SAMPLE_PERIOD_MS`]): folds the
    /// period's busy share into the three averages and starts a new period.
    pub fn sample(&mut self, period_ns: u64) {
        self.fold(active_from_ns(self.busy_ns, period_ns));
        self.busy_ns = 0;
    }

    /// Folds one fixed-point `active` value into the three averages.
    pub fn fold(&mut self, active: u64) {
        let active = if active > MAX_ACTIVE {
            MAX_ACTIVE
        } else {
            active
        };
        for (avg, exp) in self.avg.iter_mut().zip(EXP) {
            *avg = calc_load(*avg, exp, active);
        }
    }

    /// The 1-, 5- and 15-minute averages in fixed point ([`FIXED_1`] = one CPU).
    pub const fn averages(&self) -> [u64; 3] {
        self.avg
    }

    /// CPU time accounted in the current period, in nanoseconds.
    #[cfg(not(MODULE))]
    pub const fn busy_ns(&self) -> u64 {
        self.busy_ns
    }
}

/// One [`LoadAvg`] per [`AgentKind`] id.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AgentLoads {
    per_kind: [LoadAvg; AgentKind::COUNT],
}

impl AgentLoads {
    /// All zero.
    pub const ZERO: AgentLoads = AgentLoads {
        per_kind: [LoadAvg::ZERO; AgentKind::COUNT],
    };

    /// Adds `ns` of CPU time used by `kind` in the current period.
    pub fn account(&mut self, kind: AgentKind, ns: u64) {
        if let Some(l) = self.per_kind.get_mut(usize::from(kind.id())) {
            l.account(ns);
        }
    }

    /// Ends the period for every kind (see [`LoadAvg::sample`]).
    pub fn sample(&mut self, period_ns: u64) {
        for l in &mut self.per_kind {
            l.sample(period_ns);
        }
    }

    /// The loads of `kind`.
    pub fn get(&self, kind: AgentKind) -> LoadAvg {
        self.per_kind
            .get(usize::from(kind.id()))
            .copied()
            .unwrap_or(LoadAvg::ZERO)
    }

    /// Every kind's averages, in the order of [`AgentKind::ALL`] (`KXO_IOC_LOADS`).
    pub fn averages(&self) -> KxoLoads {
        let mut out: KxoLoads = [[0; 3]; AgentKind::COUNT];
        for (dst, kind) in out.iter_mut().zip(AgentKind::ALL.iter()) {
            *dst = self.get(*kind).averages();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PERIOD_NS: u64 = SAMPLE_PERIOD_MS as u64 * 1_000_000;

    #[test]
    fn one_busy_cpu_from_idle_by_hand() {
        // 1 min: (0 * 1884 + 2048 * 164 + 2047) / 2048 = 337919 / 2048 = 164
        //        (164 * 1884 + 2048 * 164 + 2047) / 2048 = 646895 / 2048 = 315
        // 5 min: (2048 * 34 + 2047) / 2048 = 34;  15 min: (2048 * 11 + 2047) / 2048 = 11
        let mut l = LoadAvg::ZERO;
        l.account(PERIOD_NS);
        l.sample(PERIOD_NS);
        assert_eq!(l.averages(), [164, 34, 11]);
        assert_eq!(l.busy_ns(), 0);
        l.account(PERIOD_NS);
        l.sample(PERIOD_NS);
        // 5 min: (34 * 2014 + 2048 * 34 + 2047) / 2048 = 140155 / 2048 = 68
        // 15 min: (11 * 2037 + 2048 * 11 + 2047) / 2048 = 46982 / 2048 = 22
        assert_eq!(l.averages(), [315, 68, 22]);
    }

    #[test]
    fn decay_from_one_cpu_by_hand() {
        let mut l = LoadAvg::ZERO;
        l.avg = [FIXED_1; 3];
        l.sample(PERIOD_NS); // idle period: active 0, rounds down
        assert_eq!(l.averages(), [1884, 2014, 2037]);
        l.sample(PERIOD_NS);
        // 1884 * 1884 / 2048 = 3549456 / 2048 = 1733; 2014 * 2014 / 2048 = 1980;
        // 2037 * 2037 / 2048 = 2026
        assert_eq!(l.averages(), [1733, 1980, 2026]);
    }

    #[test]
    fn half_a_cpu_and_the_display() {
        assert_eq!(active_from_ns(PERIOD_NS / 2, PERIOD_NS), 1024);
        assert_eq!(active_from_ns(PERIOD_NS, 0), 0);
        assert_eq!(active_from_ns(u64::MAX, 1), MAX_ACTIVE);
        assert_eq!(hundredths(FIXED_1), 100);
        assert_eq!(hundredths(1024), 50);
        assert_eq!(hundredths(164), 8); // (16400 + 1024) / 2048 = 8.5
        assert_eq!(hundredths(315), 15); // (31500 + 1024) / 2048 = 15.9
                                         // A steady half CPU converges to 0.50 in every window.
        let mut l = LoadAvg::ZERO;
        for _ in 0..2000 {
            l.account(PERIOD_NS / 2);
            l.sample(PERIOD_NS);
        }
        for a in l.averages() {
            assert!((1023..=1025).contains(&a), "{:?}", l.averages());
            assert_eq!(hundredths(a), 50);
        }
    }

    #[test]
    fn windows_decay_to_one_over_e() {
        // After one window of samples (12, 60, 180) the weight of an old sample is
        // (EXP / FIXED_1)^samples, about 1/e = 0.3679 (753 in fixed point) within the
        // constants' rounding. Computed with 40 fraction bits to keep truncation out of it.
        for (exp, samples) in [(EXP_1, 12), (EXP_5, 60), (EXP_15, 180)] {
            let mut w: u128 = 1 << 40;
            for _ in 0..samples {
                w = w * u128::from(exp) / u128::from(FIXED_1);
            }
            let w = (w >> (40 - FSHIFT)) as u64;
            assert!((740..=780).contains(&w), "exp {exp}: {w}");
        }
        // calc_load itself truncates each step: an idle agent's load of 1.0 is down to
        // 749 after the first minute (12 steps, each rounded down).
        let mut load = FIXED_1;
        for _ in 0..12 {
            load = calc_load(load, EXP_1, 0);
        }
        assert_eq!(load, 749);
    }

    #[test]
    fn per_kind_accounting() {
        let mut loads = AgentLoads::ZERO;
        loads.account(AgentKind::Negamax, PERIOD_NS);
        loads.account(AgentKind::Random, PERIOD_NS / 4);
        loads.sample(PERIOD_NS);
        assert_eq!(loads.get(AgentKind::Negamax).averages(), [164, 34, 11]);
        // Random: active 512; (512 * 164 + 2047) / 2048 = 86015 / 2048 = 41 (1 min).
        assert_eq!(loads.get(AgentKind::Random).averages()[0], 41);
        assert_eq!(loads.get(AgentKind::Mcts).averages(), [0, 0, 0]);
    }
}
