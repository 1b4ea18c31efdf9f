//! `chess-nnue`: trains the chess network on `chess-datagen --scores` positions and writes it
//! in the engine's format (`src/chess/nnue.bin`). Deterministic for its arguments.

use chess_lab::nnue::{
    agreement, classic_loss, load, loss, train_from, Model, Progress, Schedule, Train,
};
use clap::{Parser, ValueEnum};
use kgames_chess::nnue::{Activation, Network};
use std::path::{Path, PathBuf};

/// Trains the chess network (768 -> H) x 2 -> 1 (or 8 outputs by the number of pieces) on self-play positions with search scores
/// and game results, then quantises it to integers for the engine.
#[derive(Parser, Debug)]
#[command(name = "chess-nnue", version)]
struct Args {
    /// A positions file or a folder of chunk files (chess-datagen --scores); FOLDER:N reads
    /// only its first N chunk files. Repeatable: read in the order given, the held-out
    /// positions are the last ones.
    #[arg(long, required = true, value_name = "PATH[:N]")]
    data: Vec<String>,
    /// The network file to write.
    #[arg(long)]
    out: PathBuf,
    /// Hidden size H (1-256).
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u16).range(1..=256))]
    hidden: u16,
    /// Output activation.
    #[arg(long, value_enum, default_value_t = Act::Screlu)]
    activation: Act,
    /// King buckets: sets of feature weights by each side's own king's zone (1 for none, 4
    /// or 8). With --init of a network without, each set starts as its copy.
    #[arg(long, default_value_t = 1, value_parser = king_buckets)]
    king_buckets: usize,
    /// Output buckets: sets of output weights and bias by the number of pieces on the board
    /// (1 for none, or 8: (pieces - 2) / 4). With --init of a network without, each starts
    /// as a copy of its output.
    #[arg(long, default_value_t = 1, value_parser = output_buckets)]
    output_buckets: usize,
    /// Passes over the data.
    #[arg(long, default_value_t = 10)]
    epochs: u32,
    /// Positions per step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Adam's learning rate at the start.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// How the learning rate falls: `step` (a tenth of it for the last quarter of the
    /// epochs) or `cosine` (half a cosine, step by step, to a hundredth of it at the end).
    #[arg(long, value_enum, default_value_t = Schedule::Step)]
    schedule: Schedule,
    /// The weight of the search score in the target; the game result has the rest.
    #[arg(long, default_value_t = 0.75)]
    lambda: f32,
    /// Positions held out for validation (the last ones read).
    #[arg(long, default_value_t = 10_000)]
    validation: usize,
    /// Read at most this many positions (28 bytes of memory each; `--mirror` makes its
    /// images in the batches); the reading stops there, and says so.
    #[arg(long, default_value_t = 300_000_000)]
    max_positions: usize,
    /// Adds every training position mirrored left to right (files a <-> h).
    #[arg(long)]
    mirror: bool,
    /// Threads per batch.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// The seed of the initial weights and of the shuffle.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start from this network file (e.g. the shipped src/chess/nnue.bin) instead of random
    /// weights; its hidden size, activation and buckets replace --hidden, --activation,
    /// --king-buckets and --output-buckets (a network without king or output buckets is
    /// copied into each of --king-buckets or --output-buckets).
    #[arg(long, value_name = "FILE")]
    init: Option<PathBuf>,
    /// Keep the training's state in FILE after each epoch, and continue from it when it
    /// exists (a stopped run goes on where it stopped, with the bytes of an unstopped one);
    /// refused if another run (settings, data size) made it.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
}

/// The output activation on the command line.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Act {
    /// Clipped ReLU.
    Crelu,
    /// Squared clipped ReLU.
    Screlu,
}

/// `--king-buckets`: 1, 4 or 8.
fn king_buckets(s: &str) -> Result<usize, String> {
    match s.parse() {
        Ok(b @ (1 | 4 | 8)) => Ok(b),
        _ => Err(format!("{s}: 1, 4 or 8 sets")),
    }
}

/// `--output-buckets`: 1 or 8.
fn output_buckets(s: &str) -> Result<usize, String> {
    match s.parse() {
        Ok(b @ (1 | 8)) => Ok(b),
        _ => Err(format!("{s}: 1 or 8 output buckets")),
    }
}

fn main() {
    let args = Args::parse();
    let t0 = std::time::Instant::now();
    let (mut set, mut positions) = (Vec::new(), Vec::new());
    for spec in &args.data {
        let (path, files) = match spec.rsplit_once(':') {
            Some((p, n)) if n.parse::<usize>().is_ok() => (p, n.parse().unwrap_or(usize::MAX)),
            _ => (spec.as_str(), usize::MAX),
        };
        match load(
            Path::new(path),
            files,
            args.max_positions,
            args.validation,
            &mut set,
        ) {
            Ok(p) => positions.extend(p),
            Err(e) => {
                eprintln!("chess-nnue: {path}: {e}");
                std::process::exit(1);
            }
        }
    }
    if set.len() >= args.max_positions {
        eprintln!(
            "chess-nnue: read only the first {} positions (--max-positions); the rest of the data is not used",
            set.len()
        );
    }
    let keep = positions.len().saturating_sub(args.validation);
    positions.drain(..keep);
    if set.len() <= args.validation {
        eprintln!(
            "chess-nnue: {} positions with scores, need more than --validation {}",
            set.len(),
            args.validation
        );
        std::process::exit(1);
    }
    let held = set.split_off(set.len() - args.validation);
    let copies = if args.mirror { 2 } else { 1 };
    eprintln!(
        "{} training and {} held-out positions read in {:.1} s",
        copies * set.len(),
        held.len(),
        t0.elapsed().as_secs_f64()
    );
    let activation = match args.activation {
        Act::Crelu => Activation::ClippedRelu,
        Act::Screlu => Activation::SquaredClippedRelu,
    };
    eprintln!(
        "the classic evaluation's held-out loss: {:.6}",
        classic_loss(&positions, &held, args.lambda)
    );
    let buckets = args.king_buckets;
    let mut model = match &args.init {
        None => Model::shaped(
            usize::from(args.hidden),
            activation,
            buckets,
            args.output_buckets,
            args.seed,
        ),
        Some(path) => match std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|b| Model::dequantise(&b))
        {
            Ok(m) => {
                let m = match m.spread(buckets) {
                    Some(spread) if buckets > 1 => spread,
                    _ => m,
                };
                let m = match m.spread_outputs() {
                    Some(spread) if args.output_buckets > 1 => spread,
                    _ => m,
                };
                eprintln!(
                    "starting from {}: H = {}, {:?}, {} king buckets, {} outputs, held-out loss {:.6}",
                    path.display(),
                    m.hidden,
                    m.activation,
                    m.buckets,
                    m.outputs,
                    loss(&m, &held, args.lambda)
                );
                m
            }
            Err(e) => {
                eprintln!("chess-nnue: {}: {e}", path.display());
                std::process::exit(1);
            }
        },
    };
    let settings = Train {
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        schedule: args.schedule,
        lambda: args.lambda,
        threads: args.threads,
        seed: args.seed,
        mirror: args.mirror,
    };
    let mut progress = Progress::new(&model);
    if let Some(path) = &args.checkpoint {
        match std::fs::read(path) {
            Ok(bytes) => match Progress::resume(&bytes, &mut model, &settings, set.len()) {
                Ok(p) => {
                    eprintln!(
                        "continuing from {} after epoch {}: held-out loss {:.6}",
                        path.display(),
                        p.epoch,
                        loss(&model, &held, args.lambda)
                    );
                    progress = p;
                }
                Err(e) => {
                    eprintln!(
                        "chess-nnue: {}: {e}; delete it to start over",
                        path.display()
                    );
                    std::process::exit(1);
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                eprintln!("chess-nnue: {}: {e}", path.display());
                std::process::exit(1);
            }
        }
    }
    let t1 = std::time::Instant::now();
    let (n, first) = (copies * set.len(), progress.epoch);
    train_from(
        &mut model,
        &mut progress,
        &set,
        &settings,
        |epoch, l, m, p| {
            let secs = t1.elapsed().as_secs_f64();
            eprintln!(
            "epoch {epoch}: train loss {l:.6}, held-out loss {:.6}, {secs:.0} s ({:.0} positions/s)",
            loss(m, &held, args.lambda),
            (n as f64 * f64::from(epoch - first)) / secs.max(1e-9)
        );
            if let Some(path) = &args.checkpoint {
                // Written whole, then renamed: a stop while writing keeps the last epoch's.
                let tmp = path.with_extension("tmp");
                let written = std::fs::write(&tmp, p.checkpoint(m, &settings, set.len()))
                    .and_then(|()| std::fs::rename(&tmp, path));
                if let Err(e) = written {
                    eprintln!("chess-nnue: {}: {e}", path.display());
                    std::process::exit(1);
                }
            }
        },
    );
    let bytes = model.quantise();
    let net = match Network::parse(&bytes) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("chess-nnue: the quantised network is refused: {e}");
            std::process::exit(1);
        }
    };
    let a = agreement(&model, &net, &positions);
    eprintln!(
        "float and integer evaluations on {} held-out positions: mean difference {:.2} cp, \
         largest {:.1} cp, {} beyond the quantisation bound",
        a.positions, a.mean, a.worst, a.beyond_bound
    );
    if a.beyond_bound > 0 {
        eprintln!("chess-nnue: the integer network is not the float one: nothing written");
        std::process::exit(1);
    }
    if let Err(e) = std::fs::write(&args.out, &bytes) {
        eprintln!("chess-nnue: {}: {e}", args.out.display());
        std::process::exit(1);
    }
    eprintln!(
        "{}: H = {}, {:?}, {} king buckets, {} outputs, {} bytes, {:.0} s in all",
        args.out.display(),
        net.hidden(),
        net.activation(),
        net.buckets(),
        net.outputs(),
        bytes.len(),
        t0.elapsed().as_secs_f64()
    );
}
