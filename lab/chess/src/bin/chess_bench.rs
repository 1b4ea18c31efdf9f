//! Search benchmark: a fixed node budget on a few positions; prints the move, depth, score,
//! nodes and speed. `cargo run --release -p chess-lab --bin chess_bench -- [nodes
//! [depth]]`: with a depth, each search stops there (time to depth: pruning changes what a
//! node costs, so nodes per second alone do not compare two versions). `--nnue` anywhere
//! evaluates with the built-in network instead of the classic evaluation, `--avx2` with the
//! network's loops in AVX2 `asm!` (as /dev/chess on such a CPU; an error without AVX2).
//! The search is the product's: correction and continuation history on, the table and the
//! histories cleared for each position.

use chess_lab::bench::FENS;
use kgames_chess::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
use kgames_chess::common::text::BufWriter;
use kgames_chess::continuation::CONTINUATION_ENTRIES;
use kgames_chess::correction::CORRECTION_ENTRIES;
use kgames_chess::game::Game;
use kgames_chess::nnue::{Accumulator, Avx2, FpuSection, Network};
use kgames_chess::notation::write_last_move;
use kgames_chess::position::Position;
use kgames_chess::search::{best_move, History, Ply, SearchContext, SearchResult, TtEntry};
use std::time::Instant;

fn main() {
    let avx2 = std::env::args().any(|a| a == "--avx2");
    let nnue = avx2 || std::env::args().any(|a| a == "--nnue");
    let args: Vec<String> = std::env::args()
        .filter(|a| a != "--nnue" && a != "--avx2")
        .collect();
    let net = if nnue {
        let net = Network::embedded().expect("the built-in network is valid");
        if avx2 {
            if !std::is_x86_feature_detected!("avx2") {
                eprintln!("chess_bench: --avx2: this CPU has no AVX2");
                std::process::exit(1);
            }
            // SAFETY: the CPU has AVX2, and user space may always use the vector registers.
            Some(net.with_avx2(unsafe { Avx2::new(FpuSection::NONE) }))
        } else {
            Some(net)
        }
    } else {
        None
    };
    let mut accs = vec![Accumulator::EMPTY; 64];
    let nodes: u64 = args
        .get(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2_000_000);
    let mut tt = vec![TtEntry::EMPTY; 1 << 20];
    let mut plies = vec![Ply::EMPTY; 64];
    let mut history = Box::new(History::EMPTY);
    let mut correction = vec![0i16; CORRECTION_ENTRIES];
    let mut continuation = vec![0i16; CONTINUATION_ENTRIES];
    let (mut total_nodes, mut total_us) = (0u64, 0u128);
    for fen in FENS {
        let game = Game::from_position(Position::from_fen(fen.as_bytes()).expect("valid FEN"));
        let mut ctx = SearchContext::new(&mut tt, &mut plies, &mut history);
        ctx.set_correction(&mut correction);
        ctx.set_continuation(&mut continuation);
        if let Some(net) = net {
            ctx.set_nnue(net, &mut accs);
        }
        if let Some(d) = args.get(2).and_then(|a| a.parse().ok()) {
            ctx.set_max_depth(d);
        }
        let (mut clock, mut never) = (NodeClock { ns_per_node: 0 }, NeverInterrupt);
        let mut meter = Meter::new(Budget::Nodes(nodes), &mut clock, &mut never);
        let start = Instant::now();
        let result = best_move(&game, &mut ctx, &mut meter);
        let us = start.elapsed().as_micros().max(1);
        let info = ctx.info();
        let mut buf = [0u8; 32];
        let mut w = BufWriter::new(&mut buf);
        if let SearchResult::Move(m) = result {
            write_last_move(m, game.position().turn(), &mut w).ok();
        }
        println!(
            "{:<24} depth {:>2} score {:>6} nodes {:>8} {:>6} ms {:>6} knps",
            String::from_utf8_lossy(w.as_bytes()),
            info.depth,
            info.score,
            info.nodes,
            us / 1000,
            u128::from(info.nodes) * 1000 / us
        );
        total_nodes += info.nodes;
        total_us += us;
    }
    println!(
        "total {total_nodes} nodes in {} ms: {} knps",
        total_us / 1000,
        u128::from(total_nodes) * 1000 / total_us.max(1)
    );
}
