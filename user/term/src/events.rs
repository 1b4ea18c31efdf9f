//! One channel for everything a terminal program waits for: keys and resizes (a thread doing
//! blocking reads of the terminal), messages of the program's own worker threads, signals,
//! and a clock tick. The program blocks in [`Events::wait`] and wakes on whichever comes
//! first: nothing polls, nothing spins.
//!
//! ```no_run
//! use std::time::Duration;
//! use kgames_term::events::{Event, Events};
//!
//! let mut events: Events<String> = Events::new(Duration::from_millis(250));
//! events.spawn_input().unwrap();
//! events.spawn_signals().unwrap();
//! let worker = events.sender();
//! std::thread::spawn(move || worker.send("hello".to_string()));
//! loop {
//!     match events.wait() {
//!         Event::Key(k) if k.code == crossterm::event::KeyCode::Char('q') => break,
//!         Event::Msg(m) => println!("{m}"),
//!         Event::Signal(_) | Event::InputClosed => break,
//!         _ => {} // Tick, Resize, other keys: redraw
//!     }
//! }
//! ```

use std::io;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use crossterm::event::{KeyEvent, MouseEvent};

/// What the program wakes up for.
#[derive(Debug)]
pub enum Event<M> {
    /// A key press.
    Key(KeyEvent),
    /// The terminal now has this many columns and rows.
    Resize(u16, u16),
    /// A mouse report (only after [`crate::screen::Screen::enable_mouse`]).
    Mouse(MouseEvent),
    /// A message from a worker thread ([`Sender::send`]).
    Msg(M),
    /// The clock ticked (every `tick` given to [`Events::new`]).
    Tick,
    /// SIGTERM, SIGINT or SIGHUP arrived (the signal number).
    Signal(i32),
    /// The terminal's input ended or failed (the terminal went away).
    InputClosed,
}

/// The sending side a worker thread holds.
#[derive(Debug)]
pub struct Sender<M>(mpsc::Sender<Event<M>>);

impl<M> Clone for Sender<M> {
    fn clone(&self) -> Self {
        Sender(self.0.clone())
    }
}

impl<M> Sender<M> {
    /// Sends a message to the loop; false once the loop is gone (the worker should stop).
    pub fn send(&self, msg: M) -> bool {
        self.0.send(Event::Msg(msg)).is_ok()
    }
}

/// The merged event source.
#[derive(Debug)]
pub struct Events<M> {
    tx: mpsc::Sender<Event<M>>,
    rx: Receiver<Event<M>>,
    tick: Duration,
    next_tick: Instant,
}

impl<M: Send + 'static> Events<M> {
    /// A source whose clock ticks every `tick` (at least 1 ms).
    pub fn new(tick: Duration) -> Events<M> {
        let (tx, rx) = mpsc::channel();
        let tick = tick.max(Duration::from_millis(1));
        Events {
            tx,
            rx,
            tick,
            next_tick: Instant::now() + tick,
        }
    }

    /// A sender for a worker thread.
    pub fn sender(&self) -> Sender<M> {
        Sender(self.tx.clone())
    }

    /// Starts the thread that reads the terminal (blocking reads) and sends keys and resizes.
    pub fn spawn_input(&self) -> io::Result<()> {
        let tx = self.tx.clone();
        thread::Builder::new()
            .name("term-input".into())
            .spawn(move || loop {
                let ev = match crossterm::event::read() {
                    Ok(crossterm::event::Event::Key(k)) => Event::Key(k),
                    Ok(crossterm::event::Event::Resize(w, h)) => Event::Resize(w, h),
                    Ok(crossterm::event::Event::Mouse(m)) => Event::Mouse(m),
                    Ok(_) => continue,
                    Err(_) => {
                        let _ = tx.send(Event::InputClosed);
                        return;
                    }
                };
                if tx.send(ev).is_err() {
                    return;
                }
            })?;
        Ok(())
    }

    /// Starts the thread that turns SIGTERM, SIGINT and SIGHUP into [`Event::Signal`] (the
    /// default action, dying with the terminal in raw mode, no longer happens).
    pub fn spawn_signals(&self) -> io::Result<()> {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGINT, SIGHUP])?;
        let tx = self.tx.clone();
        thread::Builder::new()
            .name("term-signals".into())
            .spawn(move || {
                for sig in signals.forever() {
                    if tx.send(Event::Signal(sig)).is_err() {
                        return;
                    }
                }
            })?;
        Ok(())
    }

    /// Waits for the next event; [`Event::Tick`] when the clock ticks first.
    pub fn wait(&mut self) -> Event<M> {
        loop {
            let now = Instant::now();
            if now >= self.next_tick {
                // A late loop skips the ticks it missed rather than firing them in a burst.
                self.next_tick = (self.next_tick + self.tick).max(now + self.tick / 2);
                return Event::Tick;
            }
            match self.rx.recv_timeout(self.next_tick - now) {
                Ok(ev) => return ev,
                Err(RecvTimeoutError::Timeout) => continue,
                // Unreachable: `self.tx` keeps the channel open. Fall back to the clock.
                Err(RecvTimeoutError::Disconnected) => thread::sleep(self.next_tick - now),
            }
        }
    }

    /// The next event if one is already waiting (to handle a burst before one redraw).
    pub fn try_wait(&mut self) -> Option<Event<M>> {
        self.rx.try_recv().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_wake_the_loop_before_the_tick() {
        let mut ev: Events<u32> = Events::new(Duration::from_secs(3600));
        let s = ev.sender();
        thread::spawn(move || {
            thread::sleep(Duration::from_millis(20));
            s.send(7)
        });
        let t0 = Instant::now();
        assert!(matches!(ev.wait(), Event::Msg(7)));
        assert!(t0.elapsed() < Duration::from_secs(60));
        assert!(ev.try_wait().is_none());
    }

    #[test]
    fn the_clock_ticks_without_messages() {
        let mut ev: Events<()> = Events::new(Duration::from_millis(10));
        for _ in 0..3 {
            assert!(matches!(ev.wait(), Event::Tick));
        }
    }

    #[test]
    fn a_sender_sees_the_loop_gone() {
        let ev: Events<u8> = Events::new(Duration::from_secs(1));
        let s = ev.sender();
        assert!(s.send(1));
        drop(ev);
        assert!(!s.send(2));
    }
}
