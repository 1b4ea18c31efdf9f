//! Training data for the pattern evaluation: self-play games of the engine, every position
//! with the game's final result.
//!
//! `reversi_selfplay <games> <nodes per move> <seed> <out file> [classic|pattern]`
//!
//! Each game starts with 2-8 random plies (seeded), then both sides play the engine (default:
//! the classic evaluation) at a fixed node budget, with a random move instead on 1 ply in 16
//! before ply 30 for variety; from 14 empties on, both play perfectly (exact solve), so the
//! results of the late positions are exact. Every position where the side to move has a move
//! is written as 17 bytes: the mover's discs and the opponent's (u64 little-endian each) and
//! the final disc difference for the mover, empties to the winner (i8). Deterministic for a
//! seed and solver version (docs/engines/reversi.md has the regeneration commands).

use kgames_reversi::bitboard::Squares;
use kgames_reversi::common::rng::Rng;
use kgames_reversi::eval::EvalKind;
use kgames_reversi::{Position, TtEntry};
use std::io::Write;

/// Empties from which the game is played perfectly.
const PERFECT_EMPTIES: u32 = 14;

fn random_move(p: &Position, rng: &mut Rng) -> Option<u8> {
    let mv = p.legal_moves();
    Squares(mv).nth(rng.below(mv.count_ones()) as usize)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, d: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let (games, nodes, seed) = (num(0, 1000), num(1, 3000), num(2, 1));
    let out = args.get(3).map_or("out/selfplay.bin", String::as_str);
    let eval = match args.get(4).map(String::as_str) {
        Some("pattern") => EvalKind::Pattern,
        _ => EvalKind::Classic,
    };
    let mut file = std::io::BufWriter::new(std::fs::File::create(out).expect("output file"));
    let mut rng = Rng::new(seed);
    let mut tt = vec![TtEntry::EMPTY; 1 << 18];
    let mut positions = 0u64;
    let t0 = std::time::Instant::now();
    for g in 0..games {
        let mut p = Position::start();
        let mut seen: Vec<(u64, u64, bool)> = Vec::new();
        let opening = 2 + rng.below(7);
        let mut ply = 0;
        while !p.is_over() {
            if p.legal_moves() == 0 {
                p = p.pass().expect("no move");
                continue;
            }
            seen.push((
                p.mover(),
                p.opponent(),
                p.side_to_move() == kgames_reversi::Color::X,
            ));
            let random = ply < opening || (ply < 30 && rng.below(16) == 0);
            let mv = if random {
                random_move(&p, &mut rng)
            } else {
                reversi_lab::engine_move(&p, nodes, PERFECT_EMPTIES, eval, &mut tt).map(|m| m.0)
            };
            p = p.play(mv.expect("a move")).expect("legal");
            ply += 1;
        }
        // The final difference for X; each position's mover gets its own sign.
        let x_final = Position::from_bitboards(p.x(), p.o(), kgames_reversi::Color::X)
            .expect("disjoint")
            .final_score();
        for (me, opp, mover_is_x) in seen {
            let score = if mover_is_x { x_final } else { -x_final } as i8;
            file.write_all(&me.to_le_bytes()).expect("write");
            file.write_all(&opp.to_le_bytes()).expect("write");
            file.write_all(&[score as u8]).expect("write");
            positions += 1;
        }
        if (g + 1) % 500 == 0 {
            eprintln!(
                "{} games, {positions} positions, {} s",
                g + 1,
                t0.elapsed().as_secs()
            );
        }
    }
    eprintln!(
        "{games} games, {positions} positions, {} s",
        t0.elapsed().as_secs()
    );
}
