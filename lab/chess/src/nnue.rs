//! Training the chess network (host only, floating point): the data set (`chess-datagen
//! --scores` lines as feature lists), the float model of [`kgames_chess::nnue`]'s network,
//! its training (mini-batch Adam on 2 threads, deterministic for a seed and thread count) and
//! its quantisation to the engine's byte format.

use crate::data::{parse_line, Result3};
use kgames_chess::nnue::{
    king_bucket, net_len, output_bucket, Activation, Network, HEADER, INPUTS, MAGIC, MAX_FT,
    MAX_OUTPUTS, QA, QB, SCALE,
};
use kgames_chess::position::Position;
use kgames_chess::square::Color;
use std::path::Path;

/// The most pieces a position has.
const MAX_PIECES: usize = 32;

/// One training position, 28 bytes, so that 300 M+ positions fit in memory: the board as its
/// occupied squares and a nibble per piece, the side to move, its score and the game's
/// result. `Entry::features` lists the side to move's features in the order of
/// `(colour, role, square)`, the order the trainer has always summed them in.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The occupied squares as a little-endian bitboard (a1 = bit 0), bytes so that the
    /// entry needs no 8-byte alignment.
    occupied: [u8; 8],
    /// The piece on each occupied square in square order, a nibble each (the low nibble
    /// first): `colour * 6 + role`.
    pieces: [u8; MAX_PIECES / 2],
    /// The search's score for the side to move, centipawns.
    pub score: i16,
    /// The game's result for the side to move: 0, 1 or 2 halves of a point.
    pub result: u8,
    /// [`BLACK_TO_MOVE`] and [`MIRRORED`].
    flags: u8,
}

/// [`Entry::flags`]: black is to move.
const BLACK_TO_MOVE: u8 = 1;
/// [`Entry::flags`]: the position is seen mirrored left to right.
const MIRRORED: u8 = 2;

/// The other perspective's feature of a piece whose feature is `f` from one side: own and
/// enemy swapped (the halves of the 768), the board mirrored rank 1 <-> rank 8 (see
/// `kgames_chess::nnue::feature`).
fn them(f: u16) -> u16 {
    ((f + 384) % 768) ^ 56
}

impl Entry {
    /// The entry of `pos` with the score and result from white's side (at most
    /// `MAX_PIECES` pieces kept, the rest dropped: no legal position has more).
    pub fn new(pos: &Position, white_cp: i32, result: Result3) -> Entry {
        let stm = pos.turn();
        let mut e = Entry {
            occupied: [0; 8],
            pieces: [0; MAX_PIECES / 2],
            score: 0,
            result: 0,
            flags: if stm == Color::Black {
                BLACK_TO_MOVE
            } else {
                0
            },
        };
        let (mut occupied, mut n) = (0u64, 0);
        for sq in pos.occupied() {
            let Some(piece) = pos.piece_at(sq) else {
                continue;
            };
            if n == MAX_PIECES {
                break;
            }
            let code = (piece.color.index() * 6 + piece.role.index()) as u8;
            e.pieces[n / 2] |= code << (4 * (n % 2));
            occupied |= 1 << sq.index();
            n += 1;
        }
        e.occupied = occupied.to_le_bytes();
        let white_halves = result.white_halves() as u8;
        let (cp, halves) = match stm {
            Color::White => (white_cp, white_halves),
            Color::Black => (-white_cp, 2 - white_halves),
        };
        e.score = cp.clamp(-20_000, 20_000) as i16;
        e.result = halves;
        e
    }

    /// The same position mirrored left to right (files a <-> h): the same evaluation for a
    /// network that does not see castling rights (the features do not).
    pub fn mirrored(&self) -> Entry {
        let mut e = self.clone();
        e.flags ^= MIRRORED;
        e
    }

    /// The pieces on the board.
    fn len(&self) -> usize {
        u64::from_le_bytes(self.occupied).count_ones() as usize
    }

    /// The output bucket among `outputs` ([`output_bucket`]).
    fn output_bucket(&self, outputs: usize) -> usize {
        output_bucket(outputs, self.len() as u32)
    }

    /// The features of both perspectives, the side to move's first (`len` of each used):
    /// `kgames_chess::nnue::feature` of each piece, white's pieces first, by role, then by
    /// square; with `buckets` king buckets, each perspective's in the set of its own king's
    /// zone ([`king_bucket`]: set `b`'s features are `b * 768 + f`).
    fn features(&self, buckets: usize) -> ([u16; MAX_PIECES], [u16; MAX_PIECES], usize) {
        let occupied = u64::from_le_bytes(self.occupied);
        let (stm, flip) = match self.flags & BLACK_TO_MOVE {
            0 => (0, 0),
            _ => (1, 56),
        };
        let file = if self.flags & MIRRORED != 0 { 7 } else { 0 };
        let n = self.len().min(MAX_PIECES);
        let nibble = |k: usize| usize::from(self.pieces[k / 2] >> (4 * (k % 2))) & 15;
        // A counting sort by piece: where each piece's features start.
        let mut start = [0usize; 16];
        for k in 0..n {
            start[nibble(k)] += 1;
        }
        let mut at = 0;
        for s in start.iter_mut() {
            (*s, at) = (at, at + *s);
        }
        let (mut us, mut t) = ([0; MAX_PIECES], [0; MAX_PIECES]);
        let mut bits = occupied;
        for k in 0..n {
            let sq = bits.trailing_zeros() as u16;
            bits &= bits - 1;
            let code = nibble(k);
            let (color, role) = (code / 6, (code % 6) as u16);
            let side = u16::from(color != stm);
            let i = start[code];
            start[code] += 1;
            us[i] = ((side * 6 + role) * 64 + (sq ^ flip)) ^ file;
            t[i] = them(us[i]);
        }
        if buckets > 1 {
            // Each side's own king: role 5 of the side's own half of its features.
            let king = |list: &[u16; MAX_PIECES]| {
                let k = list.iter().take(n).find(|&&f| f / 64 == 5).copied();
                king_bucket(buckets, usize::from(k.unwrap_or(0) % 64)) as u16 * INPUTS as u16
            };
            let (set_us, set_them) = (king(&us), king(&t));
            us.iter_mut().take(n).for_each(|f| *f += set_us);
            t.iter_mut().take(n).for_each(|f| *f += set_them);
        }
        (us, t, n)
    }
}

/// Appends to `out` the positions of a file or of the first `files` `*.txt` files of a folder
/// (sorted by name), skipping lines without a score, until `out` holds `max`. Returns the
/// last `last` of those read as positions (the held-out set, for the agreement check).
///
/// Positions come in file order; [`Train::mirror`] adds their mirror images in training.
pub fn load(
    path: &Path,
    files: usize,
    max: usize,
    last: usize,
    out: &mut Vec<Entry>,
) -> std::io::Result<Vec<Position>> {
    let mut paths = Vec::new();
    if path.is_dir() {
        for e in std::fs::read_dir(path)? {
            let p = e?.path();
            if p.extension().is_some_and(|x| x == "txt") {
                paths.push(p);
            }
        }
        paths.sort();
        paths.truncate(files);
    } else {
        paths.push(path.to_path_buf());
    }
    let mut tail = std::collections::VecDeque::with_capacity(last + 1);
    'files: for f in paths {
        let text = std::fs::read_to_string(&f)?;
        for line in text.lines() {
            if out.len() >= max {
                break 'files;
            }
            let Some(s) = parse_line(line) else { continue };
            let (Some(cp), Ok(pos)) = (s.score, Position::from_fen(s.fen.as_bytes())) else {
                continue;
            };
            out.push(Entry::new(&pos, cp, s.result));
            tail.push_back(pos);
            if tail.len() > last {
                tail.pop_front();
            }
        }
    }
    Ok(tail.into())
}

/// The float network: `(768 -> H) x 2 -> 1`, the output's weights and bias chosen among
/// `outputs` by the number of pieces.
#[derive(Clone, Debug)]
pub struct Model {
    /// Hidden size.
    pub hidden: usize,
    /// Output activation.
    pub activation: Activation,
    /// Sets of feature weights: 1, or the king buckets.
    pub buckets: usize,
    /// Feature weights, feature-major (`buckets x INPUTS x hidden`).
    pub w1: Vec<f32>,
    /// Feature biases.
    pub b1: Vec<f32>,
    /// Output buckets: 1, or [`MAX_OUTPUTS`] ([`output_bucket`]).
    pub outputs: usize,
    /// Output weights (`outputs x 2 x hidden`: bucket by bucket, side to move, other side).
    pub w2: Vec<f32>,
    /// Output biases, one per bucket.
    pub b2: Vec<f32>,
}

/// The float feature weight limit matching [`MAX_FT`].
pub fn clip_ft() -> f32 {
    MAX_FT as f32 / QA as f32
}

/// The float output weight limit (quantised weights fit i16).
pub fn clip_out() -> f32 {
    32_000.0 / QB as f32
}

#[inline(always)]
fn act(a: Activation, x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    match a {
        Activation::ClippedRelu => c,
        Activation::SquaredClippedRelu => c * c,
    }
}

#[inline(always)]
fn act_grad(a: Activation, x: f32) -> f32 {
    if x <= 0.0 || x >= 1.0 {
        return 0.0;
    }
    match a {
        Activation::ClippedRelu => 1.0,
        Activation::SquaredClippedRelu => 2.0 * x,
    }
}

/// A small deterministic generator for initialisation and shuffling (the engines' SplitMix64).
struct SplitMix(kgames_common::rng::Rng);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in -1..1.
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}

impl Model {
    /// A model with small random weights.
    pub fn new(hidden: usize, activation: Activation, seed: u64) -> Model {
        Model::with_buckets(hidden, activation, 1, seed)
    }

    /// A model with small random weights and `buckets` sets of feature weights (1, 4 or 8:
    /// [`king_bucket`]); with 1, the weights of [`Model::new`].
    pub fn with_buckets(hidden: usize, activation: Activation, buckets: usize, seed: u64) -> Model {
        Model::shaped(hidden, activation, buckets, 1, seed)
    }

    /// A model with small random weights, `buckets` sets of feature weights and `outputs`
    /// output buckets (1 or [`MAX_OUTPUTS`]); with one output, the weights of
    /// [`Model::with_buckets`] (the first bucket's are drawn first).
    pub fn shaped(
        hidden: usize,
        activation: Activation,
        buckets: usize,
        outputs: usize,
        seed: u64,
    ) -> Model {
        let mut rng = SplitMix(kgames_common::rng::Rng::new(seed));
        let s1 = (1.0 / 32.0f32).sqrt();
        let s2 = (1.0 / hidden as f32).sqrt();
        Model {
            hidden,
            activation,
            buckets,
            w1: (0..buckets * INPUTS * hidden)
                .map(|_| rng.unit() * s1)
                .collect(),
            b1: (0..hidden).map(|_| rng.unit() * 0.1 + 0.1).collect(),
            outputs,
            w2: (0..outputs * 2 * hidden).map(|_| rng.unit() * s2).collect(),
            b2: vec![0.0; outputs],
        }
    }

    #[inline(always)]
    fn accumulate(&self, feats: &[u16], acc: &mut [f32]) {
        acc.copy_from_slice(&self.b1);
        for &f in feats {
            let col = &self.w1[usize::from(f) * self.hidden..][..self.hidden];
            for (a, w) in acc.iter_mut().zip(col) {
                *a += w;
            }
        }
    }

    /// The float output (centipawns / [`SCALE`]) of an entry.
    pub fn forward(&self, e: &Entry) -> f32 {
        let (a_us, a_them) = self.hidden_sums(e);
        self.output(&a_us, &a_them, e.output_bucket(self.outputs))
    }

    /// The accumulators of both perspectives, the side to move's first.
    fn hidden_sums(&self, e: &Entry) -> (Vec<f32>, Vec<f32>) {
        let (us, them, n) = e.features(self.buckets);
        let (mut a_us, mut a_them) = (vec![0.0; self.hidden], vec![0.0; self.hidden]);
        self.accumulate(&us[..n], &mut a_us);
        self.accumulate(&them[..n], &mut a_them);
        (a_us, a_them)
    }

    /// The output before the sigmoid in output bucket `ob`: its bias plus the activations
    /// dotted with its output weights, summed in eight lanes (which the compiler keeps in
    /// vector registers: one with AVX2, two with SSE2) and the lanes then in order.
    #[inline(always)]
    fn output(&self, a_us: &[f32], a_them: &[f32], ob: usize) -> f32 {
        let h = self.hidden;
        let (w_us, w_them) = self.w2[ob * 2 * h..][..2 * h].split_at(h);
        let mut lanes = [0.0f32; 8];
        for (acc, w) in [(a_us, w_us), (a_them, w_them)] {
            let (a8, w8) = (acc.chunks_exact(8), w.chunks_exact(8));
            for (k, (&a, &w)) in a8.remainder().iter().zip(w8.remainder()).enumerate() {
                lanes[k] += act(self.activation, a) * w;
            }
            for (a, w) in a8.zip(w8) {
                for ((l, &a), &w) in lanes.iter_mut().zip(a).zip(w) {
                    *l += act(self.activation, a) * w;
                }
            }
        }
        lanes.iter().fold(self.b2[ob], |out, l| out + l)
    }

    /// How far, at most, the integer network can be from this model on `e`, in centipawns:
    /// each accumulator value is off by at most (pieces + 1) / (2 QA) (rounded weights and
    /// bias), which the activation passes on at most times its slope (1, or 2x + error for
    /// the square), weighted by the output weight; each output weight is off by at most
    /// 1 / (2 QB), the bias by 1 / (2 QA QB); plus 2 cp for the integer divisions.
    pub fn quantisation_bound(&self, e: &Entry) -> f32 {
        let h = self.hidden;
        let (a_us, a_them) = self.hidden_sums(e);
        let w2 = &self.w2[e.output_bucket(self.outputs) * 2 * h..];
        let da = (e.len() as f32 + 1.0) * 0.5 / QA as f32;
        let mut bound = 0.5 / (QA * QB) as f32;
        for (side, acc) in [&a_us, &a_them].into_iter().enumerate() {
            for (i, &x) in acc.iter().enumerate() {
                let c = x.clamp(0.0, 1.0);
                let slope = match self.activation {
                    Activation::ClippedRelu => da,
                    Activation::SquaredClippedRelu => 2.0 * c * da + da * da,
                };
                let w = w2[side * h + i].abs() + 0.5 / QB as f32;
                bound += w * slope + act(self.activation, c) * 0.5 / QB as f32;
            }
        }
        bound * SCALE as f32 + 2.0
    }

    /// The float model's score in centipawns for the side to move.
    pub fn centipawns(&self, e: &Entry) -> f32 {
        self.forward(e) * SCALE as f32
    }

    /// The engine's byte format (see [`kgames_chess::nnue`]).
    pub fn quantise(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(net_len(self.hidden, self.buckets, self.outputs));
        b.extend_from_slice(&MAGIC);
        b.extend_from_slice(&(self.hidden as u16).to_le_bytes());
        let outputs = if self.outputs > 1 {
            self.outputs as u8
        } else {
            0
        };
        b.push(
            outputs << 4
                | match self.activation {
                    Activation::ClippedRelu => 0,
                    Activation::SquaredClippedRelu => 1,
                },
        );
        b.push(if self.buckets > 1 {
            self.buckets as u8
        } else {
            0
        });
        let q = |x: f32, scale: i32, lim: i32| -> i16 {
            ((x * scale as f32).round() as i32).clamp(-lim, lim) as i16
        };
        for &w in self.w1.iter().chain(&self.b1) {
            b.extend_from_slice(&q(w, QA, MAX_FT).to_le_bytes());
        }
        for &w in &self.w2 {
            b.extend_from_slice(&q(w, QB, 32_767).to_le_bytes());
        }
        for &b2 in &self.b2 {
            let bias = (b2 * (QA * QB) as f32).round() as i32;
            b.extend_from_slice(&bias.to_le_bytes());
        }
        b
    }

    /// The same network with `buckets` sets of feature weights, each a copy of this one's
    /// single set (the same evaluations, for training king buckets from a network without);
    /// `None` when this one has buckets already.
    pub fn spread(&self, buckets: usize) -> Option<Model> {
        (self.buckets == 1).then(|| Model {
            buckets,
            w1: self.w1.repeat(buckets),
            ..self.clone()
        })
    }

    /// The same network with [`MAX_OUTPUTS`] output buckets, each a copy of this one's single
    /// output (the same evaluations, for training output buckets from a network without);
    /// `None` when this one has them already.
    pub fn spread_outputs(&self) -> Option<Model> {
        (self.outputs == 1).then(|| Model {
            outputs: MAX_OUTPUTS,
            w2: self.w2.repeat(MAX_OUTPUTS),
            b2: self.b2.repeat(MAX_OUTPUTS),
            ..self.clone()
        })
    }

    /// The float model of a network file (the inverse of [`Model::quantise`]: quantising it
    /// again gives the same bytes), to train on from a shipped network.
    pub fn dequantise(bytes: &[u8]) -> Result<Model, String> {
        let net = Network::parse(bytes).map_err(|e| format!("not a network file: {e}"))?;
        let hidden = net.hidden();
        let mut words = bytes
            .get(HEADER..)
            .unwrap_or_default()
            .chunks_exact(2)
            .map(|w| f32::from(i16::from_le_bytes([w[0], w[1]])));
        let mut take = |n: usize, scale: i32| -> Vec<f32> {
            words.by_ref().take(n).map(|w| w / scale as f32).collect()
        };
        let (buckets, outputs) = (net.buckets(), net.outputs());
        let w1 = take(buckets * INPUTS * hidden, QA);
        let b1 = take(hidden, QA);
        let w2 = take(outputs * 2 * hidden, QB);
        // The output biases: the file's last 4 bytes per bucket.
        let at = net_len(hidden, buckets, outputs) - 4 * outputs;
        let b2 = bytes
            .get(at..)
            .unwrap_or_default()
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32 / (QA * QB) as f32)
            .collect::<Vec<f32>>();
        if b2.len() != outputs {
            return Err("the output biases are missing".into());
        }
        Ok(Model {
            hidden,
            activation: net.activation(),
            buckets,
            w1,
            b1,
            outputs,
            w2,
            b2,
        })
    }
}

/// Training settings.
#[derive(Clone, Debug)]
pub struct Train {
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions per step.
    pub batch: usize,
    /// Adam's learning rate at the start; `schedule` says how it falls.
    pub lr: f32,
    /// How the learning rate falls over the run.
    pub schedule: Schedule,
    /// The weight of the search score in the target (the game result has the rest).
    pub lambda: f32,
    /// Worker threads per batch.
    pub threads: usize,
    /// The seed of the shuffle.
    pub seed: u64,
    /// Also trains on every position mirrored left to right (files a <-> h), made as the
    /// batches are: the set is shuffled as if the mirror images followed it.
    pub mirror: bool,
}

/// How the learning rate falls over a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Schedule {
    /// The learning rate, a tenth of it for the last quarter of the epochs (at least one).
    Step,
    /// Half a cosine, batch by batch: from the learning rate at the first batch down to a
    /// hundredth of it at the last.
    Cosine,
}

impl Schedule {
    /// The learning rate of step `step` (from 0) of `steps` in a run of `epochs` epochs
    /// starting at `lr`, the step in `epoch` (from 1).
    pub fn lr(self, lr: f32, epoch: u32, epochs: u32, step: usize, steps: usize) -> f32 {
        match self {
            Schedule::Step if epoch > epochs - epochs / 4 => lr / 10.0,
            Schedule::Step => lr,
            Schedule::Cosine => {
                let f = step as f64 / steps.max(1) as f64;
                let c = 0.5 * (1.0 + (std::f64::consts::PI * f).cos());
                (f64::from(lr) * (0.01 + 0.99 * c)) as f32
            }
        }
    }
}

/// The target of an entry: `lambda * sigmoid(score / 400) + (1 - lambda) * result`.
pub fn target(e: &Entry, lambda: f32) -> f32 {
    let s = 1.0 / (1.0 + (-f32::from(e.score) / SCALE as f32).exp());
    lambda * s + (1.0 - lambda) * f32::from(e.result) / 2.0
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The gradients of one batch part.
struct Grad {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    loss: f64,
}

impl Grad {
    fn new(m: &Model) -> Grad {
        let h = m.hidden;
        Grad {
            w1: vec![0.0; m.buckets * INPUTS * h],
            b1: vec![0.0; h],
            w2: vec![0.0; m.outputs * 2 * h],
            b2: vec![0.0; m.outputs],
            loss: 0.0,
        }
    }

    fn clear(&mut self) {
        for v in [&mut self.w1, &mut self.b1, &mut self.w2, &mut self.b2] {
            v.iter_mut().for_each(|x| *x = 0.0);
        }
        self.loss = 0.0;
    }
}

/// The gradients of `batch` into `g`: with AVX2 where the CPU has it (the same arithmetic in
/// wider registers, so the same result), else in the build's own instructions.
fn backprop(m: &Model, batch: &[Entry], lambda: f32, g: &mut Grad) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked just above), all `backprop_avx2` asks for.
        unsafe { backprop_avx2(m, batch, lambda, g) };
        return;
    }
    backprop_body(m, batch, lambda, g);
}

/// [`backprop_body`] compiled for AVX2.
///
/// # Safety
///
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn backprop_avx2(m: &Model, batch: &[Entry], lambda: f32, g: &mut Grad) {
    backprop_body(m, batch, lambda, g);
}

#[inline(always)]
fn backprop_body(m: &Model, batch: &[Entry], lambda: f32, g: &mut Grad) {
    let h = m.hidden;
    let (mut a_us, mut a_them) = (vec![0.0f32; h], vec![0.0f32; h]);
    let mut d = vec![0.0f32; h];
    g.clear();
    for e in batch {
        let (us, them, n) = e.features(m.buckets);
        let (us, them) = (&us[..n], &them[..n]);
        m.accumulate(us, &mut a_us);
        m.accumulate(them, &mut a_them);
        let ob = e.output_bucket(m.outputs);
        let p = sigmoid(m.output(&a_us, &a_them, ob));
        let t = target(e, lambda);
        g.loss += f64::from((p - t) * (p - t));
        let go = 2.0 * (p - t) * p * (1.0 - p);
        g.b2[ob] += go;
        for (side, (acc, feats)) in [(&a_us, us), (&a_them, them)].into_iter().enumerate() {
            let w2 = &m.w2[(2 * ob + side) * h..][..h];
            let gw2 = &mut g.w2[(2 * ob + side) * h..][..h];
            for (((gw, dx), &w), &a) in gw2.iter_mut().zip(d.iter_mut()).zip(w2).zip(acc) {
                *gw += go * act(m.activation, a);
                *dx = go * w * act_grad(m.activation, a);
            }
            for (b, x) in g.b1.iter_mut().zip(&d) {
                *b += x;
            }
            for &f in feats {
                let col = &mut g.w1[usize::from(f) * h..][..h];
                for (c, x) in col.iter_mut().zip(&d) {
                    *c += x;
                }
            }
        }
    }
}

/// Adam's moment estimates for one parameter vector.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    fn step(&mut self, w: &mut [f32], g: &[f32], lr: f32, t: i32, clip: f32) {
        let (b1, b2) = (0.9f32, 0.999f32);
        let c1 = 1.0 - b1.powi(t);
        let c2 = 1.0 - b2.powi(t);
        for i in 0..w.len() {
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g[i];
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g[i] * g[i];
            let step = lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
            w[i] = (w[i] - step).clamp(-clip, clip);
        }
    }
}

/// The loss of the classic evaluation on `positions` with the targets of `set` (the same
/// positions, in the same order): what the network has to beat.
pub fn classic_loss(positions: &[Position], set: &[Entry], lambda: f32) -> f64 {
    let n = positions.len().min(set.len());
    let sum: f64 = positions
        .iter()
        .zip(set)
        .map(|(p, e)| {
            let cp = kgames_chess::eval::evaluate(p) as f32;
            let d = sigmoid(cp / SCALE as f32) - target(e, lambda);
            f64::from(d * d)
        })
        .sum();
    sum / n.max(1) as f64
}

/// The mean squared error of `model` on `set` (the training loss without the step).
pub fn loss(model: &Model, set: &[Entry], lambda: f32) -> f64 {
    if set.is_empty() {
        return 0.0;
    }
    let sum: f64 = set
        .iter()
        .map(|e| {
            let d = sigmoid(model.forward(e)) - target(e, lambda);
            f64::from(d * d)
        })
        .sum();
    sum / set.len() as f64
}

/// Where a training run is: the epochs done and the optimiser's state, what a checkpoint
/// keeps beside the model so that a stopped run continues as if it had not stopped.
pub struct Progress {
    /// Epochs done.
    pub epoch: u32,
    /// Adam steps done.
    step: i32,
    /// Adam's state for the feature weights, feature biases, output weights, output bias.
    adam: [Adam; 4],
}

/// A checkpoint file's magic.
const CHECKPOINT_MAGIC: [u8; 8] = *b"KGNNCKP1";

impl Progress {
    /// A run's start for `model`: no epoch done.
    pub fn new(model: &Model) -> Progress {
        let hidden = model.hidden;
        Progress {
            epoch: 0,
            step: 0,
            adam: [
                Adam::new(model.buckets * INPUTS * hidden),
                Adam::new(hidden),
                Adam::new(model.outputs * 2 * hidden),
                Adam::new(model.outputs),
            ],
        }
    }

    /// What a checkpoint must agree on to be continued: the model's shape, the settings and
    /// the number of training positions.
    fn fingerprint(model: &Model, t: &Train, positions: usize) -> Vec<u64> {
        let mut f = vec![
            model.hidden as u64,
            u64::from(model.activation == Activation::SquaredClippedRelu),
            model.buckets as u64,
            u64::from(t.epochs),
            t.batch as u64,
            u64::from(t.lr.to_bits()),
            t.schedule as u64,
            u64::from(t.lambda.to_bits()),
            t.threads as u64,
            t.seed,
            u64::from(t.mirror),
            positions as u64,
        ];
        // Only with output buckets, so that the checkpoints of runs without stay valid.
        if model.outputs > 1 {
            f.push(model.outputs as u64);
        }
        f
    }

    /// The checkpoint of `model` trained with `t` on `positions` positions, this far.
    pub fn checkpoint(&self, model: &Model, t: &Train, positions: usize) -> Vec<u8> {
        let mut b = CHECKPOINT_MAGIC.to_vec();
        for x in Progress::fingerprint(model, t, positions) {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b.extend_from_slice(&self.epoch.to_le_bytes());
        b.extend_from_slice(&self.step.to_le_bytes());
        let adam = self.adam.iter().flat_map(|a| a.m.iter().chain(&a.v));
        let weights = model.w1.iter().chain(&model.b1).chain(&model.w2);
        for x in weights.chain(&model.b2).chain(adam) {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b
    }

    /// Continues from checkpoint `bytes` of a run of `model`'s shape with `t` on `positions`
    /// positions: the model's weights and the progress, or why the checkpoint is not one of
    /// this run.
    pub fn resume(
        bytes: &[u8],
        model: &mut Model,
        t: &Train,
        positions: usize,
    ) -> Result<Progress, String> {
        let want = Progress::fingerprint(model, t, positions);
        let rest = bytes
            .strip_prefix(&CHECKPOINT_MAGIC)
            .ok_or("not a checkpoint of chess-nnue")?;
        let (head, rest) = rest
            .split_at_checked(8 * want.len() + 8)
            .ok_or("truncated")?;
        let mut words = head.chunks_exact(8).map(|w| {
            let mut a = [0u8; 8];
            a.copy_from_slice(w);
            u64::from_le_bytes(a)
        });
        let got: Vec<u64> = words.by_ref().take(want.len()).collect();
        if got != want {
            return Err(format!(
                "made by another run (hidden, activation, buckets, epochs, batch, lr, schedule, \
                 lambda, threads, seed, mirror, positions: {got:?}, this run's {want:?})"
            ));
        }
        let last = words.next().unwrap_or_default();
        let mut p = Progress::new(model);
        (p.epoch, p.step) = (last as u32, (last >> 32) as i32);
        let mut floats = rest.chunks_exact(4).map(|w| {
            let mut a = [0u8; 4];
            a.copy_from_slice(w);
            f32::from_le_bytes(a)
        });
        let adam = p
            .adam
            .iter_mut()
            .flat_map(|a| a.m.iter_mut().chain(a.v.iter_mut()));
        let weights = model
            .w1
            .iter_mut()
            .chain(&mut model.b1)
            .chain(&mut model.w2);
        let mut read = 0;
        for (x, v) in weights
            .chain(&mut model.b2)
            .chain(adam)
            .zip(floats.by_ref())
        {
            *x = v;
            read += 1;
        }
        let rows = model.buckets * INPUTS;
        let values = (rows + 1) * model.hidden + model.outputs * (2 * model.hidden + 1);
        let expected = 3 * values;
        if read != expected || floats.next().is_some() {
            return Err(format!("damaged ({read} of {expected} values)"));
        }
        if p.epoch > t.epochs {
            return Err(format!(
                "damaged (it has {} epochs done, this run has {})",
                p.epoch, t.epochs
            ));
        }
        Ok(p)
    }
}

/// Trains `model` on `set`; `report(epoch, train_loss, model)` after each epoch.
pub fn train(
    model: &mut Model,
    set: &[Entry],
    t: &Train,
    mut report: impl FnMut(u32, f64, &Model),
) {
    let mut progress = Progress::new(model);
    train_from(model, &mut progress, set, t, |e, l, m, _| report(e, l, m));
}

/// Trains `model` on `set` from `progress` (a new one, or one from [`Progress::resume`]) to
/// `t.epochs`; `report(epoch, train_loss, model, progress)` after each epoch. A run that
/// continues a checkpoint ends with the bytes of one that did not stop: the shuffles of the
/// epochs done are made again.
pub fn train_from(
    model: &mut Model,
    progress: &mut Progress,
    set: &[Entry],
    t: &Train,
    mut report: impl FnMut(u32, f64, &Model, &Progress),
) {
    let threads = t.threads.max(1);
    let n = set.len();
    let total_len = if t.mirror { 2 * n } else { n };
    // Indices are u32: 2^32 entries would be 2^31 positions and their images, 120 GB.
    assert!(u32::try_from(total_len).is_ok(), "fewer than 2^32 entries");
    let mut order: Vec<u32> = (0..total_len).map(|i| i as u32).collect();
    let mut rng = SplitMix(kgames_common::rng::Rng::new(t.seed));
    let mut grads: Vec<Grad> = (0..threads).map(|_| Grad::new(model)).collect();
    let mut total = Grad::new(model);
    let steps = t.epochs as usize * total_len.div_ceil(t.batch.max(1));
    for epoch in 1..=t.epochs {
        for i in (1..order.len()).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        if epoch <= progress.epoch {
            continue;
        }
        let mut epoch_loss = 0.0;
        for chunk in order.chunks(t.batch.max(1)) {
            let step = usize::try_from(progress.step).unwrap_or(0);
            let lr = t.schedule.lr(t.lr, epoch, t.epochs, step, steps);
            let batch: Vec<Entry> = chunk
                .iter()
                .map(|&i| match set.get(i as usize) {
                    Some(e) => e.clone(),
                    None => set[i as usize - n].mirrored(),
                })
                .collect();
            let part = batch.len().div_ceil(threads);
            std::thread::scope(|s| {
                for (g, b) in grads.iter_mut().zip(batch.chunks(part.max(1))) {
                    let m = &*model;
                    s.spawn(move || backprop(m, b, t.lambda, g));
                }
            });
            total.clear();
            let used = batch.chunks(part.max(1)).count();
            for g in grads.iter().take(used) {
                for (a, b) in total.w1.iter_mut().zip(&g.w1) {
                    *a += b;
                }
                for (a, b) in total.b1.iter_mut().zip(&g.b1) {
                    *a += b;
                }
                for (a, b) in total.w2.iter_mut().zip(&g.w2) {
                    *a += b;
                }
                for (a, b) in total.b2.iter_mut().zip(&g.b2) {
                    *a += b;
                }
                epoch_loss += g.loss;
            }
            let n = batch.len() as f32;
            let scale = |v: &mut Vec<f32>| v.iter_mut().for_each(|x| *x /= n);
            scale(&mut total.w1);
            scale(&mut total.b1);
            scale(&mut total.w2);
            progress.step += 1;
            let (step, [aw1, ab1, aw2, ab2]) = (progress.step, &mut progress.adam);
            aw1.step(&mut model.w1, &total.w1, lr, step, clip_ft());
            ab1.step(&mut model.b1, &total.b1, lr, step, clip_ft());
            aw2.step(&mut model.w2, &total.w2, lr, step, clip_out());
            total.b2.iter_mut().for_each(|x| *x /= n);
            ab2.step(&mut model.b2, &total.b2, lr, step, 100.0);
        }
        progress.epoch = epoch;
        report(epoch, epoch_loss / total_len.max(1) as f64, model, progress);
    }
}

/// How the integer network `net` compares with the float `model` on `positions`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Agreement {
    /// Positions compared.
    pub positions: usize,
    /// The mean absolute difference in centipawns.
    pub mean: f64,
    /// The largest absolute difference.
    pub worst: f64,
    /// Positions where the difference exceeds [`Model::quantisation_bound`].
    pub beyond_bound: usize,
}

/// Compares the integer network `net` with the float `model` on `positions` (evaluations
/// beyond the engine's clamp, +-20000 cp, left out).
pub fn agreement(model: &Model, net: &Network<'_>, positions: &[Position]) -> Agreement {
    let mut a = Agreement::default();
    let mut sum = 0.0f64;
    for pos in positions {
        let e = Entry::new(pos, 0, Result3::Draw);
        let float = f64::from(model.centipawns(&e));
        if float.abs() > 19_000.0 {
            continue;
        }
        let d = (float - f64::from(net.evaluate_position(pos))).abs();
        sum += d;
        a.worst = a.worst.max(d);
        a.positions += 1;
        if d > f64::from(model.quantisation_bound(&e)) {
            a.beyond_bound += 1;
        }
    }
    a.mean = sum / a.positions.max(1) as f64;
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use kgames_chess::nnue::feature;
    use kgames_chess::square::{Piece, Role};

    /// The features of `pos` as `kgames_chess::nnue::feature` gives them, from `perspective`,
    /// white's pieces first, by role, then by square; files mirrored with `mirror`.
    fn reference(pos: &Position, perspective: Color, mirror: bool) -> Vec<u16> {
        let mut out = Vec::new();
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece { color, role };
                for sq in pos.by_piece(piece) {
                    let f = feature(perspective, piece, sq) as u16;
                    out.push(if mirror { f ^ 7 } else { f });
                }
            }
        }
        out
    }

    /// The 28-byte entry gives each perspective's features, in order, for positions of
    /// random games with either side to move, mirrored or not.
    #[test]
    fn entries_list_the_engines_features() {
        assert_eq!(std::mem::size_of::<Entry>(), 28);
        let positions = crate::selfplay::random_positions(5, 4_000, 120);
        assert!(positions.iter().any(|p| p.turn() == Color::Black));
        for pos in positions {
            let e = Entry::new(&pos, 0, Result3::Draw);
            for (entry, mirror) in [(e.clone(), false), (e.mirrored(), true)] {
                let (us, them, n) = entry.features(1);
                assert_eq!(us[..n], reference(&pos, pos.turn(), mirror)[..]);
                assert_eq!(them[..n], reference(&pos, pos.turn().other(), mirror)[..]);
                assert_eq!(entry.len(), n);
                // With king buckets: the same features in the set of each side's king zone.
                for buckets in [4, 8] {
                    let (bus, bthem, bn) = entry.features(buckets);
                    assert_eq!(bn, n);
                    for (side, list, plain) in
                        [(pos.turn(), bus, us), (pos.turn().other(), bthem, them)]
                    {
                        let king = pos.king_of(side).expect("a king").index();
                        let flip = if side == Color::Black { 56 } else { 0 };
                        let sq = king ^ flip ^ if mirror { 7 } else { 0 };
                        let set = (king_bucket(buckets, sq) * INPUTS) as u16;
                        let want: Vec<u16> = plain[..n].iter().map(|f| f + set).collect();
                        assert_eq!(list[..n], want[..]);
                    }
                }
            }
        }
    }

    /// The gradients are the same bits with and without AVX2, and the output in eight lanes
    /// is the plain sum (hidden sizes with and without a remainder of eight).
    #[test]
    fn backprop_is_the_same_in_every_build() {
        let positions = crate::selfplay::random_positions(7, 300, 60);
        let batch: Vec<Entry> = positions
            .iter()
            .enumerate()
            .map(|(i, p)| Entry::new(p, (i as i32 - 150) * 7, Result3::Draw))
            .collect();
        for (hidden, activation) in [
            (256, Activation::SquaredClippedRelu),
            (37, Activation::ClippedRelu),
            (5, Activation::SquaredClippedRelu),
        ] {
            let m = Model::new(hidden, activation, 3);
            let (mut fast, mut plain) = (Grad::new(&m), Grad::new(&m));
            backprop(&m, &batch, 0.75, &mut fast);
            backprop_body(&m, &batch, 0.75, &mut plain);
            assert_eq!(fast.w1, plain.w1);
            assert_eq!((fast.b1, fast.w2), (plain.b1, plain.w2));
            assert_eq!((fast.b2, fast.loss), (plain.b2, plain.loss));
            for e in &batch {
                let (us, them) = m.hidden_sums(e);
                let mut want = f64::from(m.b2[0]);
                for (i, (&a, &b)) in us.iter().zip(&them).enumerate() {
                    want += f64::from(act(activation, a) * m.w2[i]);
                    want += f64::from(act(activation, b) * m.w2[hidden + i]);
                }
                let got = f64::from(m.output(&us, &them, 0));
                assert!(
                    (got - want).abs() < 1e-4,
                    "H {hidden}: {got} against {want}"
                );
            }
        }
    }
}
