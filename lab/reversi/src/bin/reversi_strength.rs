//! Strength: our CPU player against two opponents written for this test, from varied openings,
//! alternating colours, and the score per opponent.
//!
//! `cargo run --release -p reversi-lab --bin reversi_strength -- [games, default 200]
//! [ms per move, default 100 | N<nodes>]`
//!
//! Opponents: `greedy` (the move that flips the most discs; ties to the lowest square) and
//! `alphabeta` (fixed depth 4, evaluation = disc difference + 25 per corner + 2 per mobility).
//! Each opening (2-4 random plies from a seeded generator) is played twice, colours swapped.
//! Score = wins + draws / 2, in percent.

use kgames_reversi::bitboard::{self, Squares};
use kgames_reversi::common::budget::{Budget, Clock, Meter, NeverInterrupt};
use kgames_reversi::common::rng::Rng;
use kgames_reversi::search::Outcome;
use kgames_reversi::{best_move, Color, Position, SearchContext, TtEntry};
use std::time::Instant;

struct WallClock(Instant);

impl Clock for WallClock {
    fn now_ns(&mut self, _nodes: u64) -> u64 {
        u64::try_from(self.0.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

/// A move of an opponent: `None` to pass.
type Player = fn(&Position) -> Option<u8>;

fn greedy(p: &Position) -> Option<u8> {
    let (me, opp) = (p.mover(), p.opponent());
    Squares(p.legal_moves()).max_by_key(|&sq| {
        (
            bitboard::flips(me, opp, sq).count_ones(),
            std::cmp::Reverse(sq),
        )
    })
}

const CORNERS: u64 = 0x8100_0000_0000_0081;

fn simple_eval(p: &Position) -> i32 {
    let (me, opp) = (p.mover(), p.opponent());
    let discs = me.count_ones() as i32 - opp.count_ones() as i32;
    let corners = (me & CORNERS).count_ones() as i32 - (opp & CORNERS).count_ones() as i32;
    let mob =
        bitboard::moves(me, opp).count_ones() as i32 - bitboard::moves(opp, me).count_ones() as i32;
    discs + 25 * corners + 2 * mob
}

fn alphabeta(p: &Position, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if p.is_over() {
        return 1000 * p.final_score().signum() + p.final_score();
    }
    if depth == 0 {
        return simple_eval(p);
    }
    let moves = p.legal_moves();
    if moves == 0 {
        return p.pass().map_or(0, |q| -alphabeta(&q, depth, -beta, -alpha));
    }
    let mut best = i32::MIN + 1;
    for sq in Squares(moves) {
        let Some(q) = p.play(sq) else { continue };
        let v = -alphabeta(&q, depth - 1, -beta, -alpha);
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn alphabeta4(p: &Position) -> Option<u8> {
    let mut best = None;
    let mut best_v = i32::MIN;
    for sq in Squares(p.legal_moves()) {
        let Some(q) = p.play(sq) else { continue };
        let v = -alphabeta(&q, 3, -100_000, 100_000);
        if v > best_v {
            best_v = v;
            best = Some(sq);
        }
    }
    best
}

/// Plays one game; returns our disc margin at the end (positive = we won).
fn game(opening: &Position, ours: Color, opp: Player, budget: Budget, tt: &mut [TtEntry]) -> i32 {
    let mut p = *opening;
    while !p.is_over() {
        let mv = if p.side_to_move() == ours {
            let mut ctx = SearchContext::new(tt);
            ctx.clear();
            let (mut clock, mut never) = (WallClock(Instant::now()), NeverInterrupt);
            let mut meter = Meter::new(budget, &mut clock, &mut never);
            match best_move(&p, &mut ctx, &mut meter).outcome {
                Outcome::Move(sq) => Some(sq),
                Outcome::Pass | Outcome::Interrupted => None,
            }
        } else {
            opp(&p)
        };
        p = match mv {
            Some(sq) => p.play(sq).expect("legal move"),
            None => p.pass().expect("pass only without a move"),
        };
    }
    let (x, o) = (p.count_x() as i32, p.count_o() as i32);
    if ours == Color::X {
        x - o
    } else {
        o - x
    }
}

fn opening(rng: &mut Rng) -> Position {
    loop {
        let mut p = Position::start();
        let plies = 2 + rng.below(3);
        for _ in 0..plies {
            let moves: Vec<u8> = Squares(p.legal_moves()).collect();
            if moves.is_empty() {
                break;
            }
            let i = rng.below(moves.len() as u32) as usize;
            p = p.play(moves[i]).expect("legal");
        }
        if !p.is_over() {
            return p;
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(200);
    let budget = match args.get(1).map(String::as_str) {
        Some(a) if a.starts_with('N') => Budget::Nodes(a[1..].parse().expect("N<nodes>")),
        Some(a) => Budget::TimeMs(a.parse().expect("ms")),
        None => Budget::TimeMs(100),
    };
    let mut tt = vec![TtEntry::EMPTY; 1 << 16];
    println!(
        "{games} games per opponent, budget {budget:?} per move, openings of 2-4 random plies"
    );
    for (name, opp) in [
        ("greedy", greedy as Player),
        ("alphabeta-4", alphabeta4 as Player),
    ] {
        let (mut w, mut d, mut l) = (0usize, 0usize, 0usize);
        let t0 = Instant::now();
        for g in 0..games {
            let pair = g / 2;
            let mut orng = Rng::new(0x5eed ^ pair as u64);
            let op = opening(&mut orng);
            let ours = if g % 2 == 0 { Color::X } else { Color::O };
            match game(&op, ours, opp, budget, &mut tt).signum() {
                1 => w += 1,
                0 => d += 1,
                _ => l += 1,
            }
        }
        // Per mille in integers (no floating point in this code base).
        let permille = (2 * w + d) * 500 / games.max(1);
        println!(
            "vs {name}: {w} wins, {d} draws, {l} losses: {}.{}% ({} s)",
            permille / 10,
            permille % 10,
            t0.elapsed().as_secs()
        );
    }
}
