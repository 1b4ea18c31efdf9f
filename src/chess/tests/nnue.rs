//! The network evaluation: incremental accumulators equal fresh ones after every move of
//! random games (null moves included), the header and range checks, and the integer bounds
//! at the extremes of the weights.

use kgames_chess::common::rng::Rng;
use kgames_chess::game::Game;
use kgames_chess::moves::MoveList;
use kgames_chess::nnue::{
    net_len, Accumulator, NetError, Network, HEADER, INPUTS, MAGIC, MAX_FT, MAX_HIDDEN, QA, QB,
    SCALE,
};
use kgames_chess::position::Position;

#[test]
fn incremental_accumulators_equal_a_refresh_after_every_move() {
    let net = Network::embedded().expect("the built-in network is valid");
    let mut rng = Rng::new(7);
    let mut list = MoveList::new();
    let mut moves = 0;
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
            let mut next = Accumulator::EMPTY;
            net.update(&acc, &before, &after, &mut next);
            let mut fresh = Accumulator::EMPTY;
            net.refresh(&after, &mut fresh);
            assert_eq!(next, fresh, "after {m:?} from {before:?}");
            assert_eq!(
                net.evaluate(&next, after.turn()),
                net.evaluate_position(&after)
            );
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
    assert_eq!(b.len(), net_len(h));
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
            assert_eq!(i64::from(net.evaluate(&acc, full.turn())), cp);
        }
    }
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
