// SPDX-License-Identifier: GPL-2.0

//! Reads the module parameters once, at load, and checks them with their one policy
//! ([`Plan::check`] of `src/params`: a value out of range fails the load with `EINVAL`,
//! logged with the parameter's name and range; docs/module-parameters.md).

use kernel::prelude::*;

use super::{compat::param, fpu, string_param};
use crate::module_parameters as p;
use crate::params::{Parameters, Plan};

/// Reads and checks every parameter.
pub(crate) fn plan() -> Result<Plan> {
    let values = Parameters {
        max_games: param(&p::max_games),
        max_user_games: param(&p::max_user_games),
        tt_entries: param(&p::tt_entries),
        search_contexts: param(&p::search_contexts),
        max_move_ms: param(&p::max_move_ms),
        chess_eval: param(&p::chess_eval),
        chess_simd: param(&p::chess_simd),
        kxo_games: param(&p::kxo_games),
        kxo_ring: param(&p::kxo_ring),
        kxo_period_ms: param(&p::kxo_period_ms),
        kxo_always: param(&p::kxo_always),
        kxo_seed: param(&p::kxo_seed),
        kxo_n: param(&p::kxo_n),
        kxo_playouts: param(&p::kxo_playouts),
        kxo_workers: param(&p::kxo_workers),
        kxo_mcts_iters: param(&p::kxo_mcts_iters),
        kxo_td_kb: param(&p::kxo_td_kb),
        kxo_td_games: param(&p::kxo_td_games),
        kxo_pairings: string_param::kxo_pairings(),
        test_fail_init: param(&p::test_fail_init),
        test_open_delay_ms: param(&p::test_open_delay_ms),
        test_alloc_delay_ms: param(&p::test_alloc_delay_ms),
        test_idle_evict_ms: param(&p::test_idle_evict_ms),
    };
    let mut plan = Plan::check(&values).map_err(|e| {
        // The kernel's `pr_err!` takes `kernel::fmt::Display` arguments: `core::fmt::Arguments`
        // is one, `ParamError` (a `core::fmt::Display`) is not.
        pr_err!("{}\n", format_args!("{e}"));
        EINVAL
    })?;
    if plan.chess.simd {
        plan.chess.avx2 = fpu::avx2();
    }
    let loops = if plan.chess.avx2.is_some() {
        "AVX2"
    } else {
        "plain"
    };
    pr_info!("chess network: {loops} loops\n");
    Ok(plan)
}
