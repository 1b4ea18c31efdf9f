//! The replay source: a recorded file played back with its arrival times, scaled by
//! `--speed`, then [`Msg::ReplayEnd`]. No thread: the loop asks [`Replay::next_due`] for its
//! `poll` timeout and takes what is due with [`Replay::due`].

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crate::msg::Msg;

/// The fastest replay speed.
pub const MAX_SPEED_MILLI: u64 = 1_000_000;

/// Parses a speed factor (`1`, `0.5`, `10`, up to three decimals) into thousandths.
pub fn parse_speed(s: &str) -> Result<u64, String> {
    let bad = || format!("bad speed {s:?}: a number like 0.5, 1 or 10 (0.001 to 1000)");
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    if int.is_empty() && frac.is_empty()
        || frac.len() > 3
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let int: u64 = if int.is_empty() {
        0
    } else {
        int.parse().map_err(|_| bad())?
    };
    let frac: u64 = format!("{frac:0<3}").parse().map_err(|_| bad())?;
    let milli = int
        .checked_mul(1000)
        .and_then(|v| v.checked_add(frac))
        .ok_or_else(bad)?;
    if milli == 0 || milli > MAX_SPEED_MILLI {
        return Err(bad());
    }
    Ok(milli)
}

/// The arrival time of a message.
fn at(m: &Msg) -> Duration {
    match m {
        Msg::Records { at, .. } | Msg::Loads { at, .. } | Msg::State { at, .. } => *at,
        Msg::ReplayEnd => Duration::ZERO,
    }
}

/// `t` at `speed_milli` thousandths of the recorded speed.
pub fn scaled(t: Duration, speed_milli: u64) -> Duration {
    let us = t.as_micros().saturating_mul(1000) / u128::from(speed_milli.max(1));
    Duration::from_micros(u64::try_from(us).unwrap_or(u64::MAX))
}

/// A recording being played: the messages not yet due, from a start time.
#[derive(Debug)]
pub struct Replay {
    msgs: VecDeque<Msg>,
    speed_milli: u64,
    start: Instant,
    ended: bool,
}

impl Replay {
    /// Plays `msgs` (checked already) from `start` at `speed_milli` thousandths of the
    /// recorded speed.
    pub fn new(msgs: Vec<Msg>, speed_milli: u64, start: Instant) -> Replay {
        Replay {
            msgs: msgs.into(),
            speed_milli,
            start,
            ended: false,
        }
    }

    /// The same messages, played from `start` instead.
    pub fn restarted(self, start: Instant) -> Replay {
        Replay { start, ..self }
    }

    /// When the next message is due; `None` once [`Msg::ReplayEnd`] has been given.
    pub fn next_due(&self) -> Option<Instant> {
        if self.ended {
            return None;
        }
        Some(match self.msgs.front() {
            Some(m) => self.start + scaled(at(m), self.speed_milli),
            None => self.start, // only the end is left: due now
        })
    }

    /// The messages due at `now`, in order; [`Msg::ReplayEnd`] after the last.
    pub fn due(&mut self, now: Instant) -> Vec<Msg> {
        let mut out = Vec::new();
        while let Some(m) = self.msgs.front() {
            if self.start + scaled(at(m), self.speed_milli) > now {
                return out;
            }
            out.extend(self.msgs.pop_front());
        }
        if !self.ended {
            self.ended = true;
            out.push(Msg::ReplayEnd);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds() {
        assert_eq!(parse_speed("1"), Ok(1000));
        assert_eq!(parse_speed("0.5"), Ok(500));
        assert_eq!(parse_speed(".25"), Ok(250));
        assert_eq!(parse_speed("10"), Ok(10_000));
        assert_eq!(parse_speed("2.125"), Ok(2125));
        for bad in [
            "",
            ".",
            "0",
            "-1",
            "1e3",
            "abc",
            "0.0001",
            "1001",
            "1.2.3",
            "99999999999999999999",
        ] {
            assert!(parse_speed(bad).is_err(), "{bad}");
        }
        assert_eq!(
            scaled(Duration::from_secs(10), 2000),
            Duration::from_secs(5)
        );
        assert_eq!(scaled(Duration::from_secs(1), 500), Duration::from_secs(2));
    }

    #[test]
    fn messages_come_when_due_then_the_end() {
        let t0 = Instant::now();
        let loads = |ms| Msg::Loads {
            at: Duration::from_millis(ms),
            loads: Default::default(),
        };
        let mut r = Replay::new(vec![loads(0), loads(100), loads(300)], 2000, t0);
        assert_eq!(r.next_due(), Some(t0));
        assert_eq!(r.due(t0), [loads(0)]);
        assert_eq!(
            r.next_due(),
            Some(t0 + Duration::from_millis(50)),
            "twice as fast"
        );
        assert!(r.due(t0 + Duration::from_millis(49)).is_empty());
        assert_eq!(r.due(t0 + Duration::from_millis(149)), [loads(100)]);
        assert_eq!(
            r.due(t0 + Duration::from_secs(9)),
            [loads(300), Msg::ReplayEnd]
        );
        assert_eq!(r.next_due(), None);
        assert!(r.due(t0 + Duration::from_secs(10)).is_empty());
        let mut empty = Replay::new(Vec::new(), 1000, t0);
        assert_eq!(empty.due(t0), [Msg::ReplayEnd]);
    }
}
