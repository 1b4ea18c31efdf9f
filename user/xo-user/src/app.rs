//! The program: set up the source, the recorder and the screen, then one loop that wakes on a
//! key, a message of the source or the clock, updates the state and redraws.

use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use kgames_term::events::{Event, Events};
use kgames_term::screen::Screen;

use crate::args::Args;
use crate::control::{Control, Effect, Role};
use crate::device::{Command, Device};
use crate::model::Model;
use crate::msg::Msg;
use crate::recfile;
use crate::render::{self, View};
use crate::{replay, synth};

/// The clock tick: the time on screen and held boards advance at least this often.
pub const TICK: Duration = Duration::from_millis(200);
/// At most one redraw per this interval while records stream in.
pub const MIN_FRAME: Duration = Duration::from_millis(30);

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
    Replay(Vec<Msg>, u64),
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
                    (Source::Replay(msgs, speed), Role::Replay, label)
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
    let mut recorder = match &args.record {
        Some(path) => {
            match File::create(path).and_then(|f| recfile::Writer::new(BufWriter::new(f))) {
                Ok(w) => Some((w, path.clone())),
                Err(e) => return fail(format_args!("{path}: {e}")),
            }
        }
        None => None,
    };
    let mut events: Events<Msg> = Events::new(TICK);
    if let Err(e) = events.spawn_input().and_then(|()| events.spawn_signals()) {
        return fail(e);
    }
    let mut control = Control::new(role, args.stop_on_quit);
    let device = match &source {
        Source::Live(d) => {
            if let Ok(s) = d.state() {
                control.module_state(s.paused != 0);
            }
            Some(d.clone())
        }
        Source::Replay(..) => None,
    };
    let mut screen = match Screen::enter() {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let t0 = Instant::now();
    let started = match source {
        Source::Live(d) => d.start(events.sender(), t0),
        Source::Replay(msgs, speed) => replay::start(msgs, speed, events.sender()),
    };
    let mut ui = Ui {
        model: Model::new(),
        frozen: None,
        control,
        device,
        notice: None,
        t0,
    };
    let exit = match started {
        Err(e) => Exit::Error(e.to_string()),
        Ok(()) => ui.run_loop(&mut screen, &mut events, &mut recorder, &label),
    };
    drop(screen); // the terminal is restored before anything is printed
    let mut exit = exit;
    if let Some((w, path)) = recorder.as_mut() {
        if let Err(e) = w.flush() {
            exit = Exit::Error(format!("{path}: {e}"));
        }
    }
    match exit {
        Exit::Quit => ExitCode::SUCCESS,
        Exit::Error(e) => fail(e),
        Exit::Signal(s) => ExitCode::from(128u8.saturating_add(u8::try_from(s).unwrap_or(0))),
    }
}

/// The loop's state.
struct Ui {
    model: Model,
    /// The copy shown while this display is frozen.
    frozen: Option<Model>,
    control: Control,
    device: Option<Device>,
    notice: Option<String>,
    t0: Instant,
}

type Recorder = Option<(recfile::Writer<BufWriter<File>>, String)>;

impl Ui {
    fn draw(&mut self, screen: &mut Screen, label: &str) -> Result<(), String> {
        let now = self.t0.elapsed();
        let clock = clock_text(SystemTime::now());
        let view = View {
            model: self.frozen.as_ref().unwrap_or(&self.model),
            control: &self.control,
            clock: &clock,
            now,
            source: label,
            notice: self.notice.as_deref(),
        };
        let mut fit = render::Fit::default();
        screen
            .terminal()
            .draw(|f| fit = render::draw(f, &view))
            .map_err(|e| format!("drawing: {e}"))?;
        self.control.fit(fit.page, fit.max_scroll);
        Ok(())
    }

    fn effect(&mut self, e: Effect) -> Option<Exit> {
        let command = match e {
            Effect::Quit => return Some(Exit::Quit),
            Effect::Freeze => {
                self.frozen = Some(self.model.clone());
                return None;
            }
            Effect::Unfreeze => {
                self.frozen = None;
                return None;
            }
            Effect::ModulePause => Command::Pause,
            Effect::ModuleResume => Command::Resume,
            Effect::StopGames => Command::Stop,
        };
        if let Some(d) = &self.device {
            self.notice = d
                .command(command)
                .err()
                .map(|err| format!("{command:?}: {err}"));
        }
        None
    }

    /// Handles one event; `Some` to leave.
    fn handle(&mut self, ev: Event<Msg>, recorder: &mut Recorder) -> Option<Exit> {
        let now = self.t0.elapsed();
        match ev {
            Event::Key(k) => {
                for e in self.control.key(&k) {
                    if let Some(x) = self.effect(e) {
                        return Some(x);
                    }
                }
            }
            Event::Msg(Msg::Fatal(e)) => return Some(Exit::Error(e)),
            Event::Msg(m) => {
                if let Some((w, path)) = recorder.as_mut() {
                    if let Err(e) = w.write(&m) {
                        return Some(Exit::Error(format!("{path}: {e}")));
                    }
                }
                if let Msg::State { state, .. } = &m {
                    self.control.module_state(state.paused != 0);
                }
                self.model.apply(&m, now);
            }
            Event::Tick => {
                self.model.tick(now);
                if let Some((w, path)) = recorder.as_mut() {
                    if let Err(e) = w.flush() {
                        return Some(Exit::Error(format!("{path}: {e}")));
                    }
                }
            }
            Event::Resize(..) => {}
            Event::Signal(s) => return Some(Exit::Signal(s)),
            Event::InputClosed => return Some(Exit::Error("the terminal went away".into())),
        }
        None
    }

    fn run_loop(
        &mut self,
        screen: &mut Screen,
        events: &mut Events<Msg>,
        recorder: &mut Recorder,
        label: &str,
    ) -> Exit {
        if let Err(e) = self.draw(screen, label) {
            return Exit::Error(e);
        }
        let mut last_draw = Some(Instant::now());
        loop {
            let ev = events.wait();
            // Keys, resizes and ticks redraw at once; records at most every MIN_FRAME.
            let urgent = !matches!(ev, Event::Msg(_));
            if let Some(x) = self.handle(ev, recorder) {
                return x;
            }
            // Take what else is waiting before drawing once.
            for _ in 0..1024 {
                let Some(ev) = events.try_wait() else { break };
                if let Some(x) = self.handle(ev, recorder) {
                    return x;
                }
            }
            if urgent || last_draw.is_none_or(|t| t.elapsed() >= MIN_FRAME) {
                if let Err(e) = self.draw(screen, label) {
                    return Exit::Error(e);
                }
                last_draw = Some(Instant::now());
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
