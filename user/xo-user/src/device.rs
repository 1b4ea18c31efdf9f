//! The live source: `/dev/kxo` opened as a watcher. The misc device has no `poll` hook, so a
//! reader thread does blocking reads (up to 16 records each) and sends them on; a sampler
//! thread asks for the state and the load figures once a second. The control ioctls are made
//! from the UI thread on the same file.
//!
//! Every ioctl number and layout is `kgames_uapi`'s.

use std::fs::File;
use std::io::{self, Read};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use kgames_term::events::Sender;
use kgames_uapi::ioctl::{KXO_IOC_PAUSE, KXO_IOC_RESUME, KXO_IOC_STOP};
use kgames_uapi::load::KxoLoads;
use kgames_uapi::record::Record;
use kgames_uapi::state::KxoState;
use kgames_uapi::user::{ioctl_none, kxo_loads, kxo_state};

use crate::decode;
use crate::msg::Msg;

/// How often the state and loads are sampled.
pub const SAMPLE_EVERY: Duration = Duration::from_secs(1);

/// The control commands the UI sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// `KXO_IOC_PAUSE`.
    Pause,
    /// `KXO_IOC_RESUME`.
    Resume,
    /// `KXO_IOC_STOP`.
    Stop,
}

/// An open `/dev/kxo`.
#[derive(Clone, Debug)]
pub struct Device {
    file: Arc<File>,
    path: String,
}

impl Device {
    /// Opens `path` for reading (a watcher).
    pub fn open(path: &str) -> Result<Device, String> {
        let file = File::open(path).map_err(|e| format!("{path}: {e}"))?;
        Ok(Device {
            file: Arc::new(file),
            path: path.to_string(),
        })
    }

    /// `KXO_IOC_STATE`.
    pub fn state(&self) -> io::Result<KxoState> {
        kxo_state(&*self.file)
    }

    /// `KXO_IOC_LOADS`.
    pub fn loads(&self) -> io::Result<KxoLoads> {
        kxo_loads(&*self.file)
    }

    /// A control ioctl (root only; others get `EPERM`).
    pub fn command(&self, c: Command) -> io::Result<()> {
        let request = match c {
            Command::Pause => KXO_IOC_PAUSE,
            Command::Resume => KXO_IOC_RESUME,
            Command::Stop => KXO_IOC_STOP,
        };
        ioctl_none(&*self.file, request)
    }

    /// Starts the reader and the sampler; times are measured from `t0`.
    pub fn start(&self, tx: Sender<Msg>, t0: Instant) -> io::Result<()> {
        let (dev, out) = (self.clone(), tx.clone());
        thread::Builder::new()
            .name("kxo-reader".into())
            .spawn(move || dev.read_loop(&out, t0))?;
        let dev = self.clone();
        thread::Builder::new()
            .name("kxo-sampler".into())
            .spawn(move || loop {
                let at = t0.elapsed();
                // A module without these ioctls (ENOTTY) just shows no figures.
                if let Ok(state) = dev.state() {
                    if !tx.send(Msg::State { at, state }) {
                        return;
                    }
                }
                if let Ok(loads) = dev.loads() {
                    if !tx.send(Msg::Loads { at, loads }) {
                        return;
                    }
                }
                thread::sleep(SAMPLE_EVERY);
            })?;
        Ok(())
    }

    fn read_loop(&self, tx: &Sender<Msg>, t0: Instant) {
        let mut buf = [0u8; Record::SIZE * 16];
        let fatal = |m: String| {
            tx.send(Msg::Fatal(format!("{}: {m}", self.path)));
        };
        loop {
            let n = match (&*self.file).read(&mut buf) {
                Ok(0) => return fatal("the device closed the stream (end of file)".into()),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return fatal(format!("read: {e}")),
            };
            match decode::records(&buf[..n]) {
                Ok(records) => {
                    if !tx.send(Msg::Records {
                        at: t0.elapsed(),
                        records,
                    }) {
                        return;
                    }
                }
                Err(e) => return fatal(e),
            }
        }
    }
}
