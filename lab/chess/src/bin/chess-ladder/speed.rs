//! Our engine's speed through UCI, measured before the games: each of the benchmark's
//! positions searched to a node budget, the nodes over the wall-clock time. With
//! `--build kernel-like` the ladder measures both builds in the same run and prints the
//! factor, so every figure says at what speed it was played.

use chess_lab::bench::FENS;
use kgames_test_support::uci::Client;
use std::time::{Duration, Instant};

/// Nodes per position of a speed measurement by default.
pub const NODES: u64 = 400_000;

/// The nodes a second of `engine` over [`FENS`] at `budget` nodes each (wall clock, UCI
/// overhead included: about a millisecond a position).
pub fn nodes_per_second(engine: &mut Client, budget: u64) -> Result<f64, String> {
    let patience = Duration::from_secs(120);
    let (mut nodes, mut seconds) = (0u64, 0f64);
    for fen in FENS {
        engine.send("ucinewgame")?;
        engine.ready()?;
        engine.send(&format!("position fen {fen}"))?;
        let start = Instant::now();
        engine.send(&format!("go nodes {budget}"))?;
        let (_, lines) = engine.bestmove(patience)?;
        seconds += start.elapsed().as_secs_f64();
        nodes += last_nodes(&lines).ok_or_else(|| format!("{}: no info nodes", engine.name()))?;
    }
    engine.send("ucinewgame")?;
    engine.ready()?;
    Ok(nodes as f64 / seconds.max(1e-6))
}

/// The count of the last `info ... nodes N` among `lines`.
fn last_nodes(lines: &[String]) -> Option<u64> {
    lines.iter().rev().find_map(|l| {
        let mut words = l.split_whitespace().skip_while(|w| *w != "nodes");
        words.next()?;
        words.next()?.parse().ok()
    })
}

#[cfg(test)]
mod tests {
    use super::last_nodes;

    #[test]
    fn the_last_info_nodes_counts() {
        let lines: Vec<String> = [
            "info depth 9 seldepth 12 score cp 31 nodes 9000 nps 100 pv e2e4",
            "info depth 10 seldepth 14 score cp 28 nodes 21000 nps 100 pv e2e4",
            "bestmove e2e4",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(last_nodes(&lines), Some(21000));
        assert_eq!(last_nodes(&lines[2..]), None);
    }
}
