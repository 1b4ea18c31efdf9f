//! Fits the pattern evaluation's weights (`src/reversi/weights.bin`) by regularised least
//! squares, solved by preconditioned conjugate gradients (as Zebra fitted its coefficients),
//! in floating point, then rounded to the file's `i16`s.
//!
//! `reversi_fit --data DIR[,DIR...] --out FILE [--start FILE] [--lambda 50] [--prior 64]
//! [--smooth 16] [--iterations 40]` (the defaults are the settings the shipped rounds use)
//!
//! It minimises, over the weights `w` (each tied to its mirror, as `reversi_train` ties them):
//!
//! - the squared error of every position's evaluation against its target (`lambda`% of the
//!   search score plus the rest of the game's result, as in `reversi_train`; every 16th
//!   position is held out and its error printed);
//! - plus `prior` times the squared distance of each weight from the start set (`--start`,
//!   else 0): a configuration the new data rarely shows keeps what the shipped weights knew,
//!   so that knowledge piles up from one round of data to the next even when the old data is
//!   gone;
//! - plus `smooth` times the squared difference of each weight from the same weight in the
//!   next phase: neighbouring phases (5 plies apart) share what each of them sees.
//!
//! The minimum solves a sparse linear system, `(AᵀA + prior I + smooth L) w = Aᵀy + prior
//! w0`, where each row of `A` counts a position's features; conjugate gradients with the
//! diagonal as preconditioner reach it in a few dozen passes over the data. Deterministic:
//! the same data and arguments give the same bytes.
use clap::Parser;
use kgames_reversi::pattern::{self, FEATURES, PHASES, PHASE_WEIGHTS, WEIGHTS};
use reversi_lab::data::read_source;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Regularised least-squares fit of the pattern weights by conjugate gradients.
#[derive(Parser, Debug)]
#[command(name = "reversi_fit", version)]
struct Args {
    /// Data: `reversi_datagen` chunk folders or `reversi_selfplay` files, comma-separated.
    #[arg(long)]
    data: String,
    /// The weights file to write.
    #[arg(long)]
    out: PathBuf,
    /// The weights the fit starts from and is drawn to (default: all 0).
    #[arg(long)]
    start: Option<PathBuf>,
    /// Percent of the target taken from the search score (the rest from the game's result).
    #[arg(long, default_value_t = 50)]
    lambda: i64,
    /// Pull of each weight toward its start value (in positions' worth of zero error).
    #[arg(long, default_value_t = 64.0)]
    prior: f64,
    /// Pull of each weight toward the same weight of the next phase.
    #[arg(long, default_value_t = 16.0)]
    smooth: f64,
    /// Conjugate-gradient iterations.
    #[arg(long, default_value_t = 40)]
    iterations: usize,
}

/// One position: the (canonical) weight index of each of its features, and its target.
struct Row {
    idx: [u32; FEATURES],
    target: f64,
}

/// The training rows' `A p`, then `Aᵀ (A p)`, into `out`.
fn normal(rows: &[Row], p: &[f64], out: &mut [f64]) {
    out.fill(0.0);
    for r in rows {
        let s: f64 = r.idx.iter().map(|&i| p[i as usize]).sum();
        for &i in &r.idx {
            out[i as usize] += s;
        }
    }
}

/// `H p` for the whole system: the data's normal matrix over `rows`, then `prior` and
/// `smooth` as in [`Args`].
fn apply(rows: &[Row], canon: &[bool], prior: f64, smooth: f64, p: &[f64], out: &mut [f64]) {
    normal(rows, p, out);
    for (i, o) in out.iter_mut().enumerate() {
        if canon[i] {
            *o += prior * p[i];
        }
    }
    if smooth > 0.0 {
        for ph in 0..PHASES - 1 {
            let (a, b) = (ph * PHASE_WEIGHTS, (ph + 1) * PHASE_WEIGHTS);
            for k in 0..PHASE_WEIGHTS {
                if canon[a + k] {
                    let d = smooth * (p[a + k] - p[b + k]);
                    out[a + k] += d;
                    out[b + k] -= d;
                }
            }
        }
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Root mean square error (eval units) of `w` over `rows`, as the engine sums (rounded).
fn rms(rows: &[Row], w: &[f64]) -> f64 {
    let se: f64 = rows
        .iter()
        .map(|r| {
            let pred: f64 = r.idx.iter().map(|&i| w[i as usize].round()).sum();
            (r.target - pred).powi(2)
        })
        .sum();
    (se / rows.len().max(1) as f64).sqrt()
}

fn main() -> ExitCode {
    let args = Args::parse();
    if !(args.prior >= 0.0 && args.smooth >= 0.0 && (0..=100).contains(&args.lambda)) {
        eprintln!("reversi_fit: --prior and --smooth must be >= 0, --lambda 0..=100");
        return ExitCode::from(2);
    }
    let mut samples = Vec::new();
    for source in args.data.split(',') {
        read_source(source, args.lambda, &mut samples);
    }
    // Each weight's canonical twin: the smaller of it and its mirror, in the same phase.
    let twin: Vec<usize> = (0..WEIGHTS)
        .map(|i| {
            let base = i / PHASE_WEIGHTS * PHASE_WEIGHTS;
            base + (i % PHASE_WEIGHTS).min(pattern::mirror(i % PHASE_WEIGHTS))
        })
        .collect();
    let canon: Vec<bool> = (0..WEIGHTS).map(|i| twin[i] == i).collect();
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (n, s) in samples.iter().enumerate() {
        let mut f = [0u32; FEATURES];
        let base = pattern::features(s.me, s.opp, &mut f) * PHASE_WEIGHTS;
        let idx = f.map(|x| twin[base + x as usize] as u32);
        let row = Row {
            idx,
            target: s.target as f64,
        };
        if n % 16 == 0 {
            test.push(row);
        } else {
            train.push(row);
        }
    }
    drop(samples);
    let mut w0 = vec![0f64; WEIGHTS];
    if let Some(start) = &args.start {
        let Ok(blob) = std::fs::read(start) else {
            eprintln!("reversi_fit: cannot read {}", start.display());
            return ExitCode::FAILURE;
        };
        let mut w16 = vec![0i16; WEIGHTS];
        if !pattern::parse_weights(&blob, &mut w16) {
            eprintln!("reversi_fit: {}: not a weights file", start.display());
            return ExitCode::FAILURE;
        }
        // A tied pair starts from the mean of its two (equal in a set trained with the ties).
        for i in 0..WEIGHTS {
            if canon[i] {
                let other = i / PHASE_WEIGHTS * PHASE_WEIGHTS + pattern::mirror(i % PHASE_WEIGHTS);
                w0[i] = (f64::from(w16[i]) + f64::from(w16[other])) / 2.0;
            }
        }
    }
    println!(
        "{} positions ({} held out); start: rms error train {:.1} test {:.1} (x 1/100 disc)",
        train.len() + test.len(),
        test.len(),
        rms(&train, &w0),
        rms(&test, &w0)
    );
    // The preconditioner: the system's diagonal.
    let mut diag = vec![0f64; WEIGHTS];
    for r in &train {
        for &i in &r.idx {
            diag[i as usize] += 1.0;
        }
    }
    for (i, d) in diag.iter_mut().enumerate() {
        if canon[i] {
            let ph = i / PHASE_WEIGHTS;
            let neighbours = usize::from(ph > 0) + usize::from(ph + 1 < PHASES);
            *d += args.prior + args.smooth * neighbours as f64;
        }
    }
    let inv = |d: f64| if d > 0.0 { 1.0 / d } else { 0.0 };
    // r = b - H w0, with b = Aᵀy + prior w0: the prior's terms cancel at w0.
    let mut x = w0.clone();
    let mut r = vec![0f64; WEIGHTS];
    for row in &train {
        for &i in &row.idx {
            r[i as usize] += row.target;
        }
    }
    let mut hx = vec![0f64; WEIGHTS];
    apply(&train, &canon, 0.0, args.smooth, &x, &mut hx);
    for (ri, h) in r.iter_mut().zip(&hx) {
        *ri -= h;
    }
    let mut z: Vec<f64> = r.iter().zip(&diag).map(|(ri, d)| ri * inv(*d)).collect();
    let mut p = z.clone();
    let mut rz = dot(&r, &z);
    let mut q = vec![0f64; WEIGHTS];
    for it in 1..=args.iterations {
        apply(&train, &canon, args.prior, args.smooth, &p, &mut q);
        let pq = dot(&p, &q);
        if pq <= 0.0 {
            break;
        }
        let alpha = rz / pq;
        for i in 0..WEIGHTS {
            x[i] += alpha * p[i];
            r[i] -= alpha * q[i];
        }
        for i in 0..WEIGHTS {
            z[i] = r[i] * inv(diag[i]);
        }
        let rz_new = dot(&r, &z);
        let beta = rz_new / rz;
        rz = rz_new;
        for i in 0..WEIGHTS {
            p[i] = z[i] + beta * p[i];
        }
        if it % 10 == 0 || it == args.iterations {
            println!(
                "iteration {it:3}: rms error train {:.1} test {:.1}",
                rms(&train, &x),
                rms(&test, &x)
            );
        }
    }
    let mut blob = pattern::WEIGHTS_MAGIC.to_vec();
    for i in 0..WEIGHTS {
        let v = x[twin[i]]
            .round()
            .clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16;
        blob.extend_from_slice(&v.to_le_bytes());
    }
    if let Err(e) = std::fs::File::create(&args.out).and_then(|mut f| f.write_all(&blob)) {
        eprintln!("reversi_fit: {}: {e}", args.out.display());
        return ExitCode::FAILURE;
    }
    println!("wrote {} ({} bytes)", args.out.display(), blob.len());
    ExitCode::SUCCESS
}
