//! `chess-tune`: Texel tuning of the chess evaluation's weights on positions written by
//! `chess-datagen`; writes `src/chess/weights.rs` (or `--out`). Every tenth position is held
//! out and its error printed before and after, so overfitting shows.

use chess_lab::data::parse_line;
use chess_lab::features::features;
use chess_lab::texel::{fit_k, mse, to_float, to_int, tune, weights_file, Set, Settings};
use clap::Parser;
use kgames_chess::position::Position;
use kgames_chess::terms::{SECTIONS, TERMS};
use kgames_chess::weights::WEIGHTS;
use std::path::PathBuf;

/// Texel tuning of the chess evaluation (src/chess/weights.rs) on positions written by
/// chess-datagen.
#[derive(Parser, Debug)]
#[command(name = "chess-tune", version)]
struct Args {
    /// Positions files (`<FEN>;<result>` lines), read in order.
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Full passes of Adam over the training positions.
    #[arg(long, default_value_t = 1000)]
    epochs: u32,
    /// Adam's step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Terms seen in fewer training positions keep their starting weights.
    #[arg(long, default_value_t = 2000)]
    min_count: usize,
    /// Sections of the weights file (their names' first words, as `material` or
    /// `piece-square`) that keep their starting values.
    #[arg(long, value_delimiter = ',')]
    keep: Vec<String>,
    /// The penalty on moving away from the starting weights: `l2 * sum((w - w0) / 100)^2`
    /// is added to the error.
    #[arg(long, default_value_t = 0.0)]
    l2: f64,
    /// The weight of the reference score (`chess-label`'s third field, as a win
    /// probability 1 / (1 + 10^(-cp / 400))) in each position's target, the game result
    /// having the rest; lines without a score are skipped when it is above 0.
    #[arg(long, default_value_t = 0.0)]
    lambda: f64,
    /// Use at most this many positions (0: all).
    #[arg(long, default_value_t = 0)]
    max_positions: usize,
    /// Where to write the weights (default: print the error only).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// The terms of the sections named (by a prefix of their names) in `keep`.
fn kept_terms(keep: &[String]) -> Vec<bool> {
    let mut kept = vec![false; TERMS];
    for (i, &(name, start)) in SECTIONS.iter().enumerate() {
        let end = SECTIONS.get(i + 1).map_or(TERMS, |s| s.1);
        if keep.iter().any(|k| name.starts_with(k.as_str())) {
            for t in kept.get_mut(start..end).unwrap_or(&mut []) {
                *t = true;
            }
        }
    }
    kept
}

fn main() {
    let args = Args::parse();
    let (mut train, mut check) = (Set::default(), Set::default());
    let (mut read, mut skipped) = (0usize, 0usize);
    'files: for path in &args.data {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("chess-tune: {}: {e}", path.display());
                std::process::exit(1);
            }
        };
        for line in text.lines() {
            if args.max_positions > 0 && read >= args.max_positions {
                break 'files;
            }
            let Some(sample) = parse_line(line) else {
                skipped += 1;
                continue;
            };
            let target = match (sample.score, args.lambda > 0.0) {
                (_, false) => f64::from(sample.result.white_halves()) / 2.0,
                (Some(cp), true) => {
                    let reference = 1.0 / (1.0 + 10f64.powf(-f64::from(cp) / 400.0));
                    let result = f64::from(sample.result.white_halves()) / 2.0;
                    args.lambda * reference + (1.0 - args.lambda) * result
                }
                (None, true) => {
                    skipped += 1;
                    continue;
                }
            };
            let Some(f) = Position::from_fen(sample.fen.as_bytes())
                .ok()
                .and_then(|p| features(&p))
            else {
                skipped += 1;
                continue;
            };
            let set = if read % 10 == 9 {
                &mut check
            } else {
                &mut train
            };
            set.features.push(f);
            set.results.push(target);
            read += 1;
        }
    }
    if train.is_empty() {
        eprintln!("chess-tune: no positions");
        std::process::exit(1);
    }
    println!(
        "{} positions ({} training, {} held out), {} lines skipped",
        read,
        train.len(),
        check.len(),
        skipped
    );
    let mut w = to_float(&WEIGHTS);
    let k = fit_k(&train, &w);
    let (train0, check0) = (mse(&train, &w, k), mse(&check, &w, k));
    println!("K = {k:.4}; error before: training {train0:.6}, held out {check0:.6}");
    let settings = Settings {
        epochs: args.epochs,
        rate: args.rate,
        min_count: args.min_count,
        keep: kept_terms(&args.keep),
        l2: args.l2,
    };
    let frozen: usize = chess_lab::texel::occurrences(&train)
        .iter()
        .map(|n| n.iter().filter(|&&c| c < args.min_count as f64).count())
        .sum();
    println!(
        "{frozen} weights of terms seen in fewer than {} positions (by phase) keep their values",
        args.min_count
    );
    tune(&train, &mut w, k, &settings, |epoch, e| {
        println!("epoch {epoch}: training {e:.6}");
    });
    let tuned = to_int(&w);
    let wi = to_float(&tuned);
    let (train1, check1) = (mse(&train, &wi, k), mse(&check, &wi, k));
    println!("error after (integer weights): training {train1:.6}, held out {check1:.6}");
    if let Some(out) = &args.out {
        let how = format!(
            "Tuned from the weights before on {} positions (K = {k:.4}, {} epochs at rate {}, weights\n\
             of terms seen in fewer than {} positions by phase kept; sections kept: {}; l2 {};\n\
             reference-score weight {}):\n\
             mean squared error on the {} held-out positions {check0:.6} -> {check1:.6}.",
            train.len(),
            args.epochs,
            args.rate,
            args.min_count,
            if args.keep.is_empty() { "none".to_string() } else { args.keep.join(", ") },
            args.l2,
            args.lambda,
            check.len()
        );
        if let Err(e) = std::fs::write(out, weights_file(&tuned, &how)) {
            eprintln!("chess-tune: {}: {e}", out.display());
            std::process::exit(1);
        }
        println!("wrote {}", out.display());
    }
}
