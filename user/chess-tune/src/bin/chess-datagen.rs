//! `chess-datagen`: self-play games of the engine (host build) at a fixed node budget from
//! random openings; writes their quiet positions with the game results, one per line
//! (`<FEN>;<result>`), for `chess-tune`. Deterministic for a seed and thread count.

use chess_tune::selfplay::{play_game, Memory, Settings};
use clap::Parser;
use kgames_chess::common::rng::Rng;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Self-play games of the chess engine at a fixed node budget: writes their quiet positions
/// with the game results (`<FEN>;<result>` lines) for chess-tune.
#[derive(Parser, Debug)]
#[command(name = "chess-datagen", version)]
struct Args {
    /// Games to play.
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
    /// The output file (appended to).
    #[arg(long)]
    out: std::path::PathBuf,
}

fn main() {
    let args = Args::parse();
    let settings = Settings {
        nodes: args.nodes,
        random_plies: args.random_plies,
        max_plies: args.max_plies,
        adjudicate_cp: args.adjudicate_cp,
    };
    let file = match std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
    {
        Ok(f) => Mutex::new(f),
        Err(e) => {
            eprintln!("chess-datagen: {}: {e}", args.out.display());
            std::process::exit(1);
        }
    };
    let next = AtomicU64::new(0);
    let written = AtomicU64::new(0);
    let start = std::time::Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| {
                let mut mem = Memory::new(1 << 16);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= args.games {
                        break;
                    }
                    let mut rng = Rng::new(args.seed.wrapping_add(i));
                    let samples = play_game(&mut rng, &settings, &mut mem);
                    let mut text = String::new();
                    for s in &samples {
                        text.push_str(&s.to_string());
                        text.push('\n');
                    }
                    let Ok(mut f) = file.lock() else { break };
                    if let Err(e) = f.write_all(text.as_bytes()) {
                        eprintln!("chess-datagen: {}: {e}", args.out.display());
                        std::process::exit(1);
                    }
                    let n = written.fetch_add(samples.len() as u64, Ordering::Relaxed);
                    if (i + 1).is_multiple_of(100) {
                        eprintln!(
                            "{} games, {} positions, {:.0} s",
                            i + 1,
                            n + samples.len() as u64,
                            start.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
    eprintln!(
        "{} games, {} positions in {:.1} s",
        args.games,
        written.load(Ordering::Relaxed),
        start.elapsed().as_secs_f64()
    );
}
