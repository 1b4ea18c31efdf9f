//! The CPU's move without blocking the screen: `03` is written by a worker thread, and Esc or
//! Ctrl-C interrupts it with SIGUSR1 sent to that thread alone (`pthread_kill`). The handler
//! does nothing and is installed without `SA_RESTART`, so the device's `ERESTARTSYS` reaches
//! the writer as `EINTR` (the game unchanged) instead of restarting the search.

use std::io;
use std::sync::{Arc, Mutex, Once};
use std::thread;

use nix::sys::pthread::{pthread_kill, pthread_self, Pthread};
use nix::sys::signal::{sigaction, SaFlags, SigAction, SigHandler, SigSet, Signal};

use crate::link::Link;

/// The interrupting signal.
pub const SIGNAL: Signal = Signal::SIGUSR1;

extern "C" fn nothing(_: nix::libc::c_int) {}

static INSTALL: Once = Once::new();

/// Installs the do-nothing handler for [`SIGNAL`], without `SA_RESTART` (once per process).
pub fn install() {
    INSTALL.call_once(|| {
        let act = SigAction::new(
            SigHandler::Handler(nothing),
            SaFlags::empty(),
            SigSet::empty(),
        );
        // SAFETY: the handler only returns; it touches nothing.
        let _ = unsafe { sigaction(SIGNAL, &act) };
    });
}

/// Sends [`SIGNAL`] to `thread` (the thread lives until the move's result is sent).
pub fn kick(thread: Pthread) {
    let _ = pthread_kill(thread, SIGNAL);
}

/// How a CPU move ended.
#[derive(Debug)]
pub enum CpuResult {
    /// The device's reply.
    Reply(String),
    /// The move was interrupted: the device left the game unchanged.
    Interrupted,
    /// The write or read failed.
    Failed(String),
}

/// A CPU move in flight.
pub struct CpuMove {
    thread: Arc<Mutex<Option<Pthread>>>,
    link: Arc<dyn Link>,
}

impl CpuMove {
    /// Writes `line` (`03`) in a new thread; `done` gets the result.
    pub fn start(
        link: Arc<dyn Link>,
        line: &'static str,
        done: impl FnOnce(CpuResult) + Send + 'static,
    ) -> io::Result<CpuMove> {
        install();
        let slot = Arc::new(Mutex::new(None));
        let (l, s) = (link.clone(), slot.clone());
        thread::Builder::new()
            .name("cpu-move".into())
            .spawn(move || {
                if let Ok(mut t) = s.lock() {
                    *t = Some(pthread_self());
                }
                let r = match l.cmd(line) {
                    Ok(reply) => CpuResult::Reply(reply),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => CpuResult::Interrupted,
                    Err(e) => CpuResult::Failed(e.to_string()),
                };
                // No signal may reach this thread once it has ended.
                if let Ok(mut t) = s.lock() {
                    *t = None;
                }
                done(r);
            })?;
        Ok(CpuMove { thread: slot, link })
    }

    /// Interrupts the move (again: a signal that came before the write began is lost, so the
    /// caller repeats this until the result arrives).
    pub fn interrupt(&self) {
        if let Ok(t) = self.thread.lock() {
            if let Some(t) = *t {
                self.link.interrupt(t);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::sync::mpsc;
    use std::time::Duration;

    /// A line whose command blocks in `read` on an empty pipe, as the device's `03` blocks in
    /// the search: only a signal ends it.
    struct Blocking {
        rx: Mutex<io::PipeReader>,
        _tx: io::PipeWriter,
    }

    impl Link for Blocking {
        fn cmd(&self, _line: &str) -> io::Result<String> {
            let mut b = [0u8; 1];
            let mut rx = self.rx.lock().map_err(|_| io::Error::other("poisoned"))?;
            rx.read(&mut b).map(|_| String::new())
        }
        fn interrupt(&self, thread: Pthread) {
            kick(thread);
        }
        fn label(&self) -> String {
            "pipe".into()
        }
    }

    #[test]
    fn the_signal_interrupts_a_blocked_write_without_restarting_it() {
        let (rx, tx) = io::pipe().unwrap();
        let link: Arc<dyn Link> = Arc::new(Blocking {
            rx: Mutex::new(rx),
            _tx: tx,
        });
        let (done, got) = mpsc::channel();
        let m = CpuMove::start(link, "03", move |r| {
            let _ = done.send(r);
        })
        .unwrap();
        // With SA_RESTART the read would resume and this would time out.
        let mut r = None;
        for _ in 0..50 {
            m.interrupt();
            if let Ok(x) = got.recv_timeout(Duration::from_millis(100)) {
                r = Some(x);
                break;
            }
        }
        let r = r.expect("the blocked read ends within 5 s");
        assert!(matches!(r, CpuResult::Interrupted), "{r:?}");
    }
}
