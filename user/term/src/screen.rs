//! The full-screen terminal of a program: raw mode on stdin, the alternate screen, the cursor
//! hidden, and a ratatui [`Terminal`] to draw with. Everything is undone on every way out.
//!
//! - A normal return or an error: [`Screen`]'s `Drop`.
//! - A panic (the release profile aborts, so no destructor runs): a panic hook installed by
//!   [`Screen::enter`] restores the terminal first, then prints the panic message as usual.
//! - SIGTERM, SIGINT, SIGHUP: [`crate::events::Events::spawn_signals`] turns them into events,
//!   so the program leaves its loop and drops the screen.

use std::io::{self, Stdout, Write};
use std::os::fd::AsFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

use crossterm::cursor::{Hide, Show};
use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::terminal::{Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::Command;
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};

use crate::raw::{self, RawMode};

/// True while a [`Screen`] is entered (the panic hook restores only then).
static ACTIVE: AtomicBool = AtomicBool::new(false);
static HOOK: Once = Once::new();

/// The ratatui terminal type every program draws on.
pub type Term = Terminal<CrosstermBackend<Stdout>>;

/// The size drawn while the terminal reports none (0x0: a serial console nobody sized, as
/// the VM's console is when `make run`'s output goes through a pipe).
pub const FALLBACK_SIZE: (u16, u16) = (80, 24);

/// The terminal's size, if it reports one.
fn reported_size() -> Option<(u16, u16)> {
    crossterm::terminal::size()
        .ok()
        .filter(|&(w, h)| w > 0 && h > 0)
}

/// A ratatui terminal on stdout: the whole screen, or [`FALLBACK_SIZE`] when the terminal
/// reports no size (then `true`).
fn new_terminal() -> io::Result<(Term, bool)> {
    let backend = CrosstermBackend::new(io::stdout());
    if reported_size().is_some() {
        return Ok((Terminal::new(backend)?, false));
    }
    let (w, h) = FALLBACK_SIZE;
    let viewport = Viewport::Fixed(Rect::new(0, 0, w, h));
    Ok((
        Terminal::with_options(backend, TerminalOptions { viewport })?,
        true,
    ))
}

/// The bytes that stop mouse reports (sent whether or not they were asked for: a terminal
/// ignores it then), leave the alternate screen and show the cursor.
fn leave_sequence() -> String {
    let mut s = String::new();
    let _ = DisableMouseCapture.write_ansi(&mut s);
    let _ = LeaveAlternateScreen.write_ansi(&mut s);
    let _ = Show.write_ansi(&mut s);
    s
}

/// Puts the terminal back (settings, main screen, cursor) if a screen is entered. Safe to call
/// from a panic hook or more than once.
pub fn restore_now() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        raw::restore_saved();
        // Straight to the descriptor: the stdout lock may be held by the panicking code.
        let _ = rustix::io::write(rustix::stdio::stdout(), leave_sequence().as_bytes());
    }
}

fn install_panic_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore_now();
            previous(info);
        }));
    });
}

/// The program's full screen; dropping it restores the terminal.
///
/// Invariant: `sizeless` is true exactly while `terminal` draws [`FALLBACK_SIZE`] because the
/// terminal reported no size; the first size it reports replaces it by a full-screen one.
pub struct Screen {
    terminal: Term,
    sizeless: bool,
    _raw: RawMode,
}

impl Screen {
    /// Enters raw mode (flow control off), the alternate screen, hides the cursor. Fails with a
    /// clear error when stdin is not a terminal.
    pub fn enter() -> io::Result<Screen> {
        let stdin = io::stdin();
        if !rustix::termios::isatty(stdin.as_fd()) {
            return Err(io::Error::other("standard input is not a terminal"));
        }
        install_panic_hook();
        let raw = RawMode::enable(stdin.as_fd())?;
        ACTIVE.store(true, Ordering::SeqCst);
        let mut out = io::stdout();
        // Cleared here, not with `Terminal::clear`, which asks the terminal for the cursor
        // position: the input thread may already be reading, and would take the answer.
        crossterm::execute!(out, EnterAlternateScreen, Hide, Clear(ClearType::All))?;
        let (terminal, sizeless) = new_terminal()?;
        Ok(Screen {
            terminal,
            sizeless,
            _raw: raw,
        })
    }

    /// Asks the terminal to report mouse presses, releases and moves with a button down
    /// ([`crate::events::Event::Mouse`]); leaving the screen (drop, signal, panic) stops them.
    pub fn enable_mouse(&mut self) -> io::Result<()> {
        crossterm::execute!(self.terminal.backend_mut(), EnableMouseCapture)
    }

    /// True when the terminal reported no size when the screen was entered and has reported
    /// none since: the program draws [`FALLBACK_SIZE`] (and should say so).
    pub fn is_sizeless(&self) -> bool {
        self.sizeless
    }

    /// The ratatui terminal: full screen as soon as the terminal reports a size.
    pub fn terminal(&mut self) -> &mut Term {
        if self.sizeless && reported_size().is_some() {
            if let Ok((terminal, sizeless)) = new_terminal() {
                self.terminal = terminal;
                self.sizeless = sizeless;
            }
        }
        &mut self.terminal
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        if ACTIVE.swap(false, Ordering::SeqCst) {
            let out = self.terminal.backend_mut();
            let _ = out.write_all(leave_sequence().as_bytes());
            let _ = out.flush();
        }
        // `_raw` drops next: the saved settings go back.
    }
}
