//! The CPU's move without blocking the screen: `03` is written by a worker thread, and Esc or
//! Ctrl-C interrupts it with [`Transport::interrupt`] (on the device: SIGUSR1 to that thread
//! alone, without `SA_RESTART`, so the write fails with `EINTR` and the game is unchanged).

use std::io;
use std::sync::Arc;
use std::thread;

use kgames_client::{Request, Response, Transport};

/// How a CPU move ended.
#[derive(Debug)]
pub enum CpuResult {
    /// The device's reply.
    Reply(Response),
    /// The move was interrupted: the device left the game unchanged.
    Interrupted,
    /// The write or read failed.
    Failed(String),
}

/// A CPU move in flight.
pub struct CpuMove {
    link: Arc<dyn Transport>,
}

impl CpuMove {
    /// Sends `request` (`03`) in a new thread; `done` gets the result.
    pub fn start(
        link: Arc<dyn Transport>,
        request: Request<'static>,
        done: impl FnOnce(CpuResult) + Send + 'static,
    ) -> io::Result<CpuMove> {
        let l = link.clone();
        thread::Builder::new()
            .name("cpu-move".into())
            .spawn(move || {
                let r = match l.send(request) {
                    Ok(reply) => CpuResult::Reply(reply),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => CpuResult::Interrupted,
                    Err(e) => CpuResult::Failed(e.to_string()),
                };
                done(r);
            })?;
        Ok(CpuMove { link })
    }

    /// Interrupts the move (again: an interrupt that came before the write began is lost,
    /// so the caller repeats this until the result arrives).
    pub fn interrupt(&self) {
        self.link.interrupt();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kgames_client::interrupt::Blocked;
    use std::io::Read;
    use std::sync::{mpsc, Mutex};
    use std::time::Duration;

    /// A line whose command blocks in `read` on an empty pipe, as the device's `03` blocks in
    /// the search: only a signal ends it.
    struct Blocking {
        rx: Mutex<io::PipeReader>,
        _tx: io::PipeWriter,
        blocked: Blocked,
    }

    impl Transport for Blocking {
        fn send(&self, _request: Request<'_>) -> io::Result<Response> {
            let _inside = self.blocked.enter();
            let mut b = [0u8; 1];
            let mut rx = self.rx.lock().map_err(|_| io::Error::other("poisoned"))?;
            rx.read(&mut b).map(|_| Response::new(String::new()))
        }
        fn send_raw(&self, _line: &str) -> io::Result<Response> {
            Err(io::Error::other("no raw lines"))
        }
        fn interrupt(&self) {
            self.blocked.kick();
        }
        fn stop_search(&self) -> io::Result<()> {
            Ok(())
        }
        fn label(&self) -> String {
            "pipe".into()
        }
    }

    #[test]
    fn the_signal_interrupts_a_blocked_write_without_restarting_it() {
        let (rx, tx) = io::pipe().unwrap();
        let link: Arc<dyn Transport> = Arc::new(Blocking {
            rx: Mutex::new(rx),
            _tx: tx,
            blocked: Blocked::new(),
        });
        let (done, got) = mpsc::channel();
        let m = CpuMove::start(link, Request::CpuMove, move |r| {
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
