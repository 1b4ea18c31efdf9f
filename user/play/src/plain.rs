//! Line mode (`--plain`, or no terminal): for the VM's serial console and for scripts. Each
//! line read is a move or a command; the board is printed as text after every change. The
//! CPU's move is made in place (a signal ends the program as usual).

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use crate::cpu::CpuResult;
use crate::game::{Next, Options, Play};
use crate::kind::Kind;
use kgames_client::Request;

const HELP: &str = "\
a move: reversi d3 or 3 2; chess e2e4, e7e8q, O-O, WPe2-e4; kxo C R
pass (reversi), resign (chess), legal, board, status, new, side (switch colour),
game reversi|chess|kxo, help, quit";

fn show(out: &mut impl Write, play: &Play) -> io::Result<()> {
    if !play.st.message.is_empty() {
        writeln!(out, "{}", play.st.message)?;
    }
    write!(out, "{}", play.st.board_text())?;
    writeln!(out, "{}", play.st.summary())
}

/// Plays `next` until the person is to move (the CPU's moves in between), printing each.
fn settle(out: &mut impl Write, play: &mut Play, mut next: Next) -> io::Result<()> {
    show(out, play)?;
    while next == Next::Cpu {
        writeln!(out, "CPU thinking...")?;
        out.flush()?;
        let r = match play.link.send(Request::CpuMove) {
            Ok(s) => CpuResult::Reply(s),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => CpuResult::Interrupted,
            Err(e) => CpuResult::Failed(e.to_string()),
        };
        let interrupted = matches!(r, CpuResult::Interrupted | CpuResult::Failed(_));
        next = play.cpu_done(r);
        show(out, play)?;
        if interrupted {
            break;
        }
    }
    Ok(())
}

/// Runs line mode over `input`; the exit status.
pub fn run(
    mut play: Play,
    opener: &crate::app::Opener,
    input: impl BufRead,
    out: &mut impl Write,
) -> ExitCode {
    match session(&mut play, opener, input, out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("play: {e}");
            ExitCode::FAILURE
        }
    }
}

fn session(
    play: &mut Play,
    opener: &crate::app::Opener,
    input: impl BufRead,
    out: &mut impl Write,
) -> io::Result<()> {
    let kind = play.st.kind;
    writeln!(
        out,
        "play {kind} ({}): you play {}. Type a move or help.",
        play.link.label(),
        kind.side_name(play.st.human)
    )?;
    let fen = play.opts.fen.clone();
    let next = match play.start(fen.as_deref()) {
        Ok(n) => n,
        Err(e) => {
            play.st.message = e;
            Next::Human
        }
    };
    settle(out, play, next)?;
    for line in input.lines() {
        let line = line?;
        let cmd = line.trim();
        let mut words = cmd.split_whitespace();
        let next = match (words.next().unwrap_or(""), words.next()) {
            ("", _) => {
                if play.next() == Next::Cpu {
                    Next::Cpu
                } else {
                    continue;
                }
            }
            ("quit" | "q" | "exit", None) => return Ok(()),
            ("help" | "?", None) => {
                writeln!(out, "{HELP}")?;
                continue;
            }
            ("board", None) => play.next(),
            ("status", None) => {
                writeln!(out, "{}", play.st.status)?;
                continue;
            }
            ("legal", None) => {
                writeln!(out, "legal moves: {}", play.st.legal.join(" "))?;
                continue;
            }
            ("pass", None) if play.st.kind == Kind::Reversi => play.pass_or_resign(),
            ("resign", None) if play.st.kind == Kind::Chess => play.pass_or_resign(),
            ("new", None) => start(play, None),
            ("side", None) => {
                play.st.human = play.st.kind.other(play.st.human);
                start(play, None)
            }
            ("game", Some(g)) => match [Kind::Reversi, Kind::Chess, Kind::Kxo]
                .into_iter()
                .find(|k| k.name() == g)
            {
                Some(k) => match opener.open(k, false) {
                    Ok(l) => {
                        let opts = Options {
                            fen: None,
                            ..play.opts.clone()
                        };
                        *play = Play::new(k, l, opts, k.default_side());
                        start(play, None)
                    }
                    Err(e) => {
                        writeln!(out, "{e}")?;
                        continue;
                    }
                },
                None => {
                    writeln!(out, "game: reversi, chess or kxo")?;
                    continue;
                }
            },
            _ => play.human_move(cmd),
        };
        settle(out, play, next)?;
        if play.next() == Next::Over {
            writeln!(out, "new, side, game or quit")?;
        }
        out.flush()?;
    }
    Ok(())
}

fn start(play: &mut Play, fen: Option<&str>) -> Next {
    play.start(fen).unwrap_or_else(|e| {
        play.st.message = e;
        Next::Human
    })
}
