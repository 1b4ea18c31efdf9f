//! The client side of the kgames devices, written once for every user tool (docs/protocol.md).
//!
//! A tool sends command lines such as `02 3 2` and reads replies such as `OK\n` through a
//! [`Transport`]:
//!
//! - [`Device`]: a file of `/dev/reversi`, `/dev/chess` or `/dev/kxo`, detached to a private
//!   game ([`Sharing::Private`], `KGAMES_IOC_PRIVATE`) or playing the user's shared game.
//! - [`InProcess`]: the same session layer the module runs (`kgames-session`), in this
//!   process, for hosts without the module and for tests: the same replies, searched on the
//!   host's [`WallClock`].
//!
//! Both take a command line without its `\n` and give back the whole reply. A CPU move
//! (`03`, `08`) blocks in [`Transport::cmd`]; another thread may end it two ways, as on the
//! device: [`Transport::interrupt`] discards the search and leaves the game unchanged (a
//! signal), [`Transport::stop_search`] plays the best move found so far
//! (`KGAMES_IOC_STOP_SEARCH`).
//!
//! [`status_value`] reads one `key=value` of a `09` reply. [`interrupt`] is the signal
//! behind [`Device`]'s interrupt, for any blocking call. [`cli_test`] is for the tools' own
//! tests: `--help`, `--version` and an unknown option.
//!
//! ```rust
//! use kgames_client::{status_value, InProcess, Transport};
//! use kgames_session::reversi_game::Reversi;
//!
//! let t = InProcess::<Reversi>::new(1 << 14);
//! assert_eq!(t.cmd("00 X").unwrap(), "OK\n");
//! assert_eq!(t.cmd("02 3 2").unwrap(), "OK\n");
//! assert_eq!(t.cmd("05 N2000").unwrap(), "OK\n");
//! assert_eq!(t.cmd("03").unwrap(), "OK\n");
//! let status = t.cmd("09").unwrap();
//! assert_eq!(status_value(&status, "state"), Some("playing"));
//! ```

pub mod cli_test;
pub mod clock;
pub mod device;
pub mod in_process;
pub mod interrupt;
pub mod network;
pub mod status;

use std::io;

pub use clock::WallClock;
pub use device::{Device, Sharing};
pub use in_process::InProcess;
pub use status::status_value;

/// Where command lines go: a device file or the session layer in this process.
///
/// `cmd` may run in one thread (the CPU's move) while another calls `interrupt`,
/// `stop_search` or `cmd("01")` (answered at once from the position before the move).
pub trait Transport: Send + Sync {
    /// Sends one command line (without `\n`) and returns the whole reply, `\n` included.
    ///
    /// A command ended by [`Transport::interrupt`] fails with
    /// [`io::ErrorKind::Interrupted`], the game unchanged.
    fn cmd(&self, line: &str) -> io::Result<String>;

    /// Interrupts the command in flight in another thread: its search is discarded and the
    /// game left as it was. An interrupt that comes before the command blocks is lost, so a
    /// caller repeats it until the command returns.
    fn interrupt(&self);

    /// Ends the search in flight in another thread early: the best move so far is played
    /// and the command answers as usual. Sent with no search in flight, it ends the next
    /// search at its first check.
    fn stop_search(&self) -> io::Result<()>;

    /// What the transport is, for people: `/dev/chess, private game`.
    fn label(&self) -> String;
}
