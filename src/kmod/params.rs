// SPDX-License-Identifier: GPL-2.0

//! The module parameters' one policy: each is checked against its documented range before
//! anything is allocated, and a value out of range fails the load with `EINVAL` (logged with
//! the parameter's name and range), never a silent clamp. [`Plan`] is what they decide,
//! passed by value to whatever needs it (docs/module-parameters.md).

use kernel::prelude::*;

use super::{compat::param, game_table, kxo_runtime, string_param};
use crate::kxo::{arena::Settings, mcts, td};
use crate::module_parameters as params;
use crate::session::chess_game::{ChessConfig, Evaluation};
use crate::session::nxn_game::NxnConfig;
use crate::uapi::{
    pairing::{parse_round_robin, RANDOM},
    state::MAX_GAMES,
};

/// A module parameter that must be in `lo..=hi`, else the load fails with `EINVAL`.
fn checked(name: &str, value: u32, lo: u32, hi: u32) -> Result<u32> {
    if (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        pr_err!("{}={} is out of range ({}-{})\n", name, value, lo, hi);
        Err(EINVAL)
    }
}

/// [`checked`], as a `u8` (every `hi` passed is at most 255).
fn checked_u8(name: &str, value: u32, lo: u8, hi: u8) -> Result<u8> {
    let v = checked(name, value, u32::from(lo), u32::from(hi))?;
    u8::try_from(v).map_err(|_| EINVAL)
}

/// Everything the parameters decide.
pub(crate) struct Plan {
    /// The reversi and chess (and N x N) tables and search contexts.
    pub(crate) limits: game_table::Config,
    /// `/dev/chess`'s evaluation.
    pub(crate) chess: ChessConfig,
    /// The N x N human games of `/dev/kxo`.
    pub(crate) nxn: NxnConfig,
    /// The AI-vs-AI machine of `/dev/kxo`.
    pub(crate) kxo: kxo_runtime::KxoConfig,
    /// Test only (`test_fail_init=1`): fail the load once everything is allocated.
    pub(crate) fail_init: bool,
    /// Test only (`test_open_delay_ms`): the pause between registering `/dev/kxo` and
    /// switching it to the module's table.
    pub(crate) open_delay_ms: u32,
}

impl Plan {
    /// Reads and checks every parameter.
    pub(crate) fn from_parameters() -> Result<Plan> {
        let limits = game_table::Config {
            max_games: checked("max_games", param(&params::max_games), 1, 4096)? as usize,
            max_user_games: checked("max_user_games", param(&params::max_user_games), 1, 4096)?
                as usize,
            tt_entries: checked("tt_entries", param(&params::tt_entries), 1024, 1 << 22)? as usize,
            search_contexts: checked("search_contexts", param(&params::search_contexts), 1, 64)?
                as usize,
            max_move_ms: checked("max_move_ms", param(&params::max_move_ms), 100, 600_000)?,
        };
        let chess = ChessConfig {
            evaluation: match checked("chess_eval", param(&params::chess_eval), 0, 1)? {
                0 => Evaluation::Classic,
                _ => Evaluation::Network,
            },
        };
        let playouts = checked_u8("kxo_playouts", param(&params::kxo_playouts), 1, 100)?;
        let nxn = NxnConfig {
            size: checked_u8("kxo_n", param(&params::kxo_n), 3, 6)?,
            playouts,
            workers: checked_u8("kxo_workers", param(&params::kxo_workers), 1, 10)?,
            seed: u64::from(param(&params::kxo_seed)),
        };
        let games = checked("kxo_games", param(&params::kxo_games), 1, MAX_GAMES as u32)?;
        let iterations = checked(
            "kxo_mcts_iters",
            param(&params::kxo_mcts_iters),
            1,
            mcts::MAX_ITERATIONS,
        )?;
        let td_kb = checked("kxo_td_kb", param(&params::kxo_td_kb), 16, 65536)?;
        let td_games = checked("kxo_td_games", param(&params::kxo_td_games), 0, 10_000_000)?;
        let mut pairings = [[RANDOM; 2]; MAX_GAMES];
        if let Some(spec) = string_param::kxo_pairings() {
            let slots = pairings.get_mut(..games as usize).ok_or(EINVAL)?;
            let parsed = core::str::from_utf8(spec)
                .ok()
                .and_then(|spec| parse_round_robin(spec, slots));
            if parsed.is_none() {
                pr_err!(
                    "kxo_pairings: not a list of at most kxo_games={} O:X pairs of agents\n",
                    games
                );
                return Err(EINVAL);
            }
        }
        let kxo = kxo_runtime::KxoConfig {
            games: games as usize,
            period_ms: checked("kxo_period_ms", param(&params::kxo_period_ms), 1, 10_000)?,
            always: checked("kxo_always", param(&params::kxo_always), 0, 1)? == 1,
            seed: u64::from(param(&params::kxo_seed)),
            settings: Settings {
                mcts_iterations: iterations,
                mc_playouts: u32::from(playouts),
            },
            td_entries: td::entries_for_kb(td_kb),
            td_games,
            ring: checked("kxo_ring", param(&params::kxo_ring), 64, 65536)? as usize,
            pairings,
        };
        let fail_init = checked("test_fail_init", param(&params::test_fail_init), 0, 1)? == 1;
        let open_delay_ms = checked(
            "test_open_delay_ms",
            param(&params::test_open_delay_ms),
            0,
            10_000,
        )?;
        Ok(Plan {
            limits,
            chess,
            nxn,
            kxo,
            fail_init,
            open_delay_ms,
        })
    }
}
