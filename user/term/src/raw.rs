//! Raw mode with terminal flow control off, and the saved settings that put the terminal back.
//!
//! [`RawMode::enable`] saves a terminal's settings (`tcgetattr`), switches it to raw mode
//! (`cfmakeraw`: byte at a time, no echo, no signals from Ctrl-C/Ctrl-Z, no CR/NL mapping)
//! and clears `IXON`/`IXOFF` explicitly, so Ctrl-S and Ctrl-Q reach the program instead of
//! stopping and starting the output. Dropping the guard writes the saved settings back
//! (`tcsetattr`), so `stty -g` reads the same before and after.
//!
//! The saved settings are also kept in one process-wide slot, so [`restore_saved`] can put the
//! terminal back from a panic hook, where no guard is reachable (the release profile aborts on
//! panic, so no destructor runs there).

use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, RawFd};
use std::sync::Mutex;

use rustix::termios::{self, InputModes, OptionalActions, Termios};

/// The settings to restore: the terminal's descriptor and its settings before raw mode.
static SAVED: Mutex<Option<(RawFd, Termios)>> = Mutex::new(None);

/// A terminal in raw mode; dropping it restores the settings it found.
#[derive(Debug)]
pub struct RawMode {
    fd: RawFd,
    saved: Termios,
}

/// `termios` in raw mode with flow control off: what [`RawMode::enable`] sets.
pub fn raw_settings(original: &Termios) -> Termios {
    let mut t = original.clone();
    t.make_raw();
    t.input_modes
        .remove(InputModes::IXON | InputModes::IXOFF | InputModes::IXANY);
    t
}

impl RawMode {
    /// Puts the terminal open on `fd` into raw mode with flow control off. The descriptor must
    /// stay open as long as the guard lives (stdin for a program; the test's pty otherwise).
    pub fn enable(fd: BorrowedFd<'_>) -> io::Result<RawMode> {
        let saved = termios::tcgetattr(fd)?;
        termios::tcsetattr(fd, OptionalActions::Now, &raw_settings(&saved))?;
        let raw = fd.as_raw_fd();
        if let Ok(mut slot) = SAVED.lock() {
            *slot = Some((raw, saved.clone()));
        }
        Ok(RawMode { fd: raw, saved })
    }

    /// The settings found before raw mode.
    pub fn saved(&self) -> &Termios {
        &self.saved
    }

    /// Restores the saved settings now (also done on drop).
    pub fn restore(&self) -> io::Result<()> {
        // SAFETY: `enable`'s caller keeps the descriptor open while the guard lives.
        let fd = unsafe { BorrowedFd::borrow_raw(self.fd) };
        termios::tcsetattr(fd, OptionalActions::Now, &self.saved)?;
        Ok(())
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        let _ = self.restore();
        if let Ok(mut slot) = SAVED.lock() {
            if slot.as_ref().is_some_and(|(fd, _)| *fd == self.fd) {
                *slot = None;
            }
        }
    }
}

/// Writes back the settings saved by the live [`RawMode`], if any (for a panic hook). Never
/// blocks: if the slot is busy it does nothing.
pub fn restore_saved() {
    if let Ok(slot) = SAVED.try_lock() {
        if let Some((fd, saved)) = slot.as_ref() {
            // SAFETY: the slot holds a descriptor only while its guard (which keeps it open)
            // lives; the guard clears the slot when it drops.
            let fd = unsafe { BorrowedFd::borrow_raw(*fd) };
            let _ = termios::tcsetattr(fd, OptionalActions::Now, saved);
        }
    }
}

/// True when two settings are the same as far as `stty -g` shows them (modes and control
/// characters).
pub fn same_settings(a: &Termios, b: &Termios) -> bool {
    a.input_modes == b.input_modes
        && a.output_modes == b.output_modes
        && a.control_modes == b.control_modes
        && a.local_modes == b.local_modes
        && a.input_speed() == b.input_speed()
        && a.output_speed() == b.output_speed()
        // `SpecialCodes` has no `PartialEq`; its `Debug` lists every control character.
        && format!("{:?}", a.special_codes) == format!("{:?}", b.special_codes)
}

/// Reads the settings of the terminal on `fd`.
pub fn settings(fd: impl AsFd) -> io::Result<Termios> {
    Ok(termios::tcgetattr(fd)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustix::fs::{Mode, OFlags};
    use rustix::pty::{grantpt, openpt, ptsname, unlockpt, OpenptFlags};
    use rustix::termios::LocalModes;
    use std::os::fd::OwnedFd;

    /// The saved slot is process-wide: the tests that use it take turns.
    static SERIAL: Mutex<()> = Mutex::new(());

    /// A new pseudo-terminal: (controller, terminal side).
    fn pty() -> (OwnedFd, OwnedFd) {
        let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).unwrap();
        grantpt(&master).unwrap();
        unlockpt(&master).unwrap();
        let name = ptsname(&master, Vec::new()).unwrap();
        let tty = rustix::fs::open(
            name.as_c_str(),
            OFlags::RDWR | OFlags::NOCTTY,
            Mode::empty(),
        )
        .unwrap();
        (master, tty)
    }

    #[test]
    fn raw_mode_clears_flow_control_and_restores_exactly() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let (_master, tty) = pty();
        let mut before = settings(&tty).unwrap();
        // A terminal with flow control on, as a login terminal has.
        before
            .input_modes
            .insert(InputModes::IXON | InputModes::IXOFF);
        termios::tcsetattr(&tty, OptionalActions::Now, &before).unwrap();
        {
            let guard = RawMode::enable(tty.as_fd()).unwrap();
            let now = settings(&tty).unwrap();
            assert!(
                !now.input_modes.contains(InputModes::IXON),
                "Ctrl-S/Ctrl-Q reach us"
            );
            assert!(!now.input_modes.contains(InputModes::IXOFF));
            assert!(!now.local_modes.contains(LocalModes::ICANON));
            assert!(!now.local_modes.contains(LocalModes::ECHO));
            assert!(
                !now.local_modes.contains(LocalModes::ISIG),
                "Ctrl-C is a key"
            );
            assert!(same_settings(guard.saved(), &before));
            assert!(!same_settings(&now, &before));
        }
        assert!(
            same_settings(&settings(&tty).unwrap(), &before),
            "drop restores"
        );
    }

    #[test]
    fn the_panic_path_restores_from_the_saved_slot() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let (_master, tty) = pty();
        let before = settings(&tty).unwrap();
        let guard = RawMode::enable(tty.as_fd()).unwrap();
        restore_saved(); // what the panic hook calls
        assert!(same_settings(&settings(&tty).unwrap(), &before));
        // Raw again, then the guard's own drop.
        termios::tcsetattr(&tty, OptionalActions::Now, &raw_settings(&before)).unwrap();
        drop(guard);
        assert!(same_settings(&settings(&tty).unwrap(), &before));
    }
}
