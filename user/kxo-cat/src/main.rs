//! `kxo-cat`: the `/dev/kxo` record stream as text, a stream checker, and the control ioctls
//! (`kxo-cat --help`).
//!
//! ```text
//! kxo-cat [--count N] [--nonblock] [--timeout S] [--check] [DEVICE]
//! kxo-cat pause|resume|stop|restart|loads|state [DEVICE]
//! kxo-cat pairing SLOT|all O:X [DEVICE]
//! ```
//! One line per record: `seq game round moves state o-agent x-agent lost board`, the board as
//! 16 cells `O`, `X`, `.` row by row. `--check` verifies that every record is a legal successor
//! of its game's previous one (or the start of a new round) and prints a summary line
//! `games=G records=R rounds=N lost=L bad=B pairings=P seconds=S moves=negamax:N,...` (P: the
//! distinct (O agent, X agent) pairs seen playing; moves: the moves seen per agent); the exit
//! status is 1 if any record was bad.
//! `kxo-cat state` prints the machine's state (`KXO_IOC_STATE`), each slot's pairing policy
//! last; `kxo-cat pairing` sets one slot's policy or every slot's (`KXO_IOC_SET_PAIRING`). The
//! record layout, the ioctl numbers and the agent names are `kgames_uapi`'s, the same
//! definitions the module uses.

use std::collections::{BTreeSet, HashMap};
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand};
use kgames_kxo::kxo::record::{is_successor, RecordCheck};
use kgames_uapi::agent::AgentKind;
use kgames_uapi::ioctl::{KXO_IOC_PAUSE, KXO_IOC_RESTART, KXO_IOC_RESUME, KXO_IOC_STOP};
use kgames_uapi::load::hundredths;
use kgames_uapi::pairing::{parse_pair, side_name, KxoPairing, ALL_SLOTS};
use kgames_uapi::record::Record;
use kgames_uapi::state::{KxoState, MAX_GAMES};
use kgames_uapi::user::{ioctl_none, kxo_loads, kxo_set_pairing, kxo_state};

/// The device every word defaults to.
const DEVICE: &str = "/dev/kxo";

/// Prints the /dev/kxo record stream, one line per record; checks it; controls the games.
///
/// Without a command: one line per record, `seq game round moves state o-agent x-agent lost
/// board` (the board as 16 cells O, X or . row by row), or with --check a summary line.
///
/// The control commands (pause, resume, stop, restart, pairing) need root (CAP_SYS_ADMIN;
/// EPERM otherwise); state and loads are for anyone.
///
/// Exit status: 0 done; 1 the device cannot be opened, a read or ioctl fails (EPERM, EINVAL),
/// or a bad record; 2 bad arguments.
#[derive(Debug, Parser)]
#[command(
    name = "kxo-cat",
    version,
    about,
    long_about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Word>,
    #[command(flatten)]
    read: ReadArgs,
}

/// Reading the stream (no command).
#[derive(Debug, Args)]
struct ReadArgs {
    /// Stop after N records (default: never).
    #[arg(long, value_name = "N")]
    count: Option<u64>,
    /// Open with O_NONBLOCK: on EAGAIN, wait in poll(2) for the next record.
    #[arg(long)]
    nonblock: bool,
    /// Stop after S seconds, even while no record comes.
    #[arg(long, value_name = "S")]
    timeout: Option<u64>,
    /// Check the stream instead of printing it: every record a legal successor of its game's
    /// previous one; one summary line at the end.
    #[arg(long)]
    check: bool,
    /// The device.
    #[arg(default_value = DEVICE)]
    device: String,
}

/// The device argument of a command.
#[derive(Debug, Args)]
struct Dev {
    /// The device.
    #[arg(default_value = DEVICE)]
    device: String,
}

#[derive(Debug, Subcommand)]
enum Word {
    /// Stop publishing records, the games go on (KXO_IOC_PAUSE; root).
    Pause(Dev),
    /// Publish again, a snapshot first (KXO_IOC_RESUME; root).
    Resume(Dev),
    /// Stop all games (KXO_IOC_STOP; root).
    Stop(Dev),
    /// Restart every game, round + 1, and run again (KXO_IOC_RESTART; root).
    Restart(Dev),
    /// Per-agent CPU load, 1/5/15-minute averages (KXO_IOC_LOADS).
    Loads(Dev),
    /// The machine's state as one line of key=value, each slot's pairing policy last
    /// (KXO_IOC_STATE).
    State(Dev),
    /// Who plays a slot, or every slot, from its next round (KXO_IOC_SET_PAIRING; root).
    ///
    /// Each side is an agent (nega or negamax, rand, mcts, td, mc) or random: drawn from the
    /// agents in the pairings at each round. Examples: `kxo-cat pairing all mcts:random`,
    /// `kxo-cat pairing 3 td:nega`, `kxo-cat pairing all random:random` (the default).
    Pairing {
        /// The game slot (0 to 31), or `all`.
        #[arg(value_parser = parse_slot)]
        slot: u16,
        /// O's and X's policy, `O:X`.
        #[arg(value_name = "O:X", value_parser = parse_spec)]
        pair: (u8, u8),
        /// The device.
        #[arg(default_value = DEVICE)]
        device: String,
    },
}

/// `all` or a slot number below [`MAX_GAMES`].
fn parse_slot(s: &str) -> Result<u16, String> {
    if s.eq_ignore_ascii_case("all") {
        return Ok(ALL_SLOTS);
    }
    match s.parse::<u16>() {
        Ok(n) if usize::from(n) < MAX_GAMES => Ok(n),
        _ => Err(format!("a slot is 0 to {} or all", MAX_GAMES - 1)),
    }
}

/// `O:X`, each side an agent or `random`.
fn parse_spec(s: &str) -> Result<(u8, u8), String> {
    parse_pair(s).ok_or_else(|| {
        "O:X, each side one of random, nega (negamax), rand, mcts, td, mc (e.g. mcts:random)"
            .to_string()
    })
}

fn agent(id: u8) -> &'static str {
    AgentKind::from_id(id).map_or("?", AgentKind::name)
}

fn board_text(r: &Record) -> String {
    (0..16)
        .map(|i| match (r.board >> (2 * i)) & 3 {
            1 => 'O',
            2 => 'X',
            0 => '.',
            _ => '?',
        })
        .collect()
}

/// `kxo-cat state`'s line.
fn state_line(s: &KxoState) -> String {
    let agents: Vec<&str> = AgentKind::ALL
        .iter()
        .filter(|k| s.agents & (1 << k.id()) != 0)
        .map(|k| k.name())
        .collect();
    let games = usize::try_from(s.games).unwrap_or(MAX_GAMES);
    let pairings: Vec<String> = s
        .pairings
        .iter()
        .take(games)
        .map(|[o, x]| format!("{}:{}", side_name(*o), side_name(*x)))
        .collect();
    format!(
        "games={} period_ms={} watchers={} paused={} stopped={} always={} seq={} agents={} pairings={}",
        s.games,
        s.period_ms,
        s.watchers,
        s.paused,
        s.stopped,
        s.always,
        s.seq,
        agents.join(","),
        pairings.join(",")
    )
}

/// An ioctl's error, with what it means here.
fn explain(e: &io::Error, f: &File, slot: Option<u16>) -> String {
    match e.raw_os_error() {
        Some(libc::EPERM) => format!("{e}: needs root (CAP_SYS_ADMIN)"),
        Some(libc::EINVAL) => match (slot, kxo_state(f)) {
            (Some(s), Ok(st)) if s != ALL_SLOTS && u32::from(s) >= st.games => format!(
                "{e}: slot {s} is not a game; the machine has {} (slots 0-{})",
                st.games,
                st.games.saturating_sub(1)
            ),
            _ => format!("{e}: refused by the module"),
        },
        _ => e.to_string(),
    }
}

/// Runs a command word; the error message on failure.
fn control(word: &Word) -> Result<(), String> {
    let (path, request) = match word {
        Word::Pause(d) => (&d.device, Some(KXO_IOC_PAUSE)),
        Word::Resume(d) => (&d.device, Some(KXO_IOC_RESUME)),
        Word::Stop(d) => (&d.device, Some(KXO_IOC_STOP)),
        Word::Restart(d) => (&d.device, Some(KXO_IOC_RESTART)),
        Word::Loads(d) | Word::State(d) => (&d.device, None),
        Word::Pairing { device, .. } => (device, None),
    };
    let f = OpenOptions::new()
        .read(true)
        .open(path)
        .map_err(|e| format!("{path}: {e}"))?;
    if let Some(req) = request {
        return ioctl_none(&f, req).map_err(|e| explain(&e, &f, None));
    }
    match word {
        Word::State(_) => {
            let s = kxo_state(&f).map_err(|e| e.to_string())?;
            println!("{}", state_line(&s));
        }
        Word::Pairing { slot, pair, .. } => {
            let p = KxoPairing {
                slot: *slot,
                o_agent: pair.0,
                x_agent: pair.1,
            };
            kxo_set_pairing(&f, p).map_err(|e| explain(&e, &f, Some(*slot)))?;
        }
        _ => {
            let loads = kxo_loads(&f).map_err(|e| e.to_string())?;
            for (id, l) in loads.iter().enumerate() {
                let h = hundredths;
                println!(
                    "{:<10} {}.{:02} {}.{:02} {}.{:02}",
                    agent(id as u8),
                    h(l[0]) / 100,
                    h(l[0]) % 100,
                    h(l[1]) / 100,
                    h(l[1]) % 100,
                    h(l[2]) / 100,
                    h(l[2]) % 100
                );
            }
        }
    }
    Ok(())
}

/// The name of a word for messages.
fn word_name(w: &Word) -> &'static str {
    match w {
        Word::Pause(_) => "pause",
        Word::Resume(_) => "resume",
        Word::Stop(_) => "stop",
        Word::Restart(_) => "restart",
        Word::Loads(_) => "loads",
        Word::State(_) => "state",
        Word::Pairing { .. } => "pairing",
    }
}

/// What [`wait_readable`] saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wait {
    /// `f` is readable.
    Ready,
    /// The time was up.
    Timeout,
    /// A signal: try again.
    Interrupted,
}

/// Waits up to `timeout` (forever if `None`) for `f` to be readable.
fn wait_readable(f: &File, timeout: Option<Duration>) -> io::Result<Wait> {
    let ms = timeout.map_or(-1, |t| {
        i32::try_from(t.as_millis().saturating_add(1)).unwrap_or(i32::MAX)
    });
    let mut p = libc::pollfd {
        fd: f.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd, and its count.
    let n = unsafe { libc::poll(&mut p, 1, ms) };
    match n {
        0 => Ok(Wait::Timeout),
        n if n > 0 => Ok(Wait::Ready),
        _ => {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                Ok(Wait::Interrupted)
            } else {
                Err(e)
            }
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(word) = &cli.command {
        return match control(word) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("kxo-cat {}: {e}", word_name(word));
                ExitCode::FAILURE
            }
        };
    }
    read(&cli.read)
}

/// Prints or checks the stream.
fn read(a: &ReadArgs) -> ExitCode {
    let count = a.count.unwrap_or(u64::MAX);
    let timeout = a.timeout.map(Duration::from_secs);
    let path = &a.device;
    let flags = if a.nonblock { libc::O_NONBLOCK } else { 0 };
    let mut f = match OpenOptions::new().read(true).custom_flags(flags).open(path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("kxo-cat: {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let t0 = Instant::now();
    let mut last: HashMap<u16, Record> = HashMap::new();
    let mut pairings = BTreeSet::new();
    // Moves seen per agent id (the mover of a record's last ply), snapshots excepted.
    let mut moves = [0u64; AgentKind::COUNT];
    let (mut n, mut bad, mut rounds, mut lost) = (0u64, 0u64, 0u64, 0u64);
    let mut buf = [0u8; Record::SIZE * 16];
    let out = io::stdout();
    let mut out = out.lock();
    // Set when poll said readable and the read still found nothing (a module without poll
    // support says readable at once): then sleep between tries instead.
    let mut spurious = false;
    'outer: while n < count {
        let left = timeout.map(|t| t.saturating_sub(t0.elapsed()));
        if left == Some(Duration::ZERO) {
            break;
        }
        // With a timeout, a blocking read is entered only once a record is there.
        if a.nonblock || left.is_some() {
            if spurious {
                std::thread::sleep(Duration::from_millis(20));
            } else {
                match wait_readable(&f, left) {
                    Ok(Wait::Ready) => {}
                    Ok(Wait::Timeout) => break,
                    Ok(Wait::Interrupted) => continue,
                    Err(e) => {
                        eprintln!("kxo-cat: poll: {e}");
                        return ExitCode::FAILURE;
                    }
                }
            }
        }
        let got = match f.read(&mut buf) {
            Ok(0) => break,
            Ok(g) => g,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                spurious = true;
                continue;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                eprintln!("kxo-cat: read: {e}");
                return ExitCode::FAILURE;
            }
        };
        spurious = false;
        for chunk in buf[..got].chunks(Record::SIZE) {
            let Some(r) = Record::from_bytes(chunk) else {
                bad += 1;
                continue;
            };
            lost = r.lost;
            if r.move_count > 0 {
                pairings.insert((r.o_agent, r.x_agent));
                if !r.is_snapshot() {
                    let mover = if r.move_count % 2 == 1 {
                        r.o_agent
                    } else {
                        r.x_agent
                    };
                    if let Some(m) = moves.get_mut(usize::from(mover)) {
                        *m += 1;
                    }
                }
            }
            if a.check {
                let ok = match last.get(&r.game) {
                    None => r.is_consistent(),
                    // A snapshot repeats the game's latest record.
                    Some(p) if p.seq == r.seq => {
                        *p == Record {
                            lost: p.lost,
                            flags: p.flags,
                            ..r
                        }
                    }
                    // A resume snapshot may skip the moves played while paused.
                    Some(p) if r.is_snapshot() => {
                        r.is_consistent() && (r.round != p.round || r.move_count >= p.move_count)
                    }
                    // A new round starts from the empty board, unless records were lost.
                    Some(p) if r.round != p.round => {
                        rounds += 1;
                        r.is_consistent() && (r.move_count == 0 || r.lost > p.lost)
                    }
                    Some(p) => is_successor(p, &r) || (r.lost > p.lost && r.is_consistent()),
                };
                if !ok {
                    bad += 1;
                    let _ = writeln!(out, "# bad record after {:?}: {:?}", last.get(&r.game), r);
                }
                last.insert(r.game, r);
            } else {
                let _ = writeln!(
                    out,
                    "{} {} {} {} {} {} {} {} {}",
                    r.seq,
                    r.game,
                    r.round,
                    r.move_count,
                    r.state,
                    agent(r.o_agent),
                    agent(r.x_agent),
                    r.lost,
                    board_text(&r)
                );
            }
            n += 1;
            if n >= count {
                break 'outer;
            }
        }
    }
    if a.check {
        let per_agent: Vec<String> = AgentKind::ALL
            .iter()
            .map(|k| format!("{}:{}", k.name(), moves[usize::from(k.id())]))
            .collect();
        let _ = writeln!(
            out,
            "games={} records={n} rounds={rounds} lost={lost} bad={bad} pairings={} seconds={} moves={}",
            last.len(),
            pairings.len(),
            t0.elapsed().as_secs(),
            per_agent.join(",")
        );
    }
    if bad > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kgames_uapi::pairing::RANDOM;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("kxo-cat").chain(args.iter().copied()))
    }

    #[test]
    fn the_command_line() {
        let c = parse(&[]).unwrap();
        assert!(c.command.is_none());
        assert_eq!(c.read.device, DEVICE);
        assert_eq!(
            (c.read.count, c.read.timeout, c.read.check),
            (None, None, false)
        );
        let c = parse(&[
            "--count",
            "3",
            "--nonblock",
            "--timeout",
            "10",
            "--check",
            "/dev/x",
        ]);
        let c = c.unwrap();
        assert_eq!((c.read.count, c.read.timeout), (Some(3), Some(10)));
        assert!(c.read.nonblock && c.read.check);
        assert_eq!(c.read.device, "/dev/x");
        for w in ["pause", "resume", "stop", "restart", "loads", "state"] {
            let c = parse(&[w]).unwrap();
            assert_eq!(word_name(c.command.as_ref().unwrap()), w);
            let c = parse(&[w, "/dev/y"]).unwrap();
            assert!(format!("{:?}", c.command).contains("/dev/y"));
        }
        match parse(&["pairing", "all", "mcts:random"]).unwrap().command {
            Some(Word::Pairing { slot, pair, device }) => {
                assert_eq!(
                    (slot, pair, device.as_str()),
                    (ALL_SLOTS, (2, RANDOM), DEVICE)
                );
            }
            c => panic!("{c:?}"),
        }
        match parse(&["pairing", "3", "td:nega", "/dev/z"])
            .unwrap()
            .command
        {
            Some(Word::Pairing { slot, pair, device }) => {
                assert_eq!((slot, pair, device.as_str()), (3, (3, 0), "/dev/z"));
            }
            c => panic!("{c:?}"),
        }
        for bad in [
            &["--bogus"][..],
            &["--count", "many"],
            &["--timeout", "-1"],
            &["pairing", "all"],
            &["pairing", "32", "mcts:td"],
            &["pairing", "x", "mcts:td"],
            &["pairing", "all", "mcts"],
            &["pairing", "all", "chess:td"],
            &["state", "/dev/a", "/dev/b"],
        ] {
            let e = parse(bad).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{bad:?}: {e}");
        }
        // The words come first: after an option, a word is the device (as it always was).
        assert_eq!(parse(&["--check", "state"]).unwrap().read.device, "state");
        for ok in [&["--help"][..], &["--version"], &["pairing", "--help"]] {
            assert_eq!(parse(ok).unwrap_err().exit_code(), 0, "{ok:?}");
        }
    }

    #[test]
    fn the_state_line_ends_with_the_pairings() {
        let mut s = KxoState {
            games: 3,
            period_ms: 100,
            agents: 0b1_0111,
            seq: 42,
            ..Default::default()
        };
        s.pairings[0] = [2, RANDOM];
        s.pairings[1] = [RANDOM, RANDOM];
        s.pairings[2] = [3, 0];
        s.pairings[3] = [4, 4]; // beyond the games: not shown
        assert_eq!(
            state_line(&s),
            "games=3 period_ms=100 watchers=0 paused=0 stopped=0 always=0 seq=42 \
             agents=negamax,random,mcts,mc pairings=mcts:random,random:random,td:nega"
        );
    }
}
