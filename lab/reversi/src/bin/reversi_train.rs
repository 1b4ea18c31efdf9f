//! Trains the pattern evaluation's weights (`src/reversi/weights.bin`) from self-play data, in
//! integer arithmetic only.
//!
//! `reversi_train <data>[,<data>...] <weights out> [epochs, default 60] [lambda %, default 50]
//! [start weights, or - for none] [step divisor, default 48]`
//!
//! Each data source is a file of `reversi_selfplay` (17-byte records: the target is the
//! game's final disc difference) or a folder of `reversi_datagen` chunks (20-byte records:
//! the target is `lambda`% of the engine's search score plus the rest of the game's result,
//! both in discs). Least squares on the target (x 100, the evaluation's scale): full-batch
//! gradient steps where each weight moves by the mean error of the positions it occurs in,
//! divided by the step divisor, shrunk for rarely seen configurations (the mean is taken over
//! the occurrences plus 8). The weights start at 0, or at a weights file's (a new round starts
//! from the shipped set). Every 16th position is held out and its error printed.
//! Deterministic: no random choices.
//!
//! The step divisor must exceed half the number of features of a position ([`FEATURES`], 49):
//! when every feature of a position moves by its error over the divisor, the prediction moves
//! by the error times 49 / divisor, and above 2 it overshoots by more than the error it
//! corrects. Rounds 1-3 were trained with 24 (the recipe keeps it, to remake their bytes);
//! there the errors grew on more data (round 4's first training). 48 converges.
use kgames_reversi::pattern::{self, FEATURES, PHASE_WEIGHTS, WEIGHTS};
use reversi_lab::data::{read_source, Sample};
use std::io::Write;

/// Each weight moves by its mean error divided by this by default (about the number of
/// features that share a position's error, so that a step does not overshoot).
const STEP_DIV: i64 = 48;

/// Fixed-point scale of the weights during training.
const SCALE: i64 = 1 << 12;

/// The integer square root (bisection).
fn isqrt(v: u64) -> u64 {
    let (mut lo, mut hi) = (0u64, 1u64 << 32);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if mid * mid <= v {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sources = args.first().map_or("out/selfplay.bin", String::as_str);
    let out = args
        .get(1)
        .map_or("src/reversi/weights.bin", String::as_str);
    let epochs: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(60);
    let lambda: i64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(50);
    let step_div: i64 = args.get(5).and_then(|a| a.parse().ok()).unwrap_or(STEP_DIV);
    let mut samples: Vec<Sample> = Vec::new();
    for source in sources.split(',') {
        read_source(source, lambda, &mut samples);
    }
    let features: Vec<(usize, [u32; FEATURES])> = samples
        .iter()
        .map(|s| {
            let mut f = [0u32; FEATURES];
            let ph = pattern::features(s.me, s.opp, &mut f);
            (ph * PHASE_WEIGHTS, f)
        })
        .collect();
    let train = |i: usize| !i.is_multiple_of(16);
    let mut count = vec![0i64; WEIGHTS];
    for (i, (base, f)) in features.iter().enumerate() {
        if train(i) {
            for &x in f {
                count[base + x as usize] += 1;
            }
        }
    }
    println!(
        "{} positions ({} held out), {} of {WEIGHTS} weights seen",
        samples.len(),
        samples.len().div_ceil(16),
        count.iter().filter(|&&c| c > 0).count()
    );
    // Tie each weight to its mirror (same counts, same steps): a symmetric evaluation.
    let mirror: Vec<usize> = (0..WEIGHTS)
        .map(|i| i / PHASE_WEIGHTS * PHASE_WEIGHTS + pattern::mirror(i % PHASE_WEIGHTS))
        .collect();
    let count: Vec<i64> = (0..WEIGHTS)
        .map(|i| {
            if mirror[i] == i {
                count[i]
            } else {
                count[i] + count[mirror[i]]
            }
        })
        .collect();
    let mut w = vec![0i64; WEIGHTS];
    if let Some(start) = args.get(4).filter(|s| *s != "-") {
        let blob = std::fs::read(start).expect("start weights");
        let mut w16 = vec![0i16; WEIGHTS];
        assert!(
            pattern::parse_weights(&blob, &mut w16),
            "{start}: not a weights file"
        );
        for (wi, &v) in w.iter_mut().zip(&w16) {
            *wi = i64::from(v) * SCALE;
        }
        println!("starting from {start}");
    }
    let mut grad = vec![0i64; WEIGHTS];
    for epoch in 1..=epochs {
        grad.fill(0);
        let (mut se_train, mut n_train, mut se_test, mut n_test) = (0u64, 0u64, 0u64, 0u64);
        for (i, ((base, f), s)) in features.iter().zip(&samples).enumerate() {
            let pred: i64 = f.iter().map(|&x| w[base + x as usize]).sum::<i64>() / SCALE;
            let err = s.target - pred;
            let se = (err * err) as u64;
            if train(i) {
                se_train += se;
                n_train += 1;
                for &x in f {
                    grad[base + x as usize] += err;
                }
            } else {
                se_test += se;
                n_test += 1;
            }
        }
        for (i, wi) in w.iter_mut().enumerate() {
            let (c, m) = (count[i], mirror[i]);
            let g = if m == i { grad[i] } else { grad[i] + grad[m] };
            if c > 0 {
                *wi += g * SCALE / (step_div * (c + 8));
            }
        }
        if epoch % 5 == 0 || epoch <= 3 {
            println!(
                "epoch {epoch:3}: rms error train {} test {} (x 1/100 disc)",
                isqrt(se_train / n_train.max(1)),
                isqrt(se_test / n_test.max(1))
            );
        }
    }
    let mut blob = pattern::WEIGHTS_MAGIC.to_vec();
    for wi in &w {
        let v = (wi / SCALE).clamp(i64::from(i16::MIN), i64::from(i16::MAX)) as i16;
        blob.extend_from_slice(&v.to_le_bytes());
    }
    std::fs::File::create(out)
        .and_then(|mut f| f.write_all(&blob))
        .expect("write weights");
    println!("wrote {out} ({} bytes)", blob.len());
}
