//! A match between two versions of the engine at equal budgets: by default the learned
//! pattern evaluation (A) against the classic hand-made one (B), same search otherwise; or
//! any two of the shipped weights (`pattern`), the classic evaluation (`classic`) and a
//! weights file in `weights.bin`'s format (a path), such as a new set against the shipped one;
//! `flat:` before a name plays that evaluation without Multi-ProbCut, `keep:` (first) keeps
//! that engine's table between its moves of a game, as `/dev/reversi` does.
//!
//! `reversi_match [games, default 400] [ms per move, default 100 | N<nodes>] [seed, default 1]
//! [threads, default 1] [A, default pattern] [B, default classic]`
//!
//! Each opening (4-8 random plies from the seed) is played twice, colours swapped. Each
//! engine has its own 2^16-entry table, cleared at the start of a game and, without `keep:`,
//! before every move. Prints
//! A's wins, draws and losses, its score and the Elo difference with a 95% margin (normal
//! approximation over the per-game scores).

use kgames_reversi::bitboard::Squares;
use kgames_reversi::common::budget::{Budget, Meter, NeverInterrupt};
use kgames_reversi::common::rng::Rng;
use kgames_reversi::eval::EvalKind;
use kgames_reversi::pattern;
use kgames_reversi::search::Outcome;
use kgames_reversi::{best_move, Color, Position, SearchContext, TtEntry};
use reversi_lab::{summary, WallClock};
use std::time::Instant;

fn opening(rng: &mut Rng) -> Position {
    loop {
        let mut p = Position::start();
        let plies = 4 + rng.below(5);
        for _ in 0..plies {
            let mv = p.legal_moves();
            match Squares(mv).nth(rng.below(mv.count_ones()) as usize) {
                Some(sq) => p = p.play(sq).expect("legal"),
                None => break,
            }
        }
        if p.legal_moves() != 0 {
            return p;
        }
    }
}

/// An engine of the command line.
#[derive(Clone, Copy)]
struct Engine {
    eval: EvalKind,
    /// Multi-ProbCut on.
    selective: bool,
    /// The table kept between the engine's moves of a game.
    keep: bool,
}

/// An engine named on the command line: an evaluation, `pattern`, `classic` or a weights file
/// (read and kept for the whole run), with `flat:` before it for the search without
/// Multi-ProbCut and `keep:` before that for a table kept between moves.
fn engine_arg(name: &str) -> Result<Engine, String> {
    let (keep, name) = match name.strip_prefix("keep:") {
        Some(rest) => (true, rest),
        None => (false, name),
    };
    let (selective, name) = match name.strip_prefix("flat:") {
        Some(rest) => (false, rest),
        None => (true, name),
    };
    eval_arg(name).map(|eval| Engine {
        eval,
        selective,
        keep,
    })
}

/// An evaluation: `pattern`, `classic` or a weights file.
fn eval_arg(name: &str) -> Result<EvalKind, String> {
    match name {
        "pattern" => Ok(EvalKind::Pattern),
        "classic" => Ok(EvalKind::Classic),
        path => {
            let blob = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            let mut w = vec![0i16; pattern::WEIGHTS];
            if !pattern::parse_weights(&blob, &mut w) {
                return Err(format!("{path}: not a weights file (weights.bin's format)"));
            }
            Ok(EvalKind::Weights(Vec::leak(w)))
        }
    }
}

/// Plays one game from `p`; A plays `a_color` with `engines.0` and table `tts.0`, B the
/// others. Returns A's final disc difference.
fn game(
    mut p: Position,
    a_color: Color,
    budget: Budget,
    engines: (Engine, Engine),
    tts: (&mut [TtEntry], &mut [TtEntry]),
) -> i32 {
    tts.0.fill(TtEntry::EMPTY);
    tts.1.fill(TtEntry::EMPTY);
    while !p.is_over() {
        if p.legal_moves() == 0 {
            p = p.pass().expect("no move");
            continue;
        }
        let (engine, tt) = if p.side_to_move() == a_color {
            (engines.0, &mut *tts.0)
        } else {
            (engines.1, &mut *tts.1)
        };
        let mut ctx = SearchContext::new(tt);
        if !engine.keep {
            ctx.clear();
        }
        ctx.set_eval(engine.eval);
        ctx.set_selective(engine.selective);
        let (mut clock, mut never) = (WallClock(Instant::now()), NeverInterrupt);
        let mut meter = Meter::new(budget, &mut clock, &mut never);
        let Outcome::Move(sq) = best_move(&p, &mut ctx, &mut meter).outcome else {
            panic!("the engine must move");
        };
        p = p.play(sq).expect("legal move");
    }
    let d = p.count_x() as i32 - p.count_o() as i32;
    if a_color == Color::X {
        d
    } else {
        -d
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(400);
    let budget = match args.get(1).map(String::as_str) {
        Some(a) if a.starts_with('N') => Budget::Nodes(a[1..].parse().expect("N<nodes>")),
        Some(a) => Budget::TimeMs(a.parse().expect("ms")),
        None => Budget::TimeMs(100),
    };
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let threads: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1);
    let (a_name, b_name) = (
        args.get(4).map_or("pattern", String::as_str),
        args.get(5).map_or("classic", String::as_str),
    );
    let engines = match (engine_arg(a_name), engine_arg(b_name)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("reversi_match: {e}");
            std::process::exit(1);
        }
    };
    println!(
        "A = {a_name}, B = {b_name}: {games} games, {budget:?} per move, \
         openings of 4-8 random plies (seed {seed}), colours swapped, {threads} thread(s)"
    );
    let t0 = Instant::now();
    let results: Vec<i32> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let (mut tt_a, mut tt_b) =
                        (vec![TtEntry::EMPTY; 1 << 16], vec![TtEntry::EMPTY; 1 << 16]);
                    (0..games)
                        .filter(|g| g % threads == t)
                        .map(|g| {
                            let mut rng = Rng::new(seed.wrapping_mul(1_000_003) ^ (g / 2) as u64);
                            let op = opening(&mut rng);
                            let a = if g % 2 == 0 { Color::X } else { Color::O };
                            game(op, a, budget, engines, (&mut tt_a, &mut tt_b))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("match thread"))
            .collect()
    });
    println!("A: {}, {} s", summary(&results), t0.elapsed().as_secs());
}
