//! The signals the loop handles, as a descriptor it can poll: the self-pipe pattern of
//! `signal_hook::low_level::pipe`. A handler sets the signal's flag, then writes a byte to a
//! socket; the loop polls the other end, drains it, then takes the flags (in that order, so no
//! signal is lost).
//!
//! | signal | what the loop does |
//! | --- | --- |
//! | SIGTERM, SIGINT, SIGHUP | restores the terminal and exits with 128 + N |
//! | SIGWINCH | redraws at the new size |
//! | SIGTSTP | restores the terminal, stops; on `fg` takes the screen again and redraws |
//! | SIGCONT | redraws the whole screen (a shell may have written on it while stopped) |

use std::io::{self, Read};
use std::os::fd::{AsFd, BorrowedFd};
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use signal_hook::consts::{SIGCONT, SIGHUP, SIGINT, SIGTERM, SIGTSTP, SIGWINCH};
use signal_hook::SigId;

/// Every signal handled, in the order [`SignalPipe::take`] reports them.
pub const HANDLED: [i32; 6] = [SIGTERM, SIGINT, SIGHUP, SIGTSTP, SIGCONT, SIGWINCH];

/// The read end of the self-pipe and a flag per handled signal; the handlers are removed on
/// drop (the default actions come back).
#[derive(Debug)]
pub struct SignalPipe {
    read: UnixStream,
    flags: Vec<(i32, Arc<AtomicBool>)>,
    ids: Vec<SigId>,
}

impl SignalPipe {
    /// Installs the handlers of [`HANDLED`].
    pub fn new() -> io::Result<SignalPipe> {
        let (read, write) = UnixStream::pair()?;
        read.set_nonblocking(true)?;
        write.set_nonblocking(true)?;
        let mut pipe = SignalPipe {
            read,
            flags: Vec::new(),
            ids: Vec::new(),
        };
        for sig in HANDLED {
            let flag = Arc::new(AtomicBool::new(false));
            // The flag first, then the wake-up byte (signal_hook::low_level::pipe).
            pipe.ids
                .push(signal_hook::flag::register(sig, Arc::clone(&flag))?);
            pipe.ids.push(signal_hook::low_level::pipe::register(
                sig,
                write.try_clone()?,
            )?);
            pipe.flags.push((sig, flag));
        }
        Ok(pipe)
    }

    /// The descriptor to poll for input.
    pub fn fd(&self) -> BorrowedFd<'_> {
        self.read.as_fd()
    }

    /// The signals that arrived since the last call (each once, in [`HANDLED`] order):
    /// drains the pipe, then takes the flags.
    pub fn take(&self) -> Vec<i32> {
        let mut buf = [0u8; 64];
        while matches!((&self.read).read(&mut buf), Ok(n) if n > 0) {}
        self.flags
            .iter()
            .filter(|(_, f)| f.swap(false, Ordering::SeqCst))
            .map(|(s, _)| *s)
            .collect()
    }
}

impl Drop for SignalPipe {
    fn drop(&mut self) {
        for id in self.ids.drain(..) {
            signal_hook::low_level::unregister(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use signal_hook::consts::SIGUSR1;

    #[test]
    fn a_signal_wakes_the_pipe_and_is_reported_once() {
        let p = SignalPipe::new().unwrap();
        assert!(p.take().is_empty());
        signal_hook::low_level::raise(SIGWINCH).unwrap();
        let mut fds = [rustix::event::PollFd::from_borrowed_fd(
            p.fd(),
            rustix::event::PollFlags::IN,
        )];
        let n = rustix::event::poll(&mut fds, None).unwrap();
        assert_eq!(n, 1);
        assert_eq!(p.take(), [SIGWINCH]);
        assert!(p.take().is_empty());
        // A signal not handled here is not reported.
        let _other = signal_hook::flag::register(SIGUSR1, Arc::new(AtomicBool::new(false)));
        signal_hook::low_level::raise(SIGUSR1).unwrap();
        assert!(p.take().is_empty());
    }
}
