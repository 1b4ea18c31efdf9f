//! The client side of the kgames devices, written once for every user tool (docs/protocol.md).
//!
//! A tool sends typed requests ([`Request`]: `Request::Move("3 2")` is the line `02 3 2`) and
//! reads typed replies ([`Response`]: the [`Word`], the `09` [`Status`], the legal moves)
//! through a [`Transport`]:
//!
//! - [`Device`]: a file of `/dev/reversi`, `/dev/chess` or `/dev/kxo`, detached to a private
//!   game ([`Sharing::Private`], `KGAMES_IOC_PRIVATE`) or playing the user's shared game.
//! - [`InProcess`]: the same session layer the module runs (`kgames-session`), in this
//!   process, for hosts without the module and for tests: the same replies, searched on the
//!   host's [`WallClock`].
//!
//! The types are the session layer's own ([`protocol`]): the device parses every line with
//! the parser whose encoder builds it here. A CPU move (`03`, `08`) blocks in
//! [`Transport::send`]; another thread may end it two ways, as on the device:
//! [`Transport::interrupt`] discards the search and leaves the game unchanged (a signal),
//! [`Transport::stop_search`] plays the best move found so far (`KGAMES_IOC_STOP_SEARCH`).
//! [`Transport::cmd`] sends a raw line, for tests of malformed input.
//!
//! [`interrupt`] is the signal behind [`Device`]'s interrupt, for any blocking call.
//!
//! ```rust
//! use kgames_client::{Budget, InProcess, Request, Transport, Word};
//! use kgames_session::reversi_game::Reversi;
//!
//! let t = InProcess::<Reversi>::new(1 << 14);
//! assert_eq!(t.send(Request::New("X")).unwrap().word(), Some(Word::Ok));
//! assert_eq!(t.send(Request::Move("3 2")).unwrap().word(), Some(Word::Ok));
//! t.send(Request::Budget(Budget::Nodes(2000))).unwrap();
//! assert!(t.send(Request::CpuMove).unwrap().accepted());
//! let status = t.send(Request::Status).unwrap();
//! assert!(status.status().playing());
//! ```

pub mod clock;
pub mod device;
pub mod in_process;
pub mod interrupt;
pub mod network;
pub mod response;

use std::io;

pub use clock::WallClock;
pub use device::{Device, Sharing};
pub use in_process::InProcess;
pub use kgames_session::protocol::{self, Budget, Request, Status, Word};
pub use response::Response;

/// Where command lines go: a device file or the session layer in this process.
///
/// `cmd` may run in one thread (the CPU's move) while another calls `interrupt`,
/// `stop_search` or `cmd("01")` (answered at once from the position before the move).
pub trait Transport: Send + Sync {
    /// Sends one raw command line (without `\n`) and returns the whole reply, `\n` included.
    /// Tools send [`Request`]s with [`Transport::send`]; this is for lines no request makes
    /// (tests of malformed input).
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

    /// Sends one request and returns its reply: the way tools talk to a device.
    fn send(&self, request: Request<'_>) -> io::Result<Response> {
        self.cmd(&request.to_string()).map(Response::new)
    }
}
