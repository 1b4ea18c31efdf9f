//! Time management: how long to think, from `go`'s clock or fixed limits.

use crate::protocol::Go;

/// What one search may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Wall-clock milliseconds.
    Millis(u64),
    /// Nodes (deterministic).
    Nodes(u64),
    /// Until `stop` (or the depth limit).
    Infinite,
}

/// Moves assumed left in the game when the GUI gives no `movestogo`.
const DEFAULT_MOVES_TO_GO: u64 = 30;

/// The limit of a search for the side `white_to_move` under `go`, with `overhead_ms` kept
/// back per move for the GUI's and the pipe's latency, and `fixed_nodes` (0: none) from the
/// `Nodes` option.
///
/// `movetime` keeps back at most a twentieth of itself. With a clock: an even share of the remaining time over the moves to go plus three
/// quarters of the increment, never more than a third of the remaining time (nine tenths
/// when this is the last move before the time control), minus the overhead.
pub fn limit(go: &Go, white_to_move: bool, overhead_ms: u64, fixed_nodes: u64) -> Limit {
    if let Some(n) = go.nodes {
        return Limit::Nodes(n.max(1));
    }
    if fixed_nodes > 0 && !go.infinite {
        return Limit::Nodes(fixed_nodes);
    }
    if go.infinite {
        return Limit::Infinite;
    }
    if let Some(ms) = go.movetime {
        // A fixed time per move is the GUI's own allowance: keep back only a twentieth
        // (the search stops within a millisecond of its deadline).
        return Limit::Millis(ms.saturating_sub(overhead_ms.min(ms / 20)).max(1));
    }
    let (time, inc) = if white_to_move {
        (go.wtime, go.winc)
    } else {
        (go.btime, go.binc)
    };
    let Some(time) = time else {
        // Only a depth (or nothing): search until the depth is reached or `stop`.
        return Limit::Infinite;
    };
    let inc = inc.unwrap_or(0);
    let left = time.saturating_sub(overhead_ms);
    let moves = go.movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 100);
    let share = left / moves + inc * 3 / 4;
    let cap = if moves == 1 { left * 9 / 10 } else { left / 3 };
    Limit::Millis(share.min(cap).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(time: u64, inc: u64, mtg: Option<u64>) -> Go {
        Go {
            wtime: Some(time),
            btime: Some(time),
            winc: Some(inc),
            binc: Some(inc),
            movestogo: mtg,
            ..Go::default()
        }
    }

    /// 40 moves in 60 s, each move using all of its allocation plus 25 ms of latency
    /// (within the 30 ms overhead): the clock never runs out and most of it is used.
    #[test]
    fn forty_moves_in_a_minute_never_flag() {
        let mut time = 60_000u64;
        for played in 0..40 {
            let Limit::Millis(ms) = limit(&clock(time, 0, Some(40 - played)), true, 30, 0) else {
                panic!("a clock gives a time limit");
            };
            let used = ms + 25;
            assert!(used < time, "move {played}: {used} ms of {time}");
            time -= used;
        }
        assert!(time < 10_000, "left {time} ms unused");
    }

    #[test]
    fn sudden_death_and_increment() {
        let mut time = 10_000u64;
        for _ in 0..200 {
            let Limit::Millis(ms) = limit(&clock(time, 100, None), false, 30, 0) else {
                panic!("a clock gives a time limit");
            };
            assert!(ms + 30 < time + 100);
            time = time - ms - 20 + 100;
        }
        assert!(time > 100);
    }

    #[test]
    fn fixed_limits() {
        let go = Go {
            movetime: Some(100),
            ..Go::default()
        };
        assert_eq!(limit(&go, true, 10, 0), Limit::Millis(95));
        assert_eq!(limit(&go, true, 10, 5000), Limit::Nodes(5000));
        let go = Go {
            nodes: Some(7),
            ..Go::default()
        };
        assert_eq!(limit(&go, true, 10, 5000), Limit::Nodes(7));
        assert_eq!(limit(&Go::default(), true, 10, 0), Limit::Infinite);
    }
}
