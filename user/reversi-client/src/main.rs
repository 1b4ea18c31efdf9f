//! `reversi-client [--cpu-both] [--budget MS] [DEVICE]`: plays reversi against the kernel's CPU
//! the way the classic course client does: one descriptor, each command written as one line
//! with its `\n`, each reply taken with one `read(fd, buf, 1024)`.
//!
//! You play X (moving first). Type a square (`d3`) or `C R` (`3 2`); `pass` when you have no
//! move; `quit` to leave. With `--cpu-both` the CPU plays both sides (`08` and `03`) and the
//! program prints the final result: handy as a smoke test from a shell.

use std::fs::OpenOptions;
use std::io::{self, BufRead, Read, Write};
use std::process::ExitCode;

/// One descriptor speaking the classic protocol.
struct Classic {
    dev: std::fs::File,
}

impl Classic {
    /// Writes `line` plus `\n` in one write, then takes the reply with one 1024-byte read.
    fn cmd(&mut self, line: &str) -> io::Result<String> {
        self.dev.write_all(format!("{line}\n").as_bytes())?;
        let mut buf = [0u8; 1024];
        let n = self.dev.read(&mut buf)?;
        Ok(String::from_utf8_lossy(&buf[..n]).into_owned())
    }

    /// The board of `01`, checked like the classic client: exactly 67 bytes.
    fn board(&mut self) -> io::Result<(Vec<u8>, u8)> {
        let b = self.cmd("01")?.into_bytes();
        if b.len() != 67 || b[64] != b'\t' || b[66] != b'\n' {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "not a 67-byte board",
            ));
        }
        Ok((b[..64].to_vec(), b[65]))
    }
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

fn run() -> io::Result<String> {
    let mut args = std::env::args().skip(1);
    let (mut both, mut budget, mut path) = (false, None, "/dev/reversi".to_string());
    while let Some(a) = args.next() {
        match a.as_str() {
            "--cpu-both" => both = true,
            "--budget" => budget = args.next(),
            _ => path = a,
        }
    }
    let dev = OpenOptions::new().read(true).write(true).open(&path)?;
    let mut c = Classic { dev };
    if let Some(b) = budget {
        c.cmd(&format!("05 {b}"))?;
    }
    let mut reply = c.cmd("00 X")?;
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        if matches!(reply.as_str(), "WIN\n" | "LOSE\n" | "TIE\n") {
            let (cells, to_move) = c.board()?;
            show(&cells, to_move);
            return Ok(reply);
        }
        let (cells, to_move) = c.board()?;
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
    match run() {
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
