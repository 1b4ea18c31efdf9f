//! `reversi_datagen`: search-labelled training positions for the reversi evaluation, played
//! by today's engine (the shipped weights), in chunk files that make a long run resumable.
//!
//! Each game starts from an opening: a random line of `--openings` (XOT style, moves written
//! together such as `f5d6c3d3c4`, as in Egaroucid's `openingslarge.txt`), else 2-8 random
//! plies. Then the engine plays itself at `--nodes` a move, with a random move instead on 1
//! ply in 16 before ply 30; from `--exact` empties on both sides play perfectly. Every
//! position whose mover has a move is written with its labels:
//!
//! | bytes | field |
//! | --- | --- |
//! | 0-7 | the mover's discs (u64, little-endian) |
//! | 8-15 | the opponent's discs |
//! | 16 | the game's final disc difference for the mover, empties to the winner (i8; exact from `--exact` empties on, where play is perfect) |
//! | 17 | the engine's search score for the mover, in discs (i8, -64..=64) |
//! | 18 | empties |
//! | 19 | flags: bit 0 set when the search score is exact (a solve) |
//!
//! Games `c * C .. (c + 1) * C` form chunk `c`, written to `DIR/chunk-NNNNN.bin` (through a
//! temporary file renamed when the chunk is complete). Each chunk has its own generator,
//! seeded from `--seed` and `c`, so a chunk's bytes depend only on the arguments, the
//! openings and the engine, not on the thread count; a run that was stopped continues with
//! the chunks it lacks when started again.

use clap::Parser;
use kgames_reversi::bitboard::Squares;
use kgames_reversi::common::rng::{mix, Rng, GOLDEN_GAMMA};
use kgames_reversi::eval::EvalKind;
use kgames_reversi::pattern;
use kgames_reversi::search::WIN;
use kgames_reversi::{parse_square, Color, Position, TtEntry};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

/// Search-labelled training positions for the reversi evaluation, in resumable chunks.
#[derive(Parser, Debug)]
#[command(name = "reversi_datagen", version)]
struct Args {
    /// The folder of the chunk files (made if missing).
    #[arg(long)]
    dir: PathBuf,
    /// Games in all.
    #[arg(long)]
    games: u64,
    /// Seed of the whole run (each chunk derives its own).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games per chunk file.
    #[arg(long, default_value_t = 200)]
    chunk_games: u64,
    /// Nodes a move of the engine.
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// Empties from which both sides play perfectly (and the labels are exact).
    #[arg(long, default_value_t = 16)]
    exact: u32,
    /// Threads (chunks are shared out; the bytes do not depend on this).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Openings, one a line (moves written together: `f5d6c3`).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// The engine's weights: a file in `weights.bin`'s format (default: the embedded ones),
    /// so that a run can be repeated with the weights of a given revision.
    #[arg(long)]
    weights: Option<PathBuf>,
}

/// Bytes of one record.
const RECORD: usize = 20;

/// The moves of an opening line, played from the start; `None` when one is illegal.
fn opening(line: &str) -> Option<Vec<u8>> {
    let b = line.trim().as_bytes();
    if b.is_empty() || !b.len().is_multiple_of(2) {
        return None;
    }
    let mut p = Position::start();
    let mut moves = Vec::new();
    for pair in b.chunks(2) {
        let sq = parse_square(&pair.to_ascii_lowercase())?;
        if p.legal_moves() == 0 {
            p = p.pass()?;
        }
        p = p.play(sq)?;
        moves.push(sq);
    }
    Some(moves)
}

/// A score of the search as discs for the mover: exact scores as they are, game ends found in
/// the tree by their disc difference, evaluations (100 a disc) rounded.
fn discs(score: i32, exact: bool) -> i8 {
    let d = if exact {
        score
    } else if score >= WIN - 64 {
        score - WIN
    } else if score <= 64 - WIN {
        score + WIN
    } else {
        (score + 50 * score.signum()) / 100
    };
    d.clamp(-64, 64) as i8
}

/// The engine's move and its score in discs (exact from `exact` empties on).
fn engine_move(
    p: &Position,
    nodes: u64,
    exact: u32,
    eval: EvalKind,
    tt: &mut [TtEntry],
) -> Option<(u8, i8, bool)> {
    reversi_lab::engine_move(p, nodes, exact, eval, tt).map(|(sq, s, e)| (sq, discs(s, e), e))
}

/// The records of one game from `rng`'s draws.
fn game(
    args: &Args,
    openings: &[Vec<u8>],
    eval: EvalKind,
    rng: &mut Rng,
    tt: &mut [TtEntry],
    out: &mut Vec<u8>,
) {
    let mut p = Position::start();
    let mut line: &[u8] = &[];
    let mut random_plies = 0;
    if openings.is_empty() {
        random_plies = 2 + rng.below(7);
    } else if let Some(l) = openings.get(rng.below(openings.len() as u32) as usize) {
        line = l;
    }
    let mut seen: Vec<(u64, u64, bool, i8, bool)> = Vec::new();
    let mut ply = 0u32;
    while !p.is_over() {
        if p.legal_moves() == 0 {
            let Some(next) = p.pass() else { break };
            p = next;
            continue;
        }
        let forced = line.get(ply as usize).copied();
        let random = forced.is_none() && (ply < random_plies || (ply < 30 && rng.below(16) == 0));
        let (mv, label) = if let Some(sq) = forced {
            (Some(sq), None)
        } else if random {
            let mv = p.legal_moves();
            (Squares(mv).nth(rng.below(mv.count_ones()) as usize), None)
        } else {
            match engine_move(&p, args.nodes, args.exact, eval, tt) {
                Some((sq, score, exact)) => (Some(sq), Some((score, exact))),
                None => (None, None),
            }
        };
        // Opening and random plies are searched for their label only past the opening.
        let (score, exact) = match label {
            Some(l) => l,
            None if forced.is_none() => engine_move(&p, args.nodes, args.exact, eval, tt)
                .map_or((0, false), |(_, s, e)| (s, e)),
            None => (0, false),
        };
        if forced.is_none() {
            seen.push((
                p.mover(),
                p.opponent(),
                p.side_to_move() == Color::X,
                score,
                exact,
            ));
        }
        let Some(next) = mv.and_then(|sq| p.play(sq)) else {
            break;
        };
        p = next;
        ply += 1;
    }
    let Some(end) = Position::from_bitboards(p.x(), p.o(), Color::X) else {
        return;
    };
    let x_final = end.final_score();
    for (me, opp, mover_is_x, score, exact) in seen {
        let result = if mover_is_x { x_final } else { -x_final } as i8;
        out.extend_from_slice(&me.to_le_bytes());
        out.extend_from_slice(&opp.to_le_bytes());
        out.push(result as u8);
        out.push(score as u8);
        out.push((!(me | opp)).count_ones() as u8);
        out.push(u8::from(exact));
    }
}

/// Makes chunk `c` unless it exists: its positions, or 0 when it was there.
fn chunk(
    args: &Args,
    openings: &[Vec<u8>],
    eval: EvalKind,
    c: u64,
    tt: &mut [TtEntry],
) -> std::io::Result<u64> {
    let path = args.dir.join(format!("chunk-{c:05}.bin"));
    if path.exists() {
        return Ok(0);
    }
    let mut rng = Rng::new(mix(args.seed ^ c.wrapping_mul(GOLDEN_GAMMA)));
    let first = c * args.chunk_games;
    let last = (first + args.chunk_games).min(args.games);
    let mut out = Vec::new();
    for _ in first..last {
        game(args, openings, eval, &mut rng, tt, &mut out);
    }
    let tmp = args.dir.join(format!(".chunk-{c:05}.tmp"));
    std::fs::File::create(&tmp)?.write_all(&out)?;
    std::fs::rename(&tmp, &path)?;
    Ok((out.len() / RECORD) as u64)
}

/// A weights file, kept for the whole run.
fn read_weights(path: &Path) -> Result<&'static [i16], String> {
    let blob = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut w = vec![0i16; pattern::WEIGHTS];
    if !pattern::parse_weights(&blob, &mut w) {
        return Err(format!(
            "{}: not a weights file (weights.bin's format)",
            path.display()
        ));
    }
    Ok(Vec::leak(w))
}

fn read_openings(path: &Path) -> Result<Vec<Vec<u8>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let all: Vec<Vec<u8>> = text.lines().filter_map(opening).collect();
    if all.is_empty() {
        return Err(format!("{}: no legal opening line", path.display()));
    }
    Ok(all)
}

fn main() -> ExitCode {
    let args = Args::parse();
    if args.chunk_games == 0 || args.threads == 0 {
        eprintln!("reversi_datagen: --chunk-games and --threads must be at least 1");
        return ExitCode::from(2);
    }
    let openings = match args.openings.as_deref().map(read_openings).transpose() {
        Ok(o) => o.unwrap_or_default(),
        Err(e) => {
            eprintln!("reversi_datagen: {e}");
            return ExitCode::FAILURE;
        }
    };
    let eval = match args.weights.as_deref().map(read_weights).transpose() {
        Ok(w) => w.map_or(EvalKind::Pattern, EvalKind::Weights),
        Err(e) => {
            eprintln!("reversi_datagen: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = std::fs::create_dir_all(&args.dir) {
        eprintln!("reversi_datagen: {}: {e}", args.dir.display());
        return ExitCode::FAILURE;
    }
    let chunks = args.games.div_ceil(args.chunk_games);
    let (next, positions) = (AtomicU64::new(0), AtomicU64::new(0));
    let t0 = std::time::Instant::now();
    let failed = std::thread::scope(|s| {
        let workers: Vec<_> = (0..args.threads)
            .map(|_| {
                s.spawn(|| -> std::io::Result<()> {
                    let mut tt = vec![TtEntry::EMPTY; 1 << 18];
                    loop {
                        let c = next.fetch_add(1, Ordering::Relaxed);
                        if c >= chunks {
                            return Ok(());
                        }
                        let n = chunk(&args, &openings, eval, c, &mut tt)?;
                        let total = positions.fetch_add(n, Ordering::Relaxed) + n;
                        if n > 0 {
                            eprintln!(
                                "chunk {c} of {chunks}: {n} positions ({total} this run, {} s)",
                                t0.elapsed().as_secs()
                            );
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .filter_map(|w| match w.join() {
                Ok(Ok(())) => None,
                Ok(Err(e)) => Some(e.to_string()),
                Err(_) => Some("a worker panicked".to_string()),
            })
            .next()
    });
    if let Some(e) = failed {
        eprintln!("reversi_datagen: {e}");
        return ExitCode::FAILURE;
    }
    eprintln!(
        "{chunks} chunks in {}: {} positions made this run, {} s",
        args.dir.display(),
        positions.load(Ordering::Relaxed),
        t0.elapsed().as_secs()
    );
    ExitCode::SUCCESS
}
