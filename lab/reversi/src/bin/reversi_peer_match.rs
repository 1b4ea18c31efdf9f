//! A match against another Othello program, from XOT openings.
//!
//! `reversi_peer_match --peer egaroucid-light:PATH|zebra:PATH --openings FILE [--games N]
//! [--ms MS] [--seed S] [--zebra-depth MID,EXACT,WLD] [--clear-table]`
//!
//! - `--openings`: XOT openings, one a line as a move string (`f5d6c4d3c2b3b4b5`), e.g.
//!   `bin/resources/xot/openingslarge.txt` of Egaroucid's repository (fetched, not
//!   committed). `--games N` (default 200, even) plays N / 2 openings drawn from the file
//!   with the seeded generator (`--seed`, default 1), each twice with colours swapped.
//! - Ours: the CPU player in this process, `--ms` milliseconds a move (default 100) on the
//!   wall clock, a 2^20-entry table cleared at the start of each game and kept between its
//!   moves, as `/dev/reversi` keeps it (`--clear-table`: cleared before every move, as the
//!   module did before 2026-11-30).
//! - `--peer egaroucid-light:PATH`: Egaroucid Light (one C++ file of GitHub
//!   `Nyanyan/Egaroucid`, `src/Egaroucid_light.cpp`, built on this machine, never committed):
//!   one process for the whole match; each turn it reads the board as 64 characters (`P` the
//!   side to move, `O` the other, `-` empty, a1..h8) and answers `<move> <value>`. Its level is
//!   the constant in its `main` (depth 10, exact from 20 empties), so its time a move is its
//!   own: the tool prints both sides' mean time a move so that `--ms` can be set to match it.
//! - `--peer zebra:PATH`: Zebra's game-playing program `zebra` (GitHub `hoshir/zebra`, built
//!   on this machine, never committed; `coeffs2.bin` beside it), run once a move in a
//!   directory of its own: the board goes in as a game file (`-g`), Zebra plays one move
//!   (`-test`) with no book, no randomness, one thread and a 2^20-entry table (`-b 0 -r 0 -n 1
//!   -h 20`) at the fixed depths of `--zebra-depth` (`-l`; default `11,18,20`: an 11-ply
//!   midgame search, exact from 18 empties, win/loss/draw from 20, about 100 ms a move on
//!   the project's machine), and the move is read from the `current.mov` it writes. Its time
//!   a move includes its start-up (about 45 ms: the process and its weights), which the tool
//!   measures once and prints.
//!
//! Every peer move is checked against the legal moves; an illegal or unreadable answer stops
//! the match with an error. Prints one line a game and the result for ours: wins, draws,
//! losses, score with its 95% margin, Elo, mean disc margin. Passes are played by the tool.

use kgames_reversi::common::budget::{Budget, Meter, NeverInterrupt};
use kgames_reversi::common::rng::Rng;
use kgames_reversi::search::Outcome;
use kgames_reversi::{
    best_move, parse_square, square_name, Color, Position, SearchContext, TtEntry,
};
use reversi_lab::{summary, WallClock};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// The program ours plays against.
enum Peer {
    Lines(LinePeer),
    Zebra(Zebra),
}

impl Peer {
    /// The peer's move in `p` (which has a legal move).
    fn play(&mut self, p: &Position) -> Result<u8, String> {
        match self {
            Peer::Lines(peer) => peer.play(p),
            Peer::Zebra(zebra) => zebra.play(p),
        }
    }
}

/// The square `word` names if it is a legal move in `p`.
fn legal(p: &Position, word: &str) -> Result<u8, String> {
    let sq = parse_square(word.as_bytes())
        .ok_or_else(|| format!("the peer answered {word:?}, not a move"))?;
    if p.is_legal(sq) {
        Ok(sq)
    } else {
        Err(format!(
            "the peer played {word}, illegal in {}",
            String::from_utf8_lossy(&p.setup())
        ))
    }
}

/// A peer program answering one board a line.
struct LinePeer {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl LinePeer {
    fn start(path: &str) -> Result<LinePeer, String> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{path}: {e}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(format!("{path}: no pipes"));
        };
        Ok(LinePeer {
            child,
            stdin,
            stdout: BufReader::new(stdout),
        })
    }

    /// The peer's move in `p` (which has a legal move).
    fn play(&mut self, p: &Position) -> Result<u8, String> {
        let mut board = String::with_capacity(65);
        let (me, opp) = (p.mover(), p.opponent());
        for sq in 0..64 {
            let bit = 1u64 << sq;
            board.push(if me & bit != 0 {
                'P'
            } else if opp & bit != 0 {
                'O'
            } else {
                '-'
            });
        }
        board.push('\n');
        self.stdin
            .write_all(board.as_bytes())
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("writing to the peer: {e}"))?;
        let mut line = String::new();
        if self
            .stdout
            .read_line(&mut line)
            .map_err(|e| e.to_string())?
            == 0
        {
            return Err("the peer closed its output".into());
        }
        legal(p, line.split_whitespace().next().unwrap_or(""))
    }
}

impl Drop for LinePeer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Zebra's `zebra`, run once a move in a directory of its own.
struct Zebra {
    path: PathBuf,
    dir: PathBuf,
    /// `-l`'s midgame depth, exact and win/loss/draw empties.
    depth: [String; 3],
}

impl Zebra {
    /// Makes the directory (with a link to the `coeffs2.bin` beside `path`).
    fn start(path: &str, depth: [String; 3]) -> Result<Zebra, String> {
        let path = std::fs::canonicalize(path).map_err(|e| format!("{path}: {e}"))?;
        let coeffs = path.with_file_name("coeffs2.bin");
        let coeffs = std::fs::canonicalize(&coeffs)
            .map_err(|e| format!("{}: {e} (Zebra's weights)", coeffs.display()))?;
        let dir = std::env::temp_dir().join(format!("reversi_peer_match.{}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .and_then(|()| {
                let link = dir.join("coeffs2.bin");
                let _ = std::fs::remove_file(&link);
                std::os::unix::fs::symlink(&coeffs, link)
            })
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(Zebra { path, dir, depth })
    }

    /// Zebra's move in `p` (which has a legal move).
    fn play(&mut self, p: &Position) -> Result<u8, String> {
        self.search(p, &self.depth)
    }

    /// Zebra's move in `p` searched at `depth` (`-l`'s three values).
    fn search(&self, p: &Position, depth: &[String; 3]) -> Result<u8, String> {
        let setup = p.setup();
        let mut game = setup.get(..64).unwrap_or_default().to_vec();
        let black = p.side_to_move() == Color::X;
        game.extend_from_slice(if black { b"\nBlack\n" } else { b"\nWhite\n" });
        let moves = self.dir.join("current.mov");
        let _ = std::fs::remove_file(&moves);
        std::fs::write(self.dir.join("position.gam"), game).map_err(|e| e.to_string())?;
        let mut cmd = Command::new(&self.path);
        cmd.current_dir(&self.dir)
            .args(["-e", "0", "-b", "0", "-r", "0", "-n", "1", "-h", "20"])
            .args(["-g", "position.gam", "-test", "-l"]);
        if black {
            cmd.args(depth).arg("0");
        } else {
            cmd.arg("0").args(depth);
        }
        let status = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| format!("{}: {e}", self.path.display()))?;
        if !status.success() {
            return Err(format!("{} exited with {status}", self.path.display()));
        }
        let text = std::fs::read_to_string(&moves)
            .map_err(|e| format!("{}: {e} (Zebra wrote no move)", moves.display()))?;
        let word = text
            .split_whitespace()
            .find(|w| parse_square(w.as_bytes()).is_some())
            .unwrap_or("");
        legal(p, word)
    }

    /// The time of a move that needs no search: the process and its weights' loading.
    fn start_up(&self) -> Result<Duration, String> {
        let t = Instant::now();
        self.search(&Position::start(), &["1", "1", "1"].map(String::from))
            .map(|_| t.elapsed())
    }
}

impl Drop for Zebra {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The position after the moves of an XOT line; `None` if it is not a legal sequence.
fn xot(line: &str) -> Option<Position> {
    let b = line.trim().as_bytes();
    if b.is_empty() || !b.len().is_multiple_of(2) {
        return None;
    }
    let mut p = Position::start();
    for mv in b.chunks(2) {
        if p.legal_moves() == 0 {
            p = p.pass()?;
        }
        p = p.play(parse_square(mv)?)?;
    }
    Some(p)
}

/// Time spent and moves made by one side.
#[derive(Default)]
struct Clocked {
    time: Duration,
    moves: u32,
}

impl Clocked {
    fn mean_ms(&self) -> String {
        let us = self.time.as_micros() / u128::from(self.moves.max(1));
        format!("{}.{:01}", us / 1000, (us % 1000) / 100)
    }
}

/// One game from `p`, ours playing `ours`; ours's final disc difference and the moves.
fn game(
    mut p: Position,
    ours: Color,
    ms: u32,
    (tt, keep): (&mut [TtEntry], bool),
    peer: &mut Peer,
    clocks: &mut [Clocked; 2],
) -> Result<(i32, String), String> {
    tt.fill(TtEntry::EMPTY);
    let mut moves = String::new();
    while !p.is_over() {
        if p.legal_moves() == 0 {
            p = p.pass().ok_or("no pass")?;
            continue;
        }
        let t = Instant::now();
        let (sq, side) = if p.side_to_move() == ours {
            let mut ctx = SearchContext::new(tt);
            if !keep {
                ctx.clear();
            }
            let (mut clock, mut never) = (WallClock(Instant::now()), NeverInterrupt);
            let mut meter = Meter::new(Budget::TimeMs(ms), &mut clock, &mut never);
            match best_move(&p, &mut ctx, &mut meter).outcome {
                Outcome::Move(sq) => (sq, 0),
                other => return Err(format!("our engine answered {other:?}")),
            }
        } else {
            (peer.play(&p)?, 1)
        };
        clocks[side].time += t.elapsed();
        clocks[side].moves += 1;
        moves.push_str(std::str::from_utf8(&square_name(sq)).unwrap_or("??"));
        p = p.play(sq).ok_or("illegal move")?;
    }
    let d = p.count_x() as i32 - p.count_o() as i32;
    Ok((if ours == Color::X { d } else { -d }, moves))
}

/// The command line's form.
const USAGE: &str = "usage: reversi_peer_match --peer egaroucid-light:PATH|zebra:PATH \
                     --openings FILE [--games N] [--ms MS] [--seed S] \
                     [--zebra-depth MID,EXACT,WLD] [--clear-table]";

fn usage() -> ExitCode {
    eprintln!("{USAGE}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!(
            "reversi_peer_match: our CPU against another Othello program over pipes, from XOT \
             openings, colours swapped (see the source's header for the details)\n{USAGE}"
        );
        return ExitCode::SUCCESS;
    }
    let get = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let (Some(peer_arg), Some(openings)) = (get("--peer"), get("--openings")) else {
        return usage();
    };
    let num = |name: &str, d: u64| get(name).map_or(Some(d), |v| v.parse().ok());
    let (Some(games), Some(ms), Some(seed)) =
        (num("--games", 200), num("--ms", 100), num("--seed", 1))
    else {
        return usage();
    };
    let keep = !args.iter().any(|a| a == "--clear-table");
    let depth = get("--zebra-depth").unwrap_or_else(|| "11,18,20".into());
    let depth: Vec<String> = depth.split(',').map(str::to_owned).collect();
    let Ok(depth) = <[String; 3]>::try_from(depth) else {
        return usage();
    };
    if !depth.iter().all(|d| d.parse::<u8>().is_ok_and(|d| d <= 60)) {
        return usage();
    }
    let started = if let Some(path) = peer_arg.strip_prefix("egaroucid-light:") {
        LinePeer::start(path).map(|p| (Peer::Lines(p), format!("Egaroucid Light ({path})")))
    } else if let Some(path) = peer_arg.strip_prefix("zebra:") {
        Zebra::start(path, depth.clone()).and_then(|z| {
            let start_up = z.start_up()?;
            let name = format!(
                "Zebra ({path}, -l {}; start-up {} ms a move, counted in its time)",
                depth.join(" "),
                start_up.as_millis()
            );
            Ok((Peer::Zebra(z), name))
        })
    } else {
        eprintln!(
            "reversi_peer_match: unknown peer {peer_arg:?} (known: egaroucid-light:PATH, \
             zebra:PATH)"
        );
        return ExitCode::from(2);
    };
    let (mut peer, name) = match started {
        Ok(p) => p,
        Err(e) => {
            eprintln!("reversi_peer_match: {e}");
            return ExitCode::FAILURE;
        }
    };
    let text = match std::fs::read_to_string(&openings) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("reversi_peer_match: {openings}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        eprintln!("reversi_peer_match: {openings}: no openings");
        return ExitCode::FAILURE;
    }
    println!(
        "ours ({ms} ms a move, table {}) against {name}: {games} games, XOT openings from \
         {openings} ({} lines, seed {seed}), colours swapped",
        if keep {
            "kept between moves"
        } else {
            "cleared every move"
        },
        lines.len()
    );
    let mut rng = Rng::new(seed);
    let mut tt = vec![TtEntry::EMPTY; 1 << 20];
    let mut clocks: [Clocked; 2] = Default::default();
    let mut results = Vec::new();
    let ms = u32::try_from(ms).unwrap_or(u32::MAX);
    for pair in 0..games / 2 {
        let idx = rng.below(u32::try_from(lines.len()).unwrap_or(u32::MAX)) as usize;
        let line = lines.get(idx).copied().unwrap_or("");
        let Some(start) = xot(line) else {
            eprintln!("reversi_peer_match: {openings}: {line:?} is not a legal opening");
            return ExitCode::FAILURE;
        };
        for ours in [Color::X, Color::O] {
            match game(start, ours, ms, (&mut tt, keep), &mut peer, &mut clocks) {
                Ok((d, moves)) => {
                    println!(
                        "game {}: {} ours {:?} {:+} {moves}",
                        2 * pair + u64::from(ours == Color::O) + 1,
                        line.trim(),
                        ours,
                        d
                    );
                    results.push(d);
                }
                Err(e) => {
                    eprintln!("reversi_peer_match: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    println!(
        "mean time a move: ours {} ms, peer {} ms",
        clocks[0].mean_ms(),
        clocks[1].mean_ms()
    );
    println!("ours: {}", summary(&results));
    ExitCode::SUCCESS
}
