//! A device file speaking the classic way: one write per line, one read of 1024 bytes.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};

pub use kgames_uapi::ioctl::KGAMES_IOC_PRIVATE;
use kgames_uapi::user::ioctl_none;

/// An open device.
pub struct Dev {
    /// The file.
    pub f: File,
}

impl Dev {
    /// Opens `path` read-write.
    pub fn open(path: &str) -> Result<Dev, String> {
        OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map(|f| Dev { f })
            .map_err(|e| format!("open {path}: {e}"))
    }

    /// Writes raw bytes in one `write`; returns its count.
    pub fn write_raw(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.f.write(bytes)
    }

    /// One `read` of at most `max` bytes.
    pub fn read_max(&mut self, max: usize) -> io::Result<Vec<u8>> {
        let mut buf = vec![0u8; max];
        let n = self.f.read(&mut buf)?;
        buf.truncate(n);
        Ok(buf)
    }

    /// The classic client: the line with its `\n` in one write, then one 1024-byte read.
    pub fn cmd(&mut self, line: &str) -> Result<Vec<u8>, String> {
        let bytes = format!("{line}\n");
        let n = self
            .write_raw(bytes.as_bytes())
            .map_err(|e| format!("write {line:?}: {e}"))?;
        if n != bytes.len() {
            return Err(format!("short write of {line:?}: {n}"));
        }
        self.read_max(1024)
            .map_err(|e| format!("read after {line:?}: {e}"))
    }

    /// `cmd` expecting exactly `want`.
    pub fn expect(&mut self, line: &str, want: &[u8]) -> Result<(), String> {
        let got = self.cmd(line)?;
        crate::same(line, &got, want)
    }

    /// Runs `line`, expects `want`, and checks that `01` did not change.
    pub fn rejected(&mut self, line: &str, want: &[u8]) -> Result<(), String> {
        let before = self.cmd("01")?;
        self.expect(line, want)?;
        let after = self.cmd("01")?;
        crate::same(&format!("01 after rejected {line:?}"), &after, &before)
    }

    /// Detaches the file to a private game.
    pub fn make_private(&mut self) -> Result<(), String> {
        ioctl_none(&self.f, KGAMES_IOC_PRIVATE).map_err(|e| format!("ioctl private: {e}"))
    }
}

/// Runs a shell command line (as the current uid) and returns its standard output.
pub fn sh(script: &str) -> Result<Vec<u8>, String> {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .output()
        .map_err(|e| format!("sh: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "sh {script:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(out.stdout)
}
