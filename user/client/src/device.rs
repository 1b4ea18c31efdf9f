//! A file of `/dev/reversi`, `/dev/chess` or `/dev/kxo` (docs/protocol.md).
//!
//! A command is one `write` of the line and its `\n`, then `read`s until end of file: the
//! device answers a file's reads from that file's own reply and returns 0 once it is consumed
//! ("Reads: who gets which reply"), so the whole reply comes back whatever its length (a
//! chess `07` can exceed the 1024 bytes of one classic read). A read that a signal interrupts
//! continues where it stopped: the reply is kept.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};

use kgames_uapi::ioctl::{KGAMES_IOC_PRIVATE, KGAMES_IOC_STOP_SEARCH};
use kgames_uapi::user::ioctl_none;

use crate::interrupt::Blocked;
use crate::protocol::{self, Request};
use crate::{Response, Transport};

/// Which game a device file plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sharing {
    /// A private game of this file (`KGAMES_IOC_PRIVATE`): it lives until the file is closed
    /// and never disturbs the game the user's shell plays.
    Private,
    /// The user's shared game: the one `echo "00 X" > /dev/reversi` plays too.
    Shared,
}

/// An open device file.
#[derive(Debug)]
pub struct Device {
    file: File,
    label: String,
    blocked: Blocked,
}

impl Device {
    /// Opens `path` read-write and, for [`Sharing::Private`], detaches it to a private game.
    /// The error names the path, and says what to load when the device is missing.
    pub fn open(path: &str, sharing: Sharing) -> io::Result<Device> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| {
                let hint = if e.kind() == io::ErrorKind::NotFound {
                    ": the kgames module is not loaded; load it with `sudo insmod kgames.ko` (`make run` boots a VM with it loaded)"
                } else {
                    ""
                };
                io::Error::new(e.kind(), format!("{path}: {e}{hint}"))
            })?;
        if sharing == Sharing::Private {
            ioctl_none(&file, KGAMES_IOC_PRIVATE).map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!("{path}: the private-game ioctl (KGAMES_IOC_PRIVATE) failed: {e}"),
                )
            })?;
        }
        let what = match sharing {
            Sharing::Private => "private game",
            Sharing::Shared => "shared game",
        };
        Ok(Device {
            file,
            label: format!("{path}, {what}"),
            blocked: Blocked::new(),
        })
    }

    /// The open file (for other ioctls).
    pub fn file(&self) -> &File {
        &self.file
    }
}

impl Device {
    /// Writes `line` and its `\n` in one write, then reads the whole reply. `at_once` is true
    /// for `01`, which the device answers even during a search: only other commands block, so
    /// only they can be interrupted.
    fn exchange(&self, line: &str, at_once: bool) -> io::Result<Response> {
        let _inside = (!at_once).then(|| self.blocked.enter());
        let bytes = format!("{line}\n");
        // One write, never retried: EINTR is the interrupted command, the game unchanged.
        let n = (&self.file).write(bytes.as_bytes())?;
        if n != bytes.len() {
            return Err(io::Error::other(format!(
                "short write of {line:?}: {n} of {} bytes",
                bytes.len()
            )));
        }
        let mut out = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            match (&self.file).read(&mut buf) {
                Ok(0) => break,
                Ok(k) => out.extend_from_slice(buf.get(..k).unwrap_or(&[])),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
        Ok(Response::new(String::from_utf8_lossy(&out).into_owned()))
    }
}

impl Transport for Device {
    fn send(&self, request: Request<'_>) -> io::Result<Response> {
        self.exchange(&protocol::encode(&request), request == Request::Board)
    }

    fn send_raw(&self, line: &str) -> io::Result<Response> {
        let board = Request::parse(line.as_bytes(), |_| true) == Ok(Request::Board);
        self.exchange(line, board)
    }

    fn interrupt(&self) {
        self.blocked.kick();
    }

    fn stop_search(&self) -> io::Result<()> {
        ioctl_none(&self.file, KGAMES_IOC_STOP_SEARCH)
    }

    fn label(&self) -> String {
        self.label.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_device_says_what_to_load() {
        let e = Device::open("/nonexistent/chess", Sharing::Private).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        let e = e.to_string();
        assert!(e.starts_with("/nonexistent/chess: "), "{e}");
        assert!(e.contains("insmod kgames.ko"), "{e}");
    }

    #[test]
    fn a_file_that_is_no_device_refuses_the_private_game() {
        let dir = std::env::temp_dir().join(format!("kgames-client-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("dev");
        std::fs::write(&f, "").unwrap();
        let path = f.to_str().unwrap();
        let e = Device::open(path, Sharing::Private)
            .unwrap_err()
            .to_string();
        assert!(e.contains("KGAMES_IOC_PRIVATE"), "{e}");
        let d = Device::open(path, Sharing::Shared).unwrap();
        assert_eq!(d.label(), format!("{path}, shared game"));
        // A regular file: the write appends, the read finds end of file at once.
        assert_eq!(d.send(Request::New("X")).unwrap().text(), "");
        assert_eq!(d.send_raw("zz").unwrap().text(), "");
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "00 X\nzz\n");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
