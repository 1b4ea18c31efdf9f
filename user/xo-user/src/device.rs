//! The live source: `/dev/kxo` opened as a watcher, read without blocking.
//!
//! The device supports `poll`: the file is readable exactly when it has a record to read (it
//! registers as a watcher at its first `poll` or `read`, and gets one snapshot record per game
//! first). The file is switched to `O_NONBLOCK` after the open, so the loop reads, when `poll`
//! says so, until `EAGAIN` (up to 16 records per `read`). The state and the load figures are
//! sampled by the loop's clock; the control ioctls are made on the same file.
//!
//! The open itself blocks as a plain `open` does (a FIFO standing in for the device waits for
//! its writer there), and a `read` of 0 bytes is the end of the stream, as before.
//!
//! Every ioctl number and layout is `kgames_uapi`'s.

use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsFd, BorrowedFd};
use std::time::Duration;

use kgames_uapi::ioctl::{KXO_IOC_PAUSE, KXO_IOC_RESTART, KXO_IOC_RESUME, KXO_IOC_STOP};
use kgames_uapi::load::KxoLoads;
use kgames_uapi::pairing::KxoPairing;
use kgames_uapi::record::Record;
use kgames_uapi::state::KxoState;
use kgames_uapi::user::{ioctl_none, kxo_loads, kxo_set_pairing, kxo_state};
use rustix::fs::{fcntl_getfl, fcntl_setfl, OFlags};

use crate::decode;
use crate::msg::Msg;

/// How often the state and loads are sampled.
pub const SAMPLE_EVERY: Duration = Duration::from_secs(1);
/// Most `read` calls per wake-up before the loop looks at its other descriptors again (at 16
/// records a read, 1024 records): the keys stay responsive whatever the rate.
pub const MAX_READS: usize = 64;

/// The control commands the UI sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// `KXO_IOC_PAUSE`.
    Pause,
    /// `KXO_IOC_RESUME`.
    Resume,
    /// `KXO_IOC_STOP`.
    Stop,
    /// `KXO_IOC_RESTART`.
    Restart,
    /// `KXO_IOC_SET_PAIRING`.
    SetPairing(KxoPairing),
}

impl Command {
    /// The ioctl's name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Command::Pause => "pause",
            Command::Resume => "resume",
            Command::Stop => "stop",
            Command::Restart => "restart",
            Command::SetPairing(_) => "set pairing",
        }
    }
}

/// What one drain of the device gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Drained {
    /// The records read (maybe none: a spurious wake-up), in order, one `Vec` per `read`.
    Records(Vec<Vec<Record>>),
    /// The records read before the stream ended or failed, and the error.
    Fatal(Vec<Vec<Record>>, String),
}

/// An open `/dev/kxo`.
#[derive(Debug)]
pub struct Device {
    file: File,
    path: String,
}

impl Device {
    /// Opens `path` for reading (a watcher) and makes its reads non-blocking.
    pub fn open(path: &str) -> Result<Device, String> {
        let file = File::open(path).map_err(|e| format!("{path}: {e}"))?;
        let flags = fcntl_getfl(&file).map_err(|e| format!("{path}: {e}"))?;
        fcntl_setfl(&file, flags | OFlags::NONBLOCK).map_err(|e| format!("{path}: {e}"))?;
        Ok(Device {
            file,
            path: path.to_string(),
        })
    }

    /// The descriptor to poll.
    pub fn fd(&self) -> BorrowedFd<'_> {
        self.file.as_fd()
    }

    /// `KXO_IOC_STATE`.
    pub fn state(&self) -> io::Result<KxoState> {
        kxo_state(&self.file)
    }

    /// `KXO_IOC_LOADS`.
    pub fn loads(&self) -> io::Result<KxoLoads> {
        kxo_loads(&self.file)
    }

    /// A control ioctl (root only; others get `EPERM`).
    pub fn command(&self, c: Command) -> io::Result<()> {
        let request = match c {
            Command::Pause => KXO_IOC_PAUSE,
            Command::Resume => KXO_IOC_RESUME,
            Command::Stop => KXO_IOC_STOP,
            Command::Restart => KXO_IOC_RESTART,
            Command::SetPairing(p) => return kxo_set_pairing(&self.file, p),
        };
        ioctl_none(&self.file, request)
    }

    /// The state and load samples at `at` (a module without these ioctls, `ENOTTY`, just
    /// shows no figures).
    pub fn sample(&self, at: Duration) -> Vec<Msg> {
        let mut out = Vec::new();
        if let Ok(state) = self.state() {
            out.push(Msg::State { at, state });
        }
        if let Ok(loads) = self.loads() {
            out.push(Msg::Loads { at, loads });
        }
        out
    }

    /// Reads what is there: until `EAGAIN`, the end of the stream, an error, or
    /// [`MAX_READS`] reads.
    pub fn drain(&self) -> Drained {
        let mut buf = [0u8; Record::SIZE * 16];
        let mut got = Vec::new();
        let fatal = |got, m: String| Drained::Fatal(got, format!("{}: {m}", self.path));
        let mut reads = 0;
        while reads < MAX_READS {
            let n = match (&self.file).read(&mut buf) {
                Ok(0) => return fatal(got, "the device closed the stream (end of file)".into()),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return fatal(got, format!("read: {e}")),
            };
            reads += 1;
            match decode::records(&buf[..n]) {
                Ok(records) => got.push(records),
                Err(e) => return fatal(got, e),
            }
        }
        Drained::Records(got)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kgames_uapi::agent::AgentKind;
    use std::io::Write;

    #[test]
    fn a_fifo_is_drained_until_eagain_then_its_end_is_fatal() {
        let dir = std::env::temp_dir().join(format!("xo-user-device-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("fifo");
        let _ = std::fs::remove_file(&path);
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &path,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        let p = path.clone();
        // The writer's open waits for the reader's, and the reader's for the writer's.
        let writer = std::thread::spawn(move || File::options().write(true).open(p).unwrap());
        let dev = Device::open(path.to_str().unwrap()).unwrap();
        let mut w = writer.join().unwrap();
        assert_eq!(dev.drain(), Drained::Records(vec![]), "EAGAIN: nothing yet");
        let r = Record::start(2, 5, AgentKind::Mcts, AgentKind::Random);
        w.write_all(&r.to_bytes().repeat(20)).unwrap();
        let Drained::Records(got) = dev.drain() else {
            panic!("records")
        };
        assert_eq!(got.concat(), vec![r; 20]);
        assert_eq!(got[0].len(), 16, "16 records per read");
        // No ioctls on a FIFO: no samples, no panic.
        assert!(dev.sample(Duration::ZERO).is_empty());
        w.write_all(&r.to_bytes()).unwrap();
        drop(w);
        match dev.drain() {
            Drained::Fatal(got, e) => {
                assert_eq!(got, vec![vec![r]]);
                assert!(e.contains("closed the stream"), "{e}");
            }
            d => panic!("{d:?}"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
