//! The CPU player's endgame moves judged by the exact solver: each move is compared with the
//! game-theoretic value of the position it was played in. Test support, not part of the
//! engine: included by path (`#[path]`) by the test
//! `cpu_plays_the_endgame_at_one_second_per_move` (`tests/search.rs`) and the tool
//! `reversi_endgame` (`bin/`).

use kgames_reversi::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
use kgames_reversi::{solve, Outcome, Position, SearchContext, SearchResult, TtEntry};

/// One CPU move and what the solver says of it.
#[derive(Clone, Copy, Debug)]
pub struct Judged {
    /// Empty squares before the move.
    pub empties: u32,
    /// The number of legal moves (0: a pass).
    pub choices: u32,
    /// What the CPU's search returned.
    pub result: SearchResult,
    /// The exact value of the position for the side to move.
    pub value: i32,
    /// The exact value after the move, for the same side.
    pub after: i32,
}

impl Judged {
    /// The move keeps the exact value: a proven best move.
    pub fn best(&self) -> bool {
        self.after == self.value
    }

    /// The move keeps the win/loss/draw value.
    pub fn keeps_wld(&self) -> bool {
        self.after.signum() == self.value.signum()
    }
}

/// The exact value of `pos` for the side to move (empties to the winner), by a solve without
/// a budget on `tt` (cleared first).
pub fn exact_value(pos: &Position, tt: &mut [TtEntry]) -> i32 {
    let mut ctx = SearchContext::new(tt);
    ctx.clear();
    let (mut clock, mut intr) = (NodeClock { ns_per_node: 0 }, NeverInterrupt);
    let mut meter = Meter::new(Budget::Nodes(Budget::MAX_NODES), &mut clock, &mut intr);
    match solve(pos, &mut ctx, &mut meter) {
        Ok(s) => s.score,
        Err(stop) => panic!("an unbounded solve stopped: {stop:?}"),
    }
}

/// Plays `pos` to the end with `think` choosing every move of both sides (a pass when the side
/// to move has none), each move judged by the solver on `judge_tt` and handed to `judged`;
/// returns the final position.
pub fn play_out(
    mut pos: Position,
    think: &mut dyn FnMut(&Position) -> SearchResult,
    judge_tt: &mut [TtEntry],
    judged: &mut dyn FnMut(Judged),
) -> Position {
    while !pos.is_over() {
        let empties = pos.count_empty();
        let value = exact_value(&pos, judge_tt);
        let result = think(&pos);
        let next = match result.outcome {
            Outcome::Move(sq) => pos.play(sq).expect("the CPU plays legal moves"),
            Outcome::Pass => pos.pass().expect("the CPU passes only without a move"),
            Outcome::Interrupted => panic!("interrupted without an interrupt"),
        };
        let after = -exact_value(&next, judge_tt);
        judged(Judged {
            empties,
            choices: pos.legal_moves().count_ones(),
            result,
            value,
            after,
        });
        pos = next;
    }
    pos
}

/// The final score of `end` for the side to move in `start` (empties to the winner).
pub fn final_score_for_mover(start: &Position, end: &Position) -> i32 {
    if end.side_to_move() == start.side_to_move() {
        end.final_score()
    } else {
        -end.final_score()
    }
}
