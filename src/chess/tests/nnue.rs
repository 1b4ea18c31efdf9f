//! The network evaluation: incremental accumulators equal fresh ones after every move of
//! random games (null moves included), the header and range checks, and the integer bounds
//! at the extremes of the weights.

use kgames_chess::common::rng::Rng;
use kgames_chess::game::Game;
use kgames_chess::moves::MoveList;
use kgames_chess::nnue::{
    king_bucket, net_len, output_bucket, Accumulator, Avx2, FpuSection, NetError, Network, HEADER,
    INPUTS, MAGIC, MAX_FT, MAX_HIDDEN, MAX_OUTPUTS, QA, QB, SCALE, SQUARED_LANE_WEIGHT,
};
use kgames_chess::position::Position;
use kgames_chess::square::Color;

/// `net` with the plain loops, and in AVX2 where this CPU has it (then `[scalar, avx2]`).
fn variants(net: Network<'_>) -> Vec<Network<'_>> {
    let mut all = vec![net.scalar()];
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, and user space may always use the vector registers.
        let avx2 = net.with_avx2(unsafe { Avx2::new(FpuSection::NONE) });
        assert_eq!(avx2.uses_avx2(), net.hidden() % 16 == 0);
        all.push(avx2);
    } else {
        eprintln!("note: no AVX2 on this CPU, its loops are not compared");
    }
    all
}

#[test]
fn incremental_accumulators_equal_a_refresh_after_every_move() {
    for net in variants(Network::embedded().expect("the built-in network is valid")) {
        incremental_accumulators(net);
    }
}

/// A network's king buckets: the accumulators of random games with king moves across the
/// zones equal a refresh, and each perspective adds the set of its own king's zone.
#[test]
fn king_buckets_follow_each_kings_zone() {
    for buckets in [4, 8] {
        let bytes = random_network(32, buckets, 1, 3);
        let net = Network::parse(&bytes).expect("a valid bucketed network");
        assert_eq!(net.buckets(), buckets);
        for net in variants(net) {
            incremental_accumulators(net);
        }
        // Set b's weights all b + 1, the bias 0: a sum is the pieces times its set's b + 1.
        let mut bytes = uniform(16, 0, 0, 1, 0);
        bytes[11] = buckets as u8;
        bytes.truncate(HEADER);
        for b in 0..buckets {
            bytes.extend((0..INPUTS * 16).flat_map(|_| (b as i16 + 1).to_le_bytes()));
        }
        bytes.extend((0..16).flat_map(|_| 0i16.to_le_bytes()));
        bytes.extend((0..32).flat_map(|_| 1i16.to_le_bytes()));
        bytes.extend(0i32.to_le_bytes());
        let net = Network::parse(&bytes).expect("a valid bucketed network");
        for (fen, white_sq, black_sq) in [
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 4, 4),
            ("1k6/8/8/8/8/8/8/6K1 b - - 0 1", 6, 1),
            ("8/8/8/3k4/8/8/1K6/8 w - - 0 1", 9, 35 ^ 56),
            ("8/6k1/8/8/8/8/8/K7 w - - 0 1", 0, 54 ^ 56),
        ] {
            let pos = Position::from_fen(fen.as_bytes()).expect("a FEN");
            let mut acc = Accumulator::EMPTY;
            net.refresh(&pos, &mut acc);
            for (color, sq) in [(Color::White, white_sq), (Color::Black, black_sq)] {
                let want = 2 * (king_bucket(buckets, sq) as i16 + 1);
                assert_eq!(
                    acc.sums(color)[0],
                    want,
                    "{fen}, {color:?}, {buckets} buckets"
                );
            }
        }
    }
    // The zones: 4 and 8 sets, mirrored left to right, other counts one set.
    for sq in 0..64 {
        let mirror = |b: usize| [2, 1, 0, 5, 4, 3, 6, 7][b];
        for buckets in [4, 8] {
            let b = king_bucket(buckets, sq);
            assert!(b < buckets);
            let m = king_bucket(buckets, sq ^ 7);
            assert_eq!(m, if b == 3 && buckets == 4 { 3 } else { mirror(b) });
        }
        assert_eq!(king_bucket(1, sq), 0);
    }
    assert_eq!(king_bucket(4, 6), 2);
    assert_eq!(king_bucket(8, 12), 4);
    assert_eq!(king_bucket(8, 40), 7);
}

/// A network of hidden size `h` with `buckets` sets (0 for one) of random feature weights
/// within `+-MAX_FT` and `outputs` buckets of random output weights within a few hundred,
/// from `seed`.
fn random_network(h: usize, buckets: usize, outputs: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut b = MAGIC.to_vec();
    b.extend_from_slice(&(h as u16).to_le_bytes());
    let code = if outputs > 1 { outputs as u8 } else { 0 };
    b.extend_from_slice(&[1 | code << 4, buckets as u8]);
    let mut value = |limit: i32| (rng.below(2 * limit as u32 + 1) as i32 - limit) as i16;
    for _ in 0..(buckets.max(1) * INPUTS + 1) * h {
        b.extend_from_slice(&value(MAX_FT / 4).to_le_bytes());
    }
    for _ in 0..outputs * 2 * h {
        b.extend_from_slice(&value(300).to_le_bytes());
    }
    for o in 0..outputs {
        b.extend_from_slice(&(12_345i32 + 1000 * o as i32).to_le_bytes());
    }
    assert_eq!(b.len(), net_len(h, buckets.max(1), outputs));
    b
}

/// Output buckets: the bucket of the number of pieces picks the output weights and bias
/// (each bucket's bias alone gives its own score), the incremental accumulators and the
/// AVX2 sums agree with the plain ones, and only 1 or 8 buckets are accepted.
#[test]
fn output_buckets_follow_the_number_of_pieces() {
    for (pieces, want) in [
        (2, 0),
        (5, 0),
        (6, 1),
        (17, 3),
        (29, 6),
        (30, 7),
        (32, 7),
        (40, 7),
    ] {
        assert_eq!(output_bucket(MAX_OUTPUTS, pieces), want, "{pieces} pieces");
        assert_eq!(output_bucket(1, pieces), 0);
    }
    let bytes = random_network(32, 0, MAX_OUTPUTS, 5);
    let net = Network::parse(&bytes).expect("a valid network with output buckets");
    assert_eq!((net.outputs(), net.buckets()), (MAX_OUTPUTS, 1));
    for net in variants(net) {
        incremental_accumulators(net);
    }
    // Every output weight 0, bucket o's bias o * QA * QB: a position scores its bucket * SCALE.
    let mut zero = uniform(16, 0, 3, 0, 0);
    zero.truncate(zero.len() - 2 * 16 * 2 - 4);
    zero[10] = (MAX_OUTPUTS as u8) << 4;
    zero.extend((0..MAX_OUTPUTS * 2 * 16).flat_map(|_| 0i16.to_le_bytes()));
    for o in 0..MAX_OUTPUTS as i32 {
        zero.extend((o * QA * QB).to_le_bytes());
    }
    let net = Network::parse(&zero).expect("a valid network with output buckets");
    let mut seen = [false; MAX_OUTPUTS];
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/pppp4/8/8/8/8/PPPP4/4K3 b - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/8/4K3 w kq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkb1r/pppppppp/8/8/8/8/PPPPPPPP/R1BQKB1R w KQkq - 0 1",
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
    ] {
        let pos = Position::from_fen(fen.as_bytes()).expect("a FEN");
        let o = output_bucket(MAX_OUTPUTS, pos.occupied().count());
        seen[o] = true;
        for net in variants(net) {
            assert_eq!(net.evaluate_position(&pos), o as i32 * SCALE, "{fen}");
        }
    }
    assert_eq!(seen, [true, false, true, true, true, false, true, true]);
    for code in [1u8, 2, 4, 7, 9, 15] {
        let mut bad = bytes.clone();
        bad[10] = 1 | code << 4;
        assert_eq!(
            Network::parse(&bad).unwrap_err(),
            NetError::Header,
            "{code}"
        );
    }
    assert_eq!(
        Network::parse(&bytes[..bytes.len() - 4]).unwrap_err(),
        NetError::Length
    );
}

/// For each move of 200 random games (null moves included), `net`'s update from the
/// parent's accumulator equals a refresh, and the evaluation equals the plain one; with
/// king buckets, some of the moves take a king into another zone.
fn incremental_accumulators(net: Network<'_>) {
    let plain = net.scalar();
    let mut rng = Rng::new(7);
    let mut list = MoveList::new();
    let (mut moves, mut crossings) = (0, 0);
    let zones = |pos: &Position| {
        [Color::White, Color::Black].map(|c| {
            let sq = pos
                .king_of(c)
                .map_or(0, |k| k.index() ^ if c == Color::Black { 56 } else { 0 });
            king_bucket(net.buckets(), sq)
        })
    };
    for _ in 0..200 {
        let mut game = Game::new();
        let mut acc = Accumulator::EMPTY;
        net.refresh(game.position(), &mut acc);
        for _ in 0..200 {
            game.legal_moves(&mut list);
            let Some(m) = list.get(rng.below(list.len().max(1) as u32) as usize) else {
                break;
            };
            let before = *game.position();
            let mut after = before;
            if rng.below(10) == 0 && !before.is_check() {
                after.play_null();
            } else {
                after.play(m);
                game.play(m);
            }
            crossings += usize::from(zones(&before) != zones(&after));
            let mut next = Accumulator::EMPTY;
            net.update(&acc, &before, &after, &mut next);
            let mut fresh = Accumulator::EMPTY;
            net.refresh(&after, &mut fresh);
            assert_eq!(next, fresh, "after {m:?} from {before:?}");
            assert_eq!(net.evaluate(&next, &after), plain.evaluate_position(&after));
            acc = next;
            moves += 1;
            if after != *game.position() {
                // After a null move the game goes on from the real position.
                net.refresh(game.position(), &mut acc);
            }
            if game.is_over() {
                break;
            }
        }
    }
    assert!(moves > 10_000, "{moves}");
    assert_eq!(crossings > 100, net.buckets() > 1, "{crossings} of {moves}");
}

/// A network of hidden size `h` with every feature weight and bias `ft`, every output weight
/// `out` and the output bias `bias`.
fn uniform(h: usize, act: u8, ft: i16, out: i16, bias: i32) -> Vec<u8> {
    let mut b = MAGIC.to_vec();
    b.extend_from_slice(&(h as u16).to_le_bytes());
    b.extend_from_slice(&[act, 0]);
    for _ in 0..(INPUTS + 1) * h {
        b.extend_from_slice(&ft.to_le_bytes());
    }
    for _ in 0..2 * h {
        b.extend_from_slice(&out.to_le_bytes());
    }
    b.extend_from_slice(&bias.to_le_bytes());
    assert_eq!(b.len(), net_len(h, 1, 1));
    b
}

#[test]
fn extreme_weights_stay_in_range() {
    let full = Position::startpos();
    let ft = MAX_FT as i16;
    for act in [0u8, 1] {
        for (f, o) in [
            (ft, i16::MAX),
            (-ft, i16::MAX),
            (ft, -i16::MAX),
            (-ft, i16::MIN),
        ] {
            let bytes = uniform(MAX_HIDDEN, act, f, o, i32::MAX / 2);
            let net = Network::parse(&bytes).expect("in range");
            let mut acc = Accumulator::EMPTY;
            net.refresh(&full, &mut acc);
            // 32 pieces plus the bias: 33 * MAX_FT, far inside i16.
            let want = 33 * i32::from(f);
            assert!(acc.sums(full.turn()).iter().all(|&a| i32::from(a) == want));
            // The output in i64, exactly as written out here, then clamped.
            let x = i64::from(want.clamp(0, QA));
            let per = if act == 0 { x } else { x * x };
            let mut sum = 2 * MAX_HIDDEN as i64 * per * i64::from(o);
            if act == 1 {
                sum /= i64::from(QA);
            }
            sum += i64::from(i32::MAX / 2);
            let cp = (sum * i64::from(SCALE) / i64::from(QA * QB)).clamp(-20_000, 20_000);
            for net in variants(net) {
                assert_eq!(i64::from(net.evaluate(&acc, &full)), cp);
            }
        }
    }
}

/// The clipped-ReLU output sum is exact at every hidden size (the lanes of 16 and the rest)
/// with output weights anywhere in i16: each position's bias is set to cancel the exact sum
/// but for a small offset, so the unclamped result shows any error in it; and where each
/// perspective's dot product is at the edge of i32 (every output weight +32767 on one side
/// and -32768 on the other), the two still give their exact small difference.
#[test]
fn clipped_relu_output_sums_are_exact() {
    output_sums_are_exact(0);
}

/// The squared clipped-ReLU output sum is exact the same way: with output weights within
/// `SQUARED_LANE_WEIGHT` (summed in i32 lanes), at its edges (each lane at its largest sum,
/// the two sides cancelling or adding up past i32), and anywhere in i16 (one term at a time).
#[test]
fn squared_relu_output_sums_are_exact() {
    output_sums_are_exact(1);
}

/// What the two tests above check, for activation `act` (0 clipped, 1 squared).
fn output_sums_are_exact(act: u8) {
    let mut rng = Rng::new(11);
    let mut positions = vec![Position::startpos()];
    let mut game = Game::new();
    let mut list = MoveList::new();
    while positions.len() < 40 {
        game.legal_moves(&mut list);
        match list.get(rng.below(list.len().max(1) as u32) as usize) {
            Some(m) if !game.is_over() => {
                game.play(m);
            }
            _ => game = Game::new(),
        }
        positions.push(*game.position());
    }
    let mut checked = 0;
    for h in [1, 15, 16, 17, 31, 100, 128, 255, 256] {
        for round in 0..6 {
            let edge = round == 0;
            let mut b = MAGIC.to_vec();
            b.extend_from_slice(&(h as u16).to_le_bytes());
            b.extend_from_slice(&[act, 0]);
            for _ in 0..(INPUTS + 1) * h {
                let w = if edge {
                    MAX_FT
                } else {
                    rng.below(2 * MAX_FT as u32 + 1) as i32 - MAX_FT
                };
                b.extend_from_slice(&(w as i16).to_le_bytes());
            }
            let mut out = Vec::new();
            let small = SQUARED_LANE_WEIGHT as i16;
            for i in 0..2 * h {
                let w = match (act, round, rng.below(4)) {
                    (0, 0, _) if i < h => i16::MAX,
                    (0, 0, _) => i16::MIN,
                    (1, 0, _) if i < h => small,
                    (1, 0, _) => -small,
                    (1, 1, _) => small,
                    (1, 2 | 3, 0) => small,
                    (1, 2 | 3, 1) => -small,
                    (1, 2 | 3, _) => {
                        let l = SQUARED_LANE_WEIGHT;
                        (rng.below(2 * l as u32 + 1) as i32 - l) as i16
                    }
                    (_, _, 0) => i16::MAX,
                    (_, _, 1) => i16::MIN,
                    _ => rng.next_u64() as i16,
                };
                out.push(i64::from(w));
                b.extend_from_slice(&w.to_le_bytes());
            }
            b.extend_from_slice(&0i32.to_le_bytes());
            let at_bias = b.len() - 4;
            for pos in &positions {
                let net = Network::parse(&b).expect("in range");
                let mut acc = Accumulator::EMPTY;
                net.refresh(pos, &mut acc);
                let clipped = |c| acc.sums(c)[..h].iter().map(|&a| i64::from(a).clamp(0, 255));
                let dot: i64 = clipped(pos.turn())
                    .chain(clipped(pos.turn().other()))
                    .zip(&out)
                    .map(|(x, w)| if act == 0 { x * w } else { x * x * w })
                    .sum::<i64>()
                    / if act == 0 { 1 } else { i64::from(QA) };
                let offset = i64::from(rng.below(1_000_001)) - 500_000;
                let Ok(bias) = i32::try_from(offset - dot) else {
                    continue;
                };
                let mut biased = b.clone();
                biased[at_bias..].copy_from_slice(&bias.to_le_bytes());
                let net = Network::parse(&biased).expect("in range");
                let cp = (dot + i64::from(bias)) * i64::from(SCALE) / i64::from(QA * QB);
                for net in variants(net) {
                    let avx2 = net.uses_avx2();
                    let got = i64::from(net.evaluate(&acc, pos));
                    assert_eq!(got, cp, "H = {h}, AVX2 {avx2}");
                }
                if edge && act == 0 {
                    assert_eq!(dot, -255 * h as i64, "H = {h}: both sides clipped at QA");
                }
                if edge && act == 1 {
                    assert_eq!(dot, 0, "H = {h}: both sides clipped at QA, cancelling");
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 1_500, "{checked}");
}

#[test]
fn bad_networks_are_refused() {
    let good = uniform(8, 1, 3, 5, 0);
    assert!(Network::parse(&good).is_ok());
    let mut bad = good.clone();
    bad[0] = b'X';
    assert_eq!(Network::parse(&bad).unwrap_err(), NetError::Header);
    let mut bad = good.clone();
    bad[10] = 2;
    assert_eq!(Network::parse(&bad).unwrap_err(), NetError::Header);
    for buckets in [1, 2, 3, 5, 16, 255] {
        let mut bad = good.clone();
        bad[11] = buckets;
        assert_eq!(Network::parse(&bad).unwrap_err(), NetError::Header);
    }
    let mut short = good.clone();
    short[11] = 4;
    assert_eq!(Network::parse(&short).unwrap_err(), NetError::Length);
    assert_eq!(
        Network::parse(&good[..good.len() - 1]).unwrap_err(),
        NetError::Length
    );
    assert_eq!(Network::parse(&good[..5]).unwrap_err(), NetError::Length);
    assert_eq!(
        Network::parse(&uniform(0, 1, 0, 0, 0)).unwrap_err(),
        NetError::Hidden
    );
    let mut bad = good.clone();
    let at = HEADER + 2 * 100;
    bad[at..at + 2].copy_from_slice(&((MAX_FT + 1) as i16).to_le_bytes());
    assert_eq!(Network::parse(&bad).unwrap_err(), NetError::Range);
    let mut big = uniform(MAX_HIDDEN + 1, 1, 0, 0, 0);
    big[8..10].copy_from_slice(&((MAX_HIDDEN + 1) as u16).to_le_bytes());
    assert_eq!(Network::parse(&big).unwrap_err(), NetError::Hidden);
}

#[path = "data/evals.rs"]
mod evals;

/// The table kgames.ko's KUnit suite checks the kernel's build against (data/evals.rs).
#[test]
fn the_network_gives_the_tabled_evaluations() {
    let net = Network::embedded().expect("the built-in network is valid");
    let got: Vec<(&str, i32)> = evals::NETWORK_EVALS
        .iter()
        .map(|&(fen, _)| {
            let pos = Position::from_fen(fen.as_bytes()).expect("a valid FEN");
            (fen, net.evaluate_position(&pos))
        })
        .collect();
    assert_eq!(got, evals::NETWORK_EVALS, "the new values: {got:#?}");
}
