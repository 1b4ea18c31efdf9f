//! Monte Carlo tree search with UCT, in fixed point, on a preallocated node pool.
//!
//! One iteration: from the root, descend through fully expanded nodes by the UCT rule
//! `Q + C * sqrt(ln N / n)` (Q16.16: `super::fixed`), add one untried child, finish the game
//! with a random playout ([`super::playout`]), and add the result to every node on the path
//! (2 per win of the side that moved into the node, 1 per draw). After the iterations the most
//! visited root move plays.
//!
//! Decisive moves first (Teytaud & Teytaud, "On the huge benefit of decisive moves in
//! Monte-Carlo tree search", 2010): a move that wins at once is played without search, and if
//! the opponent threatens to win at once, that cell is blocked. So the agent never misses an
//! immediate win or block, whatever the iterations.
//!
//! Memory: the tree lives in a caller-owned slice of [`Node`]s ([`nodes_for`] of them for a
//! given iteration count: one per iteration plus the root; 20 bytes each). No allocation
//! during a move; when the pool is full the search stops expanding and decides with what it
//! has.

use core::ops::DerefMut;

use super::agent::Agent;
use super::agent::AgentKind;
use super::board::{Board4, Side, CELLS};
use super::fixed::{ln_q16, sqrt_q16};
use super::playout::{playout, winning_cell, wins_at};
use crate::common::budget::{Meter, SearchEnd};
use crate::common::rng::Rng;

/// The exploration constant C = sqrt(2) in Q16.16.
pub const EXPLORATION_Q16: u64 = 92_682;
/// Iterations per move by default (the module parameter `kxo_mcts_iters`).
pub const DEFAULT_ITERATIONS: u32 = 1000;
/// The most iterations per move (the pool for one slot stays under 2 MB).
pub const MAX_ITERATIONS: u32 = 100_000;
/// "No node" in a child or sibling link.
const NONE: u32 = u32::MAX;

/// One node of the tree: the move that leads to it, its statistics and its links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// Playouts through this node.
    pub(super) visits: u32,
    /// 2 per win and 1 per draw of the side that moved into this node.
    pub(super) score: u32,
    /// The first child, or `NONE`.
    pub(super) child: u32,
    /// The next sibling, or `NONE`.
    pub(super) sibling: u32,
    /// The moves from this position not expanded yet.
    untried: u16,
    /// The cell played to reach this node.
    cell: u8,
    /// 0 running; 1 the move into this node won; 2 a draw.
    end: u8,
}

impl Node {
    /// An unused node.
    pub const EMPTY: Node = Node {
        visits: 0,
        score: 0,
        child: NONE,
        sibling: NONE,
        untried: 0,
        cell: 0,
        end: 0,
    };
}

/// The pool length for `iterations` iterations: one node per iteration plus the root.
pub const fn nodes_for(iterations: u32) -> usize {
    iterations as usize + 1
}

/// What one search found: the move, the iterations run and the nodes used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    /// The cell to play.
    pub cell: u8,
    /// Iterations completed (0 when a decisive move was played).
    pub iterations: u32,
    /// Nodes of the pool used.
    pub nodes: u32,
}

/// The MCTS agent over a node pool `S` (a `&mut [Node]` or a kernel vector).
pub struct Mcts<S> {
    nodes: S,
    iterations: u32,
    rng: Rng,
}

impl<S: DerefMut<Target = [Node]>> Mcts<S> {
    /// An agent running `iterations` iterations per move (at most the pool's length less one)
    /// with generator seed `seed`.
    pub fn new(nodes: S, iterations: u32, seed: u64) -> Self {
        Mcts {
            nodes,
            iterations,
            rng: Rng::new(seed),
        }
    }

    /// The search for `side` on `board`. `None` without a legal move or when the meter
    /// reports [`SearchEnd::Interrupted`]; when the budget runs out the best move so far plays.
    pub fn search(
        &mut self,
        board: &Board4,
        side: Side,
        meter: &mut Meter<'_>,
    ) -> Option<Searched> {
        let legal = board.legal_moves();
        if legal == 0 {
            return None;
        }
        let decided = |cell| Searched {
            cell,
            iterations: 0,
            nodes: 0,
        };
        if let Some(c) = winning_cell(board, side) {
            return Some(decided(c));
        }
        if let Some(c) = winning_cell(board, side.other()) {
            return Some(decided(c));
        }
        if legal.count_ones() == 1 || self.nodes.is_empty() {
            return Some(decided(legal.trailing_zeros() as u8));
        }
        let pool = &mut *self.nodes;
        if let Some(root) = pool.first_mut() {
            *root = Node {
                untried: legal,
                ..Node::EMPTY
            };
        }
        let mut used = 1u32;
        let cap = pool.len().min(u32::MAX as usize) as u32;
        let mut done = 0u32;
        while done < self.iterations {
            if meter.tick().is_some() {
                break;
            }
            if !iterate(pool, &mut used, cap, board, side, &mut self.rng) {
                break;
            }
            done += 1;
        }
        if meter.stopped() == Some(SearchEnd::Interrupted) {
            return None;
        }
        let cell = best_child(pool).unwrap_or(legal.trailing_zeros() as u8);
        Some(Searched {
            cell,
            iterations: done,
            nodes: used,
        })
    }
}

/// The most visited child of the root (ties: the first expanded).
fn best_child(pool: &[Node]) -> Option<u8> {
    let mut best: Option<(u32, u8)> = None;
    let mut c = pool.first()?.child;
    while let Some(n) = pool.get(c as usize) {
        if best.is_none_or(|(v, _)| n.visits > v) {
            best = Some((n.visits, n.cell));
        }
        c = n.sibling;
    }
    best.map(|(_, cell)| cell)
}

/// The child of `parent` with the highest UCT value.
fn select(pool: &[Node], parent: &Node) -> Option<u32> {
    let ln_n = u64::from(ln_q16(parent.visits.max(1)));
    let mut best: Option<(u64, u32)> = None;
    let mut c = parent.child;
    while let Some(n) = pool.get(c as usize) {
        let visits = u64::from(n.visits.max(1));
        let q = (u64::from(n.score) << 15) / visits; // score / 2 / visits in Q16
        let ratio = ((ln_n << 16) / visits).min(u64::from(u32::MAX)) as u32;
        let u = q + ((EXPLORATION_Q16 * u64::from(sqrt_q16(ratio))) >> 16);
        if best.is_none_or(|(b, _)| u > b) {
            best = Some((u, c));
        }
        c = n.sibling;
    }
    best.map(|(_, i)| i)
}

/// One iteration; false when the pool is full (the search then decides).
fn iterate(
    pool: &mut [Node],
    used: &mut u32,
    cap: u32,
    board: &Board4,
    side: Side,
    rng: &mut Rng,
) -> bool {
    let mut path = [0u32; CELLS as usize + 1];
    let mut depth = 0usize;
    let mut b = *board;
    let mut mover = side; // the side to move at the current node
    let mut node = 0u32;
    // 1. Selection.
    loop {
        let Some(n) = pool.get(node as usize).copied() else {
            return false;
        };
        if n.end != 0 || n.untried != 0 || n.child == NONE {
            break;
        }
        let Some(next) = select(pool, &n) else {
            break;
        };
        let Some(cell) = pool.get(next as usize).map(|c| c.cell) else {
            return false;
        };
        b.play(cell, mover);
        mover = mover.other();
        node = next;
        depth += 1;
        if let Some(p) = path.get_mut(depth) {
            *p = node;
        }
    }
    // 2. Expansion: one untried move, unless the node ends the game.
    let leaf = pool.get(node as usize).copied().unwrap_or(Node::EMPTY);
    if leaf.end == 0 && leaf.untried != 0 {
        if *used >= cap {
            return false;
        }
        let k = rng.below(leaf.untried.count_ones());
        let cell = super::agent::nth_cell(leaf.untried, k).unwrap_or(0);
        b.play(cell, mover);
        let end = if wins_at(b.mask(mover), cell) {
            1
        } else if b.is_full() {
            2
        } else {
            0
        };
        let child = *used;
        *used += 1;
        if let Some(slot) = pool.get_mut(child as usize) {
            *slot = Node {
                cell,
                end,
                untried: if end == 0 { b.legal_moves() } else { 0 },
                sibling: leaf.child,
                ..Node::EMPTY
            };
        }
        if let Some(p) = pool.get_mut(node as usize) {
            p.untried &= !(1 << cell);
            p.child = child;
        }
        mover = mover.other();
        node = child;
        depth += 1;
        if let Some(p) = path.get_mut(depth) {
            *p = node;
        }
    }
    // 3. Simulation (a finished position keeps its result).
    let end = pool.get(node as usize).map_or(0, |n| n.end);
    let winner = match end {
        1 => Some(mover.other()),
        2 => None,
        _ => playout(&b, mover, rng),
    };
    // 4. Backpropagation: the node at depth d was entered by `side` when d is odd.
    for (d, &i) in path.iter().enumerate().take(depth + 1) {
        let entered_by = if d % 2 == 1 { side } else { side.other() };
        if let Some(n) = pool.get_mut(i as usize) {
            n.visits = n.visits.saturating_add(1);
            n.score = n.score.saturating_add(match winner {
                Some(w) if w == entered_by => 2,
                Some(_) => 0,
                None => 1,
            });
        }
    }
    true
}

impl<S: DerefMut<Target = [Node]>> Agent for Mcts<S> {
    fn choose(&mut self, board: &Board4, side: Side, meter: &mut Meter<'_>) -> Option<u8> {
        self.search(board, side, meter).map(|s| s.cell)
    }

    fn kind(&self) -> AgentKind {
        AgentKind::Mcts
    }
}

// The tests' and benchmarks' measure of a search (host only).
#[cfg(not(MODULE))]
pub use super::host::root_value;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::budget::{Budget, NeverInterrupt, NodeClock};
    extern crate std;
    use std::vec;

    fn meter_run<R>(f: impl FnOnce(&mut Meter<'_>) -> R) -> R {
        let (mut c, mut i) = (NodeClock { ns_per_node: 1 }, NeverInterrupt);
        let mut meter = Meter::new(Budget::Nodes(1 << 40), &mut c, &mut i);
        f(&mut meter)
    }

    #[test]
    fn node_is_twenty_bytes() {
        assert_eq!(core::mem::size_of::<Node>(), 20);
    }

    #[test]
    fn uses_one_node_per_iteration_and_is_deterministic() {
        let mut pool = vec![Node::EMPTY; nodes_for(500)];
        let mut a = Mcts::new(&mut pool[..], 500, 7);
        let s = meter_run(|m| a.search(&Board4::EMPTY, Side::O, m)).unwrap();
        assert_eq!(s.iterations, 500);
        assert!(s.nodes <= 501 && s.nodes > 100, "{s:?}");
        let mut pool2 = vec![Node::EMPTY; nodes_for(500)];
        let mut b = Mcts::new(&mut pool2[..], 500, 7);
        assert_eq!(meter_run(|m| b.search(&Board4::EMPTY, Side::O, m)), Some(s));
        // The root's visits add up.
        let mut sum = 0;
        let mut c = pool[0].child;
        while c != NONE {
            sum += pool[c as usize].visits;
            c = pool[c as usize].sibling;
        }
        assert_eq!(sum, 500);
    }

    #[test]
    fn a_small_pool_stops_expanding_and_still_moves() {
        let mut pool = [Node::EMPTY; 8];
        let mut a = Mcts::new(&mut pool[..], 1000, 3);
        let s = meter_run(|m| a.search(&Board4::EMPTY, Side::O, m)).unwrap();
        assert_eq!(s.nodes, 8);
        assert!(s.iterations < 1000);
        assert!(Board4::EMPTY.is_legal(s.cell));
    }

    #[test]
    fn budget_and_interrupt() {
        let mut pool = vec![Node::EMPTY; nodes_for(1000)];
        let mut a = Mcts::new(&mut pool[..], 1000, 3);
        let (mut c, mut i) = (NodeClock { ns_per_node: 1 }, NeverInterrupt);
        let mut meter = Meter::new(Budget::Nodes(50), &mut c, &mut i);
        let s = a.search(&Board4::EMPTY, Side::O, &mut meter).unwrap();
        assert!(s.iterations < 50);
        let (mut c, mut i) = (
            NodeClock { ns_per_node: 1 },
            crate::common::budget::AlwaysInterrupt,
        );
        let mut meter = Meter::new(Budget::Nodes(1 << 30), &mut c, &mut i);
        meter.check();
        assert_eq!(a.search(&Board4::EMPTY, Side::O, &mut meter), None);
    }
}
