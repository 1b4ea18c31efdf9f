//! The ladder's smoke match: 2 games against Stockfish at Skill Level 0, 20 ms per move,
//! through `kgames-uci --host`. Skips (with a message) only when Stockfish is not installed
//! (scripts/setup-toolchain.sh installs it).

use std::path::Path;
use std::process::Command;

#[test]
fn two_game_smoke_match() {
    let stockfish = ["/usr/games/stockfish", "/usr/bin/stockfish"]
        .into_iter()
        .find(|p| Path::new(p).is_file());
    let Some(stockfish) = stockfish else {
        eprintln!("SKIP: stockfish is not installed");
        return;
    };
    let engine = format!("{} --host", env!("CARGO_BIN_EXE_kgames-uci"));
    let out = Command::new(env!("CARGO_BIN_EXE_chess-ladder"))
        .args(["--engine", &engine, "--stockfish", stockfish])
        .args(["--levels", "0", "--games", "2", "--movetime", "20"])
        .output()
        .expect("run chess-ladder");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("level  0 game"))
        .collect();
    assert_eq!(games.len(), 2, "{text}");
    // Both games ended by the rules, not by a forfeit (an illegal or missing move).
    let by_rules = [
        "(checkmate",
        "(Stalemate",
        "(InsufficientMaterial",
        "(FiftyMoves",
        "(Repetition",
    ];
    for g in &games {
        assert!(by_rules.iter().any(|r| g.contains(r)), "{g}");
    }
    // Stockfish's depth is counted per move; Skill Level 0 picks at depth 1, so none below.
    let depth = text
        .lines()
        .find(|l| l.starts_with("level  0: the opponent's depth: mean "))
        .unwrap_or_else(|| panic!("no depth line: {text}"));
    assert!(
        depth.contains("; below depth 1 (where its skill picks): 0 (0.0%)"),
        "{depth}"
    );
    assert!(games.iter().all(|g| g.contains(", their depth ")), "{text}");
    let row = text
        .lines()
        .find(|l| l.starts_with("| 0 | 2 |"))
        .unwrap_or_else(|| panic!("no table row: {text}"));
    // Wins + draws + losses = 2.
    let counts: Vec<u32> = row
        .split('|')
        .skip(3)
        .take(3)
        .map(|c| c.trim().parse().expect("a count"))
        .collect();
    assert_eq!(counts.iter().sum::<u32>(), 2, "{row}");
}
