//! A synthetic `/dev/kxo` stream, deterministic for a seed: what the device would send for
//! `games` games moving every `period` with random legal moves (the engine's own move rules,
//! `kgames_kxo::record::RecordBoard::played`), a snapshot first, load and state samples every
//! second. The rendering tests, the host tmux test and `xo-user --write-demo` use it, so the UI
//! can be shown without a device.

use std::time::Duration;

use kgames_common::common::rng::Rng;
use kgames_kxo::kxo::record::RecordBoard;
use kgames_uapi::agent::AgentKind;
use kgames_uapi::load::{KxoLoads, FIXED_1};
use kgames_uapi::pairing::RANDOM;
use kgames_uapi::record::Record;
use kgames_uapi::state::{KxoState, MAX_GAMES};

use crate::msg::Msg;
use crate::recfile;

/// What to generate.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// Number of games.
    pub games: u16,
    /// Time between two moves of a game.
    pub period: Duration,
    /// Length of the stream.
    pub length: Duration,
    /// The seed of the moves and pairings.
    pub seed: u64,
}

fn pairing(rng: &mut Rng) -> (AgentKind, AgentKind) {
    let pick = |rng: &mut Rng| {
        AgentKind::ALL[rng.below(AgentKind::COUNT as u32) as usize % AgentKind::COUNT]
    };
    (pick(rng), pick(rng))
}

/// A random legal move of a running record.
fn random_move(rng: &mut Rng, r: &Record) -> Option<Record> {
    let free: Vec<u8> = (0..16u8)
        .filter(|&c| (r.board >> (2 * c)) & 3 == 0)
        .collect();
    let c = *free.get(rng.below(u32::try_from(free.len()).ok()?) as usize)?;
    r.played(c)
}

/// The load figures after `secs` seconds (a slow ramp per agent, fixed point).
fn loads_at(secs: u64) -> KxoLoads {
    let mut l: KxoLoads = Default::default();
    for (i, a) in l.iter_mut().enumerate() {
        let base = FIXED_1 / 20 * (i as u64 + 1);
        *a = [
            base + secs * 7 % (FIXED_1 / 8),
            base / 2 + secs * 2,
            base / 4 + secs,
        ];
    }
    l
}

/// The whole stream, in arrival order.
pub fn stream(spec: Spec) -> Vec<Msg> {
    let mut rng = Rng::new(spec.seed);
    let mut seq = 0u64;
    let mut games: Vec<Record> = (0..spec.games)
        .map(|g| {
            let (o, x) = pairing(&mut rng);
            let mut r = Record::start(g, 0, o, x);
            r.seq = seq;
            seq += 1;
            r
        })
        .collect();
    let mut pairings = [[0u8; 2]; MAX_GAMES];
    for p in pairings.iter_mut().take(usize::from(spec.games)) {
        *p = [RANDOM, RANDOM]; // both sides drawn each round, as generated here
    }
    let state = KxoState {
        games: u32::from(spec.games),
        pairings,
        period_ms: u32::try_from(spec.period.as_millis()).unwrap_or(u32::MAX),
        watchers: 1,
        agents: 0b1_1111,
        seq,
        ..Default::default()
    };
    let mut out = vec![Msg::State {
        at: Duration::ZERO,
        state,
    }];
    out.push(Msg::Records {
        at: Duration::ZERO,
        records: games
            .iter()
            .map(|r| Record {
                flags: Record::FLAG_SNAPSHOT,
                ..*r
            })
            .collect(),
    });
    let mut at = Duration::ZERO;
    let mut next_sample = Duration::ZERO;
    while at < spec.length {
        at += spec.period.max(Duration::from_millis(1));
        let mut batch = Vec::new();
        for g in games.iter_mut() {
            let next = if g.state != Record::RUNNING {
                let (o, x) = pairing(&mut rng);
                Some(Record::start(g.game, g.round + 1, o, x))
            } else {
                random_move(&mut rng, g)
            };
            if let Some(mut n) = next {
                n.seq = seq;
                n.flags = 0;
                seq += 1;
                *g = n;
                batch.push(n);
            }
        }
        for chunk in batch.chunks(16) {
            out.push(Msg::Records {
                at,
                records: chunk.to_vec(),
            });
        }
        if at >= next_sample {
            out.push(Msg::Loads {
                at,
                loads: loads_at(at.as_secs()),
            });
            out.push(Msg::State {
                at,
                state: KxoState { seq, ..state },
            });
            next_sample = at + Duration::from_secs(1);
        }
    }
    out
}

/// The stream as a recording (the `--record` file format).
pub fn recording(spec: Spec) -> Vec<u8> {
    let write = || -> std::io::Result<Vec<u8>> {
        let mut w = recfile::Writer::new(Vec::new())?;
        for m in stream(spec) {
            w.write(&m)?;
        }
        w.into_inner()
    };
    // Writing to memory does not fail.
    write().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kgames_kxo::kxo::record::{is_successor, RecordCheck};
    use std::collections::HashMap;

    #[test]
    fn the_stream_is_a_real_game_stream() {
        let spec = Spec {
            games: 5,
            period: Duration::from_millis(100),
            length: Duration::from_secs(10),
            seed: 7,
        };
        let msgs = stream(spec);
        assert_eq!(msgs, stream(spec), "deterministic");
        let mut last: HashMap<u16, Record> = HashMap::new();
        let (mut n, mut rounds) = (0, 0);
        for m in &msgs {
            if let Msg::Records { records, .. } = m {
                for r in records {
                    assert!(r.is_consistent());
                    if let Some(p) = last.get(&r.game) {
                        assert_eq!(r.seq, n, "no gap");
                        assert!(
                            is_successor(p, r) || (r.round == p.round + 1 && r.move_count == 0)
                        );
                        rounds += usize::from(r.round != p.round);
                    }
                    last.insert(r.game, *r);
                    n += 1;
                }
            }
        }
        assert!(rounds >= 5, "games end and restart: {rounds}");
    }
}
