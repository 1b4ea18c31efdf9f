//! The module parameters' one policy, as plain code the host tests: each value is checked
//! against its documented range before anything is allocated, and a value out of range fails
//! the load (the module logs the [`ParamError`] and returns `EINVAL`), never a silent clamp.
//! [`Plan`] is what the values decide, passed by value to whatever needs it
//! (docs/module-parameters.md). The module reads its parameters into [`Parameters`] and calls
//! [`Plan::check`]; nothing reads a parameter after the load.

use core::fmt;

use crate::kxo::{arena::Settings, mcts, td};
use crate::session::chess_game::{ChessConfig, Evaluation};
use crate::session::nxn_game::NxnConfig;
use crate::session::table::IDLE_EVICT_MS;
use crate::uapi::{
    pairing::{parse_round_robin, RANDOM},
    state::MAX_GAMES,
};

/// The raw values given at load (the `module!` parameters of src/kgames_main.rs and the
/// string `kxo_pairings`), unchecked.
#[derive(Clone, Copy, Debug)]
pub struct Parameters<'a> {
    /// Live games per device.
    pub max_games: u32,
    /// Live games per user and device.
    pub max_user_games: u32,
    /// Transposition-table entries of one CPU search.
    pub tt_entries: u32,
    /// Search contexts per device.
    pub search_contexts: u32,
    /// Longest CPU move in ms.
    pub max_move_ms: u32,
    /// `/dev/chess`'s evaluation: 1 the network, 0 classic.
    pub chess_eval: u32,
    /// The chess network's loops: 1 AVX2 where the CPU has it, 0 the plain loops.
    pub chess_simd: u32,
    /// AI-vs-AI games.
    pub kxo_games: u32,
    /// Records the watchers' ring holds.
    pub kxo_ring: u32,
    /// The kxo timer's period in ms.
    pub kxo_period_ms: u32,
    /// 1: the games run with no watcher.
    pub kxo_always: u32,
    /// The seed of the kxo games.
    pub kxo_seed: u32,
    /// Board size of the N x N games.
    pub kxo_n: u32,
    /// Playouts per tile of the N x N games' Monte Carlo player.
    pub kxo_playouts: u32,
    /// Work items of that player.
    pub kxo_workers: u32,
    /// MCTS iterations per AI move.
    pub kxo_mcts_iters: u32,
    /// The TD agent's table in KiB.
    pub kxo_td_kb: u32,
    /// The TD agent's pre-training games.
    pub kxo_td_games: u32,
    /// `kxo_pairings=` as given (bytes, without the NUL), `None` when not given.
    pub kxo_pairings: Option<&'a [u8]>,
    /// Test only: 1 fails the load at its end.
    pub test_fail_init: u32,
    /// Test only: the open-race window in ms.
    pub test_open_delay_ms: u32,
    /// Test only: the pause before a new game's allocation in ms.
    pub test_alloc_delay_ms: u32,
    /// Test only: the idle time after which a game may be evicted in ms (0: ten minutes).
    pub test_idle_evict_ms: u32,
}

/// A parameter the load refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// `name=value` is outside `lo..=hi`.
    Range {
        /// The parameter.
        name: &'static str,
        /// Its value.
        value: u32,
        /// The least value allowed.
        lo: u32,
        /// The greatest value allowed.
        hi: u32,
    },
    /// `kxo_pairings` is not a list of at most `games` `O:X` pairs of agents.
    Pairings {
        /// `kxo_games`.
        games: u32,
    },
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParamError::Range {
                name,
                value,
                lo,
                hi,
            } => {
                write!(f, "{name}={value} is out of range ({lo}-{hi})")
            }
            ParamError::Pairings { games } => write!(
                f,
                "kxo_pairings: not a list of at most kxo_games={games} O:X pairs of agents"
            ),
        }
    }
}

/// The reversi, chess and N x N tables and their search contexts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableConfig {
    /// Live games per device (the table's slots).
    pub max_games: usize,
    /// Live games per user and device.
    pub max_user_games: usize,
    /// Transposition-table entries of one search context.
    pub tt_entries: usize,
    /// Search contexts per device.
    pub search_contexts: usize,
    /// The longest CPU move in milliseconds, whatever its budget (`max_move_ms`).
    pub max_move_ms: u32,
    /// A game idle longer than this (milliseconds) may be evicted: ten minutes, or
    /// `test_idle_evict_ms` (test only).
    pub idle_evict_ms: u64,
    /// Test only (`test_alloc_delay_ms`): a new game sleeps this long (milliseconds) before
    /// its memory is allocated, as an allocation that reclaims in a full memory cgroup does.
    pub alloc_delay_ms: u32,
}

/// `/dev/kxo`'s AI-vs-AI machine.
#[derive(Clone, Copy, Debug)]
pub struct KxoConfig {
    /// The AI-vs-AI games (`kxo_games`).
    pub games: usize,
    /// The timer's period (`kxo_period_ms`).
    pub period_ms: u32,
    /// The games run with no watcher too (`kxo_always`).
    pub always: bool,
    /// The seed of the games (`kxo_seed`).
    pub seed: u64,
    /// The agents' settings (`kxo_mcts_iters`, `kxo_playouts`).
    pub settings: Settings,
    /// The TD table's entries (`kxo_td_kb`).
    pub td_entries: usize,
    /// The TD agent's pre-training games (`kxo_td_games`).
    pub td_games: u32,
    /// Records the watchers' ring holds (`kxo_ring`).
    pub ring: usize,
    /// Each slot's pairing policy at load (`kxo_pairings`).
    pub pairings: [[u8; 2]; MAX_GAMES],
}

/// Everything the parameters decide.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// The reversi and chess (and N x N) tables and search contexts.
    pub tables: TableConfig,
    /// `/dev/chess`'s evaluation.
    pub chess: ChessConfig,
    /// The N x N human games of `/dev/kxo`.
    pub nxn: NxnConfig,
    /// The AI-vs-AI machine of `/dev/kxo`.
    pub kxo: KxoConfig,
    /// Test only (`test_fail_init=1`): fail the load once everything is allocated.
    pub fail_init: bool,
    /// Test only (`test_open_delay_ms`): the pause between registering `/dev/kxo` and
    /// switching it to the module's table.
    pub open_delay_ms: u32,
}

/// `value` if it is in `lo..=hi`.
fn checked(name: &'static str, value: u32, lo: u32, hi: u32) -> Result<u32, ParamError> {
    if (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        Err(ParamError::Range {
            name,
            value,
            lo,
            hi,
        })
    }
}

/// [`checked`], as a `u8` (`hi` is at most 255).
fn checked_u8(name: &'static str, value: u32, lo: u8, hi: u8) -> Result<u8, ParamError> {
    let v = checked(name, value, u32::from(lo), u32::from(hi))?;
    u8::try_from(v).map_err(|_| ParamError::Range {
        name,
        value,
        lo: u32::from(lo),
        hi: u32::from(hi),
    })
}

/// `0..=1` as a flag.
fn flag(name: &'static str, value: u32) -> Result<bool, ParamError> {
    Ok(checked(name, value, 0, 1)? == 1)
}

impl Plan {
    /// Checks every value (the first one out of range is the error) and decides the plan.
    pub fn check(p: &Parameters<'_>) -> Result<Plan, ParamError> {
        let tables = TableConfig {
            max_games: checked("max_games", p.max_games, 1, 4096)? as usize,
            max_user_games: checked("max_user_games", p.max_user_games, 1, 4096)? as usize,
            tt_entries: checked("tt_entries", p.tt_entries, 1024, 1 << 22)? as usize,
            search_contexts: checked("search_contexts", p.search_contexts, 1, 64)? as usize,
            max_move_ms: checked("max_move_ms", p.max_move_ms, 100, 600_000)?,
            idle_evict_ms: match checked("test_idle_evict_ms", p.test_idle_evict_ms, 0, 600_000)? {
                0 => IDLE_EVICT_MS,
                ms => u64::from(ms),
            },
            alloc_delay_ms: checked("test_alloc_delay_ms", p.test_alloc_delay_ms, 0, 10_000)?,
        };
        let chess = ChessConfig {
            evaluation: if flag("chess_eval", p.chess_eval)? {
                Evaluation::Network
            } else {
                Evaluation::Classic
            },
            simd: flag("chess_simd", p.chess_simd)?,
            // Only the module knows the CPU: src/kmod/params.rs sets it.
            avx2: None,
        };
        let playouts = checked_u8("kxo_playouts", p.kxo_playouts, 1, 100)?;
        let nxn = NxnConfig {
            size: checked_u8("kxo_n", p.kxo_n, 3, 6)?,
            playouts,
            workers: checked_u8("kxo_workers", p.kxo_workers, 1, 10)?,
            seed: u64::from(p.kxo_seed),
        };
        let games = checked("kxo_games", p.kxo_games, 1, MAX_GAMES as u32)?;
        let iterations = checked("kxo_mcts_iters", p.kxo_mcts_iters, 1, mcts::MAX_ITERATIONS)?;
        let td_kb = checked("kxo_td_kb", p.kxo_td_kb, 16, 65536)?;
        let td_games = checked("kxo_td_games", p.kxo_td_games, 0, 10_000_000)?;
        let mut pairings = [[RANDOM; 2]; MAX_GAMES];
        if let Some(spec) = p.kxo_pairings {
            let refused = ParamError::Pairings { games };
            let slots = pairings.get_mut(..games as usize).ok_or(refused)?;
            core::str::from_utf8(spec)
                .ok()
                .and_then(|spec| parse_round_robin(spec, slots))
                .ok_or(refused)?;
        }
        let kxo = KxoConfig {
            games: games as usize,
            period_ms: checked("kxo_period_ms", p.kxo_period_ms, 1, 10_000)?,
            always: flag("kxo_always", p.kxo_always)?,
            seed: u64::from(p.kxo_seed),
            settings: Settings {
                mcts_iterations: iterations,
                mc_playouts: u32::from(playouts),
            },
            td_entries: td::entries_for_kb(td_kb),
            td_games,
            ring: checked("kxo_ring", p.kxo_ring, 64, 65536)? as usize,
            pairings,
        };
        Ok(Plan {
            tables,
            chess,
            nxn,
            kxo,
            fail_init: flag("test_fail_init", p.test_fail_init)?,
            open_delay_ms: checked("test_open_delay_ms", p.test_open_delay_ms, 0, 10_000)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The defaults of src/kgames_main.rs's `module!`.
    const DEFAULTS: Parameters<'static> = Parameters {
        max_games: 256,
        max_user_games: 8,
        tt_entries: 65536,
        search_contexts: 4,
        max_move_ms: 30000,
        chess_eval: 1,
        chess_simd: 1,
        kxo_games: 9,
        kxo_ring: 1024,
        kxo_period_ms: 100,
        kxo_always: 0,
        kxo_seed: 1,
        kxo_n: 4,
        kxo_playouts: 30,
        kxo_workers: 4,
        kxo_mcts_iters: 1000,
        kxo_td_kb: 1024,
        kxo_td_games: 20000,
        kxo_pairings: None,
        test_fail_init: 0,
        test_open_delay_ms: 0,
        test_alloc_delay_ms: 0,
        test_idle_evict_ms: 0,
    };

    #[test]
    fn the_defaults_make_the_documented_plan() {
        let plan = Plan::check(&DEFAULTS).unwrap();
        assert_eq!(
            plan.tables,
            TableConfig {
                max_games: 256,
                max_user_games: 8,
                tt_entries: 65536,
                search_contexts: 4,
                max_move_ms: 30000,
                idle_evict_ms: IDLE_EVICT_MS,
                alloc_delay_ms: 0,
            }
        );
        assert_eq!(plan.chess.evaluation, Evaluation::Network);
        assert_eq!(
            (plan.nxn.size, plan.nxn.playouts, plan.nxn.workers),
            (4, 30, 4)
        );
        assert_eq!(
            (plan.kxo.games, plan.kxo.ring, plan.kxo.period_ms),
            (9, 1024, 100)
        );
        assert_eq!(plan.kxo.settings.mc_playouts, 30);
        assert_eq!(plan.kxo.td_entries, td::entries_for_kb(1024));
        assert!(!plan.kxo.always && !plan.fail_init);
        assert!(plan.kxo.pairings.iter().all(|p| *p == [RANDOM; 2]));
    }

    #[test]
    fn a_value_out_of_range_is_refused_with_its_name_and_range() {
        let cases: [(Parameters<'static>, &str); 6] = [
            (
                Parameters {
                    max_games: 0,
                    ..DEFAULTS
                },
                "max_games=0 is out of range (1-4096)",
            ),
            (
                Parameters {
                    tt_entries: 1023,
                    ..DEFAULTS
                },
                "tt_entries=1023 is out of range (1024-4194304)",
            ),
            (
                Parameters {
                    max_move_ms: 99,
                    ..DEFAULTS
                },
                "max_move_ms=99 is out of range (100-600000)",
            ),
            (
                Parameters {
                    chess_eval: 2,
                    ..DEFAULTS
                },
                "chess_eval=2 is out of range (0-1)",
            ),
            (
                Parameters {
                    kxo_n: 7,
                    ..DEFAULTS
                },
                "kxo_n=7 is out of range (3-6)",
            ),
            (
                Parameters {
                    kxo_games: 33,
                    ..DEFAULTS
                },
                "kxo_games=33 is out of range (1-32)",
            ),
        ];
        for (values, message) in cases {
            let e = Plan::check(&values).unwrap_err();
            assert_eq!(std::format!("{e}"), message);
        }
    }

    #[test]
    fn kxo_pairings_are_dealt_round_robin_or_refused() {
        let given = Parameters {
            kxo_games: 3,
            kxo_pairings: Some(b"mcts:nega,td:random"),
            ..DEFAULTS
        };
        let plan = Plan::check(&given).unwrap();
        assert_eq!(plan.kxo.pairings[0], plan.kxo.pairings[2]);
        assert_ne!(plan.kxo.pairings[0], plan.kxo.pairings[1]);
        assert_eq!(plan.kxo.pairings[3], [RANDOM; 2], "past the games: random");
        for bad in [
            &b"mcts:nobody"[..],
            b"\xff",
            b"mcts:nega,td:random,nega:mcts,random:td",
        ] {
            let refused = Parameters {
                kxo_games: 3,
                kxo_pairings: Some(bad),
                ..DEFAULTS
            };
            assert_eq!(
                Plan::check(&refused).unwrap_err(),
                ParamError::Pairings { games: 3 }
            );
        }
    }
}
