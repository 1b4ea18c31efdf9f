//! The AI-vs-AI matches of `/dev/kxo`: pairing agents, playing one move per step, restarting
//! finished games, and emitting the records the watchers read. `core`-only: the kernel drives
//! it from a work item per game, the host tests drive it directly.
//!
//! A [`Match`] is one game slot. Each step either restarts the slot (its game is over, or a
//! restart was requested: the generation changed) with round + 1 and a new pairing drawn
//! uniformly from the agents allowed (a mask of agent ids), or plays one move with the agent of
//! the side to move. Every randomised agent gets a fresh seed from the slot's generator at
//! each move, so a slot's games are deterministic for its seed. When a game ends and the TD
//! agent played in it, the TD table learns from the finished record.

use core::ops::DerefMut;

use super::agent::{Agent, AgentKind, RandomAgent};
use super::board::{GameState, Side};
use super::mcts::{Mcts, Node};
use super::montecarlo::MonteCarlo;
use super::negamax::{Negamax, TtEntry};
use super::record::RecordBoard;
use super::td::{TdEntry, TdTable, ARENA_EPSILON_Q16};
use crate::common::budget::{Budget, Clock, Interrupt, Meter};
use crate::common::rng::Rng;
use crate::uapi::record::Record;

/// Nodes per negamax move (deterministic, and well under a millisecond on the host).
pub const NEGAMAX_NODES: u64 = 20_000;
/// Every agent id.
pub const ALL_AGENTS: u8 = (1 << AgentKind::COUNT) - 1;

/// The per-slot memory of the agents (preallocated by the caller).
pub struct Memory<'a> {
    /// The negamax transposition table.
    pub tt: &'a mut [TtEntry],
    /// The MCTS node pool.
    pub nodes: &'a mut [Node],
}

/// Settings of the agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// MCTS iterations per move.
    pub mcts_iterations: u32,
    /// Flat Monte Carlo playouts per cell.
    pub mc_playouts: u32,
}

/// Where the TD agent's shared table is: the kernel locks a mutex around it for each call.
pub trait TdHost {
    /// The TD agent's move (exploring with [`ARENA_EPSILON_Q16`]).
    fn choose(&mut self, board: &super::board::Board4, side: Side, rng: &mut Rng) -> Option<u8>;
    /// Learns from a finished game.
    fn learn(&mut self, rec: &Record);
}

impl<S: DerefMut<Target = [TdEntry]>> TdHost for TdTable<S> {
    fn choose(&mut self, board: &super::board::Board4, side: Side, rng: &mut Rng) -> Option<u8> {
        TdTable::choose(self, board, side, rng, ARENA_EPSILON_Q16)
    }

    fn learn(&mut self, rec: &Record) {
        TdTable::learn(self, rec);
    }
}

/// What one step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A new round started (the record of its empty board).
    Restarted(Record),
    /// `agent` played a move (the new record).
    Moved(Record, AgentKind),
    /// Nothing changed (the agent was interrupted or found no move).
    Stalled,
}

/// The agents the pairings draw from: all of them once the TD table is trained, all but td
/// before (an untrained td would only lose its games).
pub const fn drawn_agents(td_ready: bool) -> u8 {
    if td_ready {
        ALL_AGENTS
    } else {
        ALL_AGENTS & !(1 << AgentKind::TdLearning.id())
    }
}

/// One game slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Match {
    rec: Record,
    rng: Rng,
    generation: u32,
}

/// The `k`-th set bit of `mask`.
fn nth_agent(mask: u8, k: u32) -> Option<AgentKind> {
    let cell = super::agent::nth_cell(u16::from(mask), k)?;
    AgentKind::from_id(cell)
}

impl Match {
    /// Slot `game`, round 0, its generator seeded with `seed`, paired from `agents` and
    /// `pairing` (see `restart`).
    pub fn new(game: u16, seed: u64, agents: u8, pairing: [u8; 2]) -> Match {
        let mut m = Match {
            rec: Record::default(),
            rng: Rng::new(seed),
            generation: 0,
        };
        m.restart(game, 0, agents, pairing);
        m
    }

    /// The latest record.
    pub const fn record(&self) -> Record {
        self.rec
    }

    /// A new round: each side drawn uniformly from `agents` (negamax if it is empty), then
    /// replaced by the agent `pairing` fixes for it, if any (`[O, X]`, agent ids or
    /// [`RANDOM`]). Both sides are always drawn, so a fixed side leaves the generator's stream
    /// (and the other slots' games) as they were.
    fn restart(&mut self, game: u16, round: u32, agents: u8, pairing: [u8; 2]) {
        let mask = agents & ALL_AGENTS;
        let pick = |rng: &mut Rng| {
            if mask == 0 {
                AgentKind::Negamax
            } else {
                nth_agent(mask, rng.below(mask.count_ones())).unwrap_or(AgentKind::Negamax)
            }
        };
        let o = pick(&mut self.rng);
        let x = pick(&mut self.rng);
        let o = AgentKind::from_id(pairing[0]).unwrap_or(o);
        let x = AgentKind::from_id(pairing[1]).unwrap_or(x);
        self.rec = Record::start(game, round, o, x);
    }

    /// One step (see the module documentation). `generation` is the restart counter;
    /// `agents` and `pairing` decide a new round's players (see `restart`); `clock` and
    /// `interrupt` meter the agents' work.
    #[allow(clippy::too_many_arguments)]
    pub fn step(
        &mut self,
        generation: u32,
        agents: u8,
        pairing: [u8; 2],
        settings: &Settings,
        mem: &mut Memory<'_>,
        td: &mut dyn TdHost,
        clock: &mut dyn Clock,
        interrupt: &mut dyn Interrupt,
    ) -> Step {
        let over = self
            .rec
            .game_state()
            .is_none_or(|s| s != GameState::Running);
        if over || generation != self.generation {
            self.generation = generation;
            let round = self.rec.round.wrapping_add(1);
            self.restart(self.rec.game, round, agents, pairing);
            return Step::Restarted(self.rec);
        }
        let Some(board) = self.rec.board4() else {
            return Step::Stalled;
        };
        let side = self.rec.side_to_move();
        let id = if side == Side::O {
            self.rec.o_agent
        } else {
            self.rec.x_agent
        };
        let kind = AgentKind::from_id(id).unwrap_or(AgentKind::Random);
        let seed = self.rng.next_u64();
        let budget = match kind {
            AgentKind::Negamax => NEGAMAX_NODES,
            AgentKind::Mcts => u64::from(settings.mcts_iterations) + 1,
            _ => u64::MAX / 2,
        };
        let mut meter = Meter::new(Budget::Nodes(budget), clock, interrupt);
        let cell = match kind {
            AgentKind::Negamax => Negamax::new(&mut *mem.tt).choose(&board, side, &mut meter),
            AgentKind::Random => RandomAgent::new(seed).choose(&board, side, &mut meter),
            AgentKind::Mcts => Mcts::new(&mut *mem.nodes, settings.mcts_iterations, seed)
                .choose(&board, side, &mut meter),
            AgentKind::TdLearning => td.choose(&board, side, &mut Rng::new(seed)),
            AgentKind::MonteCarlo => {
                MonteCarlo::new(settings.mc_playouts, seed).choose(&board, side, &mut meter)
            }
        };
        let Some(next) = cell.and_then(|c| self.rec.played(c)) else {
            return Step::Stalled;
        };
        self.rec = next;
        let td_id = AgentKind::TdLearning.id();
        if next.game_state().is_some_and(GameState::is_over)
            && (next.o_agent == td_id || next.x_agent == td_id)
        {
            td.learn(&next);
        }
        Step::Moved(next, kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::budget::{NeverInterrupt, NodeClock};
    use crate::kxo::mcts::nodes_for;
    use crate::kxo::record::{is_successor, RecordCheck};
    use crate::kxo::td::entries_for_kb;
    use crate::uapi::pairing::RANDOM;
    extern crate std;
    use std::collections::BTreeSet;
    use std::vec;

    #[test]
    fn slots_play_every_pairing_as_chains_of_successors() {
        let settings = Settings {
            mcts_iterations: 200,
            mc_playouts: 5,
        };
        let mut tt = vec![TtEntry::EMPTY; 1024];
        let mut nodes = vec![Node::EMPTY; nodes_for(200)];
        let mut td = TdTable::new(vec![TdEntry::EMPTY; entries_for_kb(64)]);
        let (mut clock, mut never) = (NodeClock { ns_per_node: 1 }, NeverInterrupt);
        let mut pairings = BTreeSet::new();
        let mut m = Match::new(3, 42, ALL_AGENTS, [RANDOM; 2]);
        let mut prev = m.record();
        assert!(prev.is_consistent());
        let mut finished = 0;
        for _ in 0..6000 {
            let mut mem = Memory {
                tt: &mut tt,
                nodes: &mut nodes,
            };
            match m.step(
                0,
                ALL_AGENTS,
                [RANDOM; 2],
                &settings,
                &mut mem,
                &mut td,
                &mut clock,
                &mut never,
            ) {
                Step::Restarted(r) => {
                    assert!(prev.game_state().unwrap().is_over());
                    assert_eq!(r.round, prev.round + 1);
                    assert_eq!((r.move_count, r.game), (0, 3));
                    finished += 1;
                    prev = r;
                }
                Step::Moved(r, kind) => {
                    assert!(is_successor(&prev, &r), "{prev:?} -> {r:?}");
                    let mover = if prev.side_to_move() == Side::O {
                        r.o_agent
                    } else {
                        r.x_agent
                    };
                    assert_eq!(mover, kind.id());
                    pairings.insert((r.o_agent, r.x_agent));
                    prev = r;
                }
                Step::Stalled => panic!("stalled at {prev:?}"),
            }
        }
        assert_eq!(pairings.len(), 25, "{pairings:?}");
        assert!(finished > 300);
        assert!(td.games() > 0, "the TD table learned from its games");
    }

    #[test]
    fn a_new_generation_restarts_and_the_mask_limits_the_agents() {
        let settings = Settings {
            mcts_iterations: 50,
            mc_playouts: 2,
        };
        let mut tt = vec![TtEntry::EMPTY; 64];
        let mut nodes = vec![Node::EMPTY; nodes_for(50)];
        let mut td = TdTable::new(vec![TdEntry::EMPTY; 64]);
        let (mut clock, mut never) = (NodeClock { ns_per_node: 1 }, NeverInterrupt);
        let only = 1 << AgentKind::Random.id();
        let mut m = Match::new(0, 1, only, [RANDOM; 2]);
        let mut mem = Memory {
            tt: &mut tt,
            nodes: &mut nodes,
        };
        assert!(matches!(
            m.step(
                0,
                only,
                [RANDOM; 2],
                &settings,
                &mut mem,
                &mut td,
                &mut clock,
                &mut never
            ),
            Step::Moved(_, AgentKind::Random)
        ));
        let Step::Restarted(r) = m.step(
            1,
            only,
            [RANDOM; 2],
            &settings,
            &mut mem,
            &mut td,
            &mut clock,
            &mut never,
        ) else {
            panic!("no restart on a new generation");
        };
        assert_eq!((r.round, r.move_count), (1, 0));
        assert_eq!((r.o_agent, r.x_agent), (1, 1));
        // A fixed side wins over the mask; the other side is still drawn from it.
        let fixed = [AgentKind::Mcts.id(), RANDOM];
        let Step::Restarted(r) = m.step(
            2, only, fixed, &settings, &mut mem, &mut td, &mut clock, &mut never,
        ) else {
            panic!("no restart on a new generation");
        };
        assert_eq!((r.o_agent, r.x_agent), (2, 1));
        assert!(matches!(
            m.step(2, only, fixed, &settings, &mut mem, &mut td, &mut clock, &mut never),
            Step::Moved(_, AgentKind::Mcts)
        ));
        // The same seed plays the same games.
        let a = Match::new(5, 99, ALL_AGENTS, [RANDOM; 2]);
        assert_eq!(a, Match::new(5, 99, ALL_AGENTS, [RANDOM; 2]));
    }
}
