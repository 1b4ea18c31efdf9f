//! `play-tmux-test`: runs `play` in a real terminal (a private tmux server) for each game and
//! checks what a person sees, printing TAP lines (`ok - ...`, `not ok - ...`); exit status 0
//! when every check passed.
//!
//! ```text
//! play-tmux-test [--play PATH] [--dir DIR] [--timeout S] [--games reversi,chess,kxo,interrupt,plain,unsized,looks,mouse] -- [PLAY ARGS]
//! ```
//!
//! PLAY ARGS go to every run (`--sim` on the host; nothing in the VM, where the devices are).
//! Per game: start `play`, move by typing and by the cursor, see the CPU's replies, finish a
//! game (reversi and kxo with a small budget, chess from a FEN with a mate in one), start a
//! new one, `q` quits with status 0 and `stty -g` as before. `interrupt`: Esc during a long
//! CPU move interrupts it and the client lives on. `sigterm`: status 143, terminal restored.
//! `plain`: a scripted stdin in line mode. The scenarios run `play --ascii` (letters) but
//! `looks`, which checks the pictures' glyphs and colours (`capture-pane -e`) in chosen
//! locales, `TERM`s and `NO_COLOR`.
//! Against the device, a game the user's shell set up on the shared game is unchanged after.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use clap::Parser;
use kgames_test_support::tap::Tap;
use kgames_test_support::tmux::{self, Tmux};

/// Runs play in tmux for each game and checks the screen (TAP output).
#[derive(Debug, Parser)]
#[command(name = "play-tmux-test", version)]
struct Args {
    /// The play binary (default: next to this one).
    #[arg(long)]
    play: Option<PathBuf>,
    /// A directory for the tmux sockets and result files (default: a new one in /tmp).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Seconds to wait for each screen (raise under emulation).
    #[arg(long, default_value_t = 20)]
    timeout: u64,
    /// The scenarios, comma-separated.
    #[arg(
        long,
        default_value = "reversi,chess,kxo,interrupt,sigterm,plain,unsized,looks,mouse",
        value_delimiter = ','
    )]
    games: Vec<String>,
    /// Reversi from a position with 8 empty squares instead of the start (a shorter game,
    /// for the VM under emulation).
    #[arg(long)]
    quick: bool,
    /// Save the screen of each game before it quits as DIR/GAME.txt and, with its colours,
    /// DIR/GAME.ansi (the captures in docs/tools/play.md).
    #[arg(long, value_name = "DIR")]
    screens: Option<PathBuf>,
    /// Arguments for every play run (`--sim`).
    #[arg(last = true)]
    play_args: Vec<String>,
}

const COLS: u16 = 100;
const ROWS: u16 = 30;

struct Ctx {
    play: PathBuf,
    dir: PathBuf,
    wait: Duration,
    extra: Vec<String>,
    screens: Option<PathBuf>,
    quick: bool,
}

/// One `play` in tmux.
struct Run<'a> {
    t: Tmux,
    ctx: &'a Ctx,
    name: String,
}

/// The text after `key` on the screen's panel line, up to the box's edge.
fn panel_value(screen: &str, key: &str) -> Option<String> {
    let line = screen.lines().find(|l| l.contains(key))?;
    let rest = &line[line.find(key)? + key.len()..];
    Some(rest.split('│').next().unwrap_or("").trim().to_string())
}

/// The legal moves shown (`l`).
fn legal(screen: &str) -> Vec<String> {
    let Some(v) = panel_value(screen, "Legal: ") else {
        return Vec::new();
    };
    if v == "none" {
        return Vec::new();
    }
    if v.contains(',') {
        v.split(", ").map(str::to_string).collect()
    } else {
        v.split_whitespace().map(str::to_string).collect()
    }
}

/// The screen without what moves by itself: the thinking indicator's spinner (it turns every
/// 150 ms) and the clocks (every second; under emulation two captures are often a second
/// apart, and a frame would never look whole).
fn still(screen: &str) -> String {
    screen
        .lines()
        .map(|l| {
            let l = l.replace(['|', '/', '\\'], "-");
            if l.contains("Clock: you ") {
                l.replace(|c: char| c.is_ascii_digit(), "0")
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The board's rows (below the column labels), each from its row label on.
fn board_rows(screen: &str) -> Vec<Vec<char>> {
    let lines: Vec<&str> = screen.lines().collect();
    let Some(head) = lines
        .iter()
        .position(|l| l.contains("│   a  b") || l.contains("│   0  1"))
    else {
        return Vec::new();
    };
    lines[head + 1..]
        .iter()
        .take_while(|l| !l.starts_with('└'))
        .map(|l| l.chars().skip_while(|&ch| ch != '│').skip(1).collect())
        .collect()
}

/// Display column and row of the cursor `[ ]`.
fn cursor_pos(screen: &str) -> Option<(usize, usize)> {
    board_rows(screen).iter().enumerate().find_map(|(r, row)| {
        let i = row.iter().position(|&ch| ch == '[')?;
        (i >= 2).then(|| ((i - 2) / 3, r))
    })
}

/// True when the board shows the cursor on display column `c`, row `r`.
fn cursor_at(screen: &str, c: usize, r: usize) -> bool {
    cursor_pos(screen) == Some((c, r))
}

/// The person may act: no CPU move in flight, the input line empty.
fn settled(s: &str) -> bool {
    !s.contains("CPU thinking")
        && s.contains("> _")
        && (s.contains("to move: you") || s.contains("Game over"))
}

impl<'a> Run<'a> {
    /// Starts play with `--ascii`: the plain look the scenarios read (letters, `[ ]`).
    fn start(ctx: &'a Ctx, name: &str, args: &[&str]) -> Result<Run<'a>, String> {
        let mut args = args.to_vec();
        args.push("--ascii");
        Run::start_with(ctx, name, Vec::new(), &args)
    }

    /// Starts play without `--ascii` in an environment of `vars` (the locale, `TERM`,
    /// `NO_COLOR`; the others that decide the look removed).
    fn start_looking(
        ctx: &'a Ctx,
        name: &str,
        vars: &[&str],
        args: &[&str],
    ) -> Result<Run<'a>, String> {
        let mut prefix: Vec<String> = ["env", "-u", "LC_ALL", "-u", "LC_CTYPE", "-u", "LANG"]
            .iter()
            .chain(&["-u", "NO_COLOR", "-u", "COLORTERM"])
            .map(|s| s.to_string())
            .collect();
        prefix.extend(vars.iter().map(|s| s.to_string()));
        Run::start_with(ctx, name, prefix, args)
    }

    /// The screen with its colours as escape sequences, once it is a whole frame.
    fn colours(&self) -> String {
        let _ = self.screen();
        self.t.capture_escaped().unwrap_or_default()
    }

    /// Like [`Run::start`], with `prefix` before play's path on the command line.
    fn start_with(
        ctx: &'a Ctx,
        name: &str,
        prefix: Vec<String>,
        args: &[&str],
    ) -> Result<Run<'a>, String> {
        let mut argv = prefix;
        argv.push(ctx.play.to_string_lossy().into_owned());
        argv.extend(args.iter().map(|s| s.to_string()));
        argv.extend(ctx.extra.iter().cloned());
        let t = Tmux::start_watched(&ctx.dir.join(name), COLS, ROWS, &argv)
            .map_err(|e| e.to_string())?;
        Ok(Run {
            t,
            ctx,
            name: name.to_string(),
        })
    }

    /// Waits for a screen that satisfies `pred` and is a whole frame: the same again 40 ms
    /// later (a capture may catch the program halfway through drawing).
    fn wait(&self, pred: impl Fn(&str) -> bool) -> Result<String, String> {
        let t0 = Instant::now();
        loop {
            let left = self.ctx.wait.saturating_sub(t0.elapsed());
            let s = self.t.wait_for(left, &pred)?;
            std::thread::sleep(Duration::from_millis(40));
            if still(&self.screen()) == still(&s) {
                return Ok(s);
            }
            if t0.elapsed() >= self.ctx.wait {
                return Err(s);
            }
        }
    }

    /// The screen once it is a whole frame.
    fn screen(&self) -> String {
        let mut s = self.t.capture().unwrap_or_default();
        for _ in 0..50 {
            std::thread::sleep(Duration::from_millis(40));
            let again = self.t.capture().unwrap_or_default();
            if still(&again) == still(&s) {
                break;
            }
            s = again;
        }
        s
    }

    /// Sends keys and waits until the screen has changed and the person may act again.
    fn act(&self, keys: &[&str]) -> Result<String, String> {
        let before = self.screen();
        self.t.keys(keys).map_err(|e| e.to_string())?;
        // Changed by the keys, not by the clocks alone.
        let before = still(&before);
        self.wait(|s| still(s) != before && settled(s))
    }

    /// Types `text` and Enter.
    fn type_move(&self, text: &str) -> Result<String, String> {
        self.t.keys(&["-l", text]).map_err(|e| e.to_string())?;
        self.act(&["Enter"])
    }

    /// Moves the cursor to display column `c`, row `r` (arrows from where it is: the path is
    /// monotone, so the target shows only when every arrow is handled) and presses Enter.
    fn cursor_to(&self, c: usize, r: usize, enter: bool) -> Result<String, String> {
        let now = self.screen();
        let (c0, r0) = cursor_pos(&now).ok_or_else(|| format!("no cursor on the board\n{now}"))?;
        let mut keys: Vec<&str> = Vec::new();
        keys.extend(vec!["Left"; c0.saturating_sub(c)]);
        keys.extend(vec!["Right"; c.saturating_sub(c0)]);
        keys.extend(vec!["Up"; r0.saturating_sub(r)]);
        keys.extend(vec!["Down"; r.saturating_sub(r0)]);
        if !keys.is_empty() {
            self.t.keys(&keys).map_err(|e| e.to_string())?;
        }
        // Every arrow is handled once the cursor shows there.
        let s = self.wait(|s| cursor_at(s, c, r))?;
        if enter {
            self.act(&["Enter"])
        } else {
            Ok(s)
        }
    }

    /// `q`, then the exit status and the terminal.
    /// Keeps `screen` for the docs when asked to (`--screens`).
    /// With its colours too, as DIR/GAME.ansi (`scripts/screen-svg.py` draws it).
    fn save(&self, screen: &str) {
        if let Some(d) = &self.ctx.screens {
            let _ = std::fs::create_dir_all(d);
            let _ = std::fs::write(d.join(format!("{}.txt", self.name)), screen);
            if let Ok(e) = self.t.capture_escaped() {
                let _ = std::fs::write(d.join(format!("{}.ansi", self.name)), e);
            }
        }
    }

    fn quit(&self, tap: &mut Tap) {
        let _ = self.t.keys(&["q"]);
        let o = self.t.wait_outcome(self.ctx.wait);
        let ok = o.as_ref().is_some_and(|o| o.status == 0 && o.restored());
        tap.check(
            ok,
            &format!("{}: q quits with status 0 and stty -g as before", self.name),
            &format!("{o:?}\n{}", self.screen()),
        );
        let s = self.screen();
        tap.check(
            !s.contains("─ board ─"),
            &format!("{}: the main screen is back", self.name),
            &s,
        );
    }
}

/// Plays the person's side until the game ends, typing the first legal move (or passing) on
/// odd turns and playing the last one by the cursor on even turns. The final screen.
fn finish(run: &Run<'_>, mut screen: String) -> Result<String, String> {
    let mut by_cursor = 0;
    for turn in 0..80 {
        if screen.contains("Game over") {
            if by_cursor == 0 {
                return Err(format!("no move by the cursor\n{screen}"));
            }
            return Ok(screen);
        }
        let moves = legal(&screen);
        screen = match moves.first() {
            None => run.act(&["p"])?,
            Some(m) if turn % 2 == 0 => run.type_move(m)?,
            Some(_) => {
                let m = moves.last().cloned().unwrap_or_default();
                let (c, r) = cell(&m).ok_or_else(|| format!("{m}: not a cell"))?;
                by_cursor += 1;
                run.cursor_to(c, r, true)?
            }
        };
    }
    Err(format!("no end after 80 turns\n{screen}"))
}

/// Display column and row of a reversi square (`d3`) or a kxo cell (`1 2`).
fn cell(m: &str) -> Option<(usize, usize)> {
    let b = m.as_bytes();
    match *b {
        [c @ b'a'..=b'h', r @ b'1'..=b'8'] => Some((usize::from(c - b'a'), usize::from(r - b'1'))),
        [c, b' ', r] if c.is_ascii_digit() && r.is_ascii_digit() => {
            Some((usize::from(c - b'0'), usize::from(r - b'0')))
        }
        _ => None,
    }
}

/// Passes a screen on when it satisfies `pred`, else fails with it.
fn want(pred: impl Fn(&str) -> bool) -> impl FnOnce(String) -> Result<String, String> {
    move |s| if pred(&s) { Ok(s) } else { Err(s) }
}

fn step(tap: &mut Tap, name: &str, r: Result<String, String>) -> Option<String> {
    match r {
        Ok(s) => {
            tap.check(true, name, "");
            Some(s)
        }
        Err(e) => {
            tap.check(false, name, &e);
            None
        }
    }
}

/// `--quick`: X to move, row 7 empty, every X move there flanks row 6 up to row 5.
const QUICK_REVERSI: &str = "XXOOXXOOOOXXOOXXXXOOXXOOOOXXOOXXXXXXXXXXOOOOOOOO--------OOOOOOOO X";

fn reversi(ctx: &Ctx, tap: &mut Tap) -> Option<()> {
    let mut args = vec!["reversi", "--budget", "N100"];
    if ctx.quick {
        args.extend(["--fen", QUICK_REVERSI]);
    }
    let run = Run::start(ctx, "reversi", &args).ok()?;
    let first = step(
        tap,
        "reversi: the board appears with coordinates and X to move",
        run.wait(|s| s.contains(" a  b  c  d  e  f  g  h") && s.contains("X to move: you")),
    )?;
    let discs = panel_value(&first, "Discs: ").unwrap_or_default();
    step(
        tap,
        "reversi: a bad square gets a clear message, nothing changes",
        run.type_move("z9").and_then(want(|s| {
            s.contains("is not a square") && s.contains(&format!("Discs: {discs}"))
        })),
    )?;
    if !ctx.quick {
        step(
            tap,
            "reversi: d3 typed, the CPU answers",
            run.type_move("d3").and_then(want(|s| {
                s.contains("Last you: d3") && s.contains("the CPU played")
            })),
        )?;
    }
    step(
        tap,
        "reversi: l shows the legal moves",
        run.act(&["l"])
            .and_then(|s| if !legal(&s).is_empty() { Ok(s) } else { Err(s) }),
    )?;
    let s = run.screen();
    let end = step(
        tap,
        "reversi: a whole game, typed and by the cursor, to the end",
        finish(&run, s),
    )?;
    tap.check(
        end.contains("You win") || end.contains("The CPU wins") || end.contains("A draw"),
        "reversi: the result in words with the disc counts",
        &end,
    );
    run.save(&end);
    step(
        tap,
        "reversi: n starts a new game",
        run.act(&["n"]).and_then(want(|s| {
            s.contains("Discs: X 2  O 2") && !s.contains("Game over")
        })),
    )?;
    run.quit(tap);
    Some(())
}

fn chess(ctx: &Ctx, tap: &mut Tap) -> Option<()> {
    // White mates in one: Ra1-a8.
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let run = Run::start(ctx, "chess", &["chess", "--budget", "N3000", "--fen", fen]).ok()?;
    step(
        tap,
        "chess: the FEN position appears with white to move",
        run.wait(|s| {
            s.contains(" a  b  c  d  e  f  g  h")
                && s.contains("white to move: you")
                && s.contains(" R ")
        }),
    )?;
    step(
        tap,
        "chess: an illegal move is refused in words",
        run.type_move("a1b3")
            .and_then(want(|s| s.contains("illegal move"))),
    )?;
    step(
        tap,
        "chess: a1a8 typed mates",
        run.type_move("a1a8")
            .and_then(want(|s| s.contains("Checkmate: you win")))
            .inspect(|s| run.save(s)),
    )?;
    step(
        tap,
        "chess: n starts a new game from the start position",
        run.act(&["n"]).and_then(want(|s| {
            s.contains("white to move: you") && s.contains(" r  n  b  q  k  b  n  r")
        })),
    )?;
    // e2-e4 by the cursor: pick e2 (column 4, display row 6), then e4 (row 4).
    run.cursor_to(4, 6, false).ok()?;
    step(
        tap,
        "chess: Enter picks the pawn on e2",
        run.t
            .keys(&["Enter"])
            .map_err(|e| e.to_string())
            .and_then(|()| run.wait(|s| s.contains("(P)"))),
    )?;
    step(
        tap,
        "chess: Enter on e4 moves it, the CPU answers",
        run.t
            .keys(&["Up", "Up"])
            .map_err(|e| e.to_string())
            .and_then(|()| run.act(&["Enter"]))
            .and_then(|s| {
                if s.contains("Last you: e2e4 (WPe2-e4)")
                    && s.contains("Last CPU: ")
                    && !s.contains("Last CPU: -")
                {
                    Ok(s)
                } else {
                    Err(s)
                }
            }),
    )?;
    step(
        tap,
        "chess: r resigns, the result in words",
        run.act(&["r"])
            .and_then(want(|s| s.contains("You resigned: the CPU wins"))),
    )?;
    run.quit(tap);
    Some(())
}

fn kxo(ctx: &Ctx, tap: &mut Tap) -> Option<()> {
    let run = Run::start(
        ctx,
        "kxo",
        &["kxo", "--size", "3", "--playouts", "5", "--workers", "2"],
    )
    .ok()?;
    step(
        tap,
        "kxo: the 3 x 3 grid appears and the CPU (O) opens",
        run.wait(|s| {
            s.contains(" 0  1  2")
                && s.contains("X to move: you")
                && s.contains("3 x 3, 3 in a row; playouts 5, workers 2")
        }),
    )?;
    let s = run.act(&["l"]).unwrap_or_else(|_| run.screen());
    let s = if legal(&s).is_empty() {
        run.screen()
    } else {
        s
    };
    let end = step(
        tap,
        "kxo: a whole game, typed and by the cursor, to the end",
        finish(&run, s),
    )?;
    tap.check(
        end.contains("You win") || end.contains("The CPU wins") || end.contains("A draw"),
        "kxo: the result in words",
        &end,
    );
    run.save(&end);
    step(
        tap,
        "kxo: n starts a new game",
        run.act(&["n"]).and_then(want(|s| {
            !s.contains("Game over") && s.contains("Last you: -")
        })),
    )?;
    run.quit(tap);
    Some(())
}

fn interrupt(ctx: &Ctx, tap: &mut Tap) -> Option<()> {
    // Black: the CPU opens with a budget of 10^9 nodes, which only the module's time cap
    // (`max_move_ms`, 30 s by default) ends; Esc interrupts it. A 9 s budget was too short
    // on the debug kernel (KASAN under TCG), where play's start and the first screen
    // capture took longer than the move.
    let run = Run::start(
        ctx,
        "interrupt",
        &["chess", "--as", "B", "--budget", "N999999999"],
    )
    .ok()?;
    step(
        tap,
        "interrupt: the CPU is thinking",
        run.wait(|s| s.contains("CPU thinking")),
    )?;
    let t0 = Instant::now();
    run.t.keys(&["Escape"]).ok()?;
    step(
        tap,
        "interrupt: Esc interrupts the CPU's move, the game unchanged",
        run.wait(|s| {
            s.contains("CPU move interrupted")
                && s.contains("white to move: the CPU")
                && s.contains("Last CPU: -")
        }),
    )?;
    tap.check(
        // Esc took 9.4 s on the debug kernel (KASAN under TCG); under the old 8 s elsewhere.
        t0.elapsed() < Duration::from_secs(20),
        "interrupt: well before the module's 30 s cap",
        &format!("{:?}", t0.elapsed()),
    );
    run.t.keys(&["Enter"]).ok()?;
    step(
        tap,
        "interrupt: Enter lets the CPU move again; Ctrl-C interrupts too",
        run.wait(|s| s.contains("CPU thinking")).and_then(|_| {
            run.t.keys(&["C-c"]).map_err(|e| e.to_string())?;
            run.wait(|s| s.contains("CPU move interrupted") && !s.contains("CPU thinking"))
        }),
    )?;
    run.quit(tap);
    Some(())
}

fn sigterm(ctx: &Ctx, tap: &mut Tap) -> Option<()> {
    let run = Run::start(ctx, "sigterm", &["kxo"]).ok()?;
    step(tap, "sigterm: play is up", run.wait(settled))?;
    let pids = run.t.program_pids();
    let killed = pids.len() == 1
        && Command::new("kill")
            .args(["-TERM", &pids[0].to_string()])
            .status()
            .is_ok_and(|s| s.success());
    let o = run.t.wait_outcome(ctx.wait);
    tap.check(
        killed && o.as_ref().is_some_and(|o| o.status == 143 && o.restored()),
        "sigterm: SIGTERM ends play with status 143 and stty -g as before",
        &format!("{pids:?} {o:?}"),
    );
    Some(())
}

fn plain(ctx: &Ctx, tap: &mut Tap) -> Option<()> {
    let script = "d3\nzz\nlegal\nnew\nquit\n";
    let mut c = Command::new(&ctx.play);
    c.args(["reversi", "--plain", "--budget", "N100"])
        .args(&ctx.extra);
    let out = c
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut ch| {
            if let Some(mut i) = ch.stdin.take() {
                i.write_all(script.as_bytes())?;
            }
            ch.wait_with_output()
        });
    let Ok(out) = out else {
        tap.check(false, "plain: play --plain runs", "spawn failed");
        return None;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let ok = out.status.success()
        && text.contains("you played d3")
        && text.contains("the CPU played")
        && text.contains("\"zz\" is not a square")
        && text.contains("legal moves: ")
        && text.matches("   a b c d e f g h").count() >= 4;
    tap.check(
        ok,
        "plain: a scripted stdin plays, the board as text after every move",
        &text,
    );
    Some(())
}

/// A terminal that reports its size as 0x0 (a console nobody sized): play draws 80x24 and
/// says so, and a size reported later gets the whole screen.
fn sizeless(ctx: &Ctx, tap: &mut Tap) -> Option<()> {
    // The pane's size is set to 0x0 by the shell that then becomes play.
    let zero = ["sh", "-c", "stty rows 0 cols 0 && exec \"$0\" \"$@\""];
    let prefix = zero.iter().map(|s| s.to_string()).collect();
    let run = Run::start_with(ctx, "unsized", prefix, &["reversi", "--budget", "N100"]).ok()?;
    step(
        tap,
        "unsized: a 0x0 terminal gets the board at 80x24, and a message says so",
        run.wait(|s| {
            s.contains(" a  b  c  d  e  f  g  h")
                && s.contains("reports no size (0x0): drawing 80x24")
                && s.lines().all(|l| l.trim_end().chars().count() <= 80)
        }),
    )?;
    let _ = run.t.resize(COLS + 20, ROWS);
    step(
        tap,
        "unsized: the size reported later gets the whole screen",
        run.wait(|s| {
            s.contains(" a  b  c  d  e  f  g  h")
                && s.lines().any(|l| l.trim_end().chars().count() > 80)
        }),
    )?;
    let _ = run.t.resize(40, 14);
    step(
        tap,
        "sizes: at 40x14 the compact layout: the board and the input line, no panel",
        run.wait(|s| {
            s.contains(" a  b  c  d  e  f  g  h") && s.contains("> _") && !s.contains(" game ")
        }),
    )?;
    let _ = run.t.resize(24, 8);
    step(
        tap,
        "sizes: at 24x8 a line names the size needed (28x13)",
        run.wait(|s| {
            // The line wraps at 24 columns.
            let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
            flat.contains("terminal too small: 24x8, play needs 28x13")
        }),
    )?;
    let _ = run.t.resize(COLS, ROWS);
    run.quit(tap);
    Some(())
}

/// The palette indexes a screen's escapes use (`38;5;N` and `48;5;N`), foreground and
/// background alike.
fn palette(escaped: &str) -> Vec<u16> {
    let mut v: Vec<u16> = escaped
        .split('\x1b')
        .filter_map(|e| {
            let e = e.strip_prefix('[')?;
            let body = &e[..e.find('m')?];
            let mut out = Vec::new();
            let parts: Vec<&str> = body.split(';').collect();
            for w in parts.windows(3) {
                if (w[0] == "38" || w[0] == "48") && w[1] == "5" {
                    out.push(w[2].parse().ok()?);
                }
            }
            Some(out)
        })
        .flatten()
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// True when `escaped` sets any colour at all: a palette index, or ANSI `30-37`, `40-47`,
/// `90-97`, `100-107`.
fn any_colour(escaped: &str) -> bool {
    !palette(escaped).is_empty()
        || escaped.split('\x1b').any(|e| {
            e.strip_prefix('[')
                .and_then(|e| e.find('m').map(|i| &e[..i]))
                .is_some_and(|b| {
                    b.split(';').any(|n| {
                        matches!(
                            n.parse::<u16>(),
                            Ok(30..=37 | 40..=47 | 90..=97 | 100..=107)
                        )
                    })
                })
        })
}

/// The segments of `escaped`'s line holding `text`, each with the escapes before it
/// (`[48;5;117m ● ` style pieces), for checking one square's colour.
fn styled(escaped: &str, text: &str) -> Vec<String> {
    escaped
        .split('\x1b')
        .filter(|seg| seg.contains(text))
        .map(str::to_string)
        .collect()
}

/// Boards as pictures: chess figurines on 256-colour squares with the targets of the piece
/// under the cursor, the last moves and a king in check; reversi discs in 16 colours with
/// the turned-over discs; the N x N grid; `NO_COLOR` and a C locale give the plain board.
fn looks(ctx: &Ctx, tap: &mut Tap) -> Option<()> {
    let utf8 = "LANG=C.UTF-8";
    // Chess, 256 colours: 1. e4 e5 2. f4 Qh4+, white's king on e1 in check.
    let fen = "rnb1kbnr/pppp1ppp/8/4p3/4PP1q/8/PPPP2PP/RNBQKBNR w KQkq - 1 3";
    let run = Run::start_looking(
        ctx,
        "looks-chess",
        &[utf8, "TERM=xterm-256color"],
        &["chess", "--budget", "N500", "--fen", fen],
    )
    .ok()?;
    step(
        tap,
        "looks: chess draws figurines (♔ ♜ ♚), no letters",
        run.wait(|s| s.contains("♖  ♘  ♗  ♕  ♔  ♗  ♘  ♖") && s.contains('♚') && !s.contains(" K ")),
    )?;
    let e = run.colours();
    let p = palette(&e);
    tap.check(
        p.contains(&223) && p.contains(&137),
        "looks: chess squares light (223) and dark (137) in 256 colours",
        &format!("{p:?}"),
    );
    tap.check(
        styled(&e, "♔").iter().any(|s| s.contains("48;5;203")),
        "looks: the king in check on red (203)",
        &styled(&e, "♔").join(" | "),
    );
    // The cursor on the king (e1: column 4, row 7): its one move, to e2, shaded and dotted
    // (f2 is attacked, the other squares are its own pieces').
    let s = run.cursor_to(4, 7, false).ok()?;
    let e = run.colours();
    let targets = e
        .matches("48;5;150")
        .count()
        .saturating_add(e.matches("48;5;107").count());
    tap.check(
        targets == 1 && s.matches('•').count() == 1,
        "looks: the targets of the piece under the cursor are shaded, empty ones dotted",
        &format!("{targets} shaded\n{s}"),
    );
    step(
        tap,
        "looks: g3 typed (g2g3), the CPU answers",
        run.type_move("g2g3")
            .and_then(want(|s| s.contains("Last you: g2g3"))),
    )?;
    let e = run.colours();
    tap.check(
        e.matches("48;5;117").count() >= 3 && e.matches("48;5;218").count() >= 2,
        "looks: both last moves, two squares each, on their colours (117 you, 218 the CPU)",
        &e,
    );
    let s = run.screen();
    tap.check(
        s.contains(" moves (2) ")
            && s.contains("   3. g3 ")
            && s.contains("CPU: depth ")
            && s.contains("Clock: you 0:"),
        "looks: the move list (3. g3 and the CPU's reply in SAN), the CPU's search, the clocks",
        &s,
    );
    run.save(&s);
    step(
        tap,
        "looks: < twice looks back to the start: the king in check again",
        run.t
            .keys(&["<", "<"])
            .map_err(|e| e.to_string())
            .and_then(|()| run.wait(|s| s.contains("Looking back: after 0 of 2 plies")))
            .map(|_| run.colours())
            .and_then(want(|e| {
                styled(e, "♔").iter().any(|s| s.contains("48;5;203"))
            })),
    )?;
    step(
        tap,
        "looks: > twice returns to the game",
        run.t
            .keys(&[">", ">"])
            .map_err(|e| e.to_string())
            .and_then(|()| {
                run.wait(|s| {
                    !s.contains("Looking back") && s.contains("to move: you") && s.contains("> _")
                })
            }),
    )?;
    run.quit(tap);

    // Reversi, 256 colours: the discs, the felt, the turned-over discs.
    let run = Run::start_looking(
        ctx,
        "looks-reversi",
        &[utf8, "TERM=xterm-256color"],
        &["reversi", "--budget", "N100"],
    )
    .ok()?;
    step(
        tap,
        "looks: reversi draws discs (●) and hints (•) on the board",
        run.wait(|s| s.contains('●') && s.contains('•') && s.contains("X to move: you")),
    )?;
    step(
        tap,
        "looks: d3 typed, the CPU answers",
        run.type_move("d3")
            .and_then(want(|s| s.contains("the CPU played"))),
    )?;
    let e = run.colours();
    let p = palette(&e);
    tap.check(
        p.contains(&28) && p.contains(&71) && p.contains(&218),
        "looks: green felt (28), the CPU's disc (218) and the discs it turned over (71)",
        &format!("{p:?}"),
    );
    run.save(&run.screen());
    run.quit(tap);

    // N x N, 16 colours: the grid in xo-user's colours.
    let run = Run::start_looking(
        ctx,
        "looks-kxo",
        &[utf8, "TERM=xterm"],
        &["kxo", "--size", "3", "--playouts", "5"],
    )
    .ok()?;
    step(
        tap,
        "looks: N x N draws a grid (┌───┬) with the CPU's O in cyan (6), on yellow (3) as the last move",
        run.wait(|s| s.contains("┌───┬───┬───┐") && s.contains("X to move: you"))
            .map(|_| run.colours())
            .and_then(want(|e| {
                e.split('\x1b').any(|s| {
                    (s.starts_with("[38;5;6m") || s.starts_with("[48;5;3m")) && s.contains('O')
                })
            })),
    )?;
    let p = palette(&run.colours());
    tap.check(
        !p.is_empty() && p.iter().all(|&c| c < 16),
        "looks: TERM=xterm: the 16 colours of the terminal's palette only",
        &format!("{p:?}"),
    );
    run.save(&run.screen());
    run.quit(tap);

    // NO_COLOR: today's letters, no colour at all.
    let run = Run::start_looking(
        ctx,
        "looks-nocolor",
        &[utf8, "TERM=xterm-256color", "NO_COLOR=1"],
        &["reversi", "--budget", "N100"],
    )
    .ok()?;
    step(
        tap,
        "looks: NO_COLOR=1 gives the plain board and no colour escape",
        run.wait(|s| s.contains(" X ") && !s.contains('●'))
            .and_then(|_| run.type_move("d3"))
            .map(|_| run.colours())
            .and_then(want(|e| !any_colour(e) && e.contains("Last you: "))),
    )?;
    run.quit(tap);

    // A locale that is not UTF-8: letters.
    let run = Run::start_looking(
        ctx,
        "looks-c-locale",
        &["LANG=C", "TERM=xterm-256color"],
        &["chess", "--budget", "N500"],
    )
    .ok()?;
    step(
        tap,
        "looks: LANG=C gives the letters board (r n b q k)",
        run.wait(|s| s.contains(" r  n  b  q  k  b  n  r") && !s.contains('♜')),
    )?;
    run.quit(tap);

    // --ascii in a UTF-8 locale with 256 colours: the letters board, none of the picture's
    // colours (the opening screen has no last move to colour).
    let run = Run::start_looking(
        ctx,
        "looks-ascii",
        &[utf8, "TERM=xterm-256color"],
        &["chess", "--budget", "N500", "--ascii"],
    )
    .ok()?;
    step(
        tap,
        "looks: --ascii in a UTF-8 locale gives the letters board, no picture colours",
        run.wait(|s| s.contains(" r  n  b  q  k  b  n  r") && !s.contains('♜'))
            .map(|_| run.colours())
            .and_then(want(|e| !any_colour(e))),
    )?;
    run.quit(tap);
    Some(())
}

/// A left click (press and release, SGR mouse reports) on display column `c`, row `r` of an
/// 8 x 8 or N x N board of three-column squares (the board's box at the top left, under the
/// title line).
fn click(run: &Run<'_>, c: usize, r: usize) -> Result<(), String> {
    let (x, y) = (5 + 3 * c, 4 + r);
    for end in ['M', 'm'] {
        run.t
            .keys(&["-l", &format!("\x1b[<0;{x};{y}{end}")])
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The mouse: a click on a reversi square plays it; in chess a click picks a piece and a
/// click on its target moves it; a click beside the board changes nothing.
fn mouse(ctx: &Ctx, tap: &mut Tap) -> Option<()> {
    let run = Run::start(ctx, "mouse-reversi", &["reversi", "--budget", "N100"]).ok()?;
    run.wait(settled).ok()?;
    let flags = run
        .t
        .format("#{mouse_any_flag}#{mouse_sgr_flag}")
        .unwrap_or_default();
    tap.check(
        flags == "11",
        "mouse: play asks the terminal for mouse reports (tmux's mouse_any_flag, mouse_sgr_flag)",
        &flags,
    );
    step(
        tap,
        "mouse: a click on d3 plays it, the CPU answers",
        click(&run, 3, 2).and_then(|()| {
            run.wait(|s| s.contains("Last you: d3") && s.contains("the CPU played") && settled(s))
        }),
    )?;
    run.quit(tap);
    let flags = run
        .t
        .format("#{mouse_any_flag}#{mouse_sgr_flag}")
        .unwrap_or_default();
    tap.check(
        flags == "00",
        "mouse: after q the terminal no longer reports the mouse",
        &flags,
    );
    let run = Run::start(ctx, "mouse-chess", &["chess", "--budget", "N300"]).ok()?;
    let before = run.wait(settled).ok()?;
    step(
        tap,
        "mouse: a click beside the board changes nothing",
        click(&run, 20, 3)
            .map(|()| {
                std::thread::sleep(Duration::from_millis(1300));
                run.screen()
            })
            // The clock has turned in 1.3 s (its line shares a row with the board's; still()
            // blanks it): the board and the message must not change.
            .and_then(want(|s| {
                let message = |s: &str| s.lines().rev().nth(3).map(str::to_string);
                board_rows(&still(s)) == board_rows(&still(&before))
                    && message(s) == message(&before)
            })),
    )?;
    step(
        tap,
        "mouse: a click on e2 picks the pawn",
        click(&run, 4, 6).and_then(|()| run.wait(|s| s.contains("(P)"))),
    )?;
    step(
        tap,
        "mouse: a click on e4 moves it, the CPU answers",
        click(&run, 4, 4).and_then(|()| {
            run.wait(|s| s.contains("Last you: e2e4") && !s.contains("Last CPU: -") && settled(s))
        }),
    )?;
    run.quit(tap);
    Some(())
}

/// The user's shared game (as a shell sets it up), to check that play never touches it.
fn shared_board(kind: &str) -> Option<String> {
    let path = format!("/dev/{kind}");
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .ok()?;
    let mut cmd = |line: &str| -> Option<String> {
        use std::io::Read;
        f.write_all(format!("{line}\n").as_bytes()).ok()?;
        let mut buf = vec![0u8; 1024];
        let n = f.read(&mut buf).ok()?;
        Some(String::from_utf8_lossy(&buf[..n]).into_owned())
    };
    cmd("01")
}

fn set_shared(kind: &str, lines: &[&str]) {
    for l in lines {
        let _ = Command::new("sh")
            .arg("-c")
            .arg(format!("echo '{l}' > /dev/{kind}"))
            .status();
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let play = args.play.clone().unwrap_or_else(|| tmux::sibling("play"));
    let uid = rustix::process::getuid().as_raw();
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| tmux::private_dir("play-tmux", uid));
    let ctx = Ctx {
        play,
        dir: dir.clone(),
        wait: Duration::from_secs(args.timeout),
        extra: args.play_args.clone(),
        screens: args.screens.clone(),
        quick: args.quick,
    };
    let mut tap = Tap::default();
    println!(
        "# play in tmux as uid {uid}: {} {}",
        ctx.play.display(),
        ctx.extra.join(" ")
    );
    let live = !ctx.extra.iter().any(|a| a == "--sim");
    // The user's shell games, which a private play must leave alone.
    if live {
        set_shared("reversi", &["00 X", "02 3 2"]);
        set_shared("chess", &["00 W", "02 WPe2-e4"]);
    }
    let before = live.then(|| (shared_board("reversi"), shared_board("chess")));
    let t0 = Instant::now();
    for g in &args.games {
        let t = Instant::now();
        match g.as_str() {
            "reversi" => reversi(&ctx, &mut tap),
            "chess" => chess(&ctx, &mut tap),
            "kxo" => kxo(&ctx, &mut tap),
            "interrupt" => interrupt(&ctx, &mut tap),
            "sigterm" => sigterm(&ctx, &mut tap),
            "plain" => plain(&ctx, &mut tap),
            "unsized" => sizeless(&ctx, &mut tap),
            "looks" => looks(&ctx, &mut tap),
            "mouse" => mouse(&ctx, &mut tap),
            other => {
                tap.check(false, &format!("{other}: a known scenario"), "");
                None
            }
        };
        println!("# {g}: {:.1} s", t.elapsed().as_secs_f64());
    }
    if let Some(b) = before {
        let after = (shared_board("reversi"), shared_board("chess"));
        tap.check(
            b.0.is_some() && b == after,
            "the shell's shared reversi and chess games are unchanged by the private games",
            &format!("{b:?}\n{after:?}"),
        );
    }
    println!("# total {:.1} s", t0.elapsed().as_secs_f64());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = Path::new(&dir);
    if tap.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
