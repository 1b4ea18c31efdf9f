//! The ladder's smoke match: 2 games against Stockfish at Skill Level 0, 20 ms per move,
//! through `kgames-uci --host`, the product's program (its path in `KGAMES_UCI`, which
//! `make check` sets; else the product's `target/release/kgames-uci`). Skips (with a message)
//! only when Stockfish is not installed (scripts/setup-toolchain.sh installs it) or, with
//! `KGAMES_UCI` unset, the product is not built.

use std::path::Path;
use std::process::{Command, Output};

/// The product's `kgames-uci`: `KGAMES_UCI`, else `target/release/kgames-uci`; `None` (with a
/// message) when that is not built.
fn kgames_uci() -> Option<std::path::PathBuf> {
    match std::env::var_os("KGAMES_UCI") {
        Some(p) => {
            let p = std::path::PathBuf::from(p);
            assert!(p.is_file(), "KGAMES_UCI={} is not a file", p.display());
            Some(p)
        }
        None => {
            let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/release/kgames-uci");
            if !p.is_file() {
                eprintln!("SKIP: no kgames-uci (set KGAMES_UCI, or build the product)");
                return None;
            }
            Some(p)
        }
    }
}

/// chess-ladder's output for 2 games against Stockfish at Skill Level 0, 20 ms a move, with
/// `extra` arguments; `None` (with a message) when Stockfish is not installed.
fn ladder(extra: &[&str]) -> Option<Output> {
    let stockfish = ["/usr/games/stockfish", "/usr/bin/stockfish"]
        .into_iter()
        .find(|p| Path::new(p).is_file());
    let Some(stockfish) = stockfish else {
        eprintln!("SKIP: stockfish is not installed");
        return None;
    };
    let uci = kgames_uci()?;
    let engine = format!("{} --host", uci.display());
    let out = Command::new(env!("CARGO_BIN_EXE_chess-ladder"))
        .args(["--engine", &engine, "--stockfish", stockfish])
        .args(["--levels", "0", "--games", "2", "--movetime", "20"])
        .args(["--speed-nodes", "20000"])
        .args(extra)
        .output()
        .expect("run chess-ladder");
    Some(out)
}

#[test]
fn two_game_smoke_match() {
    let Some(out) = ladder(&[]) else {
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The header names our table: 16 MiB by default for the host build.
    let header = text.lines().next().unwrap_or_default();
    assert!(header.ends_with("per move, our table 16 MiB"), "{header}");
    // The speed line comes first: our engine's nodes a second, and which build it is.
    let speed = text
        .lines()
        .find(|l| l.starts_with("speed: ours "))
        .unwrap_or_else(|| panic!("no speed line: {text}"));
    let knps: f64 = speed
        .split_whitespace()
        .nth(2)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{speed}"));
    assert!(knps > 0.0, "{speed}");
    assert!(
        speed.ends_with("k nodes/s (--engine) (6 positions x 20000 nodes)"),
        "{speed}"
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

/// `--random-plies` starts the games from seeded random plies and `--max-plies` ends them
/// as draws at the limit: the independent match's conditions (4 random plies, a draw at
/// 300 plies) in small.
#[test]
fn random_openings_and_a_ply_limit() {
    let Some(out) = ladder(&["--random-plies", "4", "--max-plies", "12"]) else {
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let games: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("level  0 game"))
        .collect();
    assert_eq!(games.len(), 2, "{text}");
    for g in &games {
        assert!(
            g.contains(" random #0 "),
            "both games of a pair share opening 0: {g}"
        );
        assert!(g.contains("(ply limit, 12 plies"), "{g}");
        assert!(g.contains("Draw"), "{g}");
    }
}

/// `--hash` sets our engine's table (UCI `Hash`), and the header says which (the default's
/// header is checked by `two_game_smoke_match`).
#[test]
fn hash_sets_our_table() {
    let Some(out) = ladder(&["--hash", "2"]) else {
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let header = text.lines().next().unwrap_or_default();
    assert!(header.ends_with("per move, our table 2 MiB"), "{header}");
}

/// With `--opponent` and `--nodes`, both engines search that many nodes a move, and the
/// header says so (not Stockfish's movetime).
#[test]
fn nodes_for_both_against_an_opponent() {
    let Some(uci) = kgames_uci() else {
        return;
    };
    let opponent = format!("{} --host", uci.display());
    let Some(out) = ladder(&["--opponent", &opponent, "--nodes", "500"]) else {
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let header = text.lines().next().unwrap_or_default();
    assert!(
        header.ends_with(": 2 games per level, 500 nodes (both) per move, our table 16 MiB"),
        "{header}"
    );
}
