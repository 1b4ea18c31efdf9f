//! The command line (clap). Bad arguments exit with status 2.

use clap::Parser;

use crate::replay::parse_speed;

/// Watch every /dev/kxo AI-vs-AI game live in the terminal.
///
/// Tabs: Games (every board, with its slot's pairing policy), Records (moves and results per
/// pairing), Load (per-agent load).
/// Keys: q or Ctrl-Q quit, Ctrl-P pause (root: the module for every watcher; others: this
/// display), Tab or 1/2/3 switch tabs, Up/Down and PgUp/PgDn scroll, Left/Right select a game,
/// a/A the selected game's O/X policy (root), R restart the games (root), ? help.
///
/// After quitting, for each game seen: the moves of its last finished round and of the round
/// in progress, one line each (`#3 r12 NEGA vs MCTS (O won): Moves: B2 -> C2 -> ...`).
///
/// Exit status: 0 after q/Ctrl-Q/Ctrl-C, 1 on an error (no device, a closed device, a bad
/// stream or file), 2 on bad arguments, 128+N after signal N (SIGTERM: 143).
#[derive(Debug, Parser)]
#[command(name = "xo-user", version, about, long_about)]
pub struct Args {
    /// The device to watch.
    #[arg(long, value_name = "PATH", default_value = "/dev/kxo")]
    pub device: String,
    /// Also write the stream (records with arrival times, state and load samples) to FILE.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["replay", "write_demo"])]
    pub record: Option<String>,
    /// Play a recorded FILE instead of reading the device.
    #[arg(long, value_name = "FILE", conflicts_with = "write_demo")]
    pub replay: Option<String>,
    /// Replay speed factor (0.001 to 1000; 2 = twice as fast).
    #[arg(long, value_name = "X", requires = "replay", value_parser = parse_speed, default_value = "1")]
    pub speed: u64,
    /// As root: stop the games (KXO_IOC_STOP) when quitting.
    #[arg(long)]
    pub stop_on_quit: bool,
    /// Print no history of the games after quitting.
    #[arg(long)]
    pub no_history: bool,
    /// Write a synthetic recording (9 games at 100 ms, --demo-seconds long) to FILE and exit; replay it
    /// with --replay to see the UI without a device.
    #[arg(long, value_name = "FILE")]
    pub write_demo: Option<String>,
    /// Length of --write-demo's recording in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 60, requires = "write_demo",
          value_parser = clap::value_parser!(u64).range(1..=86400))]
    pub demo_seconds: u64,
}
