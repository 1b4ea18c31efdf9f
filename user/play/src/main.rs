//! `play`: reversi, chess and N x N tic-tac-toe against the kernel (`play --help`).

use std::io::{self, IsTerminal};
use std::process::ExitCode;

use clap::{CommandFactory, Parser};

use play::app::{self, Opener};
use play::args::Args;
use play::game::Play;
use play::{link, plain};

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) if !e.use_stderr() => e.exit(), // --help, --version
        Err(e) => {
            let msg = e.render().to_string();
            eprint!("{msg}");
            if !msg.contains("Usage:") {
                eprintln!("\n{}", Args::command().render_usage());
            }
            return ExitCode::from(2);
        }
    };
    let (side, opts) = match args.side_letter().and_then(|s| Ok((s, args.options()?))) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("play: {e}\n\n{}", Args::command().render_usage());
            return ExitCode::from(2);
        }
    };
    let opener = Opener {
        device: args.device.clone(),
        shared: args.shared,
        sim: args.sim,
    };
    let l = match link::open(args.game, args.device.as_deref(), args.shared, args.sim) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("play: {e}");
            return ExitCode::FAILURE;
        }
    };
    let play = Play::new(args.game, l, opts, side);
    if args.plain || !io::stdin().is_terminal() || !io::stdout().is_terminal() {
        plain::run(play, &opener, io::stdin().lock(), &mut io::stdout())
    } else {
        app::run(play, opener, kgames_term::look::Look::detect(args.ascii))
    }
}
