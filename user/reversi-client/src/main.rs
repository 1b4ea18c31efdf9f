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
use kgames_client::{Device, Sharing, Transport};

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
    #[arg(long, value_name = "BUDGET")]
    budget: Option<String>,
    /// The device node.
    #[arg(default_value = "/dev/reversi")]
    device: String,
}

/// The board of `01`, checked like the classic client: exactly 67 bytes.
fn board(c: &Device) -> io::Result<(Vec<u8>, u8)> {
    let b = c.cmd("01")?.into_bytes();
    if b.len() != 67 || b[64] != b'\t' || b[66] != b'\n' {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "not a 67-byte board",
        ));
    }
    Ok((b[..64].to_vec(), b[65]))
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
        c.cmd(&format!("05 {b}"))?;
    }
    let mut reply = c.cmd("00 X")?;
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        if matches!(reply.as_str(), "WIN\n" | "LOSE\n" | "TIE\n") {
            let (cells, to_move) = board(&c)?;
            show(&cells, to_move);
            return Ok(reply);
        }
        let (cells, to_move) = board(&c)?;
        if to_move == b'O' {
            reply = c.cmd("03")?;
            let last = c.cmd("06")?;
            println!("CPU: {}", last.trim());
            continue;
        }
        show(&cells, to_move);
        if both {
            reply = c.cmd("08")?;
            println!("X (CPU): {}", c.cmd("06")?.trim());
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
            "pass" => c.cmd("04")?,
            _ => match parse_move(line) {
                Some(m) => c.cmd(&format!("02 {m}"))?,
                None => {
                    println!("? moves look like d3 or 3 2");
                    continue;
                }
            },
        };
        if reply == "ILLMOVE\n" {
            println!("illegal; legal moves: {}", c.cmd("07")?.trim());
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
