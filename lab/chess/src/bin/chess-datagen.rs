//! `chess-datagen`: self-play games of the engine (host build) at a fixed node budget from
//! random openings; writes their quiet positions with the game results, one per line
//! (`<FEN>;<result>`, or `<FEN>;<result>;<cp>` with `--scores`), for `chess-tune` and
//! `chess-nnue`. Deterministic for a seed: game i always uses seed + i.
//!
//! Two ways to write: `--out FILE` appends every game to one file; `--dir DIR` writes chunks
//! of `--chunk-games` games, `DIR/chunk-NNNNN.txt`, each written whole (a temporary file
//! renamed) and skipped when it exists, so a run that was stopped continues where it was by
//! running the same command again.
//!
//! `--net FILE` plays the games with that network (chess-nnue's format) as the evaluation
//! instead of the classic one: the second generation's data, from the network's own games.

use chess_lab::data::Sample;
use chess_lab::selfplay::{play_game, GameSearch, Memory, Settings};
use clap::Parser;
use kgames_chess::common::rng::Rng;
use kgames_client::network::{load_network, with_host_avx2};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Self-play games of the chess engine at a fixed node budget: writes their quiet positions
/// with the game results (`<FEN>;<result>` lines, `--scores` adds the search's score) for
/// chess-tune and chess-nnue.
#[derive(Parser, Debug)]
#[command(name = "chess-datagen", version)]
struct Args {
    /// Games to play (with --dir: in all chunks, the existing ones included).
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Random moves that open each game.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Games longer than this many plies are draws.
    #[arg(long, default_value_t = 300)]
    max_plies: u32,
    /// Adjudicate a win after 8 plies of searches rating one side this far ahead.
    #[arg(long, default_value_t = 1000)]
    adjudicate_cp: i32,
    /// The seed (game i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    threads: u64,
    /// Adds the search's score of each position (centipawns, white's side) as a third field.
    #[arg(long)]
    scores: bool,
    /// The output file (appended to).
    #[arg(long, conflicts_with = "dir", required_unless_present = "dir")]
    out: Option<PathBuf>,
    /// The output folder: chunk files, resumable (existing chunks are kept and skipped).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Games per chunk file (with --dir).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    chunk_games: u64,
    /// Evaluate with this network (chess-nnue's file) instead of the classic evaluation.
    #[arg(long)]
    net: Option<PathBuf>,
    /// The search that plays the moves: `plain` (each move from a cleared table, without
    /// correction or continuation history, as the sets up to 2026-12-01 were made) or
    /// `product` (as /dev/chess and kgames-uci search, the table kept within a game).
    #[arg(long, value_enum, default_value_t = GameSearch::Plain)]
    search: GameSearch,
}

/// The lines of one game's samples.
fn lines(samples: &[Sample], scores: bool) -> String {
    let mut text = String::new();
    for s in samples {
        let s = Sample {
            score: if scores { s.score } else { None },
            ..s.clone()
        };
        text.push_str(&s.to_string());
        text.push('\n');
    }
    text
}

/// Runs `job(unit, memory)` for units 0..`units` on `threads` threads, each unit once, each
/// thread with its own search memory.
fn workers(threads: u64, units: u64, job: impl Fn(u64, &mut Memory) + Sync) {
    let next = AtomicU64::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut mem = Memory::new(1 << 16);
                loop {
                    let unit = next.fetch_add(1, Ordering::Relaxed);
                    if unit >= units {
                        break;
                    }
                    job(unit, &mut mem);
                }
            });
        }
    });
}

fn fail(path: &Path, e: std::io::Error) -> ! {
    eprintln!("chess-datagen: {}: {e}", path.display());
    std::process::exit(1);
}

fn main() {
    let args = Args::parse();
    let settings = Settings {
        nodes: args.nodes,
        random_plies: args.random_plies,
        max_plies: args.max_plies,
        adjudicate_cp: args.adjudicate_cp,
        search: args.search,
        net: args.net.as_deref().map(|path| {
            let net = load_network(path).unwrap_or_else(|e| {
                eprintln!("chess-datagen: {e}");
                std::process::exit(1);
            });
            with_host_avx2(net)
        }),
    };
    let start = std::time::Instant::now();
    let written = AtomicU64::new(0);
    let played = AtomicU64::new(0);
    let report = |games: u64, positions: u64| {
        let ms = start.elapsed().as_millis().max(1);
        eprintln!(
            "{games} games, {positions} positions in {} s ({} positions/s)",
            ms / 1000,
            u128::from(positions) * 1000 / ms
        );
    };
    let game = |i: u64, mem: &mut Memory| -> String {
        let mut rng = Rng::new(args.seed.wrapping_add(i));
        let samples = play_game(&mut rng, &settings, mem);
        written.fetch_add(samples.len() as u64, Ordering::Relaxed);
        played.fetch_add(1, Ordering::Relaxed);
        lines(&samples, args.scores)
    };
    if let Some(dir) = &args.dir {
        if let Err(e) = std::fs::create_dir_all(dir) {
            fail(dir, e);
        }
        let chunks = args.games.div_ceil(args.chunk_games);
        workers(args.threads, chunks, |c, mem| {
            let path = dir.join(format!("chunk-{c:05}.txt"));
            if path.exists() {
                return;
            }
            let first = c * args.chunk_games;
            let last = (first + args.chunk_games).min(args.games);
            let text: String = (first..last).map(|i| game(i, mem)).collect();
            let tmp = dir.join(format!(".chunk-{c:05}.tmp"));
            if let Err(e) = std::fs::write(&tmp, text) {
                fail(&tmp, e);
            }
            if let Err(e) = std::fs::rename(&tmp, &path) {
                fail(&path, e);
            }
            report(
                played.load(Ordering::Relaxed),
                written.load(Ordering::Relaxed),
            );
        });
        report(played.into_inner(), written.into_inner());
        return;
    }
    let Some(out) = &args.out else { return };
    let file = match std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
    {
        Ok(f) => Mutex::new(f),
        Err(e) => fail(out, e),
    };
    workers(args.threads, args.games, |i, mem| {
        let text = game(i, mem);
        let Ok(mut f) = file.lock() else { return };
        if let Err(e) = f.write_all(text.as_bytes()) {
            fail(out, e);
        }
        if (i + 1).is_multiple_of(100) {
            report(i + 1, written.load(Ordering::Relaxed));
        }
    });
    report(args.games, written.into_inner());
}
