//! The history printed when `xo-user` quits, after the terminal is restored (unless
//! `--no-history`): for each game seen, in game order, the moves of its last finished round and
//! of the round in progress, one line each, in the style of upstream kxo's `xo-user`:
//!
//! ```text
//! #3 r12 NEGA vs MCTS (O won): Moves: B2 -> C2 -> A1 -> C3 -> D4 -> C4 -> C1
//! #3 r13 TD vs RAND (playing): Moves: A1 -> D4
//! #4 r13 MC vs MC (playing): Moves: (none)
//! ```
//!
//! `#game rround O vs X`: the slot, the round and the agents' tags (`AgentKind::tag`); in
//! parentheses `O won`, `X won`, `draw` or `playing`; then the cells played, named as
//! everywhere in xo-user (`crate::cells`: columns `A`-`D`, rows `1`-`4`), from the record's
//! `moves` field (`move_count` plies), or `(none)` before the first move.

use kgames_uapi::agent::AgentKind;
use kgames_uapi::record::Record;

use crate::cells::{cell_name, moves_text};
use crate::model::Model;

/// The result word of a record's `state`.
pub fn result_word(state: u8) -> &'static str {
    match state {
        Record::RUNNING => "playing",
        Record::O_WON => "O won",
        Record::X_WON => "X won",
        Record::DRAW => "draw",
        _ => "?",
    }
}

fn tag(id: u8) -> &'static str {
    AgentKind::from_id(id).map_or("?", AgentKind::tag)
}

/// The line of one record: `#3 r12 NEGA vs MCTS (O won): Moves: B2 -> C2`.
pub fn line(r: &Record) -> String {
    let moves = if r.move_count == 0 {
        "(none)".to_string()
    } else {
        moves_text(r)
    };
    format!(
        "#{} r{} {} vs {} ({}): Moves: {moves}",
        r.game,
        r.round,
        tag(r.o_agent),
        tag(r.x_agent),
        result_word(r.state)
    )
}

/// Every line of the history: per game in slot order, the finished round, then the one in
/// progress.
pub fn lines(m: &Model) -> Vec<String> {
    m.history
        .values()
        .flat_map(|h| h.finished.iter().chain(h.playing.iter()))
        .map(line)
        .collect()
}

/// A history line read back (for tests that check what was printed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The game slot.
    pub game: u16,
    /// The round.
    pub round: u32,
    /// O's tag.
    pub o: String,
    /// X's tag.
    pub x: String,
    /// `O won`, `X won`, `draw` or `playing`.
    pub result: String,
    /// The cells played, by name.
    pub moves: Vec<String>,
}

/// Reads a line printed by [`line()`] (`None` for any other line).
pub fn parse(l: &str) -> Option<Parsed> {
    let rest = l.trim_end().strip_prefix('#')?;
    let (game, rest) = rest.split_once(" r")?;
    let (round, rest) = rest.split_once(' ')?;
    let (o, rest) = rest.split_once(" vs ")?;
    let (x, rest) = rest.split_once(" (")?;
    let (result, moves) = rest.split_once("): Moves: ")?;
    let moves: Vec<String> = if moves == "(none)" {
        Vec::new()
    } else {
        moves.split(" -> ").map(str::to_string).collect()
    };
    let cells: Vec<String> = (0..16).map(cell_name).collect();
    if !moves.iter().all(|m| cells.contains(m)) {
        return None;
    }
    Some(Parsed {
        game: game.parse().ok()?,
        round: round.parse().ok()?,
        o: o.to_string(),
        x: x.to_string(),
        result: result.to_string(),
        moves,
    })
}

impl Parsed {
    /// True when this line is what [`line()`] prints for `r`.
    pub fn matches(&self, r: &Record) -> bool {
        let cells: Vec<String> = (0..r.move_count)
            .filter_map(|p| r.move_at(p))
            .map(cell_name)
            .collect();
        self.game == r.game
            && self.round == r.round
            && self.o == tag(r.o_agent)
            && self.x == tag(r.x_agent)
            && self.result == result_word(r.state)
            && self.moves == cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msg::Msg;
    use kgames_kxo::kxo::record::RecordBoard;
    use std::time::Duration;

    fn play(mut r: Record, cells: &[u8]) -> Record {
        for &c in cells {
            r = r.played(c).unwrap();
        }
        r
    }

    #[test]
    fn lines_in_the_upstream_style() {
        let start = Record::start(3, 12, AgentKind::Negamax, AgentKind::Mcts);
        // O: B2 A1 B3 B4 (three in column B), X: C2 D4 C3.
        let won = play(start, &[5, 6, 0, 15, 9, 10, 13]);
        assert_eq!(won.state, Record::O_WON);
        assert_eq!(
            line(&won),
            "#3 r12 NEGA vs MCTS (O won): Moves: B2 -> C2 -> A1 -> D4 -> B3 -> C3 -> B4"
        );
        let playing = play(
            Record::start(3, 13, AgentKind::TdLearning, AgentKind::Random),
            &[0, 15],
        );
        assert_eq!(
            line(&playing),
            "#3 r13 TD vs RAND (playing): Moves: A1 -> D4"
        );
        let fresh = Record::start(10, 0, AgentKind::MonteCarlo, AgentKind::MonteCarlo);
        assert_eq!(line(&fresh), "#10 r0 MC vs MC (playing): Moves: (none)");
        let unknown = Record {
            o_agent: 9,
            state: Record::DRAW,
            ..fresh
        };
        assert_eq!(line(&unknown), "#10 r0 ? vs MC (draw): Moves: (none)");

        for r in [won, playing, fresh, unknown] {
            let p = parse(&line(&r)).unwrap();
            assert!(p.matches(&r), "{p:?}");
            assert_eq!(p.moves.len(), usize::from(r.move_count));
        }
        assert!(!parse(&line(&won)).unwrap().matches(&playing));
        for bad in [
            "",
            "$ ",
            "#3 r12 NEGA vs MCTS",
            "#3 r12 A vs B (x): Moves: Z9",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn one_or_two_lines_per_game_in_game_order() {
        let mut m = Model::new();
        let a = play(
            Record::start(1, 0, AgentKind::Mcts, AgentKind::Random),
            &[0, 4, 1, 5, 2],
        );
        assert_eq!(a.state, Record::O_WON);
        let a2 = play(
            Record::start(1, 1, AgentKind::Random, AgentKind::Mcts),
            &[7],
        );
        let b = Record::start(0, 5, AgentKind::Negamax, AgentKind::TdLearning);
        m.apply(
            &Msg::Records {
                at: Duration::ZERO,
                records: vec![a, a2, b],
            },
            Duration::ZERO,
        );
        assert_eq!(
            lines(&m),
            [
                "#0 r5 NEGA vs TD (playing): Moves: (none)",
                "#1 r0 MCTS vs RAND (O won): Moves: A1 -> A2 -> B1 -> B2 -> C1",
                "#1 r1 RAND vs MCTS (playing): Moves: D2",
            ]
        );
        assert!(lines(&Model::new()).is_empty());
    }
}
