//! The link's main loop: framed input to the state machine, the engine's turns, resends, and
//! the display; returns at hang-up or end of file.

use std::io;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::engine::Engine;
use crate::lines::{Line, Lines};
use crate::link::{Link, View};
use crate::serial::{Event, LineWriter};

/// Told about every change: the state after it and the notes it produced.
pub trait Observer {
    /// Lines written, notes, and the state after a step.
    fn update(&mut self, view: &View, sent: &[String], notes: &[String]);
    /// A line that arrived (before it is handled).
    fn received(&mut self, _line: &Line) {}
}

/// An observer that shows nothing.
pub struct Quiet;

impl Observer for Quiet {
    fn update(&mut self, _: &View, _: &[String], _: &[String]) {}
}

fn ms_since(base: Instant, t: Instant) -> u64 {
    u64::try_from(t.saturating_duration_since(base).as_millis()).unwrap_or(u64::MAX)
}

fn flush<E: Engine>(
    link: &mut Link<E>,
    w: &mut LineWriter,
    obs: &mut dyn Observer,
) -> io::Result<()> {
    let sent = link.take_output();
    for l in &sent {
        // A line that cannot be written is gone: the caller ends as at a hang-up.
        w.line(l)
            .map_err(|e| io::Error::new(io::ErrorKind::ConnectionAborted, e))?;
    }
    let notes = link.take_notes();
    if !sent.is_empty() || !notes.is_empty() {
        obs.update(link.view(), &sent, &notes);
    }
    Ok(())
}

fn moves<E: Engine>(
    link: &mut Link<E>,
    base: Instant,
    w: &mut LineWriter,
    obs: &mut dyn Observer,
) -> io::Result<()> {
    flush(link, w, obs)?;
    while link.wants_move() {
        link.engine_move(&|| ms_since(base, Instant::now()))?;
        flush(link, w, obs)?;
    }
    Ok(())
}

/// Runs `link` on the line until it hangs up or cannot be written (`Ok`), or the engine
/// fails (`Err`).
pub fn run<E: Engine>(
    link: &mut Link<E>,
    rx: &Receiver<Event>,
    w: &mut LineWriter,
    obs: &mut dyn Observer,
) -> io::Result<()> {
    match serve(link, rx, w, obs) {
        Err(e) if e.kind() == io::ErrorKind::ConnectionAborted => Ok(()),
        r => r,
    }
}

fn serve<E: Engine>(
    link: &mut Link<E>,
    rx: &Receiver<Event>,
    w: &mut LineWriter,
    obs: &mut dyn Observer,
) -> io::Result<()> {
    let base = Instant::now();
    let mut lines = Lines::new();
    let mut framed = Vec::new();
    obs.update(link.view(), &[], &[]);
    loop {
        moves(link, base, w, obs)?;
        let now = ms_since(base, Instant::now());
        let wait = link.deadline().map_or(Duration::from_secs(3600), |d| {
            Duration::from_millis(d.saturating_sub(now))
        });
        match rx.recv_timeout(wait) {
            Ok(Event::Data(bytes, at)) => {
                lines.push(&bytes, &mut framed);
                for l in framed.drain(..) {
                    obs.received(&l);
                    link.input(&l, ms_since(base, at))?;
                    moves(link, base, w, obs)?;
                }
            }
            Ok(Event::Hangup) | Err(RecvTimeoutError::Disconnected) => {
                flush(link, w, obs).or(Ok::<(), io::Error>(()))?;
                return Ok(());
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
        link.tick(ms_since(base, Instant::now()));
    }
}
