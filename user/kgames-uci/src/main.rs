//! `kgames-uci`: a UCI chess engine. By default it plays through `/dev/chess` (device mode:
//! the kernel's engine answers); `--host` runs the same engine crate in-process.
//! See docs/tools/uci.md.

mod device;
mod engine;
mod host;
mod protocol;
mod timeman;

use clap::Parser;
use engine::{send, Engine, SearchRequest, Setup};
use kgames_chess::nnue::Network;
use protocol::Command;
use std::io::BufRead;

/// A UCI chess engine: the kernel's /dev/chess (default) or the same engine in-process
/// (--host).
#[derive(Parser, Debug)]
#[command(name = "kgames-uci", version)]
struct Args {
    /// Search in-process instead of through /dev/chess.
    #[arg(long)]
    host: bool,
    /// The device file (device mode).
    #[arg(long, default_value = "/dev/chess")]
    device: String,
    /// Clear the transposition table at every search and start the history afresh (host
    /// mode). By default they are kept between the moves of a game and cleared by
    /// `ucinewgame`, as /dev/chess keeps a game's table while the game gets its context back.
    #[arg(long, requires = "host")]
    clear_table: bool,
    /// The evaluation (host mode): the network (the default, as /dev/chess's) or the classic one.
    #[arg(long, value_enum, default_value_t = Eval::Nnue, requires = "host")]
    eval: Eval,
    /// A network file (chess-nnue's format) instead of the built-in network (not with --eval
    /// classic).
    #[arg(long, requires = "host")]
    net: Option<std::path::PathBuf>,
    /// The network's inner loops (host mode): `auto` in AVX2 `asm!` where the CPU has it
    /// (as /dev/chess chooses at load), `off` the plain loops.
    #[arg(long, value_enum, default_value_t = Simd::Auto, requires = "host")]
    simd: Simd,
}

/// The network's inner loops on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Simd {
    /// AVX2 where the CPU has it, else the plain loops.
    Auto,
    /// The plain loops.
    Off,
}

/// The evaluation on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Eval {
    /// The tuned hand-written evaluation (src/chess/eval.rs).
    Classic,
    /// The network (src/chess/nnue.rs), built-in or --net.
    Nnue,
}

/// The network `args` ask for, or a message (a `--net` that would go unused is one).
fn network(args: &Args) -> Result<Option<Network<'static>>, String> {
    if args.eval == Eval::Classic {
        return match &args.net {
            Some(path) => Err(format!(
                "--net {}: the classic evaluation uses no network",
                path.display()
            )),
            None => Ok(None),
        };
    }
    let net = match &args.net {
        None => Network::embedded().ok_or_else(|| "the built-in network is invalid".to_string()),
        Some(path) => kgames_client::network::load_network(path),
    }?;
    Ok(Some(with_simd(net, args.simd)))
}

/// `net` with the loops `simd` asks for.
fn with_simd(net: Network<'static>, simd: Simd) -> Network<'static> {
    match simd {
        Simd::Auto => kgames_client::network::with_host_avx2(net.scalar()),
        Simd::Off => net.scalar(),
    }
}

/// The default `Hash` in MiB.
const DEFAULT_HASH_MB: u64 = 16;
/// The default `MoveOverhead` in ms.
const DEFAULT_OVERHEAD_MS: u64 = 30;

/// The front end's state between commands.
struct Session {
    engine: Box<dyn Engine>,
    setup: Setup,
    overhead_ms: u64,
    fixed_nodes: u64,
}

impl Session {
    fn uci(&mut self) {
        send(&format!("id name {}", self.engine.name()));
        send("id author the kgames authors");
        send(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max 4096"
        ));
        send("option name Nodes type spin default 0 min 0 max 1000000000000");
        send(&format!(
            "option name MoveOverhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max 5000"
        ));
        send("uciok");
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let number = || -> Result<u64, String> {
            value
                .and_then(|v| v.trim().parse::<u64>().ok())
                .ok_or_else(|| format!("option {name} needs a number"))
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" => self.engine.set_hash_mb(number()?),
            "nodes" => {
                self.fixed_nodes = number()?;
                Ok(())
            }
            "moveoverhead" => {
                self.overhead_ms = number()?.min(5000);
                Ok(())
            }
            _ => Err(format!("unknown option {}", protocol::clip(name))),
        }
    }

    /// Handles one line; returns false on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let command = match protocol::parse(line) {
            Ok(c) => c,
            Err(msg) => {
                send(&format!("info string {msg}"));
                return true;
            }
        };
        // Only these may arrive while a search runs; anything else waits for it (a GUI
        // sends `stop` first).
        let busy_ok = matches!(
            command,
            Command::IsReady | Command::Stop | Command::Quit | Command::PonderHit | Command::Empty
        );
        if !busy_ok && self.engine.searching() {
            send("info string still searching: send stop first; this command waits for the search");
            self.engine.wait();
        }
        let result = match command {
            Command::Uci => {
                self.uci();
                Ok(())
            }
            Command::IsReady => {
                send("readyok");
                Ok(())
            }
            Command::NewGame => {
                self.setup = Setup::default();
                self.engine.new_game()
            }
            Command::Position { fen, moves } => match Setup::from_command(fen.as_deref(), &moves) {
                Ok((setup, warning)) => {
                    self.setup = setup;
                    warning.map_or(Ok(()), Err)
                }
                Err(e) => Err(format!("{e}; position unchanged")),
            },
            Command::Go(go) => {
                let white = self.setup.game.position().turn() == kgames_chess::square::Color::White;
                let limit = timeman::limit(&go, white, self.overhead_ms, self.fixed_nodes);
                let request = SearchRequest {
                    limit,
                    depth: go.depth.map(|d| d.clamp(1, 255) as u32),
                    wait_for_stop: go.infinite,
                };
                self.engine.go(&self.setup, request)
            }
            Command::Stop => {
                self.engine.stop();
                Ok(())
            }
            Command::Quit => {
                self.engine.stop();
                return false;
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::PonderHit | Command::Ignored | Command::Empty => Ok(()),
        };
        if let Err(msg) = result {
            send(&format!("info string {msg}"));
        }
        true
    }
}

fn main() {
    let args = Args::parse();
    let engine: Box<dyn Engine> = if args.host {
        // Device mode has no use for a network: the module's chess_eval chooses.
        let net = match network(&args) {
            Ok(n) => n,
            Err(e) => {
                eprintln!("kgames-uci: {e}");
                std::process::exit(1);
            }
        };
        Box::new(host::Host::new(DEFAULT_HASH_MB, !args.clear_table, net))
    } else {
        match device::Device::open(&args.device) {
            Ok(d) => Box::new(d),
            Err(e) => {
                eprintln!("kgames-uci: {e} (use --host to search in-process)");
                std::process::exit(1);
            }
        }
    };
    let mut session = Session {
        engine,
        setup: Setup::default(),
        overhead_ms: DEFAULT_OVERHEAD_MS,
        fixed_nodes: 0,
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buf);
        if !session.handle(&line) {
            return;
        }
    }
    // End of input: like `quit`.
    session.engine.stop();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--simd off` keeps the plain loops; `--simd auto` takes AVX2 exactly where the CPU
    /// has it.
    #[test]
    fn simd_option_chooses_the_loops() {
        let net = Network::embedded().expect("the built-in network is valid");
        assert!(!with_simd(net, Simd::Off).uses_avx2());
        let avx2 = cfg!(target_arch = "x86_64") && std::is_x86_feature_detected!("avx2");
        assert_eq!(with_simd(net, Simd::Auto).uses_avx2(), avx2);
    }
}
