//! Transports for [`ClassicEngine`](crate::engine::ClassicEngine): a private game on
//! `/dev/reversi`, or (on the host, for tests) the session layer itself.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;

use kgames_common::budget::{Clock, Meter, NeverInterrupt};
use kgames_session::session::game::Game;
use kgames_session::session::reply::Reply;
use kgames_session::session::reversi_game::Reversi;
use kgames_session::session::state::{Action, Env, Session};
use kgames_session::HeapAlloc;
use kgames_uapi::ioctl::KGAMES_IOC_PRIVATE;

nix::ioctl_none_bad!(
    /// `ioctl(fd, KGAMES_IOC_PRIVATE)`: the file leaves its user's shared game.
    kgames_private,
    KGAMES_IOC_PRIVATE
);

/// A private game on `/dev/reversi`: it lives until this file is closed (dropped).
pub struct DeviceTransport {
    f: File,
}

impl DeviceTransport {
    /// Opens `path` and detaches the file to a private game.
    pub fn open(path: &str) -> io::Result<Self> {
        let f = OpenOptions::new().read(true).write(true).open(path)?;
        // SAFETY: an ioctl without argument on a descriptor this function owns.
        unsafe { kgames_private(f.as_raw_fd()) }.map_err(io::Error::from)?;
        Ok(DeviceTransport { f })
    }
}

impl crate::engine::Transport for DeviceTransport {
    fn cmd(&mut self, line: &str) -> io::Result<String> {
        self.f.write_all(format!("{line}\n").as_bytes())?;
        let mut buf = [0u8; 1024];
        let n = self.f.read(&mut buf)?;
        Ok(String::from_utf8_lossy(buf.get(..n).unwrap_or(&[])).into_owned())
    }
}

/// The wall clock for searches on the host.
struct HostClock(std::time::Instant);

impl Clock for HostClock {
    fn now_ns(&mut self, _nodes: u64) -> u64 {
        u64::try_from(self.0.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

/// The session layer of `/dev/reversi` in this process: the same replies as the device.
pub struct SessionTransport {
    s: Session<Reversi>,
    scratch: <Reversi as Game>::Scratch<HeapAlloc>,
}

impl Default for SessionTransport {
    fn default() -> Self {
        SessionTransport {
            s: Session::new(),
            scratch: Reversi::new_scratch(1 << 14).expect("host allocation"),
        }
    }
}

impl crate::engine::Transport for SessionTransport {
    fn cmd(&mut self, line: &str) -> io::Result<String> {
        let mut out = Reply::new();
        let env = Env {
            games: 1,
            max_games: 1,
            ..Env::default()
        };
        if let Action::Think(copy) = self.s.execute(line.as_bytes(), &env, &mut out) {
            let mut clock = HostClock(std::time::Instant::now());
            let mut never = NeverInterrupt;
            let mut meter = Meter::new(self.s.budget(), &mut clock, &mut never);
            let t = copy.think(&mut self.scratch, &mut meter);
            self.s.finish(t, &mut out);
        }
        Ok(String::from_utf8_lossy(out.as_bytes()).into_owned())
    }
}
