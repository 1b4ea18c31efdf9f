//! The link's own terminal: the board, the move list, both clocks and the final score.

use std::fmt::Write;

use kgames_reversi::position::{Cell, Color, Position};

use crate::link::{Outcome, Phase, View};
use crate::wire::{colour_letter, square_text};

/// The board with `B`/`W` discs, columns `A`-`H` and rows `1`-`8` as on the wire.
pub fn board(pos: &Position) -> String {
    let mut s = String::from("  A B C D E F G H\n");
    for row in 0..8u8 {
        let _ = write!(s, "{}", row + 1);
        for col in 0..8u8 {
            let c = match pos.cell(row * 8 + col) {
                Cell::Empty => '.',
                Cell::Disc(c) => colour_letter(c),
            };
            let _ = write!(s, " {c}");
        }
        s.push('\n');
    }
    s
}

/// The moves in protocol notation, numbered by ply, `--` for a pass.
pub fn move_list(moves: &[Option<u8>]) -> String {
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| format!("{}.{}", i + 1, m.map_or("--".into(), square_text)))
        .collect::<Vec<_>>()
        .join(" ")
}

fn secs(ms: u64) -> String {
    format!("{}.{:01}s", ms / 1000, (ms % 1000) / 100)
}

/// The whole display of a link.
pub fn render(v: &View) -> String {
    let mut s = board(&v.pos);
    let me = v.engine();
    let who = |c: Color| if c == me { "engine" } else { "opponent" };
    let _ = writeln!(
        s,
        "black ({}) {} discs {}  white ({}) {} discs {}  move time {} s",
        who(Color::X),
        v.pos.count_x(),
        secs(v.used_ms[0]),
        who(Color::O),
        v.pos.count_o(),
        secs(v.used_ms[1]),
        v.move_time
    );
    let _ = writeln!(s, "moves: {}", move_list(&v.moves));
    match (v.phase, v.result) {
        (Phase::Idle, _) => s.push_str("no game: waiting for NG\n"),
        (Phase::Playing, _) => {
            let _ = writeln!(s, "{} to move", who(v.pos.side_to_move()));
        }
        (Phase::Over, r) => {
            let word = match r {
                Some(Outcome::Win) => "the engine wins",
                Some(Outcome::Lose) => "the engine loses",
                Some(Outcome::Tie) => "a tie",
                None => "no result",
            };
            let _ = writeln!(
                s,
                "game over: {word}; final score black {} white {}",
                v.pos.count_x(),
                v.pos.count_o()
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_board_and_moves() {
        let b = board(&Position::start());
        assert!(b.contains("4 . . . W B . . .\n5 . . . B W . . .\n"), "{b}");
        assert_eq!(move_list(&[Some(19), None, Some(37)]), "1.D3 2.-- 3.F5");
    }
}
