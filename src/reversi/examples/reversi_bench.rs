//! Our engine side by side with peer crates from the public registry, in one run:
//! perft(11) from the start (same driver and pass convention for everyone, bulk-counted last
//! ply) and the exact solve of FFO #40-#44, with times and ratios (ours / peer; below 1 means
//! we are faster).
//!
//! `cargo run --release -p kgames-reversi --example reversi_bench [-- <perft depth, default 11>
//! <peer solve cap in seconds, default 60>]`; with `BENCH_SMALL_ONLY=1` in the environment only
//! the 14-empty comparison runs.
//!
//! Peers: `magpie` (a bitboard library: move generation only, no search) and `ai-othello`
//! (bitboards, perft, alpha-beta with an exact endgame mode). A peer solve that exceeds the cap
//! is stopped and reported as `>cap`.

#[path = "../ffo_data.rs"]
mod ffo_data;

use kgames_reversi::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
use kgames_reversi::{perft, solve, Position, SearchContext, TtEntry};
use std::time::{Duration, Instant};

/// Perft with magpie's move generator (`Board::moves_for`, `Board::play`).
fn magpie_perft(board: &magpie::othello::Board, stone: magpie::othello::Stone, depth: u32) -> u64 {
    let moves = board.moves_for(stone);
    if moves.is_empty() {
        if depth == 1 || board.moves_for(stone.flip()).is_empty() {
            return 1;
        }
        return magpie_perft(board, stone.flip(), depth - 1);
    }
    if depth == 1 {
        return u64::from(moves.count_set());
    }
    let mut n = 0;
    for pos in moves.hot_bits() {
        let mut child = board.clone();
        child.play(stone, pos);
        n += magpie_perft(&child, stone.flip(), depth - 1);
    }
    n
}

/// Perft with ai-othello's move generator (`legal_placement_bits`, `make_move`).
fn ai_othello_perft(pos: ai_othello::Position, depth: u32) -> u64 {
    let moves = pos.legal_placement_bits();
    if moves == 0 {
        if depth == 1 || pos.legal_placements_for(pos.side_to_move().other()) == 0 {
            return 1;
        }
        let mut child = pos;
        if child.make_move(ai_othello::Move::Pass).is_err() {
            return 0;
        }
        return ai_othello_perft(child, depth - 1);
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut n = 0;
    let mut bits = moves;
    while bits != 0 {
        let sq = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        let mut child = pos;
        if child
            .make_move(ai_othello::Move::Place(ai_othello::Square::new(sq)))
            .is_ok()
        {
            n += ai_othello_perft(child, depth - 1);
        }
    }
    n
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let t = Instant::now();
    let v = f();
    (v, t.elapsed())
}

/// `ours / theirs` with three decimals, without floating point.
fn ratio(ours: Duration, theirs: Duration) -> String {
    let r = ours.as_micros() * 1000 / theirs.as_micros().max(1);
    format!("{}.{:03}", r / 1000, r % 1000)
}

/// `s.mmm` without floating point.
fn secs(d: Duration) -> String {
    format!("{:>3}.{:03}", d.as_secs(), d.subsec_millis())
}

/// Twenty positions with 14 empties from seeded random play, solved exactly by both engines
/// (small enough for the peer to finish): total times and agreement on win/draw/loss.
fn small_endgames(cap: Duration) {
    use kgames_reversi::common::rng::Rng;
    let mut rng = Rng::new(14);
    let mut tt = vec![TtEntry::EMPTY; 1 << 20];
    let (mut sum_ours, mut sum_peer, mut agree, mut total) = (Duration::ZERO, Duration::ZERO, 0, 0);
    while total < 20 {
        let mut p = Position::start();
        while p.count_empty() > 14 && !p.is_over() {
            let mv = p.legal_moves();
            p = if mv == 0 {
                p.pass().expect("forced pass")
            } else {
                let k = rng.below(mv.count_ones());
                let sq = kgames_reversi::bitboard::Squares(mv)
                    .nth(k as usize)
                    .expect("k < moves");
                p.play(sq).expect("legal")
            };
        }
        if p.is_over() || p.legal_moves() == 0 {
            continue;
        }
        total += 1;
        let mut ctx = SearchContext::new(&mut tt);
        ctx.clear();
        let (mut clock, mut intr) = (NodeClock { ns_per_node: 0 }, NeverInterrupt);
        let mut meter = Meter::new(Budget::Nodes(Budget::MAX_NODES), &mut clock, &mut intr);
        let (sol, t) = timed(|| solve(&p, &mut ctx, &mut meter));
        sum_ours += t;
        let setup = p.setup();
        let setup = std::str::from_utf8(&setup).unwrap_or("");
        let Ok(peer_pos) = ai_othello::Position::from_cassio(&setup[..64], &setup[65..]) else {
            continue;
        };
        let config = ai_othello::SearchConfig {
            depth: 14,
            evaluator: ai_othello::EvaluationProfile::Phase,
            exact_endgame_empties: 14,
        };
        let start = Instant::now();
        let (peer, t) =
            timed(|| ai_othello::search_until(peer_pos, config, || start.elapsed() > cap));
        sum_peer += t;
        if peer.is_none() {
            println!("  peer stopped at the cap on {setup}");
        }
        if let (Ok(s), Some(r)) = (sol, peer) {
            let sign = match r.score.kind() {
                ai_othello::ScoreKind::Win { .. } => 1,
                ai_othello::ScoreKind::Loss { .. } => -1,
                _ => 0,
            };
            if sign == s.score.signum() {
                agree += 1;
            } else {
                println!(
                    "  disagree on {setup}: ours {} peer {:?}",
                    s.score,
                    r.score.kind()
                );
            }
        }
    }
    println!(
        "20 random 14-empty endgames: ours {} s, ai-othello {} s, ours/peer {}, win/draw/loss agree {agree}/{total}",
        secs(sum_ours),
        secs(sum_peer),
        ratio(sum_ours, sum_peer)
    );
}

fn main() {
    let arg = |i: usize, d: u64| {
        std::env::args()
            .nth(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or(d)
    };
    let depth = arg(1, 11) as u32;
    if std::env::var_os("BENCH_SMALL_ONLY").is_some() {
        small_endgames(Duration::from_secs(arg(2, 60)));
        return;
    }
    let cap = Duration::from_secs(arg(2, 60));

    println!("== perft({depth}) from the start");
    let (n_ours, t_ours) = timed(|| perft(&Position::start(), depth));
    println!("ours       {n_ours:>12} {} s", secs(t_ours));
    let (n, t) = timed(|| {
        magpie_perft(
            &magpie::othello::Board::standard(),
            magpie::othello::Stone::Black,
            depth,
        )
    });
    println!(
        "magpie     {n:>12} {} s  ours/peer {}{}",
        secs(t),
        ratio(t_ours, t),
        if n == n_ours {
            ""
        } else {
            "  (count differs!)"
        }
    );
    let (n, t) = timed(|| ai_othello_perft(ai_othello::Position::start(), depth));
    println!(
        "ai-othello {n:>12} {} s  ours/peer {}{}",
        secs(t),
        ratio(t_ours, t),
        if n == n_ours {
            ""
        } else {
            "  (count differs!)"
        }
    );

    println!("\n== FFO #40-#44 exact solve (peer: ai-othello, capped at {cap:?})");
    let mut tt = vec![TtEntry::EMPTY; 1 << 22];
    let (mut sum_ours, mut sum_peer) = (Duration::ZERO, Duration::ZERO);
    for case in &ffo_data::FFO_40_44 {
        let pos = Position::parse_setup(case.setup).expect("FFO board");
        let mut ctx = SearchContext::new(&mut tt);
        ctx.clear();
        let (mut clock, mut intr) = (NodeClock { ns_per_node: 0 }, NeverInterrupt);
        let mut meter = Meter::new(Budget::Nodes(Budget::MAX_NODES), &mut clock, &mut intr);
        let (sol, t_ours) = timed(|| solve(&pos, &mut ctx, &mut meter));
        let ours = sol.map(|s| s.score).unwrap_or(i32::MIN);
        let best = sol
            .ok()
            .and_then(|s| s.best)
            .map(kgames_reversi::square_name);

        let setup = std::str::from_utf8(case.setup).unwrap_or("");
        let peer_pos = ai_othello::Position::from_cassio(&setup[..64], &setup[65..]);
        let empties = pos.count_empty() as u8;
        let config = ai_othello::SearchConfig {
            depth: empties,
            evaluator: ai_othello::EvaluationProfile::Phase,
            exact_endgame_empties: empties,
        };
        let start = Instant::now();
        let (peer, t_peer) = timed(|| {
            peer_pos
                .ok()
                .and_then(|p| ai_othello::search_until(p, config, || start.elapsed() > cap))
        });
        let peer_text = match &peer {
            Some(r) => format!("{:?} {} s", r.score.kind(), secs(t_peer)),
            None => format!(">{:?} (stopped)", cap),
        };
        println!(
            "FFO {}: ours {:+3} {} (expected {:+3}) {} s | ai-othello {peer_text} | ours/peer {}{}",
            case.name,
            ours,
            if case.best.iter().any(|b| Some(**b) == best) {
                "best move ok"
            } else {
                "WRONG MOVE"
            },
            case.score,
            secs(t_ours),
            if peer.is_some() { "" } else { "<" },
            ratio(t_ours, t_peer)
        );
        sum_ours += t_ours;
        sum_peer += t_peer;
    }
    small_endgames(cap);
    println!(
        "FFO total: ours {} s, ai-othello {} s{}",
        secs(sum_ours),
        secs(sum_peer),
        if sum_peer >= cap {
            " (some capped)"
        } else {
            ""
        }
    );
}
