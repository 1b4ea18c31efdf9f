//! `xo-user-tmux-test`: runs `xo-user` in a real terminal (a private tmux server) and checks
//! what a person would see, printing TAP lines (`ok - ...`, `not ok - ...`); exit status 0
//! when every check passed.
//!
//! ```text
//! xo-user-tmux-test [--xo-user PATH] [--dir DIR] -- [XO-USER ARGS]   # e.g. -- --replay FILE
//! ```
//!
//! The checks: boards appear and change; a resize to 40x12 shows "terminal too small" and
//! back redraws the boards; Ctrl-P pauses (the header says PAUSED or FROZEN and the boards
//! stop changing); Ctrl-P again resumes (the boards change again); Ctrl-Q quits with status
//! 0, the main screen is back and `stty -g` is the same as before. The same binary runs on the
//! host against `--replay` (the `tmux` integration test) and in the VM against the live device,
//! as root and as the unprivileged user (tests/vm/guest-tests.sh).

use std::path::PathBuf;
use std::process::ExitCode;
use std::thread::sleep;
use std::time::Duration;

use clap::Parser;
use kgames_term::tap::Tap;
use kgames_term::tmux::Tmux;

/// Runs xo-user in tmux and checks the screen, the pause and the exit (TAP output).
#[derive(Debug, Parser)]
struct Args {
    /// The xo-user binary (default: next to this one).
    #[arg(long)]
    xo_user: Option<PathBuf>,
    /// A directory for the tmux socket and the result files (default: a new one in /tmp).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Seconds to wait for the first boards and for changes (raise under emulation).
    #[arg(long, default_value_t = 20)]
    timeout: u64,
    /// The arguments of xo-user.
    #[arg(last = true)]
    xo_args: Vec<String>,
}

const COLS: u16 = 100;
const ROWS: u16 = 30;
const BOARD: &str = "┌───┬───┬───┬───┐";

/// The screen without its first line (the header: the clock and the rate change by
/// themselves).
fn body(screen: &str) -> String {
    screen.lines().skip(1).collect::<Vec<_>>().join("\n")
}

/// The last screen seen when a wait failed.
fn why(r: &Result<String, String>) -> &str {
    r.as_ref().err().map_or("", String::as_str)
}

fn header(screen: &str) -> &str {
    screen.lines().next().unwrap_or("")
}

fn main() -> ExitCode {
    let args = Args::parse();
    let xo = args.xo_user.clone().unwrap_or_else(|| {
        std::env::current_exe()
            .ok()
            .and_then(|p| p.parent().map(|d| d.join("xo-user")))
            .unwrap_or_else(|| PathBuf::from("xo-user"))
    });
    let uid = rustix::process::getuid().as_raw();
    let dir = args.dir.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("xo-user-tmux-{uid}-{}", std::process::id()))
    });
    let wait = Duration::from_secs(args.timeout);
    let mut tap = Tap::default();
    println!(
        "# xo-user in tmux as uid {uid}: {} {}",
        xo.display(),
        args.xo_args.join(" ")
    );
    let mut argv = vec![xo.to_string_lossy().into_owned()];
    argv.extend(args.xo_args.iter().cloned());
    let t = match Tmux::start_watched(&dir, COLS, ROWS, &argv) {
        Ok(t) => t,
        Err(e) => {
            tap.check(false, "tmux starts", &e.to_string());
            return ExitCode::FAILURE;
        }
    };
    let run = |tap: &mut Tap| -> Option<()> {
        let first = t.wait_for(wait, |s| s.contains(BOARD));
        tap.check(first.is_ok(), "boards appear", why(&first));
        let first = first.ok()?;
        let changed = t.wait_for(wait, |s| body(s) != body(&first));
        tap.check(changed.is_ok(), "boards change", why(&changed));

        t.resize(40, 12).ok()?;
        let small = t.wait_for(wait, |s| s.contains("terminal too small"));
        tap.check(small.is_ok(), "40x12: terminal too small", why(&small));
        t.resize(COLS, ROWS).ok()?;
        let back = t.wait_for(wait, |s| s.contains(BOARD) && !s.contains("too small"));
        tap.check(back.is_ok(), "resized back: boards redrawn", why(&back));

        t.keys(&["C-p"]).ok()?;
        let paused = t.wait_for(wait, |s| {
            header(s).contains("PAUSED") || header(s).contains("FROZEN")
        });
        tap.check(paused.is_ok(), "Ctrl-P: paused", why(&paused));
        // Let records already read and boards held on their result settle, then watch.
        sleep(Duration::from_millis(2500));
        let a = t.capture().ok()?;
        sleep(Duration::from_secs(2));
        let b = t.capture().ok()?;
        tap.check(
            body(&a) == body(&b),
            "paused: the boards do not change for 2 s",
            &format!("{a}\n---\n{b}"),
        );

        t.keys(&["C-p"]).ok()?;
        let resumed = t.wait_for(wait, |s| {
            !header(s).contains("PAUSED") && !header(s).contains("FROZEN") && body(s) != body(&b)
        });
        tap.check(
            resumed.is_ok(),
            "Ctrl-P again: resumed, the boards change",
            why(&resumed),
        );

        t.keys(&["C-q"]).ok()?;
        let out = t.wait_outcome(wait);
        let detail = format!("{out:?}\n{}", t.capture().unwrap_or_default());
        tap.check(
            out.as_ref().is_some_and(|o| o.status == 0),
            "Ctrl-Q: exit status 0",
            &detail,
        );
        tap.check(
            out.as_ref().is_some_and(|o| o.restored()),
            "the terminal is restored (stty -g equal before and after)",
            &detail,
        );
        let screen = t.capture().unwrap_or_default();
        tap.check(!screen.contains(BOARD), "the main screen is back", &screen);
        Some(())
    };
    if run(&mut tap).is_none() {
        tap.check(
            false,
            "the scenario ran to its end",
            "a step failed before its check",
        );
    }
    drop(t);
    if args.dir.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    if tap.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
