//! Scripted UCI sessions against `kgames-uci --host`: the handshake, searches under every
//! kind of limit, `stop` during `go infinite`, bad input, and a game on the clock.

use kgames_chess::game::Game;
use kgames_chess::notation::parse_uci;
use kgames_chess::position::Position;
use kgames_test_support::uci::Client;
use std::time::{Duration, Instant};

/// Long enough for any search these tests start on a loaded machine.
const PATIENCE: Duration = Duration::from_secs(60);

/// `kgames-uci --host` with the tests' patience: every failure is a panic.
struct Engine(Client);

impl Engine {
    fn start(extra: &[&str]) -> Engine {
        let mut args = vec!["--host"];
        args.extend_from_slice(extra);
        Engine(Client::spawn(env!("CARGO_BIN_EXE_kgames-uci"), &args).expect("start"))
    }

    fn send(&mut self, line: &str) {
        self.0.send(line).expect("write to the engine");
    }

    /// Reads lines until one starts with `prefix`; returns all lines read, that one last.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        self.0
            .until(prefix, PATIENCE)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Asserts that no line starting with `prefix` arrives within `wait`.
    fn none_within(&mut self, prefix: &str, wait: Duration) {
        self.0
            .none_within(prefix, wait)
            .unwrap_or_else(|e| panic!("{e}"));
    }

    /// The move of the `bestmove` line that ends the current search.
    fn bestmove(&mut self) -> String {
        self.0
            .bestmove(PATIENCE)
            .unwrap_or_else(|e| panic!("{e}"))
            .0
    }

    fn quit(mut self) {
        let status = self.0.quit(PATIENCE).unwrap_or_else(|e| panic!("{e}"));
        assert!(status.success(), "exit status {status}");
    }
}

fn game_after(fen: Option<&str>, moves: &[&str]) -> Game {
    let mut game = match fen {
        Some(f) => Game::from_position(Position::from_fen(f.as_bytes()).expect("FEN")),
        None => Game::new(),
    };
    for m in moves {
        let mv = parse_uci(game.position(), m.as_bytes()).expect("legal");
        game.play(mv);
    }
    game
}

fn assert_legal(game: &Game, mv: &str) {
    assert!(
        parse_uci(game.position(), mv.as_bytes()).is_ok(),
        "{mv} is not legal"
    );
}

#[test]
fn handshake_and_options() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines.iter().any(|l| l.starts_with("id name kgames")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Hash type spin")));
    e.send("setoption name Hash value 1");
    e.send("setoption name Nodes value 3000");
    e.send("isready");
    assert_eq!(e.until("readyok"), vec!["readyok".to_string()]);
    e.send("ucinewgame");
    e.send("position startpos moves e2e4");
    e.send("go wtime 1000000 btime 1000000");
    // The Nodes option turns the clock into a fixed budget.
    let lines = e.until("bestmove");
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("info");
    assert!(info.contains(" nodes 3000 "), "{info}");
    e.quit();
}

#[test]
fn searches_under_each_limit() {
    let mut e = Engine::start(&[]);
    let game = game_after(None, &["e2e4", "e7e5", "g1f3"]);
    e.send("position startpos moves e2e4 e7e5 g1f3");
    for go in [
        "go nodes 20000",
        "go depth 3",
        "go movetime 50",
        "go wtime 500 btime 500 winc 10 binc 10 movestogo 3",
        "go btime 300",
    ] {
        e.send(go);
        let lines = e.until("bestmove");
        let mv = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        assert_legal(&game, mv);
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth") && l.contains(" pv ")),
            "{go}: {lines:?}"
        );
        if go == "go depth 3" {
            let deepest = lines
                .iter()
                .filter_map(|l| l.strip_prefix("info depth "))
                .filter_map(|l| l.split_whitespace().next()?.parse::<u32>().ok())
                .max();
            assert_eq!(deepest, Some(3), "{lines:?}");
        }
    }
    e.quit();
}

/// The `info` lines and the `bestmove` of one `go nodes 30000` from the start position.
fn search_lines(e: &mut Engine) -> Vec<String> {
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go nodes 30000");
    e.until("bestmove")
}

/// The depth of an `info depth` line and the rest of the line after it.
fn info_depth(line: &str) -> Option<(u32, &str)> {
    let (d, rest) = line.strip_prefix("info depth ")?.split_once(' ')?;
    Some((d.parse().ok()?, rest))
}

/// The nodes of the first `info depth` line at `depth` or deeper (`u64::MAX` if none).
fn nodes_to_depth(lines: &[String], depth: u32) -> u64 {
    lines
        .iter()
        .find_map(|l| {
            let (d, rest) = info_depth(l)?;
            let n = rest
                .split(' ')
                .skip_while(|&x| x != "nodes")
                .nth(1)?
                .parse()
                .ok()?;
            (d >= depth).then_some(n)
        })
        .unwrap_or(u64::MAX)
}

/// The depth of the last `info depth` line.
fn last_depth(lines: &[String]) -> u32 {
    lines
        .iter()
        .rev()
        .find_map(|l| info_depth(l).map(|(d, _)| d))
        .expect("an info depth line")
}

/// By default the table and the history stay between searches of a game: the same search
/// again starts from the first one's work and reaches its depth on fewer nodes, and
/// `ucinewgame` forgets it all (the first search again, line for line but the speeds and
/// times). `--clear-table` forgets at every search.
#[test]
fn the_table_is_kept_until_ucinewgame() {
    let strip = |lines: Vec<String>| -> Vec<String> {
        // No `info string`: a search that answered is over (no "still searching" notice).
        lines
            .into_iter()
            .map(|l| l.split(" nps ").next().unwrap_or("").to_string())
            .collect()
    };
    let mut e = Engine::start(&[]);
    let first = search_lines(&mut e);
    let again = search_lines(&mut e);
    // The kept table and history get the second search to the first one's last depth on
    // fewer nodes (how much deeper it then goes depends on the network).
    let depth = last_depth(&first);
    assert!(
        nodes_to_depth(&again, depth) < nodes_to_depth(&first, depth),
        "kept: {again:?} after {first:?}"
    );
    e.send("ucinewgame");
    let fresh = search_lines(&mut e);
    assert_eq!(strip(fresh), strip(first.clone()));
    e.quit();

    let mut e = Engine::start(&["--clear-table"]);
    let cleared = search_lines(&mut e);
    let again = search_lines(&mut e);
    assert_eq!(strip(again), strip(cleared.clone()));
    assert_eq!(strip(cleared), strip(first));
    e.quit();
}

#[test]
fn finds_mate_and_handles_no_move() {
    let mut e = Engine::start(&[]);
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    e.send("go depth 4");
    let lines = e.until("bestmove");
    assert_eq!(lines.last().unwrap(), "bestmove a1a8");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
    // Stalemate: no legal move.
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go nodes 1000");
    assert_eq!(e.bestmove(), "0000");
    e.quit();
}

#[test]
fn stop_ends_an_infinite_search_with_a_move() {
    let mut e = Engine::start(&[]);
    e.send("position startpos moves d2d4 d7d5");
    e.send("go infinite");
    e.until("info depth");
    // An infinite search never ends by itself, even after a forced result.
    e.none_within("bestmove", Duration::from_millis(500));
    e.send("isready");
    e.until("readyok");
    e.send("stop");
    let mv = e.bestmove();
    assert_legal(&game_after(None, &["d2d4", "d7d5"]), &mv);
    // A mate found at depth 1 does not end `go infinite` either.
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    e.send("go infinite");
    e.none_within("bestmove", Duration::from_millis(300));
    e.send("stop");
    assert_eq!(e.bestmove(), "a1a8");
    // `quit` during a search ends the program.
    e.send("go infinite");
    e.until("info depth");
    e.quit();
}

#[test]
fn bad_input_is_reported_and_harmless() {
    let mut e = Engine::start(&[]);
    for bad in [
        "xyzzy",
        "position fen not/a/fen w - - 0 1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position sideways",
        "go depth many",
        "go sideways",
        "setoption name Color value pink",
        "setoption name Hash value 0",
        "setoption name Hash value lots",
        "\u{1b}[31m\u{0}",
    ] {
        e.send(bad);
        let lines = e.until("info string");
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
    }
    // An illegal move: the moves before it stand, and the engine says so.
    e.send("position startpos moves e2e4 e7e5 e1e3 d2d4");
    let warning = e.until("info string");
    assert!(warning[0].contains("e1e3"), "{warning:?}");
    e.send("go nodes 5000");
    let mv = e.bestmove();
    assert_legal(&game_after(None, &["e2e4", "e7e5"]), &mv);
    // The bad FENs left the position alone.
    e.send("position startpos");
    e.send("position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    e.until("info string");
    e.send("go nodes 5000");
    assert_legal(&Game::new(), &e.bestmove());
    // A very long line.
    let long = format!("position startpos moves {}", "e2e4 ".repeat(10_000));
    e.send(&long);
    e.until("info string");
    e.send("isready");
    e.until("readyok");
    e.quit();
}

/// A game of 40 moves a side in 6 s a side (ten times faster than 40 moves in a minute),
/// the engine playing both sides; each side's clock loses the wall time from `go` to
/// `bestmove` as the GUI would measure it. Neither clock may run out.
#[test]
fn never_loses_on_time() {
    let mut e = Engine::start(&[]);
    let mut clocks = [6000i64, 6000];
    let mut moves: Vec<String> = Vec::new();
    e.send("ucinewgame");
    for ply in 0..80 {
        let side = ply % 2;
        let to_go = 40 - ply / 2;
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let start = Instant::now();
        e.send(&format!(
            "go wtime {} btime {} movestogo {to_go}",
            clocks[0], clocks[1]
        ));
        let mv = e.bestmove();
        clocks[side] -= start.elapsed().as_millis() as i64;
        assert!(clocks[side] > 0, "flagged at ply {ply}: {clocks:?}");
        if mv == "0000" {
            break; // the game ended (by the rules)
        }
        moves.push(mv);
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        if game_after(None, &refs).is_over() {
            break;
        }
    }
    e.quit();
}
