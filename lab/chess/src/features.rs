//! A position as the evaluation sees it: for every term, white's count minus black's, and
//! the game phase, read by [`kgames_chess::eval::evaluate_terms`] itself, so the tuner fits
//! exactly the features the engine scores.

pub use kgames_chess::eval::PHASE_MAX;
use kgames_chess::eval::{evaluate_terms, is_bare, Terms};
use kgames_chess::position::Position;
use kgames_chess::square::Color;
use kgames_chess::terms::TERMS;

/// One position's terms.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// `(term, white's count - black's)` for the terms whose counts differ.
    pub terms: Vec<(u16, i16)>,
    /// The game phase (0..=24).
    pub phase: i32,
}

/// A sink that counts the terms per colour.
struct Counts {
    counts: Vec<[i32; 2]>,
    touched: Vec<usize>,
}

impl Terms for Counts {
    fn add(&mut self, color: Color, term: usize, count: i32) {
        if let Some(c) = self.counts.get_mut(term) {
            if c == &[0, 0] {
                self.touched.push(term);
            }
            c[color.index() & 1] += count;
        }
    }
}

/// The features of `pos`, or `None` when a side has a bare king (the evaluation then adds
/// its mop-up term, which is not tuned).
pub fn features(pos: &Position) -> Option<Features> {
    if is_bare(pos, Color::White) || is_bare(pos, Color::Black) {
        return None;
    }
    let mut counts = Counts {
        counts: vec![[0, 0]; TERMS],
        touched: Vec::new(),
    };
    let phase = evaluate_terms(pos, &mut counts);
    counts.touched.sort_unstable();
    counts.touched.dedup();
    let terms = counts
        .touched
        .iter()
        .filter_map(|&t| {
            let [w, b] = *counts.counts.get(t)?;
            let d = i16::try_from(w - b).ok()?;
            (d != 0).then_some((t as u16, d))
        })
        .collect();
    Some(Features { terms, phase })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The evaluation from white's side before the mop-up term, in integers exactly as the
    /// engine computes it, for weights `w`.
    fn white_score(f: &Features, w: &[[i16; 2]]) -> i32 {
        let (mut mg, mut eg) = (0i32, 0i32);
        for &(t, d) in &f.terms {
            let [a, b] = w.get(usize::from(t)).copied().unwrap_or([0, 0]);
            mg += i32::from(a) * i32::from(d);
            eg += i32::from(b) * i32::from(d);
        }
        (mg * f.phase + eg * (PHASE_MAX - f.phase)) / PHASE_MAX
    }
    use kgames_chess::eval::evaluate;
    use kgames_chess::weights::WEIGHTS;

    /// The features with the shipped weights give the engine's own evaluation (up to the
    /// rounding of the blend, which the engine does per colour), for white and black to
    /// move.
    #[test]
    fn features_score_like_the_engine() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
        ] {
            let pos = Position::from_fen(fen.as_bytes()).expect("a FEN");
            let f = features(&pos).expect("no bare king");
            let white = white_score(&f, &WEIGHTS);
            let ours = match pos.turn() {
                Color::White => evaluate(&pos),
                Color::Black => -evaluate(&pos),
            };
            assert!((white - ours).abs() <= 1, "{fen}: {white} vs {ours}");
        }
        let start = Position::startpos();
        let f = features(&start).expect("no bare king");
        assert_eq!(f.phase, 24);
        // The start is symmetric but for the side to move.
        let tempo = kgames_chess::terms::TEMPO as u16;
        assert_eq!(f.terms, vec![(tempo, 1)]);
    }
}
