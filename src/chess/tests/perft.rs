//! Perft: exact leaf counts of the legal move tree, from the chessprogramming wiki's "Perft
//! Results" page (positions 1-6) and Martin Sedlak's TalkChess collection of special cases.

use kgames_chess::movegen::perft;
use kgames_chess::position::Position;

#[path = "data/perft.rs"]
mod data;

use data::{Case, DEEP, SHALLOW, SPECIAL};

fn run(cases: &[Case]) {
    for &(fen, depth, expected) in cases {
        let pos = Position::from_fen(fen.as_bytes()).unwrap();
        assert_eq!(perft(&pos, depth), expected, "{fen} depth {depth}");
    }
}

#[test]
fn perft_shallow() {
    run(SHALLOW);
}

#[test]
fn perft_special_cases() {
    run(SPECIAL);
}

/// About 3.5 s in release (bulk counting at the last ply).
#[test]
fn perft_deep() {
    run(DEEP);
}
