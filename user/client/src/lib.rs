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
//! The request type is the session layer's own: the device parses every line into the
//! [`Request`] that [`protocol::encode`] writes here, and [`protocol`] holds the decoders of
//! the replies (none of it is in the module). A CPU move (`03`, `08`) blocks in
//! [`Transport::send`]; another thread may end it two ways, as on the device:
//! [`Transport::interrupt`] discards the search and leaves the game unchanged (a signal),
//! [`Transport::stop_search`] plays the best move found so far (`KGAMES_IOC_STOP_SEARCH`).
//! [`Transport::send_raw`] sends a line verbatim, for tests of malformed input and for a line
//! a person typed that no request parses.
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
pub mod protocol;
pub mod response;

use std::io;

pub use clock::WallClock;
pub use device::{Device, Sharing};
pub use in_process::InProcess;
pub use protocol::{Budget, Request, Status, Word};
pub use response::Response;

/// Where requests go: a device file or the session layer in this process.
///
/// `send` may run in one thread (the CPU's move) while another calls `interrupt`,
/// `stop_search` or `send(Request::Board)` (answered at once from the position before the
/// move).
pub trait Transport: Send + Sync {
    /// Sends one request and returns its whole reply, `\n` included: the way tools talk to a
    /// device.
    ///
    /// A command ended by [`Transport::interrupt`] fails with
    /// [`io::ErrorKind::Interrupted`], the game unchanged.
    fn send(&self, request: Request<'_>) -> io::Result<Response>;

    /// Sends one line verbatim (without `\n`), as [`send`](Transport::send) does the line of a
    /// request. Only for lines no [`Request`] makes: tests of malformed input, and a line a
    /// person typed that does not parse (the device's answer, `UNKCMD` or `INVFMT`, is what
    /// they asked to see).
    fn send_raw(&self, line: &str) -> io::Result<Response>;

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
