//! `othello-match`: two participants of the serial Othello protocol against each other, with
//! this program as the referee in the middle. See docs/tools/othello-link.md.

use std::fs::File;
use std::io::{self, Write};
use std::process::{Child, Command, ExitCode, Stdio};

use clap::Parser;
use kgames_reversi::position::Position;
use othello::display;
use othello::referee::{play_game, End, Peer, Record, Settings};
use othello::serial::{spawn_reader, BaudRate, LineWriter, Tty};
use othello::wire::square_text;

/// Plays N games between two participants, alternating who moves first.
#[derive(Parser, Debug)]
#[command(name = "othello-match", version)]
struct Args {
    /// The participants: `tty:PATH` (a serial line or a pseudo-terminal, set raw 8N1 9600) or
    /// `cmd:COMMAND` (a child process run by `sh -c` on its standard input and output; a bare
    /// COMMAND works too). With --human, only the machine side is given.
    #[arg(required = true, num_args = 1..=2)]
    sides: Vec<String>,
    /// A person at this terminal plays the first side, typing MV D3, PS, or QT to resign.
    #[arg(long)]
    human: bool,
    /// Games to play; the first side moves first in the odd games.
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// Seconds per move (1-9), for both sides.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=9))]
    move_time: u8,
    /// Milliseconds allowed on top of the move time for the transport before IT.
    #[arg(long, default_value_t = 500)]
    grace: u64,
    /// Milliseconds an engine may take to answer a command.
    #[arg(long, default_value_t = 3000)]
    reply: u64,
    /// Consecutive IL/IT that lose a game.
    #[arg(long, default_value_t = 3)]
    max_violations: u32,
    /// Every game starts from this position: 64 cells X/O/- (X is black) and the side to move.
    #[arg(long, num_args = 2, value_names = ["CELLS", "SIDE"])]
    position: Option<Vec<String>>,
    /// Write each game's moves to this file, one line per game (`f5d6c3...`, passes left out).
    #[arg(long)]
    out: Option<String>,
    /// Print every line exchanged.
    #[arg(long, short)]
    verbose: bool,
}

/// What keeps a participant alive: its child process or its tty.
enum Keep {
    Child(Child),
    #[allow(dead_code)] // held for its Drop, which restores the tty
    Tty(Tty),
    Nothing,
}

fn open_side(spec: &str, name: &str) -> Result<(Peer, Keep), String> {
    let err = |e: io::Error| format!("{name} ({spec}): {e}");
    if let Some(path) = spec.strip_prefix("tty:") {
        let tty = Tty::open(path, BaudRate::B9600).map_err(err)?;
        let (r, w) = (tty.reader().map_err(err)?, tty.writer().map_err(err)?);
        let peer = Peer::new(
            name,
            false,
            spawn_reader(r, false),
            LineWriter::new(Box::new(w), false),
        );
        return Ok((peer, Keep::Tty(tty)));
    }
    let cmd = spec.strip_prefix("cmd:").unwrap_or(spec);
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(err)?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(format!("{name}: no pipes"));
    };
    let peer = Peer::new(
        name,
        false,
        spawn_reader(stdout, false),
        LineWriter::new(Box::new(stdin), false),
    );
    Ok((peer, Keep::Child(child)))
}

fn describe(r: &Record, names: &[String; 2]) -> String {
    let (b, w) = (r.pos.count_x(), r.pos.count_o());
    let outcome = match (&r.end, r.winner()) {
        (End::Violation { by, line, why }, _) => {
            format!(
                "stopped: protocol violation by {}: line \"{line}\" ({why})",
                names[*by]
            )
        }
        (End::Resigned(p), Some(win)) => format!("{} resigned, {} wins", names[*p], names[win]),
        (End::Forfeit(p), Some(win)) => {
            format!(
                "{} forfeits (repeated IL/IT), {} wins",
                names[*p], names[win]
            )
        }
        (_, Some(win)) => format!("{} wins", names[win]),
        (_, None) => "a tie".into(),
    };
    format!(
        "black {} white {}: {b}-{w}, {outcome} ({} plies)",
        names[r.black],
        names[1 - r.black],
        r.moves.len()
    )
}

fn run(a: Args) -> Result<bool, String> {
    let position = match &a.position {
        Some(p) => Some(
            Position::parse_setup(p.join(" ").as_bytes())
                .ok_or("--position: 64 cells X/O/- and X or O")?,
        ),
        None => None,
    };
    let want = if a.human { 1 } else { 2 };
    if a.sides.len() != want {
        return Err(format!("give {want} participant(s)"));
    }
    let mut keep = Vec::new();
    let mut peers = Vec::new();
    if a.human {
        let w = LineWriter::new(Box::new(io::stdout()), true);
        peers.push(Peer::new("you", true, spawn_reader(io::stdin(), false), w));
        keep.push(Keep::Nothing);
    }
    for (i, spec) in a.sides.iter().enumerate() {
        let name = if a.human {
            "engine".to_string()
        } else {
            ["A", "B"][i].to_string()
        };
        let (p, k) = open_side(spec, &name)?;
        peers.push(p);
        keep.push(k);
    }
    let Ok(mut peers) = <[Peer; 2]>::try_from(peers) else {
        return Err("two participants needed".into());
    };
    let names = [peers[0].name.clone(), peers[1].name.clone()];
    let s = Settings {
        move_time: a.move_time,
        grace_ms: a.grace,
        reply_ms: a.reply,
        max_violations: a.max_violations.max(1),
        position,
    };
    let mut out = match &a.out {
        Some(p) => Some(File::create(p).map_err(|e| format!("--out {p}: {e}"))?),
        None => None,
    };
    let (mut score, mut discs, mut clean) = ([[0u32; 3]; 2], [0u32; 2], true);
    let verbose = a.verbose;
    for g in 0..a.games {
        let black = (g % 2) as usize;
        let mut log = |l: &str| {
            if verbose {
                println!("  {l}");
            }
        };
        let r = play_game(&mut peers, black, &s, &mut log);
        println!("game {}: {}", g + 1, describe(&r, &names));
        let list: Vec<String> = r
            .moves
            .iter()
            .map(|m| m.map_or("--".into(), square_text))
            .collect();
        println!("  moves: {}", list.join(" "));
        println!("  {}", r.transcript());
        if matches!(r.end, End::Violation { .. }) {
            clean = false;
            print!("{}", display::board(&r.pos));
        }
        discs[r.black] += r.pos.count_x();
        discs[1 - r.black] += r.pos.count_o();
        match r.winner() {
            Some(w) => {
                score[w][0] += 1;
                score[1 - w][1] += 1;
            }
            None if !matches!(r.end, End::Violation { .. }) => {
                score[0][2] += 1;
                score[1][2] += 1;
            }
            None => {}
        }
        if let Some(f) = out.as_mut() {
            writeln!(f, "{}", r.transcript()).map_err(|e| format!("--out: {e}"))?;
        }
    }
    for i in 0..2 {
        println!(
            "{}: {} won, {} lost, {} tied, {} discs",
            names[i], score[i][0], score[i][1], score[i][2], discs[i]
        );
    }
    // Close the lines (children see end of file and exit), then reap the children.
    drop(peers);
    for k in keep {
        if let Keep::Child(mut c) = k {
            let _ = c.wait();
        }
    }
    Ok(clean)
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("othello-match: {e}");
            ExitCode::from(2)
        }
    }
}
