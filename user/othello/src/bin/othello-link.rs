//! `othello-link`: one serial line to a private game on `/dev/reversi`, speaking the serial
//! Othello protocol (docs/protocol.md, "Serial Othello protocol") as the engine. See
//! docs/tools/othello-link.md.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;
use kgames_client::in_process::TT_ENTRIES;
use kgames_client::{Device, InProcess, Sharing};
use kgames_common::budget::Budget;
use kgames_reversi::position::Position;
use kgames_session::reversi_game::Reversi;
use othello::display;
use othello::engine::{ClassicEngine, Engine};
use othello::lines::Line;
use othello::link::{Config, Link, Outcome, View};
use othello::runner::{self, Observer};
use othello::serial::{baud_rate, spawn_reader, LineWriter, Pty, Tty};

/// Plays the kernel's reversi engine over the serial Othello protocol.
#[derive(Parser, Debug)]
#[command(name = "othello-link", version)]
struct Args {
    /// A serial line (tty) to open and set to raw 8N1; without it (and without --stdio) a new
    /// pseudo-terminal is created and its path printed on standard output.
    tty: Option<String>,
    /// The line is standard input and output (pipes, tests, a person in a terminal).
    #[arg(long, conflicts_with = "tty")]
    stdio: bool,
    /// Baud rate of TTY (1200-115200).
    #[arg(long, default_value_t = 9600)]
    baud: u32,
    /// The reversi device.
    #[arg(long, default_value = "/dev/reversi")]
    device: String,
    /// The engine's budget per move: milliseconds, or N followed by a node count
    /// (deterministic); default: the move time less --margin.
    #[arg(long)]
    budget: Option<String>,
    /// Milliseconds kept free between the engine's budget and the move time.
    #[arg(long, default_value_t = 300)]
    margin: u32,
    /// Every NG starts from this position: 64 cells X/O/- (X is black) and the side to move.
    #[arg(long, num_args = 2, value_names = ["CELLS", "SIDE"])]
    position: Option<Vec<String>>,
    /// Resign (QT) once an exact endgame result proves the game lost.
    #[arg(long)]
    resign: bool,
    /// Resend an unacknowledged MM/MP/WN/LS/TE/QT after this many milliseconds.
    #[arg(long, default_value_t = 1000)]
    resend_ms: u64,
    /// Resends before the game is abandoned.
    #[arg(long, default_value_t = 3)]
    retries: u32,
    /// Consecutive IL/IT that lose the game.
    #[arg(long, default_value_t = 3)]
    max_violations: u32,
    /// Draw the board and the traffic on this terminal (or file) instead of standard error.
    #[arg(long)]
    show: Option<String>,
    /// Draw nothing.
    #[arg(long, conflicts_with = "show")]
    quiet: bool,
    /// Write 1 to this LED brightness file when the engine wins (0 at each new game).
    #[arg(long)]
    led_win: Option<String>,
    /// Write 1 to this LED brightness file when the engine loses.
    #[arg(long)]
    led_lose: Option<String>,
    /// Write 1 to this LED brightness file on a tie.
    #[arg(long)]
    led_tie: Option<String>,
    /// End the lines sent with \r\n instead of \r.
    #[arg(long)]
    crlf: bool,
    /// Run the engine in this process (the session layer of /dev/reversi compiled in) instead
    /// of on the device: for hosts without kgames.ko.
    #[arg(long, conflicts_with = "device")]
    in_process: bool,
}

/// The display and the LEDs.
struct Show {
    out: Option<Box<dyn Write>>,
    leds: [Option<String>; 3],
    seen: (u32, Option<Outcome>, usize),
}

impl Show {
    fn say(&mut self, text: &str) {
        if let Some(o) = self.out.as_mut() {
            let _ = o.write_all(text.as_bytes());
            let _ = o.flush();
        }
    }

    fn led(&mut self, which: Option<usize>) {
        for (i, path) in self.leds.iter().enumerate() {
            let Some(path) = path else { continue };
            let v = if Some(i) == which { "1" } else { "0" };
            if let Err(e) = std::fs::write(path, v) {
                let msg = format!("!! LED {path}: {e}\n");
                if let Some(o) = self.out.as_mut() {
                    let _ = o.write_all(msg.as_bytes());
                }
            }
        }
    }
}

impl Observer for Show {
    fn update(&mut self, v: &View, sent: &[String], notes: &[String]) {
        for l in sent {
            self.say(&format!("-> {l}\n"));
        }
        for n in notes {
            self.say(&format!("!! {n}\n"));
        }
        let now = (v.games, v.result, v.moves.len());
        if now != self.seen {
            if now.0 != self.seen.0 {
                self.led(None);
            }
            if now.1 != self.seen.1 {
                self.led(v.result.map(|r| match r {
                    Outcome::Win => 0,
                    Outcome::Lose => 1,
                    Outcome::Tie => 2,
                }));
            }
            self.seen = now;
            self.say(&display::render(v));
        }
    }

    fn received(&mut self, line: &Line) {
        let text = match line {
            Line::Text(t) => String::from_utf8_lossy(t).escape_debug().to_string(),
            Line::TooLong => "(a line too long)".into(),
        };
        self.say(&format!("<- {text}\n"));
    }
}

fn config(a: &Args) -> Result<Config, String> {
    let budget = match &a.budget {
        Some(b) => Some(
            Budget::parse(b.as_bytes()).ok_or(format!("--budget {b}: 1-9000 (ms) or N<nodes>"))?,
        ),
        None => None,
    };
    let position = match &a.position {
        Some(p) => {
            let text = p.join(" ");
            Some(
                Position::parse_setup(text.as_bytes())
                    .ok_or(format!("--position {text}: 64 cells X/O/- and X or O"))?,
            )
        }
        None => None,
    };
    Ok(Config {
        budget,
        margin_ms: a.margin,
        position,
        resign: a.resign,
        resend_ms: a.resend_ms.max(1),
        retries: a.retries,
        max_violations: a.max_violations.max(1),
    })
}

fn run(a: Args) -> Result<(), String> {
    if a.in_process {
        return serve(
            ClassicEngine {
                t: InProcess::<Reversi>::new(TT_ENTRIES),
            },
            &a,
        );
    }
    let engine = ClassicEngine {
        t: Device::open(&a.device, Sharing::Private).map_err(|e| e.to_string())?,
    };
    serve(engine, &a)
}

fn serve<E: Engine>(engine: E, a: &Args) -> Result<(), String> {
    let cfg = config(a)?;
    let out: Option<Box<dyn Write>> = match (&a.show, a.quiet) {
        (_, true) => None,
        (Some(p), _) => Some(Box::new(
            OpenOptions::new()
                .append(true)
                .create(true)
                .open(p)
                .map_err(|e| format!("--show {p}: {e}"))?,
        )),
        (None, _) => Some(Box::new(io::stderr())),
    };
    let mut show = Show {
        out,
        leds: [a.led_win.clone(), a.led_lose.clone(), a.led_tie.clone()],
        seen: (0, None, 0),
    };
    let err = |e: io::Error| e.to_string();
    // Keep the tty or pty alive (and restore the tty) until the end.
    let (_tty, _pty, rx, w): (Option<Tty>, Option<Pty>, _, Box<dyn Write + Send>) = if a.stdio {
        (
            None,
            None,
            spawn_reader(io::stdin(), false),
            Box::new(io::stdout()),
        )
    } else if let Some(path) = &a.tty {
        let baud = baud_rate(a.baud).ok_or(format!("--baud {}: not supported", a.baud))?;
        let tty = Tty::open(path, baud).map_err(err)?;
        let (r, w): (File, File) = (tty.reader().map_err(err)?, tty.writer().map_err(err)?);
        (Some(tty), None, spawn_reader(r, false), Box::new(w))
    } else {
        let pty = Pty::create().map_err(err)?;
        println!("{}", pty.path);
        let _ = io::stdout().flush();
        let (r, w) = (pty.reader().map_err(err)?, pty.writer().map_err(err)?);
        (None, Some(pty), spawn_reader(r, true), Box::new(w))
    };
    let mut w = LineWriter::new(w, a.crlf);
    let mut link = Link::new(engine, cfg);
    runner::run(&mut link, &rx, &mut w, &mut show).map_err(err)?;
    show.say("!! the line hung up: game freed\n");
    Ok(())
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("othello-link: {e}");
            ExitCode::FAILURE
        }
    }
}
