//! The program: set up the source, the recorder and the screen, then one loop, one thread.
//!
//! The loop blocks in `poll(2)` on
//!
//! - the terminal (standard input): when it is readable, one `read` of up to 1 KiB, decoded
//!   into keys by `kgames_term::input::KeyDecoder` (crossterm's own reader is not used: its
//!   edge-triggered epoll would leave bytes it did not read, as of a long paste, unseen while
//!   `poll(2)` kept waking for them);
//! - the device (live): when it is readable, non-blocking reads until `EAGAIN`
//!   ([`Device::drain`]);
//! - a `timerfd` ticking every [`TICK`]: the clock on screen, held boards, recorder flushes,
//!   and every [`SAMPLE_EVERY`] the state and load samples;
//! - the read end of a self-pipe the signal handlers write to ([`SignalPipe`]);
//!
//! with a timeout only when something is due: the next message of a replay, or a redraw held
//! back by [`MIN_FRAME`]. Nothing spins: with no record, key or signal the process wakes five
//! times a second for the clock, and draws only when something shown changed (the time's
//! second, the rate, a held board, a sample: about twice a second when idle).

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use kgames_term::crossterm::terminal::{Clear, ClearType};
use kgames_term::input::KeyDecoder;
use kgames_term::screen::Screen;
use kgames_uapi::pairing::{side_name, KxoPairing, RANDOM};
use rustix::event::{PollFd, PollFlags, Timespec};
use rustix::io::Errno;
use rustix::time::{
    timerfd_create, timerfd_settime, Itimerspec, TimerfdClockId, TimerfdFlags, TimerfdTimerFlags,
};
use signal_hook::consts::{SIGCONT, SIGSTOP, SIGTSTP, SIGWINCH};

use crate::args::Args;
use crate::control::{next_policy, Control, Effect, Role, Side};
use crate::device::{Command, Device, Drained, SAMPLE_EVERY};
use crate::model::Model;
use crate::msg::Msg;
use crate::recfile;
use crate::render::{self, Notice, View};
use crate::replay::Replay;
use crate::signals::SignalPipe;
use crate::{history, synth};

/// The clock tick: the time on screen and held boards advance at least this often.
pub const TICK: Duration = Duration::from_millis(200);
/// At most one redraw per this interval while records stream in.
pub const MIN_FRAME: Duration = Duration::from_millis(30);
/// How long a notice stays in the footer.
pub const NOTICE_FOR: Duration = Duration::from_secs(8);

/// `HH:MM:SS UTC` of a wall-clock time.
pub fn clock_text(t: SystemTime) -> String {
    let s = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) % 86_400;
    format!("{:02}:{:02}:{:02} UTC", s / 3600, s / 60 % 60, s % 60)
}

/// How the loop ended.
enum Exit {
    /// A quit key.
    Quit,
    /// An error to print after the terminal is restored.
    Error(String),
    /// A signal.
    Signal(i32),
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("xo-user: {msg}");
    ExitCode::FAILURE
}

/// The stream source.
enum Source {
    Live(Device),
    Replay(Replay),
}

/// A `timerfd` that ticks every `every`, first after `every`.
fn ticker(every: Duration) -> io::Result<OwnedFd> {
    let fd = timerfd_create(
        TimerfdClockId::Monotonic,
        TimerfdFlags::CLOEXEC | TimerfdFlags::NONBLOCK,
    )?;
    let t = Timespec::try_from(every).map_err(io::Error::other)?;
    timerfd_settime(
        &fd,
        TimerfdTimerFlags::empty(),
        &Itimerspec {
            it_interval: t,
            it_value: t,
        },
    )?;
    Ok(fd)
}

/// What a failed ioctl means to the user.
pub fn failure(what: &str, e: &io::Error) -> String {
    match e.raw_os_error() {
        Some(c) if c == Errno::PERM.raw_os_error() => {
            format!("{what}: not permitted (EPERM): needs root (CAP_SYS_ADMIN)")
        }
        Some(c) if c == Errno::INVAL.raw_os_error() => {
            format!("{what}: refused by the module (EINVAL)")
        }
        _ => format!("{what}: {e}"),
    }
}

/// Runs the program; the exit status.
pub fn run(args: Args) -> ExitCode {
    if let Some(path) = &args.write_demo {
        return write_demo(path, args.demo_seconds);
    }
    // Everything that can fail before the screen is entered fails with a plain message.
    let (source, role, label) = match &args.replay {
        Some(path) => {
            let file = match File::open(path) {
                Ok(f) => f,
                Err(e) => return fail(format_args!("{path}: {e}")),
            };
            match recfile::read_all(BufReader::new(file)) {
                Ok(msgs) => {
                    let speed = args.speed;
                    let label = format!("replay {path} x{}.{:03}", speed / 1000, speed % 1000);
                    // The clock restarts when the loop starts.
                    let r = Replay::new(msgs, speed, Instant::now());
                    (Source::Replay(r), Role::Replay, label)
                }
                Err(e) => return fail(format_args!("{path}: {e}")),
            }
        }
        None => match Device::open(&args.device) {
            Ok(d) => {
                let role = if rustix::process::geteuid().is_root() {
                    Role::Root
                } else {
                    Role::User
                };
                (Source::Live(d), role, args.device.clone())
            }
            Err(e) => return fail(e),
        },
    };
    let recorder = match &args.record {
        Some(path) => {
            match File::create(path).and_then(|f| recfile::Writer::new(BufWriter::new(f))) {
                Ok(w) => Some((w, path.clone())),
                Err(e) => return fail(format_args!("{path}: {e}")),
            }
        }
        None => None,
    };
    let signals = match SignalPipe::new() {
        Ok(s) => s,
        Err(e) => return fail(format_args!("signals: {e}")),
    };
    let timer = match ticker(TICK) {
        Ok(t) => t,
        Err(e) => return fail(format_args!("timerfd: {e}")),
    };
    let mut screen = match Screen::enter() {
        Ok(s) => Some(s),
        Err(e) => return fail(e),
    };
    let t0 = Instant::now();
    let source = match source {
        Source::Replay(r) => Source::Replay(r.restarted(t0)),
        live => live,
    };
    let mut ui = Ui {
        recorder,
        model: Model::new(),
        frozen: None,
        control: Control::new(role, args.stop_on_quit),
        source,
        notice: None,
        t0,
        next_sample: t0,
        drawn: (String::new(), 0),
    };
    let exit = ui.run_loop(&mut screen, &signals, &timer, &label);
    drop(screen); // the terminal is restored before anything is printed
    let mut exit = exit;
    if let Some((w, path)) = ui.recorder.as_mut() {
        if let Err(e) = w.flush() {
            exit = Exit::Error(format!("{path}: {e}"));
        }
    }
    if !args.no_history {
        let mut out = io::stdout().lock();
        for l in history::lines(&ui.model) {
            if writeln!(out, "{l}").is_err() {
                break;
            }
        }
        let _ = out.flush();
    }
    match exit {
        Exit::Quit => ExitCode::SUCCESS,
        Exit::Error(e) => fail(e),
        Exit::Signal(s) => ExitCode::from(128u8.saturating_add(u8::try_from(s).unwrap_or(0))),
    }
}

type Recorder = Option<(recfile::Writer<BufWriter<File>>, String)>;

/// The loop's state.
struct Ui {
    model: Model,
    /// The copy shown while this display is frozen.
    frozen: Option<Model>,
    control: Control,
    source: Source,
    /// The footer's message and until when (since `t0`) it shows.
    notice: Option<(Notice, Duration)>,
    t0: Instant,
    /// When the state and loads are sampled next (live).
    next_sample: Instant,
    /// `--record`'s file and its name.
    recorder: Recorder,
    /// The clock text and the rate of the last frame: a tick redraws only when they (or
    /// something else shown) change.
    drawn: (String, u64),
}

/// What the loop must do after handling something.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Redraw {
    /// Draw now (a key, a tick, a resize, a signal).
    now: bool,
    /// Repaint every cell (the screen may hold something else).
    full: bool,
}

impl Ui {
    fn draw(&mut self, screen: &mut Option<Screen>, label: &str, full: bool) -> Result<(), String> {
        let Some(screen) = screen.as_mut() else {
            return Ok(());
        };
        if full {
            // Not `Terminal::clear`, which asks the terminal where its cursor is (and would
            // read the answer from standard input, which is ours).
            let t = screen.terminal();
            kgames_term::crossterm::execute!(t.backend_mut(), Clear(ClearType::All))
                .map_err(|e| format!("drawing: {e}"))?;
            t.swap_buffers(); // the last frame forgotten: the next one is drawn whole
        }
        let now = self.t0.elapsed();
        let clock = clock_text(SystemTime::now());
        let shown = self.frozen.as_ref().unwrap_or(&self.model);
        let view = View {
            model: shown,
            control: &self.control,
            clock: &clock,
            now,
            source: label,
            notice: self.notice.as_ref().map(|(n, _)| n),
        };
        let mut fit = render::Fit::default();
        screen
            .terminal()
            .draw(|f| fit = render::draw(f, &view))
            .map_err(|e| format!("drawing: {e}"))?;
        let games = shown.games.len();
        self.drawn = (clock, shown.rate(now));
        self.control.fit(fit.page, fit.max_scroll);
        let cols = if fit.cols > 0 {
            fit.cols
        } else {
            self.control.cols
        };
        self.control.grid(cols, games);
        Ok(())
    }

    fn say(&mut self, text: String, error: bool) {
        let until = self.t0.elapsed() + NOTICE_FOR;
        self.notice = Some((Notice { text, error }, until));
    }

    /// Takes one message of the source: recorded, then applied.
    fn message(&mut self, m: Msg) -> Option<Exit> {
        let now = self.t0.elapsed();
        if let Some((w, path)) = self.recorder.as_mut() {
            if let Err(e) = w.write(&m) {
                return Some(Exit::Error(format!("{path}: {e}")));
            }
        }
        if let Msg::State { state, .. } = &m {
            self.control.module_state(state.paused != 0);
        }
        self.model.apply(&m, now);
        None
    }

    /// The state and loads, now (live; a no-op in a replay).
    fn sample(&mut self) -> Option<Exit> {
        let Source::Live(d) = &self.source else {
            return None;
        };
        let msgs = d.sample(self.t0.elapsed());
        self.next_sample = Instant::now() + SAMPLE_EVERY;
        msgs.into_iter().find_map(|m| self.message(m))
    }

    /// The command `a` or `A` sends for the selected game, and what it sets.
    fn pairing_command(&self, side: Side) -> Result<(Command, String), String> {
        let shown = self.frozen.as_ref().unwrap_or(&self.model);
        let Some(&game) = shown.games.keys().nth(self.control.selected) else {
            return Err("no game to set a policy for yet".into());
        };
        let current = self
            .model
            .state
            .filter(|s| u32::from(game) < s.games)
            .and_then(|s| s.pairings.get(usize::from(game)).copied())
            .unwrap_or([RANDOM, RANDOM]);
        let mut new = current;
        match side {
            Side::O => new[0] = next_policy(current[0]),
            Side::X => new[1] = next_policy(current[1]),
        }
        let p = KxoPairing {
            slot: game,
            o_agent: new[0],
            x_agent: new[1],
        };
        let what = format!("#{game} policy {}:{}", side_name(new[0]), side_name(new[1]));
        Ok((Command::SetPairing(p), what))
    }

    fn effect(&mut self, e: Effect) -> Option<Exit> {
        let (command, what) = match e {
            Effect::Quit => return Some(Exit::Quit),
            Effect::Freeze => {
                self.frozen = Some(self.model.clone());
                return None;
            }
            Effect::Unfreeze => {
                self.frozen = None;
                return None;
            }
            Effect::ModulePause => (Command::Pause, None),
            Effect::ModuleResume => (Command::Resume, None),
            Effect::StopGames => (Command::Stop, None),
            Effect::Restart => (Command::Restart, Some("restart".to_string())),
            Effect::CyclePairing(side) => match self.pairing_command(side) {
                Ok((c, what)) => (c, Some(what)),
                Err(e) => {
                    self.say(e, true);
                    return None;
                }
            },
        };
        let Source::Live(d) = &self.source else {
            self.say(format!("{}: a replay has no device", command.name()), true);
            return None;
        };
        match (d.command(command), what) {
            (Ok(()), Some(what)) => {
                let done = match command {
                    Command::Restart => "restart: every game restarted".to_string(),
                    _ => format!("{what} from its next round"),
                };
                self.say(done, false);
            }
            (Ok(()), None) => self.notice = None,
            (Err(err), what) => {
                let what = what.unwrap_or_else(|| command.name().to_string());
                self.say(failure(&what, &err), true);
            }
        }
        // The header and the policies show the effect at once, not at the next sample.
        self.sample()
    }

    /// Standard input is readable: one read (it does not block), its keys handled. Whatever
    /// is left is read at the next wake-up (`poll(2)` says readable again at once).
    fn keys(&mut self, decoder: &mut KeyDecoder) -> Result<bool, Exit> {
        let mut buf = [0u8; 1024];
        let n = match rustix::io::read(io::stdin(), &mut buf[..]) {
            Ok(0) => return Err(Exit::Error("the terminal went away".into())),
            Ok(n) => n,
            Err(Errno::INTR | Errno::AGAIN) => return Ok(false),
            Err(e) => return Err(Exit::Error(format!("the terminal went away: {e}"))),
        };
        let keys = decoder.feed(&buf[..n], n == buf.len());
        for k in &keys {
            for e in self.control.key(k) {
                if let Some(x) = self.effect(e) {
                    return Err(x);
                }
            }
        }
        Ok(!keys.is_empty())
    }

    /// The clock ticked; whether the screen must be redrawn (the time, the rate or a board
    /// shown changed, a notice ended, a sample came).
    fn tick(&mut self, timer: &OwnedFd) -> Result<bool, Exit> {
        let mut expirations = [0u8; 8];
        let _ = rustix::io::read(timer, &mut expirations[..]);
        let now = self.t0.elapsed();
        let mut redraw = self.model.tick(now);
        if self.notice.as_ref().is_some_and(|(_, until)| now >= *until) {
            self.notice = None;
            redraw = true;
        }
        if let Some((w, path)) = self.recorder.as_mut() {
            if let Err(e) = w.flush() {
                return Err(Exit::Error(format!("{path}: {e}")));
            }
        }
        if Instant::now() >= self.next_sample {
            if let Some(x) = self.sample() {
                return Err(x);
            }
            redraw = true;
        }
        let shown = self.frozen.as_ref().unwrap_or(&self.model);
        let (clock, rate) = &self.drawn;
        Ok(redraw || *clock != clock_text(SystemTime::now()) || *rate != shown.rate(now))
    }

    /// The signals that arrived. SIGTSTP leaves the screen and stops; `fg` comes back here.
    fn signals(
        &mut self,
        signals: &SignalPipe,
        screen: &mut Option<Screen>,
    ) -> Result<Redraw, Exit> {
        let mut redraw = Redraw::default();
        for s in signals.take() {
            match s {
                SIGWINCH => redraw.now = true,
                SIGCONT => redraw.full = true,
                SIGTSTP => {
                    *screen = None; // the terminal as it was, for the shell
                    let _ = signal_hook::low_level::raise(SIGSTOP);
                    // Continued.
                    *screen = Some(Screen::enter().map_err(|e| Exit::Error(e.to_string()))?);
                    redraw.full = true;
                }
                other => return Err(Exit::Signal(other)),
            }
        }
        redraw.now |= redraw.full;
        Ok(redraw)
    }

    fn run_loop(
        &mut self,
        screen: &mut Option<Screen>,
        signals: &SignalPipe,
        timer: &OwnedFd,
        label: &str,
    ) -> Exit {
        if let Some(x) = self.sample() {
            return x;
        }
        if let Err(e) = self.draw(screen, label, false) {
            return Exit::Error(e);
        }
        let mut last_draw = Instant::now();
        let mut pending = false; // records came in after the last draw
        let stdin = io::stdin();
        let mut decoder = KeyDecoder::default();
        loop {
            // Sleep until a descriptor is ready, or a replayed message or a held-back redraw
            // is due.
            let mut due: Option<Instant> = pending.then_some(last_draw + MIN_FRAME);
            if let Source::Replay(r) = &self.source {
                if let Some(t) = r.next_due() {
                    due = Some(due.map_or(t, |d| d.min(t)));
                }
            }
            let timeout = due.map(|t| {
                Timespec::try_from(t.saturating_duration_since(Instant::now())).unwrap_or(
                    Timespec {
                        tv_sec: 1,
                        tv_nsec: 0,
                    },
                )
            });
            let revents = {
                let mut fds = vec![
                    PollFd::from_borrowed_fd(stdin.as_fd(), PollFlags::IN),
                    PollFd::from_borrowed_fd(signals.fd(), PollFlags::IN),
                    PollFd::from_borrowed_fd(timer.as_fd(), PollFlags::IN),
                ];
                if let Source::Live(d) = &self.source {
                    fds.push(PollFd::from_borrowed_fd(d.fd(), PollFlags::IN));
                }
                match rustix::event::poll(&mut fds, timeout.as_ref()) {
                    Ok(_) | Err(Errno::INTR) => {}
                    Err(e) => return Exit::Error(format!("poll: {e}")),
                }
                fds.iter().map(PollFd::revents).collect::<Vec<_>>()
            };
            let ready = |i: usize| revents.get(i).copied().unwrap_or(PollFlags::empty());
            let mut redraw = Redraw::default();
            if !ready(1).is_empty() {
                match self.signals(signals, screen) {
                    Ok(r) => redraw = r,
                    Err(x) => return x,
                }
            }
            let hangup = PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL;
            if ready(0).intersects(hangup) {
                return Exit::Error("the terminal went away".into());
            }
            if ready(0).contains(PollFlags::IN) {
                match self.keys(&mut decoder) {
                    Ok(any) => redraw.now |= any,
                    Err(x) => return x,
                }
            }
            let drained = match &self.source {
                Source::Live(d) if !ready(3).is_empty() => Some(d.drain()),
                _ => None,
            };
            if let Some(drained) = drained {
                let at = self.t0.elapsed();
                let (reads, fatal) = match drained {
                    Drained::Records(r) => (r, None),
                    Drained::Fatal(r, e) => (r, Some(e)),
                };
                for records in reads {
                    pending = true;
                    if let Some(x) = self.message(Msg::Records { at, records }) {
                        return x;
                    }
                }
                if let Some(e) = fatal {
                    return Exit::Error(e);
                }
            }
            if !ready(2).is_empty() {
                match self.tick(timer) {
                    Ok(changed) => redraw.now |= changed,
                    Err(x) => return x,
                }
            }
            let due = match &mut self.source {
                Source::Replay(r) => r.due(Instant::now()),
                Source::Live(_) => Vec::new(),
            };
            for m in due {
                pending = true;
                if let Some(x) = self.message(m) {
                    return x;
                }
            }
            if redraw.now || (pending && last_draw.elapsed() >= MIN_FRAME) {
                if let Err(e) = self.draw(screen, label, redraw.full) {
                    return Exit::Error(e);
                }
                last_draw = Instant::now();
                pending = false;
            }
        }
    }
}

/// `--write-demo`: a synthetic recording.
fn write_demo(path: &str, seconds: u64) -> ExitCode {
    let spec = synth::Spec {
        games: 9,
        period: Duration::from_millis(100),
        length: Duration::from_secs(seconds),
        seed: 1,
    };
    match std::fs::write(path, synth::recording(spec)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(format_args!("{path}: {e}")),
    }
}
