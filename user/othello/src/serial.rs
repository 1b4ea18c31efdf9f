//! The serial line: a real tty set to raw 8N1 at a baud rate, a pseudo-terminal this process
//! creates, or standard input and output; read by a thread that timestamps what arrives.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, BorrowedFd};
use std::os::unix::fs::OpenOptionsExt;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use rustix::fs::OFlags;
use rustix::io::Errno;
use rustix::pty::{grantpt, openpt, ptsname, unlockpt, OpenptFlags};
use rustix::termios::{self, speed, ControlModes, OptionalActions, Termios};

/// What the reader thread reports.
#[derive(Debug)]
pub enum Event {
    /// Bytes and the moment they were read.
    Data(Vec<u8>, Instant),
    /// End of file, hang-up or a read error: the line is gone.
    Hangup,
}

/// A baud rate `--baud` accepts (bits per second).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaudRate(u32);

impl BaudRate {
    /// The serial Othello protocol's rate.
    pub const B9600: BaudRate = BaudRate(speed::B9600);
}

/// The baud rates `--baud` accepts.
pub fn baud_rate(n: u32) -> Option<BaudRate> {
    [
        speed::B1200,
        speed::B2400,
        speed::B4800,
        speed::B9600,
        speed::B19200,
        speed::B38400,
        speed::B57600,
        speed::B115200,
    ]
    .contains(&n)
    .then_some(BaudRate(n))
}

/// Sets `fd` to raw 8N1 (no parity, one stop bit, receiver on, modem lines ignored) at
/// `baud`; returns the settings it replaced.
pub fn make_raw(fd: BorrowedFd<'_>, baud: BaudRate) -> io::Result<Termios> {
    let old = termios::tcgetattr(fd)?;
    let mut t = old.clone();
    t.make_raw();
    t.set_speed(baud.0)?;
    t.control_modes &= !(ControlModes::PARENB | ControlModes::CSTOPB | ControlModes::CSIZE);
    t.control_modes |= ControlModes::CS8 | ControlModes::CREAD | ControlModes::CLOCAL;
    termios::tcsetattr(fd, OptionalActions::Now, &t)?;
    Ok(old)
}

/// A real tty opened read-write and set raw; its old settings are restored on drop.
pub struct Tty {
    file: File,
    old: Termios,
}

impl Tty {
    /// Opens `path` and sets it to raw 8N1 at `baud`.
    pub fn open(path: &str, baud: BaudRate) -> io::Result<Tty> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(noctty())
            .open(path)
            .map_err(|e| io::Error::new(e.kind(), format!("{path}: {e}")))?;
        let old = make_raw(file.as_fd(), baud)?;
        Ok(Tty { file, old })
    }

    /// A second handle for reading.
    pub fn reader(&self) -> io::Result<File> {
        self.file.try_clone()
    }

    /// A second handle for writing.
    pub fn writer(&self) -> io::Result<File> {
        self.file.try_clone()
    }
}

/// `O_NOCTTY`: opening the line never makes it this process's controlling terminal.
fn noctty() -> i32 {
    OFlags::NOCTTY.bits() as i32
}

impl Drop for Tty {
    fn drop(&mut self) {
        let _ = termios::tcsetattr(self.file.as_fd(), OptionalActions::Now, &self.old);
    }
}

/// A pseudo-terminal made by this process: the peer opens [`Pty::path`].
pub struct Pty {
    master: File,
    /// The slave's path (`/dev/pts/N`).
    pub path: String,
}

impl Pty {
    /// Creates one; its slave side is raw 8N1 at 9600 baud from the start.
    pub fn create() -> io::Result<Pty> {
        let m = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC)?;
        grantpt(&m)?;
        unlockpt(&m)?;
        let path = ptsname(&m, Vec::new())?
            .into_string()
            .map_err(|_| io::Error::other("the pty's path is not UTF-8"))?;
        let master = File::from(m);
        // Set the slave raw once (the settings stay with the pty while the master is open).
        let slave = OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(noctty())
            .open(&path)?;
        make_raw(slave.as_fd(), BaudRate::B9600)?;
        drop(slave);
        Ok(Pty { master, path })
    }

    /// A handle for reading.
    pub fn reader(&self) -> io::Result<File> {
        self.master.try_clone()
    }

    /// A handle for writing.
    pub fn writer(&self) -> io::Result<File> {
        self.master.try_clone()
    }
}

/// Reads `r` on a thread: [`Event::Data`] per read, then [`Event::Hangup`] at the end.
///
/// With `wait_peer` (a pty master), `EIO` before any byte arrived means nobody opened the
/// slave yet: the thread retries every 50 ms instead of reporting a hang-up.
pub fn spawn_reader(mut r: impl Read + Send + 'static, wait_peer: bool) -> Receiver<Event> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 256];
        let mut seen = false;
        loop {
            match r.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    seen = true;
                    let data = buf.get(..n).unwrap_or(&[]).to_vec();
                    if tx.send(Event::Data(data, Instant::now())).is_err() {
                        return;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e)
                    if wait_peer && !seen && e.raw_os_error() == Some(Errno::IO.raw_os_error()) =>
                {
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(_) => break,
            }
        }
        let _ = tx.send(Event::Hangup);
    });
    rx
}

/// Writes protocol lines with their end (`\r`, or `\r\n` with `crlf`).
pub struct LineWriter {
    w: Box<dyn Write + Send>,
    end: &'static str,
}

impl LineWriter {
    /// Over `w`.
    pub fn new(w: Box<dyn Write + Send>, crlf: bool) -> Self {
        LineWriter {
            w,
            end: if crlf { "\r\n" } else { "\r" },
        }
    }

    /// Writes one line and flushes.
    pub fn line(&mut self, text: &str) -> io::Result<()> {
        self.w.write_all(format!("{text}{}", self.end).as_bytes())?;
        self.w.flush()
    }
}
