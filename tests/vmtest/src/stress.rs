//! The `stress` suite: concurrent random commands on every device, from several processes of
//! the same and of different users, with private files and short CPU budgets. The kernel log
//! must stay clean (the runner checks it); every reply must be well-formed.

use std::io::{Read, Write};

use kgames_uapi::user::ioctl_none;

use crate::dev::KGAMES_IOC_PRIVATE;
use crate::{ensure, Outcome, Test};

/// The `stress` suite.
pub fn tests() -> Vec<Test> {
    vec![Test {
        suite: "stress",
        name: "6 processes x 1500 random commands on reversi, chess and kxo; replies well-formed",
        uid: 0,
        run: hammer,
    }]
}

/// xorshift64*: a small deterministic generator for the tests.
pub struct Gen(pub u64);

impl Gen {
    /// The next value.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A uniform index below `n` (0 if `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a>(&mut self, v: &[&'a [u8]]) -> &'a [u8] {
        v[(self.next() % v.len() as u64) as usize]
    }
}

const SEEDS: [&[u8]; 16] = [
    b"00 X",
    b"00 O",
    b"00 W",
    b"00 B",
    b"01",
    b"02 3 2",
    b"02 WPe2-e4",
    b"03",
    b"04",
    b"05 N500",
    b"06",
    b"07",
    b"08",
    b"09",
    b"11",
    b"99",
];

fn worker(seed: u64) -> Outcome {
    let mut g = Gen(seed | 1);
    let paths = ["/dev/reversi", "/dev/chess", "/dev/kxo"];
    let mut files = Vec::new();
    for p in paths {
        files.push(
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open(p)
                .map_err(|e| format!("{p}: {e}"))?,
        );
    }
    let mut buf = [0u8; 4096];
    for _ in 0..1500 {
        let i = (g.next() % 3) as usize;
        let f = &mut files[i];
        match g.next() % 20 {
            0 => {
                // Detach to a private game, or reopen the file.
                if g.next().is_multiple_of(2) {
                    let _ = ioctl_none(f, KGAMES_IOC_PRIVATE);
                } else {
                    *f = std::fs::OpenOptions::new()
                        .read(true)
                        .write(true)
                        .open(paths[i])
                        .map_err(|e| e.to_string())?;
                }
            }
            1 => {
                let n = (g.next() % 600) as usize;
                let junk: Vec<u8> = (0..n).map(|_| g.next() as u8).collect();
                let _ = f.write(&junk);
                let _ = f.read(&mut buf);
            }
            _ => {
                let mut line = g.pick(&SEEDS).to_vec();
                if g.next().is_multiple_of(4) {
                    let at = (g.next() % (line.len() as u64 + 1)) as usize;
                    line.insert(at, b" X0-\n\r"[(g.next() % 6) as usize]);
                }
                line.push(b'\n');
                match f.write(&line) {
                    Ok(n) => ensure!(n == line.len(), "short write {n}"),
                    Err(e) => {
                        let code = e.raw_os_error();
                        ensure!(code == Some(libc::ENOSPC), "write {line:?}: {e}");
                        continue;
                    }
                }
                let n = f
                    .read(&mut buf)
                    .map_err(|e| format!("read after {line:?}: {e}"))?;
                ensure!(
                    n > 0 && buf[n - 1] == b'\n',
                    "reply to {line:?}: {:?}",
                    String::from_utf8_lossy(&buf[..n])
                );
            }
        }
    }
    Ok(())
}

fn hammer(_: u32) -> Outcome {
    let mut pids = Vec::new();
    for k in 0..6u32 {
        // SAFETY: the child runs the worker and exits.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            let uid = 2400 + k % 3; // two processes per user
                                    // SAFETY: plain libc calls in the child.
            let ok = unsafe { libc::setgid(uid) == 0 && libc::setuid(uid) == 0 };
            let r = if ok {
                worker(u64::from(k) * 7919 + 1)
            } else {
                Err("setuid".into())
            };
            if let Err(e) = &r {
                println!("# worker {k}: {e}");
            }
            // SAFETY: ends the child.
            unsafe { libc::_exit(i32::from(r.is_err())) };
        }
        pids.push(pid);
    }
    let mut failed = 0;
    for pid in pids {
        let mut st = 0;
        // SAFETY: waits for a child of this process.
        unsafe { libc::waitpid(pid, &mut st, 0) };
        if !(libc::WIFEXITED(st) && libc::WEXITSTATUS(st) == 0) {
            failed += 1;
        }
    }
    ensure!(failed == 0, "{failed} workers failed");
    Ok(())
}
