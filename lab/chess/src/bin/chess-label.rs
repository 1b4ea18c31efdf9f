//! `chess-label`: scores the positions of a `chess-datagen` file with a reference engine
//! (Stockfish, through UCI, at a fixed depth) and writes them with the score as a third field
//! (`<FEN>;<result>;<cp>`, centipawns from white's side), for `chess-tune --lambda`.
//! Deterministic for the engine and depth: each position is searched from a cleared table
//! (`ucinewgame`) by a single-threaded engine, and the lines keep their input order.

use chess_lab::data::{parse_line, Sample};
use chess_lab::stockfish::find_stockfish;
use clap::Parser;
use kgames_test_support::uci::Client;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Scores the positions of a chess-datagen file with a reference UCI engine (Stockfish) at a
/// fixed depth, for chess-tune --lambda.
#[derive(Parser, Debug)]
#[command(name = "chess-label", version)]
struct Args {
    /// The positions file (`chess-datagen` lines).
    #[arg(long)]
    data: std::path::PathBuf,
    /// The output file (overwritten).
    #[arg(long)]
    out: std::path::PathBuf,
    /// The reference engine's search depth.
    #[arg(long, default_value_t = 7)]
    depth: u32,
    /// Label every n-th position only.
    #[arg(long, default_value_t = 1)]
    every: usize,
    /// Reference engine processes (one thread each).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The reference engine (default: `stockfish` on PATH, else /usr/games/stockfish).
    #[arg(long)]
    stockfish: Option<String>,
}

/// Scores beyond this (and mates) are written as this: they carry no more information for
/// the tuner's sigmoid.
const CAP: i32 = 2000;

/// The score of the side to move in the engine's last `info ... score` line of `lines`
/// (mates capped at +-[`CAP`]).
fn last_score(lines: &[String]) -> Option<i32> {
    let line = lines
        .iter()
        .rev()
        .find(|l| l.contains(" score ") && !l.contains("bound"))?;
    let mut words = line.split(" score ").nth(1)?.split_whitespace();
    let (kind, value) = (words.next()?, words.next()?.parse::<i32>().ok()?);
    Some(match kind {
        "cp" => value.clamp(-CAP, CAP),
        "mate" if value > 0 => CAP,
        "mate" => -CAP,
        _ => return None,
    })
}

/// White's score of `sample`'s position by `engine` at `depth`.
fn label(engine: &mut Client, sample: &Sample, depth: u32) -> Result<Option<i32>, String> {
    engine.send("ucinewgame")?;
    engine.send(&format!("position fen {}", sample.fen))?;
    engine.send(&format!("go depth {depth}"))?;
    let (_, lines) = engine.bestmove(Duration::from_secs(60))?;
    let black = sample.fen.split_whitespace().nth(1) == Some("b");
    Ok(last_score(&lines).map(|s| if black { -s } else { s }))
}

fn main() {
    let args = Args::parse();
    if let Err(e) = run(&args) {
        eprintln!("chess-label: {e}");
        std::process::exit(1);
    }
}

fn run(args: &Args) -> Result<(), String> {
    let text =
        std::fs::read_to_string(&args.data).map_err(|e| format!("{}: {e}", args.data.display()))?;
    let samples: Vec<Sample> = text
        .lines()
        .filter_map(parse_line)
        .step_by(args.every.max(1))
        .collect();
    let program = find_stockfish(args.stockfish.clone())
        .ok_or("stockfish not found (scripts/setup-toolchain.sh installs it); use --stockfish")?;
    let options = [
        ("Threads".to_string(), "1".to_string()),
        ("Hash".to_string(), "4".to_string()),
    ];
    let labelled: Vec<Mutex<Option<i32>>> = samples.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let start = std::time::Instant::now();
    std::thread::scope(|scope| -> Result<(), String> {
        let workers: Vec<_> = (0..args.threads.max(1))
            .map(|_| {
                scope.spawn(|| -> Result<(), String> {
                    let mut engine = Client::start(&program, &options)?;
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let (Some(sample), Some(slot)) = (samples.get(i), labelled.get(i)) else {
                            return Ok(());
                        };
                        let score = label(&mut engine, sample, args.depth)?;
                        if let Ok(mut s) = slot.lock() {
                            *s = score;
                        }
                        if (i + 1).is_multiple_of(10_000) {
                            eprintln!(
                                "{} positions, {:.0} s",
                                i + 1,
                                start.elapsed().as_secs_f64()
                            );
                        }
                    }
                })
            })
            .collect();
        for w in workers {
            w.join().map_err(|_| "a worker panicked")??;
        }
        Ok(())
    })?;
    let mut out = String::new();
    let mut written = 0;
    for (sample, slot) in samples.iter().zip(&labelled) {
        let score = slot.lock().ok().and_then(|s| *s);
        if score.is_some() {
            let s = Sample {
                score,
                ..sample.clone()
            };
            out.push_str(&s.to_string());
            out.push('\n');
            written += 1;
        }
    }
    let mut file =
        std::fs::File::create(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    file.write_all(out.as_bytes())
        .map_err(|e| format!("{}: {e}", args.out.display()))?;
    eprintln!(
        "{written} of {} positions labelled at depth {} in {:.1} s",
        samples.len(),
        args.depth,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_from_info_lines() {
        let lines = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let l = lines(&[
            "info depth 6 score cp 31 nodes 900 pv e2e4",
            "info depth 7 seldepth 9 multipv 1 score cp -12 nodes 2000 pv d2d4",
            "info depth 8 score cp 50 lowerbound nodes 2500",
            "bestmove d2d4",
        ]);
        assert_eq!(last_score(&l), Some(-12));
        assert_eq!(
            last_score(&lines(&["info depth 9 score mate 3 pv a1a8"])),
            Some(CAP)
        );
        assert_eq!(
            last_score(&lines(&["info depth 9 score mate -2"])),
            Some(-CAP)
        );
        assert_eq!(
            last_score(&lines(&["info depth 9 score cp 9000"])),
            Some(CAP)
        );
        assert_eq!(last_score(&lines(&["bestmove a2a3"])), None);
    }
}
