//! Interrupting a thread blocked in a device call: `SIGUSR1` sent to that thread alone
//! (`pthread_kill`), with a do-nothing handler installed without `SA_RESTART`, so the
//! device's `ERESTARTSYS` reaches the caller as `EINTR` (docs/protocol.md, "The CPU's move":
//! the search is discarded, the game unchanged) instead of restarting the call.

use std::sync::{Mutex, Once};

/// The interrupting signal.
pub const SIGNAL: libc::c_int = libc::SIGUSR1;

extern "C" fn nothing(_: libc::c_int) {}

static INSTALL: Once = Once::new();

/// Installs the do-nothing handler for [`SIGNAL`], without `SA_RESTART` (once per process;
/// [`Blocked::kick`] does it before its first signal).
pub fn install() {
    INSTALL.call_once(|| {
        // SAFETY: a zeroed `sigaction` is a valid empty one; the handler only returns and
        // touches nothing, so it is async-signal-safe.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = nothing as extern "C" fn(libc::c_int) as libc::sighandler_t;
            sa.sa_flags = 0;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(SIGNAL, &sa, std::ptr::null_mut());
        }
    });
}

/// The threads inside a blocking call that [`Blocked::kick`] interrupts.
#[derive(Debug, Default)]
pub struct Blocked {
    threads: Mutex<Vec<libc::pthread_t>>,
}

/// The calling thread's stay in a [`Blocked`] set: it leaves the set on drop, so no signal
/// reaches it once the call is over.
#[derive(Debug)]
pub struct Inside<'a> {
    set: &'a Blocked,
    thread: libc::pthread_t,
}

impl Blocked {
    /// A set with no thread.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records the calling thread until the returned guard drops.
    pub fn enter(&self) -> Inside<'_> {
        // SAFETY: pthread_self has no preconditions.
        let thread = unsafe { libc::pthread_self() };
        if let Ok(mut t) = self.threads.lock() {
            t.push(thread);
        }
        Inside { set: self, thread }
    }

    /// Sends [`SIGNAL`] to every thread inside (installing the handler first).
    pub fn kick(&self) {
        install();
        if let Ok(t) = self.threads.lock() {
            for &thread in t.iter() {
                // SAFETY: the thread is alive: it leaves the set (under this lock) before its
                // call returns.
                unsafe { libc::pthread_kill(thread, SIGNAL) };
            }
        }
    }
}

impl Drop for Inside<'_> {
    fn drop(&mut self) {
        if let Ok(mut t) = self.set.threads.lock() {
            if let Some(i) = t.iter().position(|&x| x == self.thread) {
                t.swap_remove(i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{self, Read};
    use std::sync::{mpsc, Arc};
    use std::time::Duration;

    #[test]
    fn a_kick_ends_a_blocked_read_without_restarting_it() {
        let (mut rx, tx) = io::pipe().unwrap();
        let set = Arc::new(Blocked::new());
        let (done, got) = mpsc::channel();
        let s = Arc::clone(&set);
        let t = std::thread::spawn(move || {
            let _inside = s.enter();
            let mut b = [0u8; 1];
            let _ = done.send(rx.read(&mut b).map_err(|e| e.kind()));
        });
        // With SA_RESTART the read would resume and this would time out.
        let mut r = None;
        for _ in 0..50 {
            set.kick();
            if let Ok(x) = got.recv_timeout(Duration::from_millis(100)) {
                r = Some(x);
                break;
            }
        }
        t.join().unwrap();
        drop(tx);
        assert_eq!(r, Some(Err(io::ErrorKind::Interrupted)));
        assert!(set.threads.lock().unwrap().is_empty());
    }
}
