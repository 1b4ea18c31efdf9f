//! The `othello` suite: `othello-link` on a pseudo-terminal (every command and reply word,
//! passes, endings, resignation, IL, IT, PL, ER, resends, hang-up, the private game freed),
//! and `othello-match` between two links (ptys and child processes, both colours).

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::dev::Dev;
use crate::{ensure, Outcome, Test};

/// The `othello` suite.
pub fn tests() -> Vec<Test> {
    vec![
        Test {
            suite: "othello",
            name:
                "link on a pty: every command word, OK/ER/IL/MM, PL, garbage and long lines get ER",
            uid: 2401,
            run: words,
        },
        Test {
            suite: "othello",
            name: "link: PS, MP, WN, LS, TE and QT from positions near the end; the LED files",
            uid: 2402,
            run: endings,
        },
        Test {
            suite: "othello",
            name: "09 reports the CPU's last search: reversi score (! when solved), depth, nodes, ms; chess ms",
            uid: 2408,
            run: score,
        },
        Test {
            suite: "othello",
            name: "link: a deliberately slow opponent gets IT, then PL continues",
            uid: 2403,
            run: slow,
        },
        Test {
            suite: "othello",
            name: "link: a missing OK triggers resends of the last message",
            uid: 2404,
            run: resend,
        },
        Test {
            suite: "othello",
            name: "link: hang-up ends it cleanly (status 0) and frees its private game",
            uid: 2405,
            run: hangup,
        },
        Test {
            suite: "othello",
            name: "match: two links on ptys play both colours to the end; transcripts written",
            uid: 2406,
            run: match_ptys,
        },
        Test {
            suite: "othello",
            name: "match: two links as child processes on stdin/stdout",
            uid: 2407,
            run: match_children,
        },
    ]
}

/// X (black) has no move: it must pass; O takes c1 and wins.
const X_PASSES: &str = "OX--------------------------------------------------------------";
/// O to move, two moves, lost by any line (exactly solved).
const O_LOST: &str = "XOX-----XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOX-----";

/// Prints the test's duration as a TAP comment when dropped (the suite stays under a minute).
struct Took(&'static str, Instant);

impl Drop for Took {
    fn drop(&mut self) {
        println!("# othello {}: {} ms", self.0, self.1.elapsed().as_millis());
    }
}

fn bin(name: &str) -> Result<String, String> {
    let p = crate::sibling(name);
    ensure!(p.exists(), "{} is not built", p.display());
    Ok(p.display().to_string())
}

/// A full board but h8, where black's move (flipping the h column) makes 32-32.
const TIE: &str = "XXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO-";

/// A running link and our end of its pty.
struct Link {
    child: Child,
    line: File,
    buf: Vec<u8>,
}

impl Link {
    fn start(args: &[&str]) -> Result<Link, String> {
        let mut child = Command::new(bin("othello-link")?)
            .args(["--quiet"])
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("spawn othello-link: {e}"))?;
        let out = child.stdout.take().ok_or("no stdout")?;
        let mut path = String::new();
        BufReader::new(out)
            .read_line(&mut path)
            .map_err(|e| format!("pty path: {e}"))?;
        let path = path.trim();
        ensure!(path.starts_with("/dev/pts/"), "printed {path:?}, not a pty");
        let line = OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_NOCTTY | libc::O_NONBLOCK)
            .open(path)
            .map_err(|e| format!("{path}: {e}"))?;
        Ok(Link {
            child,
            line,
            buf: Vec::new(),
        })
    }

    fn send(&mut self, text: &str) -> Result<(), String> {
        self.send_raw(format!("{text}\r").as_bytes())
    }

    fn send_raw(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.line
            .write_all(bytes)
            .map_err(|e| format!("write: {e}"))
    }

    /// The next line within `ms`, `None` on silence.
    fn recv(&mut self, ms: u64) -> Result<Option<String>, String> {
        let until = Instant::now() + Duration::from_millis(ms);
        loop {
            if let Some(i) = self.buf.iter().position(|&b| b == b'\r') {
                let l: Vec<u8> = self.buf.drain(..=i).collect();
                return Ok(Some(String::from_utf8_lossy(&l[..i]).into_owned()));
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(None);
            }
            let mut pfd = libc::pollfd {
                fd: self.line.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd for the duration of the call.
            unsafe { libc::poll(&mut pfd, 1, left.as_millis().min(10_000) as i32) };
            let mut b = [0u8; 256];
            match self.line.read(&mut b) {
                Ok(n) => self.buf.extend_from_slice(&b[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(format!("read: {e}")),
            }
        }
    }

    /// Sends `text` and expects exactly `want` (then nothing more for 150 ms).
    fn expect(&mut self, text: &str, want: &[&str]) -> Result<Vec<String>, String> {
        self.send(text)?;
        self.expect_lines(text, want)
    }

    fn expect_lines(&mut self, text: &str, want: &[&str]) -> Result<Vec<String>, String> {
        let mut got = Vec::new();
        for w in want {
            let l = self
                .recv(5000)?
                .ok_or(format!("after {text:?}: silence, want {w:?} (got {got:?})"))?;
            let ok = match w.strip_suffix('*') {
                Some(prefix) => l.starts_with(prefix),
                None => l == *w,
            };
            ensure!(
                ok,
                "after {text:?}: got {l:?}, want {w:?} (before: {got:?})"
            );
            got.push(l);
        }
        if let Some(extra) = self.recv(150)? {
            return Err(format!("after {text:?}: unexpected {extra:?}"));
        }
        Ok(got)
    }

    /// Closes our end and waits for the link; its exit status.
    fn hang_up(mut self) -> Result<i32, String> {
        drop(self.line);
        let until = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(st) = self.child.try_wait().map_err(|e| e.to_string())? {
                return Ok(st.code().unwrap_or(-1));
            }
            if Instant::now() > until {
                let _ = self.child.kill();
                return Err("the link did not end after the hang-up".into());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn words(_: u32) -> Outcome {
    let _t = Took("words", Instant::now());
    let mut l = Link::start(&["--budget", "N2000"])?;
    l.expect("AT", &["OK"])?;
    l.expect("ST 0", &["ER"])?;
    l.expect("ST 10", &["ER"])?;
    l.expect("ST 9", &["OK"])?;
    l.expect("SP X", &["ER"])?;
    l.expect("MV D3", &["ER"])?; // no game yet
    l.expect("hello", &["ER"])?;
    l.send_raw(&[b'A'; 3000])?;
    l.expect("", &["ER"])?; // the long line, ended by this \r
    l.send_raw(b"\x01\xff\x00")?;
    l.expect("", &["ER"])?;
    l.expect("OK", &[])?;
    l.expect("PL", &[])?;
    l.expect("SP B", &["OK"])?;
    l.expect("NG", &["OK"])?;
    l.expect("MV A1", &["IL"])?;
    l.expect("PS", &["IL"])?;
    l.expect("PL", &[])?;
    let got = l.expect("MV D3", &["OK", "MM *"])?;
    l.expect("OK", &[])?;
    // \r\n and \n end lines too.
    l.send_raw(b"AT\r\nAT\n")?;
    l.expect_lines("AT AT", &["OK", "OK"])?;
    l.expect("EG", &["OK"])?;
    l.expect("MV C4", &["ER"])?;
    l.expect("RST", &["OK"])?;
    l.expect("SP W", &["OK"])?;
    l.expect("ST 1", &["OK"])?;
    l.expect("NG", &["OK", "MM *"])?;
    l.expect("OK", &[])?;
    ensure!(got[1].len() == 5, "{got:?}");
    ensure!(l.hang_up()? == 0, "exit status");
    Ok(())
}

/// The three LED files' contents, win/lose/tie.
fn leds(files: &[String; 3]) -> String {
    files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap_or_default())
        .collect()
}

fn endings(uid: u32) -> Outcome {
    let _t = Took("endings", Instant::now());
    let files = ["win", "lose", "tie"].map(|n| format!("/tmp/othello-{uid}-led-{n}"));
    let mut l = Link::start(&[
        "--budget",
        "N2000",
        "--position",
        X_PASSES,
        "X",
        "--led-win",
        &files[0],
        "--led-lose",
        &files[1],
        "--led-tie",
        &files[2],
    ])?;
    l.expect("NG", &["OK"])?;
    l.expect("MV C1", &["IL"])?;
    l.expect("PS", &["OK", "MM C1"])?;
    l.expect("OK", &["WN"])?;
    l.expect("OK", &[])?;
    ensure!(leds(&files) == "100", "LEDs after WN: {}", leds(&files));
    l.expect("SP W", &["OK"])?;
    l.expect("NG", &["OK", "MP"])?;
    ensure!(leds(&files) == "000", "LEDs at NG: {}", leds(&files));
    l.expect("OK", &[])?;
    l.expect("MV C1", &["OK", "LS"])?;
    l.expect("OK", &[])?;
    ensure!(leds(&files) == "010", "LEDs after LS: {}", leds(&files));
    ensure!(l.hang_up()? == 0, "exit status");
    for f in &files {
        let _ = std::fs::remove_file(f);
    }
    let mut l = Link::start(&["--budget", "N2000", "--position", TIE, "X"])?;
    l.expect("NG", &["OK"])?;
    l.expect("MV H8", &["OK", "TE"])?;
    l.expect("OK", &[])?;
    ensure!(l.hang_up()? == 0, "exit status");
    for (resign, want) in [(true, "QT"), (false, "MM D*")] {
        let mut args = vec!["--budget", "N1000000", "--position", O_LOST, "O"];
        if resign {
            args.push("--resign");
        }
        let mut l = Link::start(&args)?;
        l.expect("NG", &["OK", want])?;
        l.expect("OK", &[])?;
        ensure!(l.hang_up()? == 0, "exit status");
    }
    Ok(())
}

fn score(_: u32) -> Outcome {
    let _t = Took("score", Instant::now());
    let mut d = Dev::open("/dev/reversi")?;
    d.make_private()?;
    d.expect("05 N3000", b"OK\n")?;
    d.expect("00 O", b"OK\n")?;
    ensure!(
        status_key(&mut d, "score").is_err(),
        "a score before any search"
    );
    d.expect("03", b"OK\n")?;
    let v = status_key(&mut d, "score")?;
    ensure!(
        v.starts_with(['+', '-']) && !v.ends_with('!'),
        "a midgame estimate: {v}"
    );
    let nodes = status_key(&mut d, "nodes")?;
    let depth: u32 = status_key(&mut d, "depth")?
        .parse()
        .map_err(|e| format!("depth: {e}"))?;
    ensure!(
        nodes == "3000" && depth >= 1,
        "the search's nodes {nodes}, depth {depth}"
    );
    // A time budget: the reported time is the budget's, within what the write took.
    for dev in ["/dev/reversi", "/dev/chess"] {
        let mut g = Dev::open(dev)?;
        g.make_private()?;
        g.expect("05 300", b"OK\n")?;
        let side = if dev == "/dev/chess" { "00 B" } else { "00 O" };
        g.expect(side, b"OK\n")?;
        let t0 = Instant::now();
        let r = g.cmd("03")?;
        let wall = t0.elapsed().as_millis();
        ensure!(r == b"OK\n", "{dev} 03: {r:?}");
        let ms: u128 = status_key(&mut g, "ms")?
            .parse()
            .map_err(|e| format!("{dev} ms: {e}"))?;
        ensure!(
            (250..=wall + 1).contains(&ms),
            "{dev}: ms={ms} for a 300 ms budget, the write took {wall} ms"
        );
    }
    d.expect("05 N1000000", b"OK\n")?;
    d.expect("00 X", b"OK\n")?;
    d.expect(&format!("10 {O_LOST} O"), b"OK\n")?;
    d.expect("03", b"OK\n")?;
    let v = status_key(&mut d, "score")?;
    ensure!(v.starts_with('-') && v.ends_with('!'), "a solved loss: {v}");
    Ok(())
}

fn slow(_: u32) -> Outcome {
    let _t = Took("slow", Instant::now());
    let mut l = Link::start(&["--budget", "N2000"])?;
    l.expect("ST 1", &["OK"])?;
    l.expect("NG", &["OK"])?;
    std::thread::sleep(Duration::from_millis(1200));
    l.expect("MV D3", &["IT"])?;
    l.expect("PL", &[])?;
    l.expect("MV D3", &["OK", "MM *"])?;
    l.expect("OK", &[])?;
    ensure!(l.hang_up()? == 0, "exit status");
    Ok(())
}

fn resend(_: u32) -> Outcome {
    let _t = Took("resend", Instant::now());
    let mut l = Link::start(&["--budget", "N2000"])?;
    l.expect("SP W", &["OK"])?;
    l.send("NG")?;
    ensure!(l.recv(3000)?.as_deref() == Some("OK"), "NG");
    let mm = l.recv(3000)?.ok_or("no MM")?;
    ensure!(mm.starts_with("MM "), "{mm}");
    for i in 1..=3 {
        let t = Instant::now();
        let again = l.recv(3000)?;
        ensure!(
            again.as_deref() == Some(mm.as_str()),
            "resend {i}: {again:?}"
        );
        let dt = t.elapsed().as_millis();
        ensure!((700..=2500).contains(&dt), "resend {i} after {dt} ms");
    }
    ensure!(l.recv(1500)?.is_none(), "a fourth resend");
    ensure!(l.hang_up()? == 0, "exit status");
    Ok(())
}

/// The value of `key=` in `09`.
fn status_key(d: &mut Dev, key: &str) -> Result<String, String> {
    let s = String::from_utf8_lossy(&d.cmd("09")?).into_owned();
    s.split_whitespace()
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
        .map(str::to_owned)
        .ok_or(format!("no {key}= in {s:?}"))
}

fn hangup(_: u32) -> Outcome {
    let _t = Took("hangup", Instant::now());
    let mut d = Dev::open("/dev/reversi")?;
    let before = status_key(&mut d, "games")?;
    let mut l = Link::start(&["--budget", "N2000"])?;
    l.expect("NG", &["OK"])?;
    let during = status_key(&mut d, "games")?;
    ensure!(
        during != before,
        "the link's private game is not counted: {before} {during}"
    );
    l.expect("MV D3", &["OK", "MM *"])?;
    ensure!(l.hang_up()? == 0, "exit status");
    let after = status_key(&mut d, "games")?;
    ensure!(
        after == before,
        "games before {before}, after the hang-up {after}"
    );
    Ok(())
}

fn run_match(args: &[&str]) -> Result<String, String> {
    let out = Command::new(bin("othello-match")?)
        .args(args)
        .output()
        .map_err(|e| format!("othello-match: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    ensure!(
        out.status.success(),
        "othello-match {args:?} failed: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(text)
}

fn check_games(text: &str) -> Outcome {
    for g in ["game 1: black A white B", "game 2: black B white A"] {
        ensure!(text.contains(g), "no {g:?} in {text}");
    }
    ensure!(!text.contains("stopped"), "{text}");
    ensure!(text.contains("A: ") && text.contains("B: "), "{text}");
    Ok(())
}

fn match_ptys(uid: u32) -> Outcome {
    let _t = Took("match ptys", Instant::now());
    let start = |b: &str| -> Result<(Child, String), String> {
        let mut child = Command::new(bin("othello-link")?)
            .args(["--quiet", "--budget", b])
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| e.to_string())?;
        let mut path = String::new();
        BufReader::new(child.stdout.take().ok_or("stdout")?)
            .read_line(&mut path)
            .map_err(|e| e.to_string())?;
        Ok((child, format!("tty:{}", path.trim())))
    };
    let (mut a, pa) = start("N3000")?;
    let (mut b, pb) = start("N300")?;
    let file = format!("/tmp/othello-{uid}.txt");
    let text = run_match(&["--games", "2", "--out", &file, &pa, &pb])?;
    check_games(&text)?;
    let list = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(&file);
    let lines: Vec<&str> = list.lines().collect();
    ensure!(lines.len() == 2, "{list}");
    for l in lines {
        ensure!(l.len() >= 100 && l.len() % 2 == 0, "short game {l}");
        ensure!(
            l.as_bytes()
                .chunks(2)
                .all(|c| matches!(c, [b'a'..=b'h', b'1'..=b'8'])),
            "{l}"
        );
    }
    // The match closed the ptys: both links saw the hang-up and ended cleanly.
    for (c, n) in [(&mut a, "A"), (&mut b, "B")] {
        let until = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(st) = c.try_wait().map_err(|e| e.to_string())? {
                ensure!(st.success(), "link {n}: {st}");
                break;
            }
            if Instant::now() > until {
                let _ = c.kill();
                return Err(format!("link {n} did not end"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    Ok(())
}

fn match_children(_: u32) -> Outcome {
    let _t = Took("match children", Instant::now());
    let link = bin("othello-link")?;
    let a = format!("cmd:{link} --stdio --quiet --budget N1000");
    let b = format!("cmd:{link} --stdio --quiet --budget 100");
    let text = run_match(&["--games", "2", "--move-time", "1", &a, &b])?;
    check_games(&text)
}
