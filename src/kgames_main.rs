// SPDX-License-Identifier: GPL-2.0

//! kgames: classic board games served by the kernel.
//!
//! Registers `/dev/reversi`, `/dev/chess` and `/dev/kxo`. The engines, the protocol/session
//! layer and the module parameters' policy (`src/params/`) are `core`-only code shared with
//! host crates (`src/<name>/`); the device glue lives in `src/kmod/`, the test code the module
//! carries (KUnit suites, deliberate reports) in `src/ktest/`.

use kernel::prelude::*;

// The shared folders are written as crates: their `pub` items are the API of the host crates
// (`src/<name>/lib.rs`), and this crate exports the same engine tree (`pub mod`), so `pub`
// means the same in both builds and everything else is `pub(crate)` or private. Code only the
// tools and tests use is not compiled here: each folder leaves it out with `not(MODULE)`
// (docs/architecture.md, "One set of files, two builds").
#[path = "chess/mod.rs"]
pub mod chess;
#[path = "common/mod.rs"]
pub mod common;
#[path = "kmod/mod.rs"]
mod kmod;
#[path = "ktest/mod.rs"]
mod ktest;
#[path = "kxo/mod.rs"]
pub mod kxo;
#[path = "params/mod.rs"]
pub mod params;
#[path = "reversi/mod.rs"]
pub mod reversi;
#[path = "session/mod.rs"]
pub mod session;
#[path = "uapi/mod.rs"]
pub mod uapi;

module! {
    type: kmod::KGames,
    name: "kgames",
    authors: ["the kgames developers"],
    description: "Reversi, chess and tic-tac-toe against the CPU, as character devices",
    license: "GPL",
    params: {
        max_games: u32 {
            default: 256,
            description: "Live games per device (1-4096)",
        },
        max_user_games: u32 {
            default: 8,
            description: "Live games per user and device, shared and private (1-4096)",
        },
        tt_entries: u32 {
            default: 65536,
            description: "Transposition-table entries of one CPU search (1024-4194304)",
        },
        search_contexts: u32 {
            default: 4,
            description: "Preallocated CPU search contexts per device: concurrent searches (1-64)",
        },
        max_move_ms: u32 {
            default: 30000,
            description: "Longest CPU move of /dev/reversi and /dev/chess in ms, whatever the budget (100-600000; else EINVAL)",
        },
        chess_eval: u32 {
            default: 1,
            description: "Evaluation of /dev/chess's CPU: 1 the built-in network, 0 the classic one (0-1)",
        },
        chess_simd: u32 {
            default: 1,
            description: "Loops of /dev/chess's network: 1 AVX2 where the CPU has it (chosen at load), 0 the plain loops (0-1)",
        },
        kxo_games: u32 {
            default: 9,
            description: "Concurrent AI-vs-AI games of /dev/kxo (1-32; else the load fails with EINVAL)",
        },
        kxo_ring: u32 {
            default: 1024,
            description: "Records the /dev/kxo ring holds for all watchers (64-65536; 48 bytes each)",
        },
        kxo_period_ms: u32 {
            default: 100,
            description: "Period of the kxo timer in ms: one move per game per tick",
        },
        kxo_always: u32 {
            default: 0,
            description: "1: run the kxo games even with no watcher open (0-1)",
        },
        kxo_seed: u32 {
            default: 1,
            description: "Seed of the kxo pairings and random agents",
        },
        kxo_n: u32 {
            default: 4,
            description: "Board size N of the kxo human games (3-6)",
        },
        kxo_playouts: u32 {
            default: 30,
            description: "Random playouts per tile of the kxo Monte Carlo player (1-100)",
        },
        kxo_workers: u32 {
            default: 4,
            description: "Parallel work items P of the kxo Monte Carlo player (1-10)",
        },
        kxo_mcts_iters: u32 {
            default: 1000,
            description: "MCTS iterations per move of the kxo AI-vs-AI games (1-100000; else EINVAL)",
        },
        kxo_td_kb: u32 {
            default: 1024,
            description: "Memory of the kxo TD agent's value table in KiB (16-65536; else EINVAL)",
        },
        kxo_td_games: u32 {
            default: 20000,
            description: "Self-play games pre-training the kxo TD agent after load (0-10000000; else EINVAL)",
        },
        test_fail_init: u32 {
            default: 0,
            description: "Test only: 1 fails the load after every allocation (proves the error path frees them) (0-1)",
        },
        test_alloc_delay_ms: u32 {
            default: 0,
            description: "Test only: ms a new game waits before its memory is allocated, as in a full memory cgroup (0-10000)",
        },
        test_idle_evict_ms: u32 {
            default: 0,
            description: "Test only: ms of idleness after which a game may be evicted (0: ten minutes; 0-600000)",
        },
        test_open_delay_ms: u32 {
            default: 0,
            description: "Test only: ms between registering /dev/kxo and giving it the module's file operations, the window a racing open falls in (0-10000)",
        },
        test_report: u32 {
            default: 0,
            description: "Test only: one deliberate report at load (proves the runner's detector): 1 WARNING, 2 kmemleak leak, 3 debug-objects free of an armed hrtimer, 4 Rust debug assertion",
        },
    },
}
