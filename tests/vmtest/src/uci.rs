//! `kgames-uci` in device mode (the kernel's engine through `/dev/chess`), driven as a GUI
//! would: a whole game against a scripted opponent, and `stop` during `go infinite` (the
//! `KGAMES_IOC_STOP_SEARCH` path).

use crate::{ensure, Outcome};
use kgames_chess::common::rng::Rng;
use kgames_chess::game::Game;
use kgames_chess::moves::MoveList;
use kgames_chess::notation::{parse_uci, write_uci};
use kgames_test_support::uci::Client;
use std::time::{Duration, Instant};

/// `kgames-uci` (next to this program) with `args`.
fn start(args: &[&str]) -> Result<Client, String> {
    Client::spawn(&crate::sibling("kgames-uci").to_string_lossy(), args)
}

fn uci_text(m: kgames_chess::moves::Move) -> String {
    let mut buf = [0u8; 8];
    let mut w = kgames_chess::common::text::BufWriter::new(&mut buf);
    let _ = write_uci(m, &mut w);
    String::from_utf8_lossy(w.as_bytes()).into_owned()
}

/// A whole game: `kgames-uci` (device mode, 3000 nodes a move) against an opponent that
/// plays seeded random legal moves, until the rules end it; every engine move must be legal,
/// come with an `info depth ... pv` line from `09`, and equal the move, depth and score of
/// `kgames-uci --host` with the module's table size (`Hash 1` = 65536 entries) at the same
/// budget: both keep the game's table and history from move to move (the device because its
/// game continues with `12` and the pool hands it the context it used last). Both use their
/// default evaluation, the built-in network.
pub fn whole_game(_: u32) -> Outcome {
    interleaved(1, &["--host"], 400)
}

/// Two games played a move each in turn, each through its own `kgames-uci` in device mode
/// (its own file) and each against its own `kgames-uci --host`: with the default 4 contexts,
/// each game gets back the context that holds its table, so both play the host's moves.
pub fn interleaved_games(_: u32) -> Outcome {
    interleaved(2, &["--host"], 40)
}

/// With `chess_eval=0` (tests/selftests/kgames/module.sh reloads the module so): the device plays the moves of
/// `kgames-uci --host --eval classic` for 40 plies, and in some of them not the network's
/// move (so the parameter reaches the search).
pub fn whole_game_classic(_: u32) -> Outcome {
    interleaved(1, &["--host", "--eval", "classic"], 40)?;
    differs(1, &["--host", "--eval", "nnue"], "the network's")
}

/// With `chess_simd=0` (module.sh reloads the module so): the device's network runs its
/// plain loops, and plays the moves of `kgames-uci --host --simd off` for 40 plies (the
/// AVX2 loops give the same values, so the moves are those of the default too).
pub fn whole_game_plain(_: u32) -> Outcome {
    interleaved(1, &["--host", "--simd", "off"], 40)
}

/// The module's default `search_contexts`, with which the `chess` suite runs (as `fairness`
/// assumes too: the module does not show its parameters in sysfs).
const CONTEXTS: u32 = 4;

/// One game more than the search contexts, played in turn: each search finds its game's
/// context taken by another game since (the pool lends the context given back longest ago),
/// so it clears the other game's table and history first. All play the moves of
/// `kgames-uci --host --clear-table`, and not those of a host that keeps its table (so one
/// game's table leaking into another's search would show).
pub fn more_games_than_contexts(_: u32) -> Outcome {
    interleaved(CONTEXTS + 1, &["--host", "--clear-table"], 40)?;
    differs(CONTEXTS + 1, &["--host"], "the kept table's")
}

/// [`interleaved`] must fail on a search that differs from the host's (`what` names the host).
fn differs(games: u32, host_args: &[&str], what: &str) -> Outcome {
    match interleaved(games, host_args, 40) {
        Ok(()) => Err(format!("the device played {what} moves")),
        Err(e) if e.contains("the device played") => {
            println!("# against {what} host engine: {e}");
            Ok(())
        }
        Err(e) => Err(e),
    }
}

/// The last `info depth` line's depth and score (`depth 7 score cp 31`).
fn depth_and_score(lines: &[String]) -> Option<String> {
    let line = lines.iter().rev().find(|l| l.starts_with("info depth "))?;
    let words: Vec<&str> = line.split(' ').collect();
    let depth = words.get(2)?;
    let at = words.iter().position(|w| *w == "score")?;
    let score = words.get(at + 1..at + 3)?.join(" ");
    Some(format!("depth {depth} score {score}"))
}

/// One game: `kgames-uci` on the device against seeded random moves, with a host engine
/// searching every position the device searches.
struct Duel {
    device: Client,
    host: Client,
    game: Game,
    moves: Vec<String>,
    rng: Rng,
}

impl Duel {
    fn start(host_args: &[&str], seed: u64) -> Result<Duel, String> {
        let mut host = start(host_args)?;
        host.send("setoption name Hash value 1")?;
        let mut device = start(&[])?;
        device.send("uci")?;
        let id = device.until("uciok", Duration::from_secs(10))?;
        ensure!(
            id.iter().any(|l| l == "id name kgames (/dev/chess)"),
            "{id:?}"
        );
        device.send("ucinewgame")?;
        Ok(Duel {
            device,
            host,
            game: Game::new(),
            moves: Vec::new(),
            rng: Rng::new(seed),
        })
    }

    /// Plays ply `ply` (even: the engine's), unless the game is over.
    fn ply(&mut self, ply: u32) -> Outcome {
        if self.game.is_over() {
            return Ok(());
        }
        let text = if ply & 1 == 0 {
            let position = format!("position startpos moves {}", self.moves.join(" "));
            self.device.send(&position)?;
            self.device.send("go nodes 3000")?;
            let (mv, lines) = self.device.bestmove(Duration::from_secs(30))?;
            self.host.send(&position)?;
            self.host.send("go nodes 3000")?;
            let (host_mv, host_lines) = self.host.bestmove(Duration::from_secs(30))?;
            let (found, host_found) = (depth_and_score(&lines), depth_and_score(&host_lines));
            ensure!(
                mv == host_mv && found == host_found,
                "ply {ply}: the device played {mv} ({found:?}), the host engine {host_mv} \
                 ({host_found:?}) at the same budget"
            );
            ensure!(
                lines
                    .iter()
                    .any(|l| l.starts_with("info depth") && l.contains(" pv ")),
                "ply {ply}: no info line: {lines:?}"
            );
            mv
        } else {
            let mut list = MoveList::new();
            self.game.legal_moves(&mut list);
            let pick = self.rng.below(list.len() as u32) as usize;
            uci_text(list.get(pick).ok_or("no legal move")?)
        };
        let m = parse_uci(self.game.position(), text.as_bytes())
            .map_err(|_| format!("ply {ply}: illegal move {text:?} after {:?}", self.moves))?;
        self.game.play(m);
        self.moves.push(text);
        Ok(())
    }
}

/// `games` games of [`Duel`] against host engines started with `host_args`, a ply of each
/// in turn, for `plies` plies each or until one of them ends (one game, 400 plies: its end,
/// by the rules). Stopping at the first end keeps the number of games searching in turn.
fn interleaved(games: u32, host_args: &[&str], plies: u32) -> Outcome {
    let mut duels = Vec::new();
    for g in 0..games {
        duels.push(Duel::start(host_args, 14 + u64::from(g))?);
    }
    for ply in 0..plies {
        if duels.iter().any(|d| d.game.is_over()) {
            println!("# {games} game(s): one ended at ply {ply}");
            return Ok(());
        }
        for (g, duel) in duels.iter_mut().enumerate() {
            duel.ply(ply).map_err(|e| format!("game {g}: {e}"))?;
        }
    }
    ensure!(plies < 400, "no result within {plies} plies");
    Ok(())
}

/// `go infinite` does not end by itself; `stop` (the stop ioctl) makes the kernel's search
/// return a legal move at once.
pub fn stop_infinite(_: u32) -> Outcome {
    let mut e = start(&[])?;
    e.send("position startpos moves e2e4 e7e5")?;
    e.send("go infinite")?;
    e.none_within("bestmove", Duration::from_millis(1500))?;
    let start = Instant::now();
    e.send("stop")?;
    let (mv, _) = e.bestmove(Duration::from_secs(10))?;
    let mut game = Game::new();
    for m in ["e2e4", "e7e5"] {
        let mv = parse_uci(game.position(), m.as_bytes()).map_err(|_| "setup")?;
        game.play(mv);
    }
    ensure!(
        parse_uci(game.position(), mv.as_bytes()).is_ok(),
        "illegal {mv:?}"
    );
    println!("# stop answered in {} ms", start.elapsed().as_millis());
    let status = e.quit(Duration::from_secs(10))?;
    ensure!(status.success(), "exit status {status}");
    Ok(())
}
