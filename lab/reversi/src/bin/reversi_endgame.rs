//! The CPU player in the endgame at a fixed time per move, on the host's clock, each move
//! judged by the exact solver: `cargo run --release -p reversi-lab --bin reversi_endgame
//! [-- <ms per move, default 1000> <table entries, default 65536 (the module's)>]`.
//!
//! FFO #40 (20 empties) is played to the end by the CPU on both sides: every move should be a
//! proven best move and the game should end at the FFO score. FFO #41-#44 (22-23 empties):
//! the CPU's first move, which should at least keep the win/loss/draw value at 22 empties.
//! The table is cleared before each move, as the module does.

#[path = "../../../../src/reversi/tests/data/endgame_check.rs"]
mod endgame_check;
#[path = "../../../../src/reversi/tests/data/ffo.rs"]
mod ffo;

use kgames_reversi::common::budget::{Budget, Clock, Meter, NeverInterrupt};
use kgames_reversi::search::{Outcome, SearchResult};
use kgames_reversi::{best_move, square_name, Position, SearchContext, TtEntry};
use std::time::{Duration, Instant};

/// The host's monotonic clock.
struct WallClock(Instant);

impl Clock for WallClock {
    fn now_ns(&mut self, _nodes: u64) -> u64 {
        u64::try_from(self.0.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

fn main() {
    let arg = |i: usize, d: usize| {
        std::env::args()
            .nth(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or(d)
    };
    let ms = u32::try_from(arg(1, 1000)).unwrap_or(1000);
    let entries = arg(2, 1 << 16);
    let mut tt = vec![TtEntry::EMPTY; entries];
    let mut judge_tt = vec![TtEntry::EMPTY; 1 << 22];
    let (mut nodes, mut time, mut longest) = (0u64, Duration::ZERO, Duration::ZERO);
    let mut think = |pos: &Position| -> SearchResult {
        let mut ctx = SearchContext::new(&mut tt);
        ctx.clear();
        let (mut clock, mut intr) = (WallClock(Instant::now()), NeverInterrupt);
        let mut meter = Meter::new(Budget::TimeMs(ms), &mut clock, &mut intr);
        let t = Instant::now();
        let r = best_move(pos, &mut ctx, &mut meter);
        let dt = t.elapsed();
        nodes += r.nodes;
        time += dt;
        longest = longest.max(dt);
        println!(
            "  {:2} empties: {} {} {:>4} ms {:>10} nodes",
            pos.count_empty(),
            name(r.outcome),
            score(&r),
            dt.as_millis(),
            r.nodes
        );
        r
    };

    println!(
        "reversi_endgame: {ms} ms per move, table of {entries} entries cleared before each move"
    );
    let c40 = &ffo::FFO_40_44[0];
    println!(
        "FFO #40 played to the end by the CPU on both sides (FFO score {:+}):",
        c40.score
    );
    let start = Position::parse_setup(c40.setup).expect("FFO board");
    let mut moves = Vec::new();
    let end = endgame_check::play_out(start, &mut think, &mut judge_tt, &mut |j| moves.push(j));
    let best = moves.iter().filter(|m| m.best()).count();
    let exact = moves.iter().filter(|m| m.result.exact).count();
    // The final score for the side that moved first.
    let final_score = endgame_check::final_score_for_mover(&start, &end);
    let solved_at = moves.iter().find(|m| m.result.exact).map(|m| m.empties);
    println!(
        "#40: {} moves, {best} proven best, {exact} announced exact (first at {} empties), \
         final {final_score:+} (FFO {:+}): {}",
        moves.len(),
        solved_at.map_or("-".to_string(), |e| e.to_string()),
        c40.score,
        if best == moves.len() && final_score == c40.score {
            "ok"
        } else {
            "NOT PERFECT"
        }
    );
    for m in moves.iter().filter(|m| !m.best()) {
        println!(
            "  not best at {} empties ({} legal moves): {} (value {:+}, after {:+})",
            m.empties,
            m.choices,
            name(m.result.outcome),
            m.value,
            m.after
        );
    }

    println!("FFO #41-#44, the CPU's first move:");
    for c in &ffo::FFO_40_44[1..] {
        let pos = Position::parse_setup(c.setup).expect("FFO board");
        let r = think(&pos);
        let Outcome::Move(sq) = r.outcome else {
            println!("{}: no move", c.name);
            continue;
        };
        let after = -endgame_check::exact_value(&pos.play(sq).expect("legal"), &mut judge_tt);
        let j = endgame_check::Judged {
            empties: pos.count_empty(),
            choices: pos.legal_moves().count_ones(),
            result: r,
            value: c.score,
            after,
        };
        println!(
            "{} ({} empties): {} {} keeps win/loss/draw: {}, best (FFO {:+}, {}): {}",
            c.name,
            j.empties,
            name(r.outcome),
            score(&r),
            yes(j.keeps_wld()),
            c.score,
            c.best
                .iter()
                .map(|b| String::from_utf8_lossy(*b).into_owned())
                .collect::<Vec<_>>()
                .join(" "),
            yes(j.best())
        );
    }
    let us = time.as_micros().max(1);
    println!(
        "all moves: {nodes} nodes in {} ms ({} kn/s); longest move {} ms",
        time.as_millis(),
        u128::from(nodes) * 1000 / us,
        longest.as_millis()
    );
}

/// A move's name, `pass` or `interrupted`.
fn name(o: Outcome) -> String {
    match o {
        Outcome::Move(sq) => String::from_utf8_lossy(&square_name(sq)).into_owned(),
        Outcome::Pass => "pass".into(),
        Outcome::Interrupted => "interrupted".into(),
    }
}

/// The search's score: `+38!` when exact, else midgame units.
fn score(r: &SearchResult) -> String {
    if r.exact {
        format!("{:+}!", r.score)
    } else {
        format!("({:+})", r.score)
    }
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "NO"
    }
}
