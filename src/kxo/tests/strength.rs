//! Strength and legality of the AI-vs-AI agents (host): decisive moves of MCTS on every
//! reachable position, negamax as O never losing, MCTS and TD against the random agent, and
//! legal moves only from every agent.

use std::collections::HashSet;

use kgames_kxo::agent::{Agent, RandomAgent};
use kgames_kxo::arena::NEGAMAX_NODES;
use kgames_kxo::board::{Board4, GameState, Side};
use kgames_kxo::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
use kgames_kxo::common::rng::Rng;
use kgames_kxo::mcts::{nodes_for, Mcts, Node, DEFAULT_ITERATIONS};
use kgames_kxo::montecarlo::{MonteCarlo, DEFAULT_PLAYOUTS};
use kgames_kxo::negamax::{Negamax, TtEntry, TT_DEFAULT_LEN};
use kgames_kxo::playout::winning_cell;
use kgames_kxo::td::{entries_for_kb, TdEntry, TdTable, DEFAULT_KB, DEFAULT_TRAIN_GAMES};
use kgames_kxo::uapi::agent::AgentKind;

/// One of the five agents with its own memory.
enum Player {
    Negamax(Vec<TtEntry>),
    Random(u64),
    Mcts(Vec<Node>, u64),
    Td(TdTable<Vec<TdEntry>>, Rng),
    Mc(u64),
}

impl Player {
    fn new(kind: AgentKind, seed: u64) -> Player {
        match kind {
            AgentKind::Negamax => Player::Negamax(vec![TtEntry::EMPTY; TT_DEFAULT_LEN]),
            AgentKind::Random => Player::Random(seed),
            AgentKind::Mcts => Player::Mcts(vec![Node::EMPTY; nodes_for(DEFAULT_ITERATIONS)], seed),
            AgentKind::TdLearning => {
                let mut t = TdTable::new(vec![TdEntry::EMPTY; entries_for_kb(DEFAULT_KB)]);
                t.train(DEFAULT_TRAIN_GAMES, &mut Rng::new(seed));
                Player::Td(t, Rng::new(seed ^ 1))
            }
            AgentKind::MonteCarlo => Player::Mc(seed),
        }
    }

    fn choose(&mut self, b: &Board4, side: Side) -> Option<u8> {
        let (mut c, mut i) = (NodeClock { ns_per_node: 1 }, NeverInterrupt);
        let nodes = match self {
            Player::Negamax(_) => NEGAMAX_NODES,
            Player::Mcts(..) => u64::from(DEFAULT_ITERATIONS) + 1,
            _ => 1 << 40,
        };
        let mut meter = Meter::new(Budget::Nodes(nodes), &mut c, &mut i);
        match self {
            Player::Negamax(tt) => Negamax::new(&mut tt[..]).choose(b, side, &mut meter),
            Player::Random(seed) => {
                *seed = seed.wrapping_add(1);
                RandomAgent::new(*seed).choose(b, side, &mut meter)
            }
            Player::Mcts(pool, seed) => {
                *seed = seed.wrapping_add(1);
                Mcts::new(&mut pool[..], DEFAULT_ITERATIONS, *seed).choose(b, side, &mut meter)
            }
            Player::Td(t, rng) => t.choose(b, side, rng, 0),
            Player::Mc(seed) => {
                *seed = seed.wrapping_add(1);
                MonteCarlo::new(DEFAULT_PLAYOUTS, *seed).choose(b, side, &mut meter)
            }
        }
    }
}

/// Plays `games` games; returns (O wins, draws, X wins).
fn play(o: &mut Player, x: &mut Player, games: u32) -> (u32, u32, u32) {
    let mut r = (0, 0, 0);
    for _ in 0..games {
        let mut b = Board4::EMPTY;
        let mut side = Side::O;
        while b.state() == GameState::Running {
            let p = if side == Side::O { &mut *o } else { &mut *x };
            let c = p.choose(&b, side).expect("a move while the game runs");
            assert!(b.play(c, side), "illegal move {c} on {b:?}");
            side = side.other();
        }
        match b.state() {
            GameState::OWon => r.0 += 1,
            GameState::Draw => r.1 += 1,
            _ => r.2 += 1,
        }
    }
    r
}

#[test]
fn mcts_never_misses_an_immediate_win_or_block() {
    // Every reachable running position, by a search over the game tree with a visited set.
    let mut seen = HashSet::new();
    let mut stack = vec![Board4::EMPTY];
    let mut pool = vec![Node::EMPTY; nodes_for(DEFAULT_ITERATIONS)];
    let (mut checked_wins, mut checked_blocks) = (0u32, 0u32);
    while let Some(b) = stack.pop() {
        if !seen.insert(b.packed()) || b.state() != GameState::Running {
            continue;
        }
        let side = b.side_to_move();
        let win = winning_cell(&b, side);
        let threat = winning_cell(&b, side.other());
        if win.is_some() || threat.is_some() {
            let (mut c, mut i) = (NodeClock { ns_per_node: 1 }, NeverInterrupt);
            let mut meter = Meter::new(Budget::Nodes(1 << 40), &mut c, &mut i);
            let cell = Mcts::new(&mut pool[..], DEFAULT_ITERATIONS, 1)
                .choose(&b, side, &mut meter)
                .unwrap();
            let after = b.with(cell, side).unwrap();
            if win.is_some() {
                assert_eq!(after.winner(), Some(side), "missed a win on {b:?}");
                checked_wins += 1;
            } else {
                // The cell blocks: the opponent cannot win by playing it any more.
                let blocked = b
                    .with(cell, side.other())
                    .is_some_and(|o| o.winner() == Some(side.other()));
                assert!(blocked, "missed a block on {b:?}");
                checked_blocks += 1;
            }
        }
        let mut m = b.legal_moves();
        while m != 0 {
            let c = m.trailing_zeros() as u8;
            m &= m - 1;
            stack.push(b.with(c, side).unwrap());
        }
    }
    eprintln!(
        "{} reachable positions, {checked_wins} with a win, {checked_blocks} with a block only",
        seen.len()
    );
    assert!(checked_wins > 100_000 && checked_blocks > 100_000);
}

#[test]
fn negamax_as_o_never_loses() {
    for kind in AgentKind::ALL {
        let games = if kind == AgentKind::TdLearning {
            50
        } else {
            100
        };
        let mut o = Player::new(AgentKind::Negamax, 1);
        let mut x = Player::new(kind, 7);
        let r = play(&mut o, &mut x, games);
        eprintln!("negamax (O) vs {} (X): {r:?}", kind.name());
        assert_eq!(r.2, 0, "negamax lost as O against {}", kind.name());
    }
}

#[test]
fn mcts_and_td_lose_at_most_one_percent_against_random_as_o() {
    for kind in [
        AgentKind::Mcts,
        AgentKind::TdLearning,
        AgentKind::MonteCarlo,
    ] {
        let mut o = Player::new(kind, 3);
        let mut x = Player::new(AgentKind::Random, 4);
        let r = play(&mut o, &mut x, 1000);
        eprintln!("{} (O) vs random (X): {r:?}", kind.name());
        if kind != AgentKind::MonteCarlo {
            assert!(r.2 <= 10, "{} lost {} of 1000", kind.name(), r.2);
        }
    }
}

#[test]
fn every_agent_plays_only_legal_moves() {
    let mut rng = Rng::new(77);
    for kind in AgentKind::ALL {
        let mut p = Player::new(kind, 5);
        for _ in 0..300 {
            // A random position: random moves from the start, stopped at random.
            let mut b = Board4::EMPTY;
            let plies = rng.below(12);
            for _ in 0..plies {
                if b.state() != GameState::Running {
                    break;
                }
                let m = b.legal_moves();
                let c = kgames_kxo::agent::nth_cell(m, rng.below(m.count_ones())).unwrap();
                b.play(c, b.side_to_move());
            }
            let side = b.side_to_move();
            match p.choose(&b, side) {
                Some(c) => assert!(b.is_legal(c), "{}: {c} on {b:?}", kind.name()),
                None => assert_eq!(b.legal_moves(), 0, "{}: no move on {b:?}", kind.name()),
            }
        }
    }
}
