//! Texel tuning: the weights that make `1 / (1 + 10^(-K * eval / 400))` predict the game
//! results of the positions best (least squares), by Adam on the whole set; `K` is fitted
//! first with the starting weights. The weights it writes for the engine are integers.

use crate::features::{Features, PHASE_MAX};
use kgames_chess::terms::{SECTIONS, TERMS};

/// Positions with white's score in their games (0, 0.5 or 1).
#[derive(Default)]
pub struct Set {
    /// The positions' features.
    pub features: Vec<Features>,
    /// White's score in each position's game.
    pub results: Vec<f64>,
}

impl Set {
    /// The number of positions.
    pub fn len(&self) -> usize {
        self.features.len()
    }

    /// True for no positions.
    pub fn is_empty(&self) -> bool {
        self.features.is_empty()
    }
}

/// Weights as floats, `[mg, eg]` per term.
pub type Weights = Vec<[f64; 2]>;

/// `weights` as floats.
pub fn to_float(weights: &[[i16; 2]]) -> Weights {
    weights
        .iter()
        .map(|&[a, b]| [f64::from(a), f64::from(b)])
        .collect()
}

/// `weights` rounded to integers.
pub fn to_int(weights: &[[f64; 2]]) -> Vec<[i16; 2]> {
    weights
        .iter()
        .map(|&[a, b]| {
            [
                a.round().clamp(-9999.0, 9999.0) as i16,
                b.round().clamp(-9999.0, 9999.0) as i16,
            ]
        })
        .collect()
}

/// The evaluation from white's side with float weights (the blend unrounded).
fn eval(f: &Features, w: &[[f64; 2]]) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(t, d) in &f.terms {
        if let Some([a, b]) = w.get(usize::from(t)) {
            mg += a * f64::from(d);
            eg += b * f64::from(d);
        }
    }
    let p = f64::from(f.phase) / f64::from(PHASE_MAX);
    mg * p + eg * (1.0 - p)
}

fn sigmoid(k: f64, score: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * score / 400.0))
}

/// The mean squared error of the predictions.
pub fn mse(set: &Set, w: &[[f64; 2]], k: f64) -> f64 {
    let sum: f64 = set
        .features
        .iter()
        .zip(&set.results)
        .map(|(f, r)| (r - sigmoid(k, eval(f, w))).powi(2))
        .sum();
    sum / set.len().max(1) as f64
}

/// The `K` in 0.2..3 that minimises the error with weights `w` (golden-section search).
pub fn fit_k(set: &Set, w: &[[f64; 2]]) -> f64 {
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (0.2, 3.0);
    for _ in 0..40 {
        let c = b - phi * (b - a);
        let d = a + phi * (b - a);
        if mse(set, w, c) < mse(set, w, d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// The gradient of the error with respect to every weight.
fn gradient(set: &Set, w: &[[f64; 2]], k: f64) -> Weights {
    let mut g = vec![[0.0; 2]; w.len()];
    let scale = k * 10f64.ln() / 400.0;
    let n = set.len().max(1) as f64;
    for (f, r) in set.features.iter().zip(&set.results) {
        let s = sigmoid(k, eval(f, w));
        let de = -2.0 * (r - s) * s * (1.0 - s) * scale / n;
        let p = f64::from(f.phase) / f64::from(PHASE_MAX);
        for &(t, d) in &f.terms {
            if let Some(gt) = g.get_mut(usize::from(t)) {
                gt[0] += de * f64::from(d) * p;
                gt[1] += de * f64::from(d) * (1.0 - p);
            }
        }
    }
    g
}

/// Adam's settings.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Full passes over the set.
    pub epochs: u32,
    /// The step size in centipawns.
    pub rate: f64,
    /// Weights of terms seen (with white's and black's counts differing) in fewer training
    /// positions than this, counted by [`occurrences`], keep their starting values: too rare to be fitted, they would only learn
    /// the noise of a few games.
    pub min_count: usize,
    /// Terms (by index) that keep their starting weights whatever the data say.
    pub keep: Vec<bool>,
    /// The weight of a penalty on moving away from the starting weights, added to the
    /// error: `l2 * sum((w - w0) / 100)^2` over every weight (rare features then move
    /// little, common ones as far as the data say).
    pub l2: f64,
}

/// For each term, in how many positions of `set` it has a nonzero coefficient, weighted by
/// the share of the middle-game and of the endgame weight in each (a term seen only in
/// endgames has almost nothing to fit its middle-game weight on).
pub fn occurrences(set: &Set) -> Vec<[f64; 2]> {
    let mut n = vec![[0.0; 2]; TERMS];
    for f in &set.features {
        let p = f64::from(f.phase) / f64::from(PHASE_MAX);
        for &(t, _) in &f.terms {
            if let Some(c) = n.get_mut(usize::from(t)) {
                c[0] += p;
                c[1] += 1.0 - p;
            }
        }
    }
    n
}

/// Tunes `w` in place on `set` with `k`, calling `report(epoch, error)` every 50 epochs.
pub fn tune(set: &Set, w: &mut [[f64; 2]], k: f64, s: &Settings, mut report: impl FnMut(u32, f64)) {
    let (b1, b2, eps): (f64, f64, f64) = (0.9, 0.999, 1e-8);
    let mut m = vec![[0.0; 2]; w.len()];
    let mut v = vec![[0.0; 2]; w.len()];
    let start = w.to_vec();
    let min = s.min_count as f64;
    let free: Vec<[bool; 2]> = occurrences(set)
        .iter()
        .zip(s.keep.iter().chain(core::iter::repeat(&false)))
        .map(|(n, &keep)| [n[0] >= min && !keep, n[1] >= min && !keep])
        .collect();
    for epoch in 1..=s.epochs {
        let mut g = gradient(set, w, k);
        for ((gt, wt), w0) in g.iter_mut().zip(w.iter()).zip(&start) {
            for i in 0..2 {
                gt[i] += 2.0 * s.l2 * (wt[i] - w0[i]) / 10_000.0;
            }
        }
        for (gt, f) in g.iter_mut().zip(&free) {
            for (gi, &fi) in gt.iter_mut().zip(f) {
                if !fi {
                    *gi = 0.0;
                }
            }
        }
        let c1 = 1.0 - b1.powi(epoch as i32);
        let c2 = 1.0 - b2.powi(epoch as i32);
        for (((wt, gt), mt), vt) in w.iter_mut().zip(&g).zip(&mut m).zip(&mut v) {
            for i in 0..2 {
                mt[i] = b1 * mt[i] + (1.0 - b1) * gt[i];
                vt[i] = b2 * vt[i] + (1.0 - b2) * gt[i] * gt[i];
                wt[i] -= s.rate * (mt[i] / c1) / ((vt[i] / c2).sqrt() + eps);
            }
        }
        if epoch.is_multiple_of(50) || epoch == s.epochs {
            report(epoch, mse(set, w, k));
        }
    }
}

/// The text of `src/chess/weights.rs` for `weights`, `how` saying how they were made.
pub fn weights_file(weights: &[[i16; 2]], how: &str) -> String {
    let mut out = String::new();
    out.push_str(
        "//! The evaluation's weights (middle game, endgame) in centipawns, in the layout of\n\
         //! [`super::terms`]. Written by `chess-tune` (lab/chess-tuning.md):\n\
         //! regenerate rather than edit.\n",
    );
    for line in how.lines() {
        out.push_str("//! ");
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(
        "\nuse super::terms::TERMS;\n\n/// `[mg, eg]` per term.\n#[rustfmt::skip]\n\
         pub static WEIGHTS: [[i16; 2]; TERMS] = [\n",
    );
    for (i, &(name, start)) in SECTIONS.iter().enumerate() {
        let end = SECTIONS.get(i + 1).map_or(TERMS, |s| s.1);
        out.push_str(&format!("    // {name}\n"));
        for row in weights.get(start..end).unwrap_or(&[]).chunks(8) {
            let cells: Vec<String> = row.iter().map(|[a, b]| format!("[{a}, {b}],")).collect();
            out.push_str(&format!("    {}\n", cells.join(" ")));
        }
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::features;
    use kgames_chess::position::Position;
    use kgames_chess::terms::MATERIAL;
    use kgames_chess::weights::WEIGHTS;

    fn set(samples: &[(&str, f64)]) -> Set {
        let mut s = Set::default();
        for &(fen, r) in samples {
            let pos = Position::from_fen(fen.as_bytes()).expect("a FEN");
            s.features.push(features(&pos).expect("no bare king"));
            s.results.push(r);
        }
        s
    }

    /// Games where the side with an extra knight always wins teach a higher knight value;
    /// the error falls.
    #[test]
    fn tuning_follows_the_results() {
        let s = set(&[
            ("4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1", 1.0),
            ("1n2k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", 0.0),
            ("4k3/4pppp/8/8/8/8/4PPPP/4K1N1 b - - 0 1", 1.0),
            ("4k1n1/4pppp/8/8/8/8/4PPPP/4K3 b - - 0 1", 0.0),
        ]);
        let mut w = to_float(&WEIGHTS);
        let knight = MATERIAL + 1;
        let before = w[knight];
        let e0 = mse(&s, &w, 1.0);
        let rate = Settings {
            epochs: 100,
            rate: 1.0,
            min_count: 1,
            keep: Vec::new(),
            l2: 0.0,
        };
        tune(&s, &mut w, 1.0, &rate, |_, _| {});
        assert!(mse(&s, &w, 1.0) < e0);
        assert!(
            w[knight][1] > before[1] + 50.0,
            "{:?} -> {:?}",
            before,
            w[knight]
        );
    }

    /// The shipped weights file is this writer's output for the shipped weights: its layout
    /// and sections are the tuner's, so the tuner can rewrite it.
    #[test]
    fn shipped_weights_file_is_the_writers_output() {
        let shipped = include_str!("../../../src/chess/weights.rs");
        let how: Vec<&str> = shipped
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .skip(3)
            .map(|l| l.trim_start_matches("//! ").trim_start_matches("//!"))
            .collect();
        assert_eq!(weights_file(&WEIGHTS, &how.join("\n")), shipped);
    }
}
