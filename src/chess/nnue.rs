//! An efficiently updatable neural network evaluation (NNUE), integers only: a perspective
//! network `(768 -> H) x 2 -> 1` trained by `chess-nnue` (lab/chess) on our own
//! engine's games.
//!
//! - **Inputs**: for each perspective (white's and black's), 768 binary features, one per
//!   (own or enemy piece, role, square), the squares of black's perspective mirrored
//!   vertically ([`feature`]). With king buckets the feature weights come in `B` sets and
//!   each perspective uses the set of its own king's zone ([`king_bucket`]); a king move
//!   into another zone refreshes the accumulator.
//! - **Accumulator**: per perspective, `H` sums of i16: the bias plus the weight column of
//!   each present feature ([`Accumulator`]). A move adds and subtracts the few columns of the
//!   pieces it moves, so the search updates it incrementally instead of summing 32 columns.
//! - **Output**: clipped ReLU (`clamp(x, 0, QA)`) or squared clipped ReLU of both
//!   accumulators, the side to move's first, dotted with `2H` output weights, plus the bias;
//!   with output buckets, the weights and bias of the bucket of the number of pieces on the
//!   board ([`output_bucket`]);
//!   summed exactly (AVX2 where the CPU has it, in the kernel too; else i32 lanes on the
//!   host and an i64 fold in the kernel) and scaled to centipawns ([`Network::evaluate`]).
//!
//! Quantisation (the trainer rounds its float weights to these scales): feature weights and
//! biases times [`QA`], output weights times [`QB`], the output bias times `QA * QB`; the
//! network's float output times [`SCALE`] is the score in centipawns. Feature weights and
//! biases are at most [`MAX_FT`] in magnitude ([`Network::parse`] checks), so with at most 32
//! pieces an accumulator stays within `33 * MAX_FT` < 2^15; an output term is at most
//! `QA^2 * 32767` < 2^31 and the output sum is an i64 (a test evaluates the extremes).
//!
//! The network is a byte slice in the format below, read with bounds-checked access
//! (the shipped one is embedded in the engine: [`Network::embedded`]):
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | magic `KGNNUE1\0` |
//! | 2 | `H`, the hidden size (1..=[`MAX_HIDDEN`]) |
//! | 1 | activation in the low 4 bits: 0 clipped ReLU, 1 squared clipped ReLU; output buckets `O` in the high 4 bits: 0 (one output) or 8 ([`output_bucket`]) |
//! | 1 | king buckets `B`: 0 (one set of feature weights), 4 or 8 ([`king_bucket`]) |
//! | B x 768 x H x 2 | feature weights, set by set, feature by feature (column `f` of set `b` is the `H` values at `b * 768 + f`) |
//! | H x 2 | feature biases |
//! | O x 2H x 2 | output weights, bucket by bucket: side to move's half, then the other side's |
//! | O x 4 | output biases (i32), bucket by bucket |
//!
//! All values little-endian i16 unless said otherwise.

use super::position::Position;
use super::square::{Color, Piece, Role, Square};

/// Features per perspective: 2 colours x 6 roles x 64 squares.
pub const INPUTS: usize = 768;
/// The largest hidden size an [`Accumulator`] holds.
pub const MAX_HIDDEN: usize = 256;
/// The scale of feature weights and biases.
pub const QA: i32 = 255;
/// The scale of output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's float output.
pub const SCALE: i32 = 400;
/// The header's length in bytes.
pub const HEADER: usize = 12;
/// The header's magic.
pub const MAGIC: [u8; 8] = *b"KGNNUE1\0";
/// The evaluation's bound: scores are clamped to `+-EVAL_LIMIT` (below mate scores).
pub const EVAL_LIMIT: i32 = 20_000;

/// The output activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// `clamp(x, 0, QA)`.
    ClippedRelu,
    /// `clamp(x, 0, QA)^2`.
    SquaredClippedRelu,
}

/// Why a network's bytes were refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetError {
    /// Not the magic, an unknown activation or an unknown number of king or output buckets.
    Header,
    /// A hidden size of 0 or above [`MAX_HIDDEN`].
    Hidden,
    /// The length is not the one the header implies.
    Length,
    /// A feature weight or bias beyond [`MAX_FT`] (accumulators could overflow).
    Range,
}

impl core::fmt::Display for NetError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            NetError::Header => "not a kgames network (bad magic, activation or buckets)",
            NetError::Hidden => "a hidden size of 0 or above the maximum",
            NetError::Length => "a length other than the header implies",
            NetError::Range => "a feature weight or bias out of range",
        })
    }
}

/// The length in bytes of a network of hidden size `h` with `buckets` sets of feature
/// weights (1 without king buckets) and `outputs` output buckets (1 without).
pub const fn net_len(h: usize, buckets: usize, outputs: usize) -> usize {
    HEADER + buckets * INPUTS * h * 2 + h * 2 + outputs * (2 * h * 2 + 4)
}

/// The most output buckets a network has.
pub const MAX_OUTPUTS: usize = 8;

/// The output bucket of a position with `pieces` pieces on the board (kings included) among
/// `outputs` (1 or [`MAX_OUTPUTS`]): with eight, `(pieces - 2) / 4`, so 2-5 pieces use the
/// first and 30-32 the last; 0 for any other count.
pub const fn output_bucket(outputs: usize, pieces: u32) -> usize {
    if outputs != MAX_OUTPUTS {
        return 0;
    }
    let b = pieces.saturating_sub(2) as usize / 4;
    if b < MAX_OUTPUTS {
        b
    } else {
        MAX_OUTPUTS - 1
    }
}

/// The set of feature weights a perspective uses among `buckets` (1, 4 or 8), from its own
/// king's square `sq` as it sees it (0..64, [`feature`]'s orientation: a1 = 0 for white,
/// a8 = 0 for black): with 4, the king on its first rank in files a-c, d-e or f-h (0, 1, 2)
/// or anywhere else (3); with 8, the same on the first rank (0-2) and on the second (3-5),
/// then ranks 3-4 (6) and 5-8 (7). The zones are symmetric left to right, so a position and
/// its mirror image use mirrored sets. 0 for any other count.
pub const fn king_bucket(buckets: usize, sq: usize) -> usize {
    let zone = match sq % 8 {
        0..=2 => 0,
        3 | 4 => 1,
        _ => 2,
    };
    match (buckets, sq / 8) {
        (4 | 8, 0) => zone,
        (4, _) => 3,
        (8, 1) => 3 + zone,
        (8, 2 | 3) => 6,
        (8, _) => 7,
        _ => 0,
    }
}

/// The first row of `perspective`'s set among `sets` (white's, black's).
#[inline(always)]
fn set_for(sets: [usize; 2], perspective: Color) -> usize {
    match perspective {
        Color::White => sets[0],
        Color::Black => sets[1],
    }
}

/// The largest output weight magnitude with which a squared clipped-ReLU network sums its
/// output in i32 lanes (AVX2's eight, the host's sixteen): a lane gets at most
/// `MAX_HIDDEN / 8` = 32 terms of at most `QA^2 * SQUARED_LANE_WEIGHT` = 66,585,600, below
/// 2^31 together. A network with a larger output weight (none the trainer has written: they
/// stay within a few hundred) sums in i64, one term at a time.
pub const SQUARED_LANE_WEIGHT: i32 = 1024;

/// The largest quantised feature weight or bias magnitude accepted (the trainer clips its
/// float feature weights to `MAX_FT / QA`, about 0.98): with at most 32 pieces an
/// accumulator stays within `33 * MAX_FT` = 8217, far inside i16.
pub const MAX_FT: i32 = 249;

/// The index of the feature "`piece` on `sq`" seen from `perspective`: own pieces first,
/// then the enemy's, by role, by square; black's view mirrored (rank 1 <-> rank 8), so both
/// perspectives see their own pieces alike.
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let side = usize::from(piece.color != perspective);
    let sq = match perspective {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    (side * 6 + piece.role.index()) * 64 + (sq & 63)
}

/// The little-endian i16 values of a byte slice (an odd last byte is ignored): slice
/// patterns, so nothing in it can panic.
struct Values<'b>(&'b [u8]);

impl Iterator for Values<'_> {
    type Item = i16;

    #[inline(always)]
    fn next(&mut self) -> Option<i16> {
        let [lo, hi, rest @ ..] = self.0 else {
            return None;
        };
        self.0 = rest;
        Some(i16::from_le_bytes([*lo, *hi]))
    }
}

/// The top bit of each of the four i16 lanes of a u64.
const LANE_TOPS: u64 = 0x8000_8000_8000_8000;

/// `a + b` in each of four i16 lanes (wrapping), no carry crossing a lane.
#[inline(always)]
fn lanes_add(a: u64, b: u64) -> u64 {
    ((a & !LANE_TOPS).wrapping_add(b & !LANE_TOPS)) ^ ((a ^ b) & LANE_TOPS)
}

/// `a - b` in each of four i16 lanes (wrapping), no borrow crossing a lane.
#[inline(always)]
fn lanes_sub(a: u64, b: u64) -> u64 {
    ((a | LANE_TOPS).wrapping_sub(b & !LANE_TOPS)) ^ ((a ^ !b) & LANE_TOPS)
}

/// `dst = src - gone[0] - ... + came`, i16 by i16 (wrapping), where the columns are the
/// little-endian weight bytes, four lanes at a time in a u64, the last `len % 4` one by
/// one; writes `min(dst, src)` lanes (a missing weight counts 0). For targets without SIMD
/// registers (the kernel's build): where SSE2 is there (the host) the compiler vectorises
/// the plain loops of [`Network::update`], which this would slow down.
#[inline(always)]
fn fused_quads<const G: usize>(dst: &mut [i16], src: &[i16], gone: [&[u8]; G], came: &[u8]) {
    let quads = dst.len().min(src.len()) / 4;
    // Indices, not `chunks_exact`: its zip left code paths that objtool flagged in the
    // test kernel's build ("falls through to next function").
    for i in 0..quads {
        let (Some(d), Some(s)) = (dst.get_mut(4 * i..4 * i + 4), src.get(4 * i..4 * i + 4)) else {
            break;
        };
        let weights = |col: &[u8]| {
            col.get(8 * i..8 * i + 8)
                .and_then(|b| <[u8; 8]>::try_from(b).ok())
                .map_or(0, u64::from_le_bytes)
        };
        let ([s0, s1, s2, s3], [d0, d1, d2, d3]) = (s, d) else {
            continue;
        };
        let mut v = u64::from(*s0 as u16)
            | (u64::from(*s1 as u16) << 16)
            | (u64::from(*s2 as u16) << 32)
            | (u64::from(*s3 as u16) << 48);
        for g in gone {
            v = lanes_sub(v, weights(g));
        }
        v = lanes_add(v, weights(came));
        (*d0, *d1, *d2, *d3) = (
            v as i16,
            (v >> 16) as i16,
            (v >> 32) as i16,
            (v >> 48) as i16,
        );
    }
    let lane = |col: &[u8], i: usize| match col.get(2 * i..2 * i + 2) {
        Some(&[lo, hi]) => i16::from_le_bytes([lo, hi]),
        _ => 0,
    };
    for (i, (d, s)) in dst.iter_mut().zip(src).enumerate().skip(4 * quads) {
        let mut v = *s;
        for g in gone {
            v = v.wrapping_sub(lane(g, i));
        }
        *d = v.wrapping_add(lane(came, i));
    }
}

/// Values summed at a time by [`dot_lanes`].
const DOT_LANES: usize = 16;

/// One output term: `clamp(a, 0, QA) * w`, or `clamp(a, 0, QA)^2 * w` when `SQUARED` (at
/// most `QA^2 * 2^15` < 2^31 in magnitude).
#[inline(always)]
fn term<const SQUARED: bool>(a: i16, w: i16) -> i32 {
    let x = i32::from(a.clamp(0, QA as i16));
    if SQUARED {
        x * x * i32::from(w)
    } else {
        x * i32::from(w)
    }
}

/// The output dot product of one perspective, [`term`] summed over the `min(side, w / 2)`
/// pairs, in [`DOT_LANES`] i32 lanes that the compiler vectorises where SSE2 is there
/// (x86-64 hosts); the lanes are summed in i64, so the result is the exact one of [`dot`],
/// which the kernel's build (no SIMD registers) keeps. No lane can overflow: clipped, a term
/// is at most `QA * 2^15` in magnitude and a lane gets at most [`MAX_HIDDEN`] / 16 = 16 of
/// them (even all 256 terms together, `256 * 255 * 32768` = 2,139,095,040, stay below
/// 2^31); squared, only for output weights within [`SQUARED_LANE_WEIGHT`], 16 terms of at
/// most `QA^2 * 1024`.
#[inline(always)]
fn dot_lanes<const SQUARED: bool>(side: &[i16; MAX_HIDDEN], w: &[u8]) -> i64 {
    let mut lanes = [0i32; DOT_LANES];
    let mut blocks = 0;
    for (a, w) in side
        .chunks_exact(DOT_LANES)
        .zip(w.chunks_exact(2 * DOT_LANES))
    {
        let (Ok(a), Ok(w)) = (
            <&[i16; DOT_LANES]>::try_from(a),
            <&[u8; 2 * DOT_LANES]>::try_from(w),
        ) else {
            break;
        };
        for (i, (lane, &a)) in lanes.iter_mut().zip(a).enumerate() {
            *lane += term::<SQUARED>(a, i16::from_le_bytes([w[2 * i], w[2 * i + 1]]));
        }
        blocks += 1;
    }
    let done = blocks * DOT_LANES;
    let tail = dot::<SQUARED>(
        side.get(done..).unwrap_or(&[]),
        w.get(2 * done..).unwrap_or(&[]),
    );
    lanes.iter().map(|&l| i64::from(l)).sum::<i64>() + tail
}

/// The output dot product, one [`term`] at a time in i64: the kernel's build without AVX2,
/// squared networks with an output weight beyond [`SQUARED_LANE_WEIGHT`], and the values
/// after the last whole block of [`dot_lanes`].
#[inline(always)]
fn dot<const SQUARED: bool>(side: &[i16], w: &[u8]) -> i64 {
    side.iter()
        .zip(Values(w))
        .fold(0i64, |s, (&a, w)| s + i64::from(term::<SQUARED>(a, w)))
}

/// A stretch of code in which the network may use the vector registers, opened and closed
/// around each AVX2 update or output sum ([`Network::with_avx2`]): in the kernel,
/// `kernel_fpu_begin_mask` and `kernel_fpu_end` (nothing between them sleeps or allocates);
/// on the host, [`FpuSection::NONE`].
#[derive(Clone, Copy, Debug)]
pub struct FpuSection {
    /// Makes the vector registers usable.
    pub begin: fn(),
    /// Ends what `begin` started.
    pub end: fn(),
}

fn no_section() {}

impl FpuSection {
    /// Nothing to open or close (user space, where the vector registers are always usable).
    pub const NONE: FpuSection = FpuSection {
        begin: no_section,
        end: no_section,
    };
}

/// An [`FpuSection`] vouched for AVX2: only `unsafe` code makes one, so a [`Network`] switched
/// to AVX2 by a value of this type runs its `asm!` only where it may.
#[derive(Clone, Copy, Debug)]
pub struct Avx2(FpuSection);

impl Avx2 {
    /// The vouched section.
    ///
    /// # Safety
    ///
    /// The CPU has AVX2 and the system enabled its registers (the kernel's
    /// `boot_cpu_has(X86_FEATURE_AVX2)`, user space's `is_x86_feature_detected!("avx2")`),
    /// and between `section.begin` and `section.end` the vector registers may be used.
    pub unsafe fn new(section: FpuSection) -> Avx2 {
        Avx2(section)
    }
}

/// A network: validated bytes in the format of the module documentation.
#[derive(Clone, Copy, Debug)]
pub struct Network<'n> {
    bytes: &'n [u8],
    hidden: usize,
    activation: Activation,
    /// Sets of feature weights: 1, or the king buckets ([`king_bucket`]).
    buckets: usize,
    /// Output buckets: 1, or [`MAX_OUTPUTS`] ([`output_bucket`]).
    outputs: usize,
    /// Every output weight is within [`SQUARED_LANE_WEIGHT`]: a squared output may be summed
    /// in i32 lanes.
    small_outputs: bool,
    /// Set (only from an [`Avx2`]): the update and the output sum run in AVX2
    /// (src/chess/avx2.rs), each inside this section.
    avx2: Option<FpuSection>,
}

/// The shipped network (`make chess-net` writes it).
static EMBEDDED: &[u8] = include_bytes!("nnue.bin");

impl<'n> Network<'n> {
    /// Reads a network, checking its header, its length and the range of every feature
    /// weight and bias.
    pub fn parse(bytes: &'n [u8]) -> Result<Network<'n>, NetError> {
        let head = bytes.get(..HEADER).ok_or(NetError::Length)?;
        if head.get(..8) != Some(&MAGIC[..]) {
            return Err(NetError::Header);
        }
        let buckets = match head.get(11) {
            Some(0) => 1,
            Some(&b @ (4 | 8)) => usize::from(b),
            _ => return Err(NetError::Header),
        };
        let hidden = match (head.get(8), head.get(9)) {
            (Some(&lo), Some(&hi)) => usize::from(u16::from_le_bytes([lo, hi])),
            _ => return Err(NetError::Header),
        };
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(NetError::Hidden);
        }
        let (activation, outputs) = match head.get(10).map(|&b| (b & 15, b >> 4)) {
            Some((0, o)) => (Activation::ClippedRelu, o),
            Some((1, o)) => (Activation::SquaredClippedRelu, o),
            _ => return Err(NetError::Header),
        };
        let outputs = match usize::from(outputs) {
            0 => 1,
            MAX_OUTPUTS => MAX_OUTPUTS,
            _ => return Err(NetError::Header),
        };
        if bytes.len() != net_len(hidden, buckets, outputs) {
            return Err(NetError::Length);
        }
        let rows = buckets * INPUTS;
        let ft = bytes
            .get(HEADER..HEADER + (rows + 1) * hidden * 2)
            .ok_or(NetError::Length)?;
        if Values(ft).any(|w| i32::from(w).abs() > MAX_FT) {
            return Err(NetError::Range);
        }
        let out_at = HEADER + (rows + 1) * hidden * 2;
        let out = bytes
            .get(out_at..out_at + outputs * 2 * hidden * 2)
            .ok_or(NetError::Length)?;
        let small_outputs = Values(out).all(|w| i32::from(w).abs() <= SQUARED_LANE_WEIGHT);
        Ok(Network {
            bytes,
            hidden,
            activation,
            buckets,
            outputs,
            small_outputs,
            avx2: None,
        })
    }

    /// The same network computing its accumulator updates and output sums in AVX2 (`asm!`,
    /// src/chess/avx2.rs), each inside `avx2`'s section: the same values as the plain loops,
    /// bit for bit. Unchanged on other architectures or when the hidden size is not a
    /// multiple of 16.
    pub fn with_avx2(self, avx2: Avx2) -> Network<'n> {
        let usable = cfg!(target_arch = "x86_64") && self.hidden & 15 == 0;
        Network {
            avx2: if usable { Some(avx2.0) } else { None },
            ..self
        }
    }

    /// The same network with the plain loops.
    pub fn scalar(self) -> Network<'n> {
        Network { avx2: None, ..self }
    }

    /// Whether the network computes in AVX2 ([`Network::with_avx2`]).
    pub fn uses_avx2(&self) -> bool {
        self.avx2.is_some()
    }

    /// The network built into the engine.
    pub fn embedded() -> Option<Network<'static>> {
        Network::parse(EMBEDDED).ok()
    }

    /// The hidden size `H`.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The output activation.
    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// The sets of feature weights: 1, or the number of king buckets.
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The output buckets: 1, or [`MAX_OUTPUTS`].
    pub fn outputs(&self) -> usize {
        self.outputs
    }

    /// The feature-weight rows before the feature biases.
    #[inline(always)]
    fn rows(&self) -> usize {
        self.buckets * INPUTS
    }

    /// The first row of the set `perspective` uses in `pos` ([`king_bucket`]).
    #[inline(always)]
    fn set_of(&self, pos: &Position, perspective: Color) -> usize {
        if self.buckets == 1 {
            return 0;
        }
        let sq = match (pos.king_of(perspective), perspective) {
            (Some(k), Color::White) => k.index(),
            (Some(k), Color::Black) => k.index() ^ 56,
            (None, _) => 0,
        };
        king_bucket(self.buckets, sq & 63) * INPUTS
    }

    /// The first rows of both perspectives' sets in `pos`, white's first.
    #[inline(always)]
    fn sets(&self, pos: &Position) -> [usize; 2] {
        [
            self.set_of(pos, Color::White),
            self.set_of(pos, Color::Black),
        ]
    }

    /// The bytes of `count` i16 starting at value `index` after the header (empty when out of
    /// range, which `parse` rules out).
    #[inline(always)]
    fn values(&self, index: usize, count: usize) -> &'n [u8] {
        let at = HEADER + 2 * index;
        self.bytes.get(at..at + 2 * count).unwrap_or(&[])
    }

    /// Column `f` of the feature weights.
    #[inline(always)]
    fn column(&self, f: usize) -> &'n [u8] {
        self.values(f * self.hidden, self.hidden)
    }

    /// The output bias of bucket `ob`, the `O - ob`-th i32 from the end.
    fn output_bias(&self, ob: usize) -> i64 {
        let at = self
            .bytes
            .len()
            .saturating_sub(4 * self.outputs.saturating_sub(ob));
        match self.bytes.get(at..at + 4) {
            Some(&[a, b, c, d]) => i64::from(i32::from_le_bytes([a, b, c, d])),
            _ => 0,
        }
    }

    /// Sets `acc` to the bias plus every piece's column, from both perspectives.
    pub fn refresh(&self, pos: &Position, acc: &mut Accumulator) {
        let sets = self.sets(pos);
        let bias = self.values(self.rows() * self.hidden, self.hidden);
        for side in &mut acc.v {
            for (a, w) in side.iter_mut().zip(Values(bias)) {
                *a = w;
            }
        }
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece { color, role };
                for sq in pos.by_piece(piece) {
                    self.add(acc, sets, piece, sq);
                }
            }
        }
    }

    /// [`Network::refresh`] out of line, for the rare update that needs it (a king into
    /// another zone), so that the common update's code stays as small as without buckets.
    #[cold]
    #[inline(never)]
    fn refresh_cold(&self, pos: &Position, acc: &mut Accumulator) {
        self.refresh(pos, acc);
    }

    /// Adds the columns of `piece` on `sq` to both perspectives of `acc`, in the sets
    /// starting at rows `sets`.
    #[inline(always)]
    fn add(&self, acc: &mut Accumulator, sets: [usize; 2], piece: Piece, sq: Square) {
        for (persp, side) in Color::ALL.into_iter().zip(acc.v.iter_mut()) {
            let set = set_for(sets, persp);
            let col = self.column(set + feature(persp, piece, sq));
            for (a, w) in side.iter_mut().zip(Values(col)) {
                *a = a.wrapping_add(w);
            }
        }
    }

    /// Subtracts the columns of `piece` on `sq` from both perspectives of `acc`, in the
    /// sets starting at rows `sets`.
    #[inline(always)]
    fn sub(&self, acc: &mut Accumulator, sets: [usize; 2], piece: Piece, sq: Square) {
        for (persp, side) in Color::ALL.into_iter().zip(acc.v.iter_mut()) {
            let set = set_for(sets, persp);
            let col = self.column(set + feature(persp, piece, sq));
            for (a, w) in side.iter_mut().zip(Values(col)) {
                *a = a.wrapping_sub(w);
            }
        }
    }

    /// Sets `acc` to `parent`'s accumulator updated from position `before` to `after`: the
    /// columns of the pieces that left a square are subtracted, those of the pieces that
    /// arrived added (any move, castling, en passant, promotion or a null move alike). Only
    /// the `H` sums in use are written, in one pass from `parent` for the moves of a game
    /// (at most two pieces leave and two arrive; more fall back to one pass per piece). A
    /// king move into another king bucket refreshes `acc` from `after` instead.
    pub fn update(
        &self,
        parent: &Accumulator,
        before: &Position,
        after: &Position,
        acc: &mut Accumulator,
    ) {
        match self.buckets {
            1 => self.update_in::<false>(parent, before, after, acc),
            _ => self.update_in::<true>(parent, before, after, acc),
        }
    }

    /// [`Network::update`], compiled apart for networks with king buckets (`BUCKETED`) and
    /// without, where every set is the first and the columns are those of before buckets.
    #[inline(always)]
    fn update_in<const BUCKETED: bool>(
        &self,
        parent: &Accumulator,
        before: &Position,
        after: &Position,
        acc: &mut Accumulator,
    ) {
        let sets = if BUCKETED {
            let sets = self.sets(after);
            if sets != self.sets(before) {
                self.refresh_cold(after, acc);
                return;
            }
            sets
        } else {
            [0, 0]
        };
        let none = Piece {
            color: Color::White,
            role: Role::Pawn,
        };
        let mut gone: [(Piece, Square); 2] = [(none, Square::A1); 2];
        let mut came: [(Piece, Square); 2] = [(none, Square::A1); 2];
        let (mut n_gone, mut n_came, mut more) = (0, 0, false);
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece { color, role };
                let (b, a) = (before.by_piece(piece), after.by_piece(piece));
                if b == a {
                    continue;
                }
                for sq in b & !a {
                    match gone.get_mut(n_gone) {
                        Some(slot) => *slot = (piece, sq),
                        None => more = true,
                    }
                    n_gone += 1;
                }
                for sq in a & !b {
                    match came.get_mut(n_came) {
                        Some(slot) => *slot = (piece, sq),
                        None => more = true,
                    }
                    n_came += 1;
                }
            }
        }
        let (Some(gone), Some(came), false) = (gone.get(..n_gone), came.get(..n_came), more) else {
            *acc = *parent;
            self.apply_all(acc, sets, before, after);
            return;
        };
        let h = self.hidden;
        if self.update_avx2(parent, sets, gone, came, acc) {
            return;
        }
        for (persp, (dst, src)) in Color::ALL
            .into_iter()
            .zip(acc.v.iter_mut().zip(parent.v.iter()))
        {
            let set = set_for(sets, persp);
            let (Some(dst), Some(src)) = (dst.get_mut(..h), src.get(..h)) else {
                continue;
            };
            let col = |(piece, sq): (Piece, Square)| self.column(set + feature(persp, piece, sq));
            match (gone, came) {
                // A quiet move.
                ([g], [c]) if !cfg!(target_feature = "sse2") => {
                    fused_quads(dst, src, [col(*g)], col(*c));
                }
                ([g], [c]) => {
                    let (g, c) = (Values(col(*g)), Values(col(*c)));
                    for ((d, s), (wg, wc)) in dst.iter_mut().zip(src).zip(g.zip(c)) {
                        *d = s.wrapping_sub(wg).wrapping_add(wc);
                    }
                }
                // A capture, en passant, a promotion with a capture.
                ([g0, g1], [c]) if !cfg!(target_feature = "sse2") => {
                    fused_quads(dst, src, [col(*g0), col(*g1)], col(*c));
                }
                ([g0, g1], [c]) => {
                    let (g0, g1, c) = (Values(col(*g0)), Values(col(*g1)), Values(col(*c)));
                    for ((d, s), ((w0, w1), wc)) in dst.iter_mut().zip(src).zip(g0.zip(g1).zip(c)) {
                        *d = s.wrapping_sub(w0).wrapping_sub(w1).wrapping_add(wc);
                    }
                }
                // Castling, a null move, anything else: copy, then one pass per piece.
                (gone, came) => {
                    // Element by element: here `copy_from_slice` kept a length-panic path
                    // that objtool flagged in the test kernel's build.
                    for (d, s) in dst.iter_mut().zip(src) {
                        *d = *s;
                    }
                    for g in gone {
                        for (d, w) in dst.iter_mut().zip(Values(col(*g))) {
                            *d = d.wrapping_sub(w);
                        }
                    }
                    for c in came {
                        for (d, w) in dst.iter_mut().zip(Values(col(*c))) {
                            *d = d.wrapping_add(w);
                        }
                    }
                }
            }
        }
    }

    /// [`Network::update`]'s one pass in AVX2, for one or two pieces gone and one come
    /// (quiet moves, captures, promotions); false when the network is not in AVX2 or the
    /// move is another kind (then the plain loops write every sum).
    #[inline(always)]
    fn update_avx2(
        &self,
        parent: &Accumulator,
        sets: [usize; 2],
        gone: &[(Piece, Square)],
        came: &[(Piece, Square)],
        acc: &mut Accumulator,
    ) -> bool {
        let (Some(section), &[c]) = (self.avx2, came) else {
            return false;
        };
        if !matches!(gone.len(), 1 | 2) {
            return false;
        }
        let h = self.hidden;
        (section.begin)();
        let mut done = true;
        for (persp, (dst, src)) in Color::ALL
            .into_iter()
            .zip(acc.v.iter_mut().zip(parent.v.iter()))
        {
            let set = set_for(sets, persp);
            let col = |(piece, sq): (Piece, Square)| self.column(set + feature(persp, piece, sq));
            let mut cols: [&[u8]; 2] = [&[], &[]];
            for (slot, &g) in cols.iter_mut().zip(gone) {
                *slot = col(g);
            }
            let (Some(dst), Some(src), Some(cols)) =
                (dst.get_mut(..h), src.get(..h), cols.get(..gone.len()))
            else {
                done = false;
                break;
            };
            // SAFETY: `self.avx2` is set only from an `Avx2`, whose maker vouched for AVX2 and
            // for the vector registers between `section.begin` and `section.end`, which
            // enclose this call.
            done &= unsafe { super::avx2::update(dst, src, cols, col(c)) };
        }
        (section.end)();
        done
    }

    /// Updates `acc` from `before` to `after` one piece at a time (any two positions whose
    /// perspectives use the sets starting at rows `sets`).
    fn apply_all(
        &self,
        acc: &mut Accumulator,
        sets: [usize; 2],
        before: &Position,
        after: &Position,
    ) {
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece { color, role };
                let (b, a) = (before.by_piece(piece), after.by_piece(piece));
                for sq in b & !a {
                    self.sub(acc, sets, piece, sq);
                }
                for sq in a & !b {
                    self.add(acc, sets, piece, sq);
                }
            }
        }
    }

    /// Both perspectives' output sums, clipped ReLU or squared by `SQUARED`: in lanes (AVX2
    /// inside the section where the network has it, else the host's [`dot_lanes`] where SSE2
    /// is there) when they are exact, which for the squared activation needs every output
    /// weight within [`SQUARED_LANE_WEIGHT`]; else, and where the vector sum declines (which
    /// `with_avx2`'s hidden size rules out), one [`term`] at a time ([`dot`]).
    #[inline(always)]
    fn dots<const SQUARED: bool>(
        &self,
        us: &[i16; MAX_HIDDEN],
        out_us: &[u8],
        them: &[i16; MAX_HIDDEN],
        out_them: &[u8],
    ) -> (i64, i64) {
        let lanes = !SQUARED || self.small_outputs;
        let h = self.hidden;
        let (us_h, them_h) = (us.get(..h).unwrap_or(&[]), them.get(..h).unwrap_or(&[]));
        match self.avx2 {
            Some(section) if lanes => {
                (section.begin)();
                // SAFETY: `self.avx2` is set only from an `Avx2`, whose maker vouched for AVX2
                // and for the vector registers between `section.begin` and `section.end`,
                // which enclose these calls; a squared sum is asked for only when every
                // output weight is within `SQUARED_LANE_WEIGHT`, the bound it is exact under.
                let sums = unsafe {
                    (
                        super::avx2::dot::<SQUARED>(us_h, out_us, QA as i16),
                        super::avx2::dot::<SQUARED>(them_h, out_them, QA as i16),
                    )
                };
                (section.end)();
                (
                    sums.0.unwrap_or_else(|| dot::<SQUARED>(us_h, out_us)),
                    sums.1.unwrap_or_else(|| dot::<SQUARED>(them_h, out_them)),
                )
            }
            _ if lanes && cfg!(target_feature = "sse2") => (
                dot_lanes::<SQUARED>(us, out_us),
                dot_lanes::<SQUARED>(them, out_them),
            ),
            _ => (
                dot::<SQUARED>(us_h, out_us),
                dot::<SQUARED>(them_h, out_them),
            ),
        }
    }

    /// The score in centipawns of `pos` for its side to move, from `acc`, `pos`'s
    /// accumulator (clamped to `+-EVAL_LIMIT`); the output bucket is `pos`'s number of pieces'.
    pub fn evaluate(&self, acc: &Accumulator, pos: &Position) -> i32 {
        let (us, them) = match pos.turn() {
            Color::White => (&acc.v[0], &acc.v[1]),
            Color::Black => (&acc.v[1], &acc.v[0]),
        };
        let h = self.hidden;
        let ob = output_bucket(self.outputs, pos.occupied().count());
        let out = (self.rows() + 1 + 2 * ob) * h;
        let (out_us, out_them) = (self.values(out, h), self.values(out + h, h));
        let sum = match self.activation {
            Activation::ClippedRelu => {
                let (us_sum, them_sum) = self.dots::<false>(us, out_us, them, out_them);
                us_sum + them_sum + self.output_bias(ob)
            }
            Activation::SquaredClippedRelu => {
                let (us_sum, them_sum) = self.dots::<true>(us, out_us, them, out_them);
                (us_sum + them_sum) / i64::from(QA) + self.output_bias(ob)
            }
        };
        let cp = sum * i64::from(SCALE) / i64::from(QA * QB);
        cp.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
    }
}

/// The hidden layer's sums of one position from both perspectives (white's, then black's);
/// only the first `H` of each are used. 1 KiB: keep them in caller-owned memory (one per
/// ply of the search), never on a kernel stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    v: [[i16; MAX_HIDDEN]; 2],
}

impl Accumulator {
    /// All zero.
    pub const EMPTY: Accumulator = Accumulator {
        v: [[0; MAX_HIDDEN]; 2],
    };

    /// The sums of `perspective`.
    pub fn sums(&self, perspective: Color) -> &[i16; MAX_HIDDEN] {
        match perspective {
            Color::White => &self.v[0],
            Color::Black => &self.v[1],
        }
    }
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator::EMPTY
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::common::rng::Rng;
    use std::vec;
    use std::vec::Vec;

    /// What [`fused_quads`] computes, one lane at a time.
    fn plain(src: &[i16], gone: &[&[u8]], came: &[u8]) -> Vec<i16> {
        let gone: Vec<Vec<i16>> = gone.iter().map(|g| Values(g).collect()).collect();
        let came: Vec<i16> = Values(came).collect();
        src.iter()
            .enumerate()
            .map(|(i, &s)| {
                let v = gone.iter().fold(s, |v, g| v.wrapping_sub(g[i]));
                v.wrapping_add(came[i])
            })
            .collect()
    }

    /// Four lanes in a u64 give what one lane at a time gives, the carries and borrows of
    /// the extremes included, for every length up to 19 (so the last `len % 4` lanes too).
    #[test]
    fn lanes_in_a_u64_equal_one_at_a_time() {
        let mut rng = Rng::new(11);
        let extremes = [i16::MIN, -1, 0, 1, i16::MAX, 0x4000, -0x4000];
        let value = |rng: &mut Rng| match rng.below(3) {
            0 => extremes[rng.below(extremes.len() as u32) as usize],
            _ => rng.below(65_536) as u16 as i16,
        };
        for round in 0..2_000 {
            let len = round % 20;
            let src: Vec<i16> = (0..len).map(|_| value(&mut rng)).collect();
            let column = |rng: &mut Rng| -> Vec<u8> {
                (0..len).flat_map(|_| value(rng).to_le_bytes()).collect()
            };
            let (g0, g1, c) = (column(&mut rng), column(&mut rng), column(&mut rng));
            let mut one = vec![0i16; len];
            fused_quads(&mut one, &src, [&g0], &c);
            assert_eq!(one, plain(&src, &[&g0], &c), "{src:?}");
            let mut two = vec![0i16; len];
            fused_quads(&mut two, &src, [&g0, &g1], &c);
            assert_eq!(two, plain(&src, &[&g0, &g1], &c), "{src:?}");
        }
    }
}
