//! `reversi-client [--cpu-both] [--budget BUDGET] [DEVICE]`: plays reversi against the
//! kernel's CPU the way the classic course client does: one descriptor on the user's shared
//! game, each command written as one line with its `\n` (a [`kgames_client::Device`]).
//!
//! You play X (moving first). Type a square (`d3`) or `C R` (`3 2`); `pass` when you have no
//! move; `quit` to leave. With `--cpu-both` the CPU plays both sides (`08` and `03`) and the
//! program prints the final result: handy as a smoke test from a shell.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use clap::Parser;
use kgames_client::protocol::{ends_game, ReversiBoard};
use kgames_client::{Budget, Device, Request, Sharing, Transport, Word};

/// A classic-protocol reversi client for /dev/reversi: you play X against the kernel's CPU,
/// on your user's shared game.
///
/// Moves: a square (d3) or column and row from 0 (3 2); pass; quit.
///
/// Exit status: 0 when the game ended or on quit, 1 when the device fails, 2 on bad
/// arguments.
#[derive(Debug, Parser)]
#[command(name = "reversi-client", version)]
struct Args {
    /// The CPU plays X too (08) and O (03): a smoke test that prints the final board and
    /// result.
    #[arg(long)]
    cpu_both: bool,
    /// The CPU's budget, sent as `05 BUDGET`: milliseconds (500) or N and a node count
    /// (N20000).
    #[arg(long, value_name = "BUDGET", value_parser = parse_budget)]
    budget: Option<Budget>,
    /// The device node.
    #[arg(default_value = "/dev/reversi")]
    device: String,
}

fn parse_budget(s: &str) -> Result<Budget, String> {
    Budget::parse(s.as_bytes()).ok_or_else(|| {
        format!(
            "1-{} (milliseconds) or N and a node count (N20000)",
            Budget::MAX_MS
        )
    })
}

/// The board of `01`, checked like the classic client: exactly 67 bytes.
fn board(c: &Device) -> io::Result<ReversiBoard> {
    let r = c.send(Request::Board)?;
    ReversiBoard::parse(r.text())
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "not a 67-byte board"))
}

fn show(cells: &[u8], to_move: u8) {
    println!("  a b c d e f g h");
    for row in 0..8 {
        let line: Vec<String> = (0..8)
            .map(|c| char::from(cells[row * 8 + c]).to_string())
            .collect();
        println!("{} {}", row + 1, line.join(" "));
    }
    let (x, o) = (
        cells.iter().filter(|&&c| c == b'X').count(),
        cells.iter().filter(|&&c| c == b'O').count(),
    );
    println!("X {x}  O {o}  {} to move", char::from(to_move));
}

/// `d3` or `3 2` to the `02` argument `3 2`.
fn parse_move(s: &str) -> Option<String> {
    let b = s.trim().as_bytes();
    match *b {
        [c @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(format!("{} {}", c - b'a', r - b'1')),
        [c @ b'0'..=b'7', b' ', r @ b'0'..=b'7'] => Some(format!("{} {}", c - b'0', r - b'0')),
        _ => None,
    }
}

fn run(args: Args) -> io::Result<String> {
    let both = args.cpu_both;
    let c = Device::open(&args.device, Sharing::Shared)?;
    if let Some(b) = args.budget {
        c.send(Request::Budget(b))?;
    }
    let mut reply = c.send(Request::New("X"))?;
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        if reply.word().is_some_and(ends_game) {
            let b = board(&c)?;
            show(&b.cells, b.to_move);
            return Ok(reply.text().to_string());
        }
        let b = board(&c)?;
        if b.to_move == b'O' {
            reply = c.send(Request::CpuMove)?;
            println!("CPU: {}", c.send(Request::LastMove)?.line());
            continue;
        }
        show(&b.cells, b.to_move);
        if both {
            reply = c.send(Request::CpuMoveForHuman)?;
            println!("X (CPU): {}", c.send(Request::LastMove)?.line());
            continue;
        }
        print!("your move (d3, 3 2, pass, quit): ");
        io::stdout().flush()?;
        let Some(line) = lines.next().transpose()? else {
            return Ok("quit\n".into());
        };
        let line = line.trim();
        reply = match line {
            "quit" => return Ok("quit\n".into()),
            "pass" => c.send(Request::PassOrResign)?,
            _ => match parse_move(line) {
                Some(m) => c.send(Request::Move(&m))?,
                None => {
                    println!("? moves look like d3 or 3 2");
                    continue;
                }
            },
        };
        if reply.word() == Some(Word::IllMove) {
            println!(
                "illegal; legal moves: {}",
                c.send(Request::LegalMoves)?.line()
            );
        }
    }
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(result) => {
            print!("{result}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("reversi-client: {e}");
            ExitCode::FAILURE
        }
    }
}
