//! Driving a terminal program in a real terminal for tests: a private tmux server (its own
//! socket and configuration in a directory the test owns), keys in with `send-keys`, the screen
//! out with `capture-pane`.
//!
//! ```no_run
//! # use std::time::Duration;
//! use kgames_test_support::tmux::Tmux;
//! if !Tmux::available() { return; } // skip: no tmux
//! let dir = std::env::temp_dir().join("my-test");
//! let t = Tmux::start(&dir, 80, 24, "exec my-program").unwrap();
//! t.wait_for(Duration::from_secs(5), |s| s.contains("ready")).unwrap();
//! t.keys(&["C-q"]).unwrap();
//! assert_eq!(t.wait_exit(Duration::from_secs(5)), Some(0));
//! ```
//!
//! The pane stays after its command exits (`remain-on-exit`), so the exit status can be read.
//! Waiting polls the pane every 50 ms: this is the test's side, not the program under test.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::thread;
use std::time::{Duration, Instant};

/// A tmux server running one pane with the program under test; killed on drop.
#[derive(Debug)]
pub struct Tmux {
    socket: PathBuf,
    dir: PathBuf,
    /// The server's process id, so that dropping kills it even when its socket is gone.
    server: Option<u32>,
}

/// How a program started by [`Tmux::start_watched`] ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Its exit status.
    pub status: i32,
    /// `stty -g` in the pane before it started.
    pub before: String,
    /// `stty -g` after it exited.
    pub after: String,
}

impl Outcome {
    /// True when the terminal settings after equal those before.
    pub fn restored(&self) -> bool {
        !self.before.is_empty() && self.before == self.after
    }
}

/// Calls `f` every 50 ms until it gives a value or `timeout` has passed.
fn poll<T>(timeout: Duration, mut f: impl FnMut() -> Option<T>) -> Option<T> {
    let t0 = Instant::now();
    loop {
        if let Some(v) = f() {
            return Some(v);
        }
        if t0.elapsed() >= timeout {
            return None;
        }
        thread::sleep(Duration::from_millis(50));
    }
}

/// The program `name` next to the running one (a tmux test program drives the tool built
/// beside it), or `name` alone, found on the PATH, when that cannot be told.
pub fn sibling(name: &str) -> std::path::PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(|d| d.join(name)))
        .unwrap_or_else(|| std::path::PathBuf::from(name))
}

/// A directory of the test's own under the temporary folder: `PREFIX-UID-PID`.
pub fn private_dir(prefix: &str, uid: u32) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("{prefix}-{uid}-{}", std::process::id()))
}

/// `s` quoted for `sh`.
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

const TARGET: &str = "t:0.0";

/// The parent process id of `pid`, from `/proc/<pid>/stat` (the field after the command
/// name, which may itself contain spaces and parentheses).
fn parent_of(pid: u32) -> Option<u32> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

fn check(out: Output, what: &str) -> io::Result<Output> {
    if out.status.success() {
        Ok(out)
    } else {
        Err(io::Error::other(format!(
            "tmux {what}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )))
    }
}

impl Tmux {
    /// True when a `tmux` binary runs.
    pub fn available() -> bool {
        Command::new("tmux")
            .arg("-V")
            .output()
            .is_ok_and(|o| o.status.success())
    }

    /// Starts a server in `dir` (created; it holds the socket and the configuration) with one
    /// `cols` x `rows` pane running `sh -c command`, no status line.
    pub fn start(dir: &Path, cols: u16, rows: u16, command: &str) -> io::Result<Tmux> {
        fs::create_dir_all(dir)?;
        let conf = dir.join("tmux.conf");
        fs::write(
            &conf,
            "set -g remain-on-exit on\nset -g status off\nset -g escape-time 0\n",
        )?;
        let socket = dir.join("sock");
        // A server killed just before may not have removed its socket yet.
        let _ = fs::remove_file(&socket);
        let mut t = Tmux {
            socket,
            dir: dir.to_path_buf(),
            server: None,
        };
        let out = t
            .cmd()
            .arg("-f")
            .arg(&conf)
            .args(["new-session", "-d", "-s", "t", "-x"])
            .arg(cols.to_string())
            .arg("-y")
            .arg(rows.to_string())
            .args(["sh", "-c", command])
            .env_remove("TMUX")
            .output()?;
        check(out, "new-session")?;
        t.server = t
            .cmd()
            .args(["display-message", "-p", "#{pid}"])
            .output()
            .ok()
            .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok());
        Ok(t)
    }

    /// Like [`Tmux::start`] for the program `argv`, run by a shell that saves `stty -g`
    /// before and after it and its exit status in `dir` (see [`Tmux::outcome`]). The shell
    /// then sleeps, so what the program left on the screen can still be captured (tmux 3.3
    /// clears a dead pane).
    pub fn start_watched(dir: &Path, cols: u16, rows: u16, argv: &[String]) -> io::Result<Tmux> {
        fs::create_dir_all(dir)?;
        for f in ["before", "after", "status"] {
            let _ = fs::remove_file(dir.join(f));
        }
        let d = shell_quote(&dir.to_string_lossy());
        let cmd: Vec<String> = argv.iter().map(|a| shell_quote(a)).collect();
        let script = format!(
            "stty -g > {d}/before; {}; echo $? > {d}/status.tmp; stty -g > {d}/after; mv {d}/status.tmp {d}/status; exec sleep 86400",
            cmd.join(" ")
        );
        Tmux::start(dir, cols, rows, &script)
    }

    /// The outcome of [`Tmux::start_watched`]'s program once it has exited and the shell has
    /// saved everything.
    pub fn outcome(&self) -> Option<Outcome> {
        let read = |f: &str| fs::read_to_string(self.dir.join(f)).ok();
        let status = read("status")?.trim().parse().ok()?;
        Some(Outcome {
            status,
            before: read("before")?.trim().to_string(),
            after: read("after")?.trim().to_string(),
        })
    }

    /// Waits up to `timeout` for [`Tmux::outcome`].
    pub fn wait_outcome(&self, timeout: Duration) -> Option<Outcome> {
        poll(timeout, || self.outcome())
    }

    fn cmd(&self) -> Command {
        let mut c = Command::new("tmux");
        c.arg("-S").arg(&self.socket);
        c
    }

    /// Sends keys in tmux's names (`q`, `C-q`, `C-p`, `Tab`, `PageDown`, `Up`, ...).
    pub fn keys(&self, keys: &[&str]) -> io::Result<()> {
        let out = self
            .cmd()
            .args(["send-keys", "-t", TARGET])
            .args(keys)
            .output()?;
        check(out, "send-keys").map(drop)
    }

    /// The pane's text, one line per row (lines the terminal wrapped are joined).
    pub fn capture(&self) -> io::Result<String> {
        let out = self
            .cmd()
            .args(["capture-pane", "-p", "-J", "-t", TARGET])
            .output()?;
        let out = check(out, "capture-pane")?;
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// A tmux format expanded for the pane (`#{mouse_sgr_flag}`: 1 while the program has
    /// asked for SGR mouse reports).
    pub fn format(&self, f: &str) -> io::Result<String> {
        let out = self
            .cmd()
            .args(["display-message", "-p", "-t", TARGET, f])
            .output()?;
        let out = check(out, "display-message")?;
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    }

    /// The pane's text with its colours and attributes as escape sequences (`capture-pane
    /// -e`): `ESC[48;5;223m` for a background of palette colour 223, `ESC[1m` for bold.
    pub fn capture_escaped(&self) -> io::Result<String> {
        let out = self
            .cmd()
            .args(["capture-pane", "-p", "-J", "-e", "-t", TARGET])
            .output()?;
        let out = check(out, "capture-pane")?;
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// The pane's text with its scrollback (the lines that scrolled off the top first), one
    /// line per row, wrapped lines joined: what a program printed after leaving the
    /// alternate screen, however long.
    pub fn capture_all(&self) -> io::Result<String> {
        let out = self
            .cmd()
            .args([
                "capture-pane",
                "-p",
                "-J",
                "-S",
                "-",
                "-E",
                "-",
                "-t",
                TARGET,
            ])
            .output()?;
        let out = check(out, "capture-pane")?;
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// Resizes the window (and the pane) to `cols` x `rows`.
    pub fn resize(&self, cols: u16, rows: u16) -> io::Result<()> {
        let out = self
            .cmd()
            .args(["resize-window", "-t", "t", "-x"])
            .arg(cols.to_string())
            .arg("-y")
            .arg(rows.to_string())
            .output()?;
        check(out, "resize-window").map(drop)
    }

    /// Waits until the screen satisfies `pred`; returns that screen, or the last screen seen
    /// as the error after `timeout`.
    pub fn wait_for(
        &self,
        timeout: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> Result<String, String> {
        let t0 = Instant::now();
        let mut last = String::new();
        loop {
            if let Ok(s) = self.capture() {
                if pred(&s) {
                    return Ok(s);
                }
                last = s;
            }
            if t0.elapsed() >= timeout {
                return Err(last);
            }
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// The process ids of the children of the pane's shell: under [`Tmux::start_watched`],
    /// the program under test while it runs (to send it a signal).
    pub fn program_pids(&self) -> Vec<u32> {
        let out = self
            .cmd()
            .args(["display-message", "-p", "-t", TARGET, "#{pane_pid}"])
            .output();
        let Some(pid) = out.ok().and_then(|o| {
            String::from_utf8_lossy(&o.stdout)
                .trim()
                .parse::<u32>()
                .ok()
        }) else {
            return Vec::new();
        };
        // Every process whose parent is the pane's shell, from /proc/*/stat (the kernel's
        // `children` file needs CONFIG_PROC_CHILDREN, which the test kernel lacks).
        let mut kids: Vec<u32> = fs::read_dir("/proc")
            .map(|dir| {
                dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
                    .filter(|p| parent_of(*p) == Some(pid))
                    .collect()
            })
            .unwrap_or_default();
        kids.sort_unstable();
        kids
    }

    /// The exit status of the pane's command once it has exited (`None` while it runs).
    pub fn exit_status(&self) -> Option<i32> {
        let out = self
            .cmd()
            .args([
                "display-message",
                "-p",
                "-t",
                TARGET,
                "#{pane_dead} #{pane_dead_status}",
            ])
            .output()
            .ok()?;
        let s = String::from_utf8_lossy(&out.stdout);
        let mut f = s.split_whitespace();
        match (f.next(), f.next()) {
            (Some("1"), Some(code)) => code.parse().ok(),
            _ => None,
        }
    }

    /// Waits up to `timeout` for the pane's command to exit; its status.
    pub fn wait_exit(&self, timeout: Duration) -> Option<i32> {
        poll(timeout, || self.exit_status())
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd().arg("kill-server").output();
        // A server whose socket was removed does not hear kill-server: it must not outlive
        // the test (it would keep every descriptor it inherited open).
        if let Some(pid) = self.server {
            let _ = Command::new("kill").arg(pid.to_string()).output();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watched_program_reports_its_status_and_the_terminal() {
        if !Tmux::available() {
            eprintln!("skipped: tmux is not installed");
            return;
        }
        let dir = std::env::temp_dir().join(format!("kgames-term-tmux-{}", std::process::id()));
        let argv = |s: &str| vec!["sh".to_string(), "-c".to_string(), s.to_string()];
        let t = Tmux::start_watched(&dir, 40, 10, &argv("echo it\\'s here; exit 3")).unwrap();
        let o = t.wait_outcome(Duration::from_secs(10)).unwrap();
        assert_eq!(o.status, 3);
        assert!(o.restored());
        let screen = t.capture().unwrap();
        assert!(screen.contains("it's here"), "{screen}");
        drop(t);
        // Lines that scrolled off the top are in the scrollback.
        let t = Tmux::start_watched(&dir, 40, 10, &argv("seq 1 30")).unwrap();
        t.wait_outcome(Duration::from_secs(10)).unwrap();
        let all = t.capture_all().unwrap();
        let numbers: Vec<&str> = all.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(numbers.first(), Some(&"1"), "{all}");
        assert!(all.lines().any(|l| l == "30"), "{all}");
        assert!(!t.capture().unwrap().lines().any(|l| l == "1"));
        drop(t);
        // A program that leaves the terminal changed is caught.
        let t = Tmux::start_watched(&dir, 40, 10, &argv("stty -echo")).unwrap();
        let o = t.wait_outcome(Duration::from_secs(10)).unwrap();
        assert_eq!(o.status, 0);
        assert!(!o.restored(), "{o:?}");
        drop(t);
        let _ = fs::remove_dir_all(&dir);
    }
}
