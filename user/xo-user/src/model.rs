//! What the viewer knows: every game's board, results per pairing, lost records, the rate,
//! the load figures over time and the machine's state. Pure data: the stream sources feed it
//! messages, the clock feeds it time (`now`, since the program started), the renderer reads it.

use std::collections::{BTreeMap, VecDeque};
use std::time::Duration;

use kgames_uapi::agent::AgentKind;
use kgames_uapi::load::{hundredths, KxoLoads};
use kgames_uapi::record::Record;
use kgames_uapi::state::KxoState;

use crate::msg::Msg;

/// How long a finished game stays on screen before its next round is shown.
pub const HOLD: Duration = Duration::from_secs(2);
/// The window of the records-per-second rate.
pub const RATE_WINDOW: Duration = Duration::from_secs(2);
/// Load samples kept for the sparklines.
pub const LOAD_HISTORY: usize = 600;
/// Results kept per pairing for the "last results" column.
pub const LAST_RESULTS: usize = 8;

/// One game slot as shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameView {
    /// The record on screen.
    pub shown: Record,
    /// While a finished game is held on screen: until when.
    pub held_until: Option<Duration>,
    /// The newest record of the next round, waiting for the hold to end.
    pub pending: Option<Record>,
}

/// One game slot's latest rounds, for the history printed at exit: the final record of the
/// last round seen finished, and the latest record of the round in progress after it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameHistory {
    /// The final record of the last finished round seen.
    pub finished: Option<Record>,
    /// The latest record of a round still running (newer than `finished`'s).
    pub playing: Option<Record>,
}

impl GameHistory {
    /// Takes the next record of this slot (records of older rounds than those held are
    /// ignored).
    pub fn record(&mut self, r: &Record) {
        let newer = |held: Option<Record>| held.is_none_or(|h| r.round >= h.round);
        if r.state == Record::RUNNING {
            if newer(self.playing) && self.finished.is_none_or(|f| r.round > f.round) {
                self.playing = Some(*r);
            }
        } else if newer(self.finished) {
            self.finished = Some(*r);
            if self.playing.is_some_and(|p| p.round <= r.round) {
                self.playing = None;
            }
        }
    }
}

/// Results of one pairing (O's agent, X's agent), counted once per game and round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairStats {
    /// Games won by O (the first-named agent).
    pub o_wins: u64,
    /// Games won by X.
    pub x_wins: u64,
    /// Draws.
    pub draws: u64,
    /// The latest results, oldest first: the record `state` (1 O won, 2 X won, 3 draw).
    pub last: VecDeque<u8>,
}

/// The viewer's state.
#[derive(Clone, Debug, Default)]
pub struct Model {
    /// Game slots by id.
    pub games: BTreeMap<u16, GameView>,
    /// Per game slot: the last finished round and the round in progress (the exit history).
    pub history: BTreeMap<u16, GameHistory>,
    /// Results by (O agent id, X agent id).
    pub pairs: BTreeMap<(u8, u8), PairStats>,
    /// (game, round) of the last result counted per game.
    counted: BTreeMap<u16, u32>,
    /// Records received.
    pub records: u64,
    /// The device's `lost` count of the latest record (records this reader lost).
    pub lost: u64,
    /// Records missing between sequence numbers (not counting snapshots after a pause).
    pub gaps: u64,
    /// Snapshot records seen (after registering and after each resume).
    pub snapshots: u64,
    last_seq: Option<u64>,
    arrivals: VecDeque<(Duration, u64)>,
    /// The latest load figures.
    pub loads: Option<KxoLoads>,
    /// For each agent id, its 1-minute load in hundredths of a CPU, oldest first.
    pub load_history: [VecDeque<u64>; AgentKind::COUNT],
    /// The latest state sample.
    pub state: Option<KxoState>,
    /// The replay has ended.
    pub replay_ended: bool,
}

impl Model {
    /// An empty model.
    pub fn new() -> Model {
        Model::default()
    }

    /// Takes one message at time `now`.
    pub fn apply(&mut self, msg: &Msg, now: Duration) {
        match msg {
            Msg::Records { records, .. } => {
                for r in records {
                    self.record(r, now);
                }
                self.arrivals.push_back((now, records.len() as u64));
            }
            Msg::Loads { loads, .. } => {
                self.loads = Some(*loads);
                for (h, l) in self.load_history.iter_mut().zip(loads.iter()) {
                    h.push_back(hundredths(l[0]));
                    if h.len() > LOAD_HISTORY {
                        h.pop_front();
                    }
                }
            }
            Msg::State { state, .. } => self.state = Some(*state),
            Msg::ReplayEnd => self.replay_ended = true,
        }
        let _ = self.tick(now);
    }

    fn record(&mut self, r: &Record, now: Duration) {
        self.records += 1;
        self.lost = self.lost.max(r.lost);
        self.history.entry(r.game).or_default().record(r);
        if r.is_snapshot() {
            // A snapshot repeats each game's latest record; the seq jump before it covers
            // records never published (a pause), not losses.
            self.snapshots += 1;
            self.last_seq = Some(self.last_seq.map_or(r.seq, |s| s.max(r.seq)));
        } else {
            if let Some(s) = self.last_seq {
                if r.seq > s.saturating_add(1) {
                    self.gaps += r.seq - s - 1;
                }
            }
            self.last_seq = Some(self.last_seq.map_or(r.seq, |s| s.max(r.seq)));
        }
        if r.state != Record::RUNNING && self.counted.get(&r.game) != Some(&r.round) {
            self.counted.insert(r.game, r.round);
            let p = self.pairs.entry((r.o_agent, r.x_agent)).or_default();
            match r.state {
                Record::O_WON => p.o_wins += 1,
                Record::X_WON => p.x_wins += 1,
                _ => p.draws += 1,
            }
            p.last.push_back(r.state);
            if p.last.len() > LAST_RESULTS {
                p.last.pop_front();
            }
        }
        match self.games.get_mut(&r.game) {
            Some(g) if g.held_until.is_some_and(|t| now < t) && r.round != g.shown.round => {
                g.pending = Some(*r);
            }
            Some(g) => {
                let finished_now = r.state != Record::RUNNING
                    && (g.shown.round != r.round || g.shown.state == Record::RUNNING);
                g.shown = *r;
                g.pending = None;
                g.held_until = if finished_now {
                    Some(now + HOLD)
                } else if r.state == Record::RUNNING {
                    None
                } else {
                    g.held_until
                };
            }
            None => {
                let held_until = (r.state != Record::RUNNING).then_some(now + HOLD);
                self.games.insert(
                    r.game,
                    GameView {
                        shown: *r,
                        held_until,
                        pending: None,
                    },
                );
            }
        }
    }

    /// Lets time pass: held games whose hold ended show their next round; old arrivals leave
    /// the rate window. True when a board shown changed.
    pub fn tick(&mut self, now: Duration) -> bool {
        let mut changed = false;
        for g in self.games.values_mut() {
            if g.held_until.is_some_and(|t| now >= t) {
                g.held_until = None;
                if let Some(p) = g.pending.take() {
                    g.shown = p;
                    changed = true;
                }
            }
        }
        while self
            .arrivals
            .front()
            .is_some_and(|(t, _)| now.saturating_sub(*t) >= RATE_WINDOW)
        {
            self.arrivals.pop_front();
        }
        changed
    }

    /// Records per second over the last [`RATE_WINDOW`] (or since the start when shorter).
    pub fn rate(&self, now: Duration) -> u64 {
        let n: u64 = self.arrivals.iter().map(|(_, k)| k).sum();
        let window = now.min(RATE_WINDOW).as_millis().max(1) as u64;
        n * 1000 / window
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kgames_kxo::kxo::record::RecordBoard;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    fn recs(rs: &[Record]) -> Msg {
        Msg::Records {
            at: Duration::ZERO,
            records: rs.to_vec(),
        }
    }

    /// O wins on the top row: A1 B1 C1 (O), A2 B2 (X).
    fn o_wins(game: u16, round: u32) -> Vec<Record> {
        let mut r = Record::start(game, round, AgentKind::Mcts, AgentKind::Negamax);
        let mut out = vec![r];
        for c in [0, 4, 1, 5, 2] {
            r = r.played(c).unwrap();
            out.push(r);
        }
        assert_eq!(r.state, Record::O_WON);
        out
    }

    fn seqd(mut rs: Vec<Record>, from: u64) -> Vec<Record> {
        for (i, r) in rs.iter_mut().enumerate() {
            r.seq = from + i as u64;
        }
        rs
    }

    #[test]
    fn a_finished_game_is_held_then_the_next_round_shows() {
        let mut m = Model::new();
        let g = seqd(o_wins(0, 0), 0);
        m.apply(&recs(&g), ms(0));
        assert_eq!(m.games[&0].shown.state, Record::O_WON);
        let next = Record {
            seq: 6,
            ..Record::start(0, 1, AgentKind::Random, AgentKind::TdLearning)
        };
        m.apply(&recs(&[next]), ms(500));
        assert_eq!(m.games[&0].shown.round, 0, "held");
        assert!(!m.tick(ms(1999)));
        assert_eq!(m.games[&0].shown.round, 0);
        assert!(m.tick(ms(2000)), "a board changed");
        assert_eq!(m.games[&0].shown.round, 1, "the next round after the hold");
        let p = &m.pairs[&(AgentKind::Mcts.id(), AgentKind::Negamax.id())];
        assert_eq!((p.o_wins, p.x_wins, p.draws), (1, 0, 0));
        assert_eq!(m.gaps, 0);
    }

    #[test]
    fn a_result_counts_once_even_when_a_snapshot_repeats_it() {
        let mut m = Model::new();
        let g = seqd(o_wins(3, 7), 10);
        m.apply(&recs(&g), ms(0));
        let again = Record {
            flags: Record::FLAG_SNAPSHOT,
            ..*g.last().unwrap()
        };
        m.apply(&recs(&[again]), ms(100));
        let p = &m.pairs[&(AgentKind::Mcts.id(), AgentKind::Negamax.id())];
        assert_eq!(p.o_wins, 1);
        assert_eq!(p.last, [Record::O_WON]);
    }

    #[test]
    fn gaps_count_losses_but_not_a_pause() {
        let mut m = Model::new();
        let a = Record::start(0, 0, AgentKind::Negamax, AgentKind::Random);
        let b = Record::start(1, 0, AgentKind::Negamax, AgentKind::Random);
        m.apply(&recs(&[Record { seq: 5, ..a }]), ms(0));
        m.apply(&recs(&[Record { seq: 9, ..b }]), ms(1)); // 6, 7, 8 lost
        assert_eq!(m.gaps, 3);
        // A resume snapshot jumps to 40 (records 10-39 never published): no loss.
        let snap = |r: Record, seq| Record {
            seq,
            flags: Record::FLAG_SNAPSHOT,
            ..r
        };
        m.apply(&recs(&[snap(a, 38), snap(b, 40)]), ms(2));
        m.apply(&recs(&[Record { seq: 41, ..a }]), ms(3));
        assert_eq!(m.gaps, 3);
        assert_eq!(m.snapshots, 2);
        m.apply(
            &recs(&[Record {
                seq: 43,
                lost: 1,
                ..a
            }]),
            ms(4),
        );
        assert_eq!((m.gaps, m.lost), (4, 1));
    }

    #[test]
    fn history_keeps_the_last_finished_round_and_the_one_in_progress() {
        let mut m = Model::new();
        let g = seqd(o_wins(4, 2), 0);
        m.apply(&recs(&g[..3]), ms(0));
        let h = m.history[&4];
        assert_eq!((h.finished, h.playing), (None, Some(g[2])));
        m.apply(&recs(&g[3..]), ms(1));
        let h = m.history[&4];
        assert_eq!((h.finished, h.playing), (Some(g[5]), None));
        // A snapshot repeating the result changes nothing; the next round plays.
        let again = Record {
            flags: Record::FLAG_SNAPSHOT,
            ..g[5]
        };
        let next = Record::start(4, 3, AgentKind::TdLearning, AgentKind::Random);
        let next1 = next.played(9).unwrap();
        m.apply(&recs(&[again, next, next1]), ms(2));
        let h = m.history[&4];
        assert_eq!(h.finished.map(|f| f.round), Some(2));
        assert_eq!(h.playing, Some(next1));
        // A restart abandons round 3 for round 4: the finished one stays round 2.
        let restarted = Record::start(4, 4, AgentKind::Mcts, AgentKind::Mcts);
        m.apply(&recs(&[restarted]), ms(3));
        let h = m.history[&4];
        assert_eq!(h.finished.map(|f| f.round), Some(2));
        assert_eq!(h.playing, Some(restarted));
        // An older round's record is ignored.
        m.apply(&recs(&[next]), ms(4));
        assert_eq!(m.history[&4].playing, Some(restarted));
    }

    #[test]
    fn rate_over_the_window() {
        let mut m = Model::new();
        let r = Record::start(0, 0, AgentKind::Negamax, AgentKind::Random);
        for t in 0..40 {
            m.apply(&recs(&[r, r]), ms(100 * t));
        }
        // 20 arrivals of 2 records in the last 2 s.
        assert_eq!(m.rate(ms(3900)), 20);
        m.tick(ms(10_000));
        assert_eq!(m.rate(ms(10_000)), 0);
    }

    #[test]
    fn loads_build_a_history() {
        let mut m = Model::new();
        let mut l: KxoLoads = Default::default();
        for i in 0..(LOAD_HISTORY as u64 + 5) {
            l[4][0] = i * 2048;
            m.apply(
                &Msg::Loads {
                    at: ms(i),
                    loads: l,
                },
                ms(i),
            );
        }
        assert_eq!(m.load_history[4].len(), LOAD_HISTORY);
        assert_eq!(
            m.load_history[4].back(),
            Some(&((LOAD_HISTORY as u64 + 4) * 100))
        );
    }
}
