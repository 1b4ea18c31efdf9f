//! The replay source: a recorded file played back with its arrival times, scaled by
//! `--speed`, then [`Msg::ReplayEnd`].

use std::io;
use std::thread;
use std::time::{Duration, Instant};

use kgames_term::events::Sender;

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
        Msg::ReplayEnd | Msg::Fatal(_) => Duration::ZERO,
    }
}

/// `t` at `speed_milli` thousandths of the recorded speed.
pub fn scaled(t: Duration, speed_milli: u64) -> Duration {
    let us = t.as_micros().saturating_mul(1000) / u128::from(speed_milli.max(1));
    Duration::from_micros(u64::try_from(us).unwrap_or(u64::MAX))
}

/// Starts playing `msgs` (checked already) to `tx`.
pub fn start(msgs: Vec<Msg>, speed_milli: u64, tx: Sender<Msg>) -> io::Result<()> {
    thread::Builder::new()
        .name("replay".into())
        .spawn(move || {
            let t0 = Instant::now();
            for m in msgs {
                let due = t0 + scaled(at(&m), speed_milli);
                let now = Instant::now();
                if due > now {
                    thread::sleep(due - now);
                }
                if !tx.send(m) {
                    return;
                }
            }
            tx.send(Msg::ReplayEnd);
        })?;
    Ok(())
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
}
