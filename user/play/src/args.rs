//! The command line (clap). Bad arguments print the usage and exit with status 2.

use clap::Parser;
use std::ops::RangeInclusive;

use kgames_client::protocol::{NXN_PLAYOUTS, NXN_SIZES, NXN_WORKERS};
use kgames_client::Budget;

use crate::game::Options;
use crate::kind::Kind;

/// Play reversi, chess or N x N tic-tac-toe against the kernel.
///
/// Opens a private game on the device (it never disturbs the game your shell plays); --shared
/// plays your shared game instead. Type a move (reversi d3 or "3 2"; chess e2e4, e7e8q, O-O or
/// WPe2-e4; kxo "C R") and Enter, or move the cursor with the arrow keys and press Enter.
/// Keys (with an empty input line): l legal moves, p pass (reversi), r resign (chess), n new
/// game, s switch colour, t switch game, ? help, q quit; Esc or Ctrl-C interrupts the CPU.
///
/// Without a terminal, or with --plain, the game is played line by line (type help).
///
/// Exit status: 0 after q, 1 on an error (no device, a failing device), 2 on bad arguments,
/// 128+N after signal N.
#[derive(Debug, Parser)]
#[command(name = "play", version, about, long_about)]
pub struct Args {
    /// The game.
    #[arg(value_enum)]
    pub game: Kind,
    /// Your side: X or O (reversi, kxo), W or B (chess). Default: reversi X, chess W, kxo X.
    #[arg(long = "as", value_name = "SIDE")]
    pub side: Option<String>,
    /// The CPU's budget per move: milliseconds (1-9000) or N followed by a node count, e.g.
    /// N5000 (reversi, chess).
    #[arg(long, value_name = "MS|N<nodes>", value_parser = parse_budget)]
    pub budget: Option<Budget>,
    /// Play your user's shared game instead of a private one.
    #[arg(long)]
    pub shared: bool,
    /// kxo: the board size N (3-6).
    #[arg(long, value_name = "N", value_parser = within(NXN_SIZES))]
    pub size: Option<u8>,
    /// kxo: random playouts per tile T (1-100).
    #[arg(long, value_name = "T", value_parser = within(NXN_PLAYOUTS))]
    pub playouts: Option<u8>,
    /// kxo: work items P of the CPU's move (1-10).
    #[arg(long, value_name = "P", value_parser = within(NXN_WORKERS))]
    pub workers: Option<u8>,
    /// The first game's position: chess a FEN, reversi 64 cells X/O/- and the side to move.
    #[arg(long, value_name = "POSITION")]
    pub fen: Option<String>,
    /// Line mode: the board as text after every move, commands read line by line.
    #[arg(long)]
    pub plain: bool,
    /// Letters instead of figurines and discs: the plain board (also without a UTF-8
    /// locale; NO_COLOR=1 takes the colours away).
    #[arg(long)]
    pub ascii: bool,
    /// The device (default /dev/reversi, /dev/chess or /dev/kxo).
    #[arg(long, value_name = "PATH")]
    pub device: Option<String>,
    /// No device: the same session layer run inside this program (for trying and testing).
    #[arg(long, conflicts_with_all = ["device", "shared"])]
    pub sim: bool,
}

/// A clap parser of a `u8` within one of the protocol's ranges.
fn within(r: RangeInclusive<u8>) -> clap::builder::RangedI64ValueParser<u8> {
    clap::value_parser!(u8).range(i64::from(*r.start())..=i64::from(*r.end()))
}

fn parse_budget(s: &str) -> Result<Budget, String> {
    Budget::parse(s.as_bytes()).ok_or_else(|| {
        format!(
            "a budget is 1-{} (milliseconds) or N followed by a node count (N20000), \
             no leading zero",
            Budget::MAX_MS
        )
    })
}

impl Args {
    /// The side letter, checked against the game.
    pub fn side_letter(&self) -> Result<char, String> {
        match &self.side {
            None => Ok(self.game.default_side()),
            Some(s) => self.game.side(s).ok_or_else(|| {
                let [a, b] = self.game.sides();
                format!("--as {s}: {} sides are {a} and {b}", self.game)
            }),
        }
    }

    /// The game options.
    pub fn options(&self) -> Result<Options, String> {
        let kxo_only = self.size.is_some() || self.playouts.is_some() || self.workers.is_some();
        if kxo_only && self.game != Kind::Kxo {
            return Err("--size, --playouts and --workers are for kxo".into());
        }
        if self.budget.is_some() && self.game == Kind::Kxo {
            return Err("--budget is for reversi and chess (kxo: --playouts)".into());
        }
        if self.fen.is_some() && self.game == Kind::Kxo {
            return Err("--fen is for chess and reversi".into());
        }
        Ok(Options {
            budget: self.budget,
            size: self.size,
            playouts: self.playouts,
            workers: self.workers,
            fen: self.fen.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets() {
        for ok in ["1", "9000", "N1", "N20000", "N1000000000000"] {
            assert!(parse_budget(ok).is_ok(), "{ok}");
        }
        // The device's own rules (Budget::parse): "0100" is INVFMT there, so refused here.
        for bad in [
            "0",
            "9001",
            "N",
            "N0",
            "x",
            "-5",
            "1000000000",
            "n20",
            "0100",
            "N010",
        ] {
            assert!(parse_budget(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sides_and_options_per_game() {
        let a = Args::try_parse_from(["play", "chess", "--as", "B"]).unwrap();
        assert_eq!(a.side_letter(), Ok('B'));
        let a = Args::try_parse_from(["play", "chess", "--as", "X"]).unwrap();
        assert!(a.side_letter().is_err());
        let a = Args::try_parse_from(["play", "reversi", "--size", "4"]).unwrap();
        assert!(a.options().is_err());
        assert!(Args::try_parse_from(["play", "kxo", "--size", "7"]).is_err());
        assert!(Args::try_parse_from(["play", "go"]).is_err());
        assert!(Args::try_parse_from(["play", "kxo", "--sim", "--shared"]).is_err());
    }
}
