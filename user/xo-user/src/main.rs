//! `xo-user`: watch every `/dev/kxo` AI-vs-AI game live in the terminal (`xo-user --help`).

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    xo_user::app::run(xo_user::args::Args::parse())
}
