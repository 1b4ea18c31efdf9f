//! `kgames-test-support`: what the tests of the kgames tools share. Test code only: the tools'
//! tests and the tmux test programs (tests/tmux) use it as a (dev-)dependency; no product crate
//! does.
//!
//! - [`tmux::Tmux`]: run a program in a private tmux server, send keys, capture the screen.
//! - [`tap::Tap`]: the TAP lines of a test program (tests/selftests/kgames/terminal.sh folds them into
//!   the in-VM TAP stream).
//! - [`cli::check_standard_options`]: a tool answers `--help`, `--version` and an unknown
//!   option as every tool of `user/` must.
//! - [`uci::Client`]: a UCI engine driven as a GUI drives it (the tests of `kgames-uci`, the
//!   in-VM tests, and the lab's ladder and labeller).

pub mod cli;
pub mod tap;
pub mod tmux;
pub mod uci;
