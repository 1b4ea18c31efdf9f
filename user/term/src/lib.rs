//! `kgames-term`: the terminal code shared by the kgames terminal tools (`xo-user`, `play`).
//!
//! - [`screen::Screen`]: enter the full screen (raw mode with flow control off, alternate
//!   screen, hidden cursor) and get a ratatui terminal; the terminal is restored on drop, on a
//!   panic (a panic hook) and, through [`events::Event::Signal`], on SIGTERM/SIGINT/SIGHUP.
//! - [`raw`]: the raw-mode guard itself, usable on any terminal descriptor (tests use a pty).
//! - [`events::Events`]: one channel merging keys and resizes (a blocking reader thread),
//!   worker-thread messages, signals and a clock tick; the program blocks on it, never spins.
//! - [`input::KeyDecoder`]: the bytes of the terminal decoded into key events, for a program
//!   that polls and reads standard input itself (xo-user's one-thread `poll(2)` loop).
//! - [`keys`]: matching Ctrl keys and plain keys.
//! - [`look::Look`]: glyphs or ASCII, colours or none (locale, `NO_COLOR`, `TERM`).
//!
//! A program's loop:
//!
//! ```no_run
//! use std::time::Duration;
//! use kgames_term::{events::{Event, Events}, keys, screen::Screen};
//!
//! let mut events: Events<()> = Events::new(Duration::from_millis(250));
//! events.spawn_input().unwrap();
//! events.spawn_signals().unwrap();
//! let mut screen = Screen::enter().unwrap();
//! loop {
//!     screen.terminal().draw(|f| { /* widgets */ }).unwrap();
//!     match events.wait() {
//!         Event::Key(k) if keys::ctrl(&k, 'q') => break,
//!         Event::Signal(_) | Event::InputClosed => break,
//!         _ => {}
//!     }
//! }
//! drop(screen); // the terminal is back as it was
//! ```

pub mod events;
pub mod input;
pub mod keys;
pub mod look;
pub mod raw;
pub mod screen;

pub use crossterm;
pub use ratatui;
