//! Perft from the start position against the public counts (depth 1 to 11; 12 ignored), bulk
//! counting against the public `Position` API, the metered perft, and the protocol's
//! conventions: a pass is a ply and a finished game is one leaf at any depth.

use kgames_reversi::bitboard::Squares;
use kgames_reversi::common::budget::{Budget, Meter, NeverInterrupt, NodeClock, SearchEnd};
use kgames_reversi::common::rng::Rng;
use kgames_reversi::{perft, perft_metered, Color, Position};

#[path = "data/perft.rs"]
mod data;

use data::START_PERFT;

#[test]
fn perft_from_start() {
    let p = Position::start();
    assert_eq!(perft(&p, 0), 1);
    for (i, &n) in START_PERFT.iter().enumerate() {
        assert_eq!(perft(&p, i as u32 + 1), n, "depth {}", i + 1);
    }
}

#[test]
fn perft_11_from_start() {
    assert_eq!(perft(&Position::start(), 11), 212_258_800);
}

/// Depth 12 (public count from the same published table as depth 11).
#[test]
#[ignore = "about 7 s in --release: cargo test -p kgames-reversi --release -- --ignored"]
fn perft_12_from_start() {
    assert_eq!(perft(&Position::start(), 12), 1_939_886_636);
}

/// Perft through the public `Position` API only (play, pass, is_over).
fn perft_by_api(p: &Position, depth: u32) -> u64 {
    if depth == 0 || p.is_over() {
        return 1;
    }
    let mv = p.legal_moves();
    if mv == 0 {
        return perft_by_api(&p.pass().unwrap(), depth - 1);
    }
    Squares(mv)
        .map(|sq| perft_by_api(&p.play(sq).unwrap(), depth - 1))
        .sum()
}

#[test]
fn bulk_counting_matches_the_position_api() {
    // Positions from seeded random play, including late ones with passes.
    let mut rng = Rng::new(3);
    for game in 0..30 {
        let mut p = Position::start();
        let stop_at = 10 + (game * 2) % 50;
        while p.count_empty() > stop_at && !p.is_over() {
            let mv = p.legal_moves();
            p = match mv {
                0 => p.pass().unwrap(),
                _ => {
                    let k = rng.below(mv.count_ones()) as usize;
                    p.play(Squares(mv).nth(k).unwrap()).unwrap()
                }
            };
        }
        for d in 0..5 {
            assert_eq!(perft(&p, d), perft_by_api(&p, d), "{:?} d{d}", p.setup());
        }
    }
}

#[test]
fn metered_perft_agrees_and_stops() {
    let (mut c, mut i) = (NodeClock { ns_per_node: 0 }, NeverInterrupt);
    let mut m = Meter::new(Budget::Nodes(1 << 40), &mut c, &mut i);
    for (d, &n) in START_PERFT.iter().enumerate().take(8) {
        assert_eq!(
            perft_metered(&Position::start(), d as u32 + 1, &mut m),
            Ok(n)
        );
    }
    let mut m = Meter::new(Budget::Nodes(100), &mut c, &mut i);
    assert_eq!(
        perft_metered(&Position::start(), 8, &mut m),
        Err(SearchEnd::OutOfBudget)
    );
}

#[test]
fn finished_game_is_one_leaf_at_any_depth() {
    let p = Position::from_bitboards(!0, 0, Color::X).unwrap();
    for d in 1..5 {
        assert_eq!(perft(&p, d), 1);
    }
}

#[test]
fn pass_is_a_ply() {
    // X a1, O b1, O to move: O must pass; X has one move (c1); then nobody can move.
    let p = Position::from_bitboards(0b1, 0b10, Color::O).unwrap();
    assert_eq!(perft(&p, 1), 1); // the pass
    assert_eq!(perft(&p, 2), 1); // X's only move
    assert_eq!(perft(&p, 3), 1); // game over
}
