//! The serial line: a real tty set to raw 8N1 at a baud rate, a pseudo-terminal this process
//! creates, or standard input and output; read by a thread that timestamps what arrives.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, BorrowedFd, FromRawFd, IntoRawFd, OwnedFd};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::fcntl::OFlag;
use nix::pty::{grantpt, posix_openpt, ptsname_r, unlockpt};
use nix::sys::termios::{self, BaudRate, ControlFlags, SetArg, Termios};

/// What the reader thread reports.
#[derive(Debug)]
pub enum Event {
    /// Bytes and the moment they were read.
    Data(Vec<u8>, Instant),
    /// End of file, hang-up or a read error: the line is gone.
    Hangup,
}

/// The baud rates `--baud` accepts.
pub fn baud_rate(n: u32) -> Option<BaudRate> {
    Some(match n {
        1200 => BaudRate::B1200,
        2400 => BaudRate::B2400,
        4800 => BaudRate::B4800,
        9600 => BaudRate::B9600,
        19200 => BaudRate::B19200,
        38400 => BaudRate::B38400,
        57600 => BaudRate::B57600,
        115200 => BaudRate::B115200,
        _ => return None,
    })
}

/// Sets `fd` to raw 8N1 (no parity, one stop bit, receiver on, modem lines ignored) at
/// `baud`; returns the settings it replaced.
pub fn make_raw(fd: BorrowedFd<'_>, baud: BaudRate) -> io::Result<Termios> {
    let old = termios::tcgetattr(fd)?;
    let mut t = old.clone();
    termios::cfmakeraw(&mut t);
    termios::cfsetspeed(&mut t, baud)?;
    t.control_flags &= !(ControlFlags::PARENB | ControlFlags::CSTOPB | ControlFlags::CSIZE);
    t.control_flags |= ControlFlags::CS8 | ControlFlags::CREAD | ControlFlags::CLOCAL;
    termios::tcsetattr(fd, SetArg::TCSANOW, &t)?;
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
            .custom_flags(libc_noctty())
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

fn libc_noctty() -> i32 {
    OFlag::O_NOCTTY.bits()
}

use std::os::unix::fs::OpenOptionsExt;

impl Drop for Tty {
    fn drop(&mut self) {
        let _ = termios::tcsetattr(self.file.as_fd(), SetArg::TCSANOW, &self.old);
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
        let m = posix_openpt(OFlag::O_RDWR | OFlag::O_NOCTTY)?;
        grantpt(&m)?;
        unlockpt(&m)?;
        let path = ptsname_r(&m)?;
        // SAFETY: `into_raw_fd` hands over the only owner of this open descriptor.
        let master = File::from(unsafe { OwnedFd::from_raw_fd(m.into_raw_fd()) });
        // Set the slave raw once (the settings stay with the pty while the master is open).
        let slave = OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc_noctty())
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
                Err(e) if wait_peer && !seen && e.raw_os_error() == Some(Errno::EIO as i32) => {
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
