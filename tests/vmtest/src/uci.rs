//! `kgames-uci` in device mode (the kernel's engine through `/dev/chess`), driven as a GUI
//! would: a whole game against a scripted opponent, and `stop` during `go infinite` (the
//! `KGAMES_IOC_STOP_SEARCH` path).

use crate::{ensure, Outcome};
use kgames_chess::common::rng::Rng;
use kgames_chess::game::Game;
use kgames_chess::moves::MoveList;
use kgames_chess::notation::{parse_uci, write_uci};
use kgames_uci::client::Client;
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
/// come with an `info depth ... pv` line from `09`, and equal the move of `kgames-uci
/// --host --clear-table` (the device clears its table at every search) with the module's
/// table size (`Hash 1` = 65536 entries) at the same budget. Both use their default
/// evaluation, the built-in network.
pub fn whole_game(_: u32) -> Outcome {
    against_host(&["--host", "--clear-table"], 400)
}

/// With `chess_eval=0` (tests/selftests/kgames/module.sh reloads the module so): the device plays the moves of
/// `kgames-uci --host --eval classic` for 40 plies, and in some of them not the network's
/// move (so the parameter reaches the search).
pub fn whole_game_classic(_: u32) -> Outcome {
    against_host(&["--host", "--clear-table", "--eval", "classic"], 40)?;
    match against_host(&["--host", "--clear-table", "--eval", "nnue"], 40) {
        Ok(()) => Err("the device played the network's moves".into()),
        Err(e) if e.contains("the device played") => {
            println!("# against the network's host engine: {e}");
            Ok(())
        }
        Err(e) => Err(e),
    }
}

/// The game of [`whole_game`] against the host engine started with `host_args`, for
/// `plies` plies or to the end.
fn against_host(host_args: &[&str], plies: u32) -> Outcome {
    let mut host = start(host_args)?;
    host.send("setoption name Hash value 1")?;
    let mut e = start(&[])?;
    e.send("uci")?;
    let id = e.until("uciok", Duration::from_secs(10))?;
    ensure!(
        id.iter().any(|l| l == "id name kgames (/dev/chess)"),
        "{id:?}"
    );
    e.send("ucinewgame")?;
    let mut game = Game::new();
    let mut moves: Vec<String> = Vec::new();
    let mut rng = Rng::new(14);
    let mut list = MoveList::new();
    for ply in 0..plies {
        if game.is_over() {
            return Ok(());
        }
        let text = if ply % 2 == 0 {
            let position = format!("position startpos moves {}", moves.join(" "));
            e.send(&position)?;
            e.send("go nodes 3000")?;
            let (mv, lines) = e.bestmove(Duration::from_secs(30))?;
            host.send(&position)?;
            host.send("go nodes 3000")?;
            let (host_mv, _) = host.bestmove(Duration::from_secs(30))?;
            ensure!(
                mv == host_mv,
                "ply {ply}: the device played {mv}, the host engine {host_mv} at the same budget"
            );
            ensure!(
                lines
                    .iter()
                    .any(|l| l.starts_with("info depth") && l.contains(" pv ")),
                "ply {ply}: no info line: {lines:?}"
            );
            mv
        } else {
            game.legal_moves(&mut list);
            let pick = rng.below(list.len() as u32) as usize;
            uci_text(list.get(pick).ok_or("no legal move")?)
        };
        let m = parse_uci(game.position(), text.as_bytes())
            .map_err(|_| format!("ply {ply}: illegal move {text:?} after {moves:?}"))?;
        game.play(m);
        moves.push(text);
    }
    ensure!(
        game.is_over() || plies < 400,
        "no result within {plies} plies"
    );
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
