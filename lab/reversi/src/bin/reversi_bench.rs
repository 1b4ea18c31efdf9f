//! Our engine side by side with peer crates from the public registry, in one run: perft(11)
//! from the start (same driver and pass convention for everyone, bulk-counted last ply; ours
//! and magpie alternate for `BENCH_ROUNDS` rounds, default 3, and the median ratio is printed),
//! the exact solves of FFO #40-#44 and #45-#49 (score, move, nodes, time, nodes per second;
//! one thread, a 2^22-entry table) and 20 random 14-empty endgames against ai-othello.
//!
//! `make bench` runs it twice through `lab/scripts/reversi-bench.sh`: built for plain `x86-64` (what
//! the kernel's Rust target allows) and for `x86-64-v3`. The first line names the build and the
//! target features it was compiled with.
//!
//! `reversi_bench [-- <perft depth, default 11> <peer solve cap in seconds, default 60>]`;
//! environment: `BENCH_SMALL_ONLY=1` runs only the 14-empty comparison, `BENCH_SKIP_45=1`
//! skips FFO #45-#49, `BENCH_SKIP_FFO=1` skips both FFO runs (`lab/scripts/reversi-bench.sh` sets
//! it when it runs `reversi_ffo` beside Zebra instead), `KGAMES_BENCH_BUILD` labels the build
//! in the first line.
//!
//! Peers: `magpie` (a bitboard library: move generation only, no search) and `ai-othello`
//! (bitboards, perft, alpha-beta with an exact endgame mode). A peer solve that exceeds the cap
//! is stopped and reported as `>cap`. Edax (the reference Othello program, C) is not a crate:
//! its FFO #40-#44 time is printed as a fixed reference figure, marked as such.

#[path = "../../../../src/reversi/tests/data/ffo.rs"]
mod ffo;

use kgames_reversi::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
use kgames_reversi::{perft, solve, square_name, Position, SearchContext, TtEntry};
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

/// The target features this binary was compiled with (the ones the engine can profit from).
fn features() -> String {
    let f = [
        ("popcnt", cfg!(target_feature = "popcnt")),
        ("lzcnt", cfg!(target_feature = "lzcnt")),
        ("bmi1", cfg!(target_feature = "bmi1")),
        ("bmi2", cfg!(target_feature = "bmi2")),
        ("sse4.2", cfg!(target_feature = "sse4.2")),
        ("avx2", cfg!(target_feature = "avx2")),
    ];
    f.iter()
        .map(|(n, on)| format!("{}{n}", if *on { '+' } else { '-' }))
        .collect::<Vec<_>>()
        .join(",")
}

/// Perft(depth) by ours and magpie, alternating for `rounds` rounds; prints every round and
/// the median ratio.
fn perft_rounds(depth: u32, rounds: usize) {
    let mut ratios = Vec::new();
    let mut count = 0;
    for round in 1..=rounds {
        let (n_ours, t_ours) = timed(|| perft(&Position::start(), depth));
        let (n, t) = timed(|| {
            magpie_perft(
                &magpie::othello::Board::standard(),
                magpie::othello::Stone::Black,
                depth,
            )
        });
        count = n_ours;
        println!(
            "round {round}: ours {n_ours} {} s, magpie {n} {} s, ours/magpie {}{}",
            secs(t_ours),
            secs(t),
            ratio(t_ours, t),
            if n == n_ours {
                ""
            } else {
                "  (count differs!)"
            }
        );
        ratios.push((t_ours.as_micros() * 1000 / t.as_micros().max(1), t_ours, t));
    }
    ratios.sort();
    if let Some((_, ours, peer)) = ratios.get(ratios.len() / 2) {
        println!(
            "perft({depth}) = {count}: median of {rounds} rounds: ours/magpie {}",
            ratio(*ours, *peer)
        );
    }
    let (n, t) = timed(|| ai_othello_perft(ai_othello::Position::start(), depth));
    let (_, t_ours) = timed(|| perft(&Position::start(), depth));
    println!(
        "ai-othello {n} {} s (ours again {} s), ours/ai-othello {}",
        secs(t),
        secs(t_ours),
        ratio(t_ours, t)
    );
}

/// Millions of nodes per second, two decimals, without floating point.
fn rate(nodes: u64, d: Duration) -> String {
    let per_us_x100 = u128::from(nodes) * 100 / d.as_micros().max(1);
    format!("{:>3}.{:02}", per_us_x100 / 100, per_us_x100 % 100)
}

/// Solves FFO cases one by one (one thread, cleared table) and prints each; the total time.
fn ffo(cases: &[ffo::FfoCase], tt: &mut [TtEntry]) -> Duration {
    let (mut total_nodes, mut total) = (0u64, Duration::ZERO);
    for case in cases {
        let pos = Position::parse_setup(case.setup).expect("FFO board");
        let mut ctx = SearchContext::new(tt);
        ctx.clear();
        let (mut clock, mut intr) = (NodeClock { ns_per_node: 0 }, NeverInterrupt);
        let mut meter = Meter::new(Budget::Nodes(Budget::MAX_NODES), &mut clock, &mut intr);
        let (sol, t) = timed(|| solve(&pos, &mut ctx, &mut meter));
        let score = sol.map(|s| s.score).unwrap_or(i32::MIN);
        let mv = sol.ok().and_then(|s| s.best).map(square_name);
        let ok = score == case.score && case.best.iter().any(|b| Some(**b) == mv);
        println!(
            "FFO {} ({} empties): {score:+3} {} (expected {:+3} {}) {}  {:>11} nodes {} s {} Mn/s",
            case.name,
            pos.count_empty(),
            mv.map(|m| String::from_utf8_lossy(&m).into_owned())
                .unwrap_or_else(|| "--".into()),
            case.score,
            String::from_utf8_lossy(case.best[0]),
            if ok { "ok" } else { "WRONG" },
            meter.nodes(),
            secs(t),
            rate(meter.nodes(), t)
        );
        total_nodes += meter.nodes();
        total += t;
    }
    println!(
        "total: {total_nodes} nodes {} s {} Mn/s",
        secs(total),
        rate(total_nodes, total)
    );
    total
}

/// Search-only Edax 4.6 (evaluation weights zeroed), one thread, FFO #40-#44, as measured for
/// issue 15 on this machine kind (built for x86-64-v3). Not run here: a fixed reference.
const EDAX_FFO_40_44_MS: u128 = 19_800;

fn main() {
    let arg = |i: usize, d: u64| {
        std::env::args()
            .nth(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or(d)
    };
    let depth = arg(1, 11) as u32;
    let cap = Duration::from_secs(arg(2, 60));
    println!(
        "== build: {} (target features {})",
        std::env::var("KGAMES_BENCH_BUILD").unwrap_or_else(|_| "cargo default flags".into()),
        features()
    );
    if std::env::var_os("BENCH_SMALL_ONLY").is_some() {
        small_endgames(cap);
        return;
    }
    let rounds = std::env::var("BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    println!("== perft({depth}) from the start");
    perft_rounds(depth, rounds);

    let mut tt = vec![TtEntry::EMPTY; 1 << 22];
    if std::env::var_os("BENCH_SKIP_FFO").is_some() {
        println!("== 20 random 14-empty endgames, exact (peer: ai-othello, capped at {cap:?})");
        small_endgames(cap);
        return;
    }
    println!("== FFO #40-#44 exact, one thread, 2^22-entry table (64 MiB)");
    let t = ffo(&ffo::FFO_40_44, &mut tt);
    let permille = t.as_millis() * 1000 / EDAX_FFO_40_44_MS;
    println!(
        "ours/Edax {}.{:03} (reference, not this run: search-only Edax 4.6, one thread, 19.8 s)",
        permille / 1000,
        permille % 1000
    );
    if std::env::var_os("BENCH_SKIP_45").is_none() {
        println!("== FFO #45-#49 exact, one thread, 2^22-entry table");
        ffo(&ffo::FFO_45_49, &mut tt);
    }
    println!("== 20 random 14-empty endgames, exact (peer: ai-othello, capped at {cap:?})");
    small_endgames(cap);
}
