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
//! stop changing); Ctrl-P again resumes (the boards change again); `a` and `R` answer as the
//! role allows (root: game 0's policy changes, shown in its panel, and six presses bring it
//! back; anyone else: EPERM in the footer; a replay: no device); Ctrl-Q quits with status 0,
//! the main screen is back and `stty -g` is the same as before; the history printed after it
//! has a line per game seen, each line the moves of a record seen (live: each game's last
//! record, its `move_count` moves). The same binary runs on the host against `--replay` (the
//! `tmux` integration test) and in the VM against the live device, as root and as the
//! unprivileged user (tests/selftests/kgames/terminal.sh).
//!
//! Which records xo-user saw: live, the test adds `--record DIR/seen.kxorec` (unless the
//! arguments have a `--record` already) and reads it back; in a replay, the replayed file
//! holds them (how far the replay got is unknown, so each line must match one of its
//! records, and every game of the file must have a line).

use std::path::PathBuf;
use std::process::ExitCode;
use std::thread::sleep;
use std::time::Duration;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use clap::Parser;
use kgames_test_support::tap::Tap;
use kgames_test_support::tmux::{self, Tmux};
use kgames_uapi::record::Record;
use xo_user::history::{self, Parsed};
use xo_user::msg::Msg;
use xo_user::recfile;

/// Runs xo-user in tmux and checks the screen, the pause and the exit (TAP output).
#[derive(Debug, Parser)]
#[command(name = "xo-user-tmux-test", version)]
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

fn footer(screen: &str) -> &str {
    screen.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("")
}

/// The value of option `name` in `args` (`--name V` or `--name=V`).
fn option(args: &[String], name: &str) -> Option<String> {
    let eq = format!("{name}=");
    args.iter().enumerate().find_map(|(i, a)| {
        if a == name {
            args.get(i + 1).cloned()
        } else {
            a.strip_prefix(&eq).map(str::to_string)
        }
    })
}

/// Every record of a recording, in order.
fn records_of(path: &Path) -> Result<Vec<Record>, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let msgs = recfile::read_all(std::io::BufReader::new(f))?;
    Ok(msgs
        .into_iter()
        .flat_map(|m| match m {
            Msg::Records { records, .. } => records,
            _ => Vec::new(),
        })
        .collect())
}

/// Checks the history lines against the records seen: (a line per game, lines that are
/// records).
fn check_history(tap: &mut Tap, printed: &str, seen: &[Record], exact: bool) {
    let lines: Vec<Parsed> = printed.lines().filter_map(history::parse).collect();
    let detail = format!(
        "{printed}
--- {} records seen",
        seen.len()
    );
    let games: BTreeSet<u16> = seen.iter().map(|r| r.game).collect();
    let shown: BTreeSet<u16> = lines.iter().map(|p| p.game).collect();
    tap.check(
        !games.is_empty() && games == shown,
        &format!(
            "after quitting: a history line per game seen ({})",
            games.len()
        ),
        &format!("games seen {games:?}, with a line {shown:?}\n{detail}"),
    );
    let bad: Vec<String> = if exact {
        // Each game's last record is one of its lines, with its move_count moves.
        let mut last: BTreeMap<u16, Record> = BTreeMap::new();
        for r in seen {
            last.insert(r.game, *r);
        }
        last.values()
            .filter(|r| {
                !lines.iter().any(|p| {
                    p.game == r.game && p.matches(r) && p.moves.len() == usize::from(r.move_count)
                })
            })
            .map(|r| format!("no line for the last record {r:?}: {}", history::line(r)))
            .collect()
    } else {
        lines
            .iter()
            .filter(|p| !seen.iter().any(|r| p.matches(r)))
            .map(|p| format!("no record seen for {p:?}"))
            .collect()
    };
    let what = if exact {
        "the history shows each game's last record seen, its move_count moves"
    } else {
        "each history line is the moves of a record of the replayed file"
    };
    tap.check(
        bad.is_empty() && !lines.is_empty(),
        what,
        &format!("{}\n{detail}", bad.join("\n")),
    );
}

/// The first `policy O:X` on the screen: game 0's, top left.
fn first_policy(screen: &str) -> Option<String> {
    let at = screen.find("policy ")?;
    screen[at..].split_whitespace().nth(1).map(str::to_string)
}

/// `a` and `R` as the role allows: root changes game 0's policy (and six presses of `a` bring
/// it back); anyone else gets EPERM; a replay has no device.
fn check_control_keys(
    tap: &mut Tap,
    t: &Tmux,
    wait: Duration,
    replay: bool,
    root: bool,
) -> Option<()> {
    if replay {
        t.keys(&["a"]).ok()?;
        let s = t.wait_for(wait, |s| footer(s).contains("a replay has no device"));
        tap.check(
            s.is_ok(),
            "a in a replay: no device, said in the footer",
            why(&s),
        );
        return Some(());
    }
    if !root {
        t.keys(&["a"]).ok()?;
        let s = t.wait_for(wait, |s| footer(s).contains("EPERM"));
        tap.check(s.is_ok(), "a as a user: EPERM in the footer", why(&s));
        t.keys(&["R"]).ok()?;
        let s = t.wait_for(wait, |s| {
            footer(s).contains("restart") && footer(s).contains("EPERM")
        });
        tap.check(s.is_ok(), "R as a user: EPERM in the footer", why(&s));
        return Some(());
    }
    let before = t.wait_for(wait, |s| first_policy(s).is_some());
    let original = before.as_ref().ok().and_then(|s| first_policy(s));
    tap.check(original.is_some(), "game 0's policy is shown", why(&before));
    let original = original?;
    t.keys(&["a"]).ok()?;
    // "#0 policy nega:random from its next round", then game 0's panel says so too.
    let set = t.wait_for(wait, |s| footer(s).contains("from its next round"));
    let policy = set
        .as_ref()
        .ok()
        .and_then(|s| first_policy(footer(s)))
        .unwrap_or_default();
    let shown = t.wait_for(wait, |s| {
        first_policy(s).as_deref() == Some(policy.as_str())
    });
    tap.check(
        set.is_ok() && shown.is_ok() && policy != original,
        &format!("a as root: game 0's policy {original} is now {policy}, in its panel"),
        &format!("{}{}", why(&set), why(&shown)),
    );
    // The cycle has six steps: five more and O's side is back.
    t.keys(&["a", "a", "a", "a", "a"]).ok()?;
    let want = format!("#0 policy {original} from its next round");
    let back = t.wait_for(wait, |s| {
        footer(s).contains(&want) && first_policy(s).as_deref() == Some(original.as_str())
    });
    tap.check(
        back.is_ok(),
        "a six times as root: the policy cycles back",
        why(&back),
    );
    t.keys(&["R"]).ok()?;
    let s = t.wait_for(wait, |s| footer(s).contains("every game restarted"));
    tap.check(s.is_ok(), "R as root: the games restart", why(&s));
    Some(())
}

fn main() -> ExitCode {
    let args = Args::parse();
    let xo = args
        .xo_user
        .clone()
        .unwrap_or_else(|| tmux::sibling("xo-user"));
    let uid = rustix::process::getuid().as_raw();
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| tmux::private_dir("xo-user-tmux", uid));
    let wait = Duration::from_secs(args.timeout);
    let mut tap = Tap::default();
    println!(
        "# xo-user in tmux as uid {uid}: {} {}",
        xo.display(),
        args.xo_args.join(" ")
    );
    let mut argv = vec![xo.to_string_lossy().into_owned()];
    argv.extend(args.xo_args.iter().cloned());
    // What xo-user sees, to check its history against.
    let replayed = option(&args.xo_args, "--replay").map(PathBuf::from);
    let no_history = args.xo_args.iter().any(|a| a == "--no-history");
    let recorded = match option(&args.xo_args, "--record") {
        Some(p) => Some(PathBuf::from(p)),
        None if replayed.is_none() && std::fs::create_dir_all(&dir).is_ok() => {
            let p = dir.join("seen.kxorec");
            argv.extend(["--record".to_string(), p.to_string_lossy().into_owned()]);
            Some(p)
        }
        None => None,
    };
    let root = uid == 0 && rustix::process::geteuid().is_root();
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

        check_control_keys(tap, &t, wait, replayed.is_some(), root)?;

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

        let printed = t.capture_all().unwrap_or_default();
        if no_history {
            tap.check(
                !printed.lines().any(|l| history::parse(l).is_some()),
                "--no-history: no history printed",
                &printed,
            );
            return Some(());
        }
        let (seen, exact) = match (&replayed, &recorded) {
            (Some(file), _) => (records_of(file), false),
            (None, Some(file)) => (records_of(file), true),
            (None, None) => (Err("no recording to compare with".to_string()), false),
        };
        match seen {
            Ok(seen) => check_history(tap, &printed, &seen, exact),
            Err(e) => {
                tap.check(false, "the records seen can be read back", &e);
            }
        }
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
