//! The negamax agent: principal variation search with iterative deepening, a bounded Zobrist
//! transposition table in caller-owned storage, and a history heuristic. Integers only.
//!
//! Scores are from the side to move's point of view. A position where the side to move has
//! lost (the opponent just completed a line) at ply `p` from the root scores `-(WIN - p)`, so a
//! faster win scores higher; scores beyond [`MATE_BOUND`] are proven results. The table stores
//! proven scores relative to the node (distance to the end) and converts them back on a hit.
//! Depth-limited leaves score with [`evaluate`], far below `MATE_BOUND`.
//!
//! Memory: a [`TtEntry`] is 12 bytes; the table is any slice the caller allocates
//! (e.g. [`TT_DEFAULT_LEN`] entries = 12 KiB). [`History`] is 128 bytes. A search frame holds a
//! few words (no arrays); the recursion depth is at most 17 (16 cells + the root).

use core::ops::DerefMut;

use crate::common::budget::{Meter, SearchEnd};
use crate::common::rng::splitmix64;

use super::agent::Agent;
use super::agent::AgentKind;
use super::board::{Board4, Side, CELLS, LINES};

/// The score of a won position at the root (a win at ply `p` scores `WIN - p`).
pub const WIN: i16 = 1000;
/// Scores above this (or below its negation) are proven wins (losses).
pub const MATE_BOUND: i16 = WIN - 2 * CELLS as i16;
/// Larger than any score: the initial window.
const INF: i16 = WIN + 1;

/// A table length (12 KiB) that is plenty for this game: solving the empty board takes about
/// 3700 nodes with it (3670 with 16 times more entries, 5100 with no table at all).
pub const TT_DEFAULT_LEN: usize = 1024;

/// Bound kinds stored in [`TtEntry`] (0 marks an empty entry).
const BOUND_EXACT: u8 = 1;
const BOUND_LOWER: u8 = 2;
const BOUND_UPPER: u8 = 3;
const BOUND_MASK: u8 = 0b11;
/// Flag bit: X was to move in the stored position.
const X_TO_MOVE: u8 = 0b100;

/// One transposition table slot (12 bytes).
///
/// Invariant: `flags & 3 == 0` marks an empty slot; otherwise `lock` is the exact packed board
/// ([`Board4::packed`]) and the `X_TO_MOVE` flag the side to move, so a hit is never a
/// collision: the Zobrist hash only picks the slot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TtEntry {
    lock: u32,
    score: i16,
    depth: u8,
    flags: u8,
    best: u8,
}

impl TtEntry {
    /// The empty slot (what the kernel fills a fresh table with).
    pub const EMPTY: TtEntry = TtEntry {
        lock: 0,
        score: 0,
        depth: 0,
        flags: 0,
        best: 0,
    };
}

/// The Zobrist keys: SplitMix64's outputs from the seed "kxo_zobr", after one step.
const fn build_keys() -> [[u64; CELLS as usize]; 2] {
    let mut keys = [[0u64; CELLS as usize]; 2];
    let mut state = splitmix64(0x6B78_6F5F_7A6F_6272).0; // "kxo_zobr"
    let mut s = 0;
    while s < 2 {
        let mut c = 0;
        while c < CELLS as usize {
            let (next, key) = splitmix64(state);
            keys[s][c] = key;
            state = next;
            c += 1;
        }
        s += 1;
    }
    keys
}

/// Zobrist keys: `KEYS[side][cell]`.
const KEYS: [[u64; CELLS as usize]; 2] = build_keys();
/// Zobrist key of "X to move".
const KEY_X_TO_MOVE: u64 = splitmix64(0x5849_5f54_4f5f_4d4f).1;

/// The Zobrist hash of `board` with `side` to move.
pub fn zobrist(board: &Board4, side: Side) -> u64 {
    let mut h = if side == Side::X { KEY_X_TO_MOVE } else { 0 };
    for s in [Side::O, Side::X] {
        let mut m = board.mask(s);
        while m != 0 {
            let cell = (m.trailing_zeros() & 15) as usize;
            h ^= KEYS[s.index()][cell];
            m &= m - 1;
        }
    }
    h
}

/// The history heuristic: how often a (side, cell) move caused a cutoff, weighted by depth².
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct History {
    table: [[u32; CELLS as usize]; 2],
}

impl History {
    /// All zeros.
    pub const EMPTY: History = History {
        table: [[0; CELLS as usize]; 2],
    };

    fn score(&self, side: Side, cell: u8) -> u32 {
        self.table[side.index()][usize::from(cell & 15)]
    }

    fn reward(&mut self, side: Side, cell: u8, depth: u8) {
        let d = u32::from(depth);
        let slot = &mut self.table[side.index()][usize::from(cell & 15)];
        *slot = slot.saturating_add(d * d);
    }
}

impl Default for History {
    fn default() -> Self {
        History::EMPTY
    }
}

/// Line weights for [`evaluate`] by how many of the line's 3 cells one side holds (the other
/// side holding none).
const LINE_WEIGHT: [i16; 3] = [0, 1, 8];

/// A static score for `side` to move: for every line only one side occupies, +weight if it is
/// `side`'s, -weight if it is the opponent's. |score| <= 24 * 8, far below [`MATE_BOUND`].
pub fn evaluate(board: &Board4, side: Side) -> i16 {
    let mine = board.mask(side);
    let theirs = board.mask(side.other());
    let mut score = 0i16;
    for line in LINES {
        let m = (mine & line).count_ones() as usize;
        let t = (theirs & line).count_ones() as usize;
        if t == 0 {
            score += LINE_WEIGHT.get(m).copied().unwrap_or(0);
        } else if m == 0 {
            score -= LINE_WEIGHT.get(t).copied().unwrap_or(0);
        }
    }
    score
}

/// What a finished (or budget-stopped) search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    /// The move: always a legal cell.
    pub cell: u8,
    /// Its score for the side to move (see the module documentation).
    pub score: i16,
    /// The deepest completed iteration.
    pub depth: u8,
    /// True when the result is exact: a proven win/loss or the tree was searched to the end.
    pub solved: bool,
}

/// Mutable state one search threads through its recursion.
struct Ctx<'s, 'm> {
    tt: &'s mut [TtEntry],
    history: &'s mut History,
    meter: &'s mut Meter<'m>,
    /// Whether running out of budget aborts the current iteration (off for depth 1).
    abortable: bool,
}

impl Ctx<'_, '_> {
    fn tick(&mut self) -> Result<(), SearchEnd> {
        match self.meter.tick() {
            Some(SearchEnd::Interrupted) => Err(SearchEnd::Interrupted),
            Some(SearchEnd::OutOfBudget) if self.abortable => Err(SearchEnd::OutOfBudget),
            _ => Ok(()),
        }
    }

    fn slot(&self, hash: u64) -> Option<usize> {
        let len = self.tt.len() as u64;
        if len == 0 {
            None
        } else {
            Some((hash % len) as usize)
        }
    }

    fn probe(&self, hash: u64, lock: u32, side: Side) -> Option<TtEntry> {
        let e = *self.tt.get(self.slot(hash)?)?;
        let side_flag = if side == Side::X { X_TO_MOVE } else { 0 };
        (e.flags & BOUND_MASK != 0 && e.lock == lock && e.flags & X_TO_MOVE == side_flag)
            .then_some(e)
    }

    fn store(&mut self, hash: u64, entry: TtEntry) {
        if let Some(i) = self.slot(hash) {
            if let Some(e) = self.tt.get_mut(i) {
                *e = entry;
            }
        }
    }

    /// Picks the best-ordered move of `moves`: `first` if present, else the highest history
    /// score (lowest cell on ties).
    fn next_move(&self, moves: u16, first: Option<u8>, side: Side) -> Option<u8> {
        if let Some(f) = first {
            if f < CELLS && moves & (1 << f) != 0 {
                return Some(f);
            }
        }
        let mut best: Option<(u32, u8)> = None;
        let mut m = moves;
        while m != 0 {
            let cell = m.trailing_zeros() as u8;
            m &= m - 1;
            let h = self.history.score(side, cell);
            if best.is_none_or(|(bh, _)| h > bh) {
                best = Some((h, cell));
            }
        }
        best.map(|(_, c)| c)
    }
}

/// Converts a root-relative proven score at `ply` to node-relative for the table.
fn to_tt(score: i16, ply: u8) -> i16 {
    let p = i16::from(ply);
    if score > MATE_BOUND {
        score + p
    } else if score < -MATE_BOUND {
        score - p
    } else {
        score
    }
}

/// The inverse of [`to_tt`].
fn from_tt(score: i16, ply: u8) -> i16 {
    let p = i16::from(ply);
    if score > MATE_BOUND {
        score - p
    } else if score < -MATE_BOUND {
        score + p
    } else {
        score
    }
}

/// Principal variation search of `board` with `side` to move, `depth` plies left, `ply`
/// plies from the root. Returns the score for `side` within the (alpha, beta) window
/// semantics of fail-soft alpha-beta, or the reason to stop.
#[allow(clippy::too_many_arguments)]
fn pvs(
    ctx: &mut Ctx<'_, '_>,
    board: Board4,
    side: Side,
    hash: u64,
    depth: u8,
    ply: u8,
    mut alpha: i16,
    beta: i16,
) -> Result<i16, SearchEnd> {
    ctx.tick()?;
    // The opponent just moved: did it complete a line?
    if super::board::has_line(board.mask(side.other())) {
        return Ok(-(WIN - i16::from(ply)));
    }
    let moves = board.empty();
    if moves == 0 {
        return Ok(0);
    }
    if depth == 0 {
        return Ok(evaluate(&board, side));
    }
    let lock = board.packed();
    let mut tt_move = None;
    if let Some(e) = ctx.probe(hash, lock, side) {
        tt_move = Some(e.best);
        if e.depth >= depth {
            let s = from_tt(e.score, ply);
            match e.flags & BOUND_MASK {
                BOUND_EXACT => return Ok(s),
                BOUND_LOWER if s >= beta => return Ok(s),
                BOUND_UPPER if s <= alpha => return Ok(s),
                _ => {}
            }
        }
    }
    let alpha0 = alpha;
    let mut best = -INF;
    let mut best_move = 0u8;
    let mut left = moves;
    let mut first = true;
    while let Some(cell) = ctx.next_move(left, if first { tt_move } else { None }, side) {
        left &= !(1 << cell);
        let Some(child) = board.with(cell, side) else {
            continue;
        };
        let child_hash = hash ^ KEYS[side.index()][usize::from(cell & 15)] ^ KEY_X_TO_MOVE;
        let (d, p) = (depth - 1, ply + 1);
        let score = if first {
            -pvs(ctx, child, side.other(), child_hash, d, p, -beta, -alpha)?
        } else {
            let s = -pvs(
                ctx,
                child,
                side.other(),
                child_hash,
                d,
                p,
                -alpha - 1,
                -alpha,
            )?;
            if s > alpha && s < beta {
                -pvs(ctx, child, side.other(), child_hash, d, p, -beta, -alpha)?
            } else {
                s
            }
        };
        first = false;
        if score > best {
            best = score;
            best_move = cell;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    ctx.history.reward(side, cell, depth);
                    break;
                }
            }
        }
    }
    let bound = if best <= alpha0 {
        BOUND_UPPER
    } else if best >= beta {
        BOUND_LOWER
    } else {
        BOUND_EXACT
    };
    let flags = bound | if side == Side::X { X_TO_MOVE } else { 0 };
    ctx.store(
        hash,
        TtEntry {
            lock,
            score: to_tt(best, ply),
            depth,
            flags,
            best: best_move,
        },
    );
    Ok(best)
}

/// One root iteration at `depth`: every legal move with PVS, `first` searched first.
fn root(
    ctx: &mut Ctx<'_, '_>,
    board: &Board4,
    side: Side,
    depth: u8,
    first: Option<u8>,
) -> Result<(u8, i16), SearchEnd> {
    let hash = zobrist(board, side);
    let mut left = board.legal_moves();
    let mut alpha = -INF;
    let mut best: Option<(u8, i16)> = None;
    let mut next = first;
    while let Some(cell) = ctx.next_move(left, next.take(), side) {
        left &= !(1 << cell);
        let Some(child) = board.with(cell, side) else {
            continue;
        };
        let child_hash = hash ^ KEYS[side.index()][usize::from(cell & 15)] ^ KEY_X_TO_MOVE;
        let d = depth - 1;
        let score = if best.is_none() {
            -pvs(ctx, child, side.other(), child_hash, d, 1, -INF, INF)?
        } else {
            let s = -pvs(
                ctx,
                child,
                side.other(),
                child_hash,
                d,
                1,
                -alpha - 1,
                -alpha,
            )?;
            if s > alpha {
                -pvs(ctx, child, side.other(), child_hash, d, 1, -INF, -alpha)?
            } else {
                s
            }
        };
        if best.is_none_or(|(_, b)| score > b) {
            best = Some((cell, score));
            alpha = alpha.max(score);
        }
    }
    best.ok_or(SearchEnd::OutOfBudget)
}

/// Searches `board` for `side` by iterative deepening until the result is proven, the tree
/// is exhausted, or the meter stops.
///
/// Returns `None` when `board` has no legal move or the meter reports
/// [`SearchEnd::Interrupted`]. When the budget runs out, the move of the deepest completed
/// iteration is returned; the depth-1 iteration always completes (it ignores the budget, at
/// most 16 nodes past it), so the result is a legal move. Clears `tt` and `history` first, so
/// the result depends only on the board, the side, the table length and the node budget.
pub fn search(
    board: &Board4,
    side: Side,
    tt: &mut [TtEntry],
    history: &mut History,
    meter: &mut Meter<'_>,
) -> Option<Searched> {
    let legal = board.legal_moves();
    if legal == 0 {
        return None;
    }
    tt.fill(TtEntry::EMPTY);
    *history = History::EMPTY;
    let max_depth = legal.count_ones() as u8;
    let mut ctx = Ctx {
        tt,
        history,
        meter,
        abortable: false,
    };
    let mut found: Option<Searched> = None;
    for depth in 1..=max_depth {
        ctx.abortable = depth > 1;
        match root(&mut ctx, board, side, depth, found.map(|f| f.cell)) {
            Ok((cell, score)) => {
                let solved = depth == max_depth || !(-MATE_BOUND..=MATE_BOUND).contains(&score);
                found = Some(Searched {
                    cell,
                    score,
                    depth,
                    solved,
                });
                if solved {
                    break;
                }
            }
            Err(SearchEnd::Interrupted) => return None,
            Err(SearchEnd::OutOfBudget) => break,
        }
        if ctx.meter.check() == Some(SearchEnd::Interrupted) {
            return None;
        }
        if ctx.meter.stopped().is_some() {
            break;
        }
    }
    found
}

/// The negamax [`Agent`], owning (or borrowing) its transposition table storage `S`: a
/// `&mut [TtEntry]`, or a kernel vector of [`TtEntry::EMPTY`].
pub struct Negamax<S> {
    tt: S,
    history: History,
}

impl<S: DerefMut<Target = [TtEntry]>> Negamax<S> {
    /// An agent using `tt` as its table (any length; 0 disables the table).
    pub fn new(tt: S) -> Self {
        Negamax {
            tt,
            history: History::EMPTY,
        }
    }

    /// Runs [`search`] with this agent's table and history.
    pub fn search(
        &mut self,
        board: &Board4,
        side: Side,
        meter: &mut Meter<'_>,
    ) -> Option<Searched> {
        search(board, side, &mut self.tt, &mut self.history, meter)
    }
}

impl<S: DerefMut<Target = [TtEntry]>> Agent for Negamax<S> {
    fn choose(&mut self, board: &Board4, side: Side, meter: &mut Meter<'_>) -> Option<u8> {
        self.search(board, side, meter).map(|s| s.cell)
    }

    fn kind(&self) -> AgentKind {
        AgentKind::Negamax
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::budget::{Budget, NeverInterrupt, NodeClock};

    #[test]
    fn entry_is_twelve_bytes() {
        assert_eq!(core::mem::size_of::<TtEntry>(), 12);
        assert_eq!(core::mem::size_of::<History>(), 128);
    }

    #[test]
    fn incremental_hash_matches_full_hash() {
        let b = Board4::from_masks(0b1001_0000_0010_0001, 0b0100_0001_1000_0000).unwrap();
        let h = zobrist(&b, Side::X);
        let c = b.with(6, Side::X).unwrap();
        assert_eq!(h ^ KEYS[1][6] ^ KEY_X_TO_MOVE, zobrist(&c, Side::O));
        assert_ne!(zobrist(&b, Side::O), zobrist(&b, Side::X));
    }

    fn nodes<R>(n: u64, f: impl FnOnce(&mut Meter<'_>) -> R) -> R {
        let (mut c, mut i) = (NodeClock { ns_per_node: 1 }, NeverInterrupt);
        let mut meter = Meter::new(Budget::Nodes(n), &mut c, &mut i);
        f(&mut meter)
    }

    #[test]
    fn takes_a_win_and_blocks_a_loss() {
        // O: 0, 1 (threat at 2); X: 5, 6 (threat at 4 and 7). O to move wins at 2.
        let b = Board4::from_masks(0b11, 0b110_0000).unwrap();
        let mut tt = [TtEntry::EMPTY; 256];
        let mut h = History::EMPTY;
        nodes(1_000_000, |m| {
            let s = search(&b, Side::O, &mut tt, &mut h, m).unwrap();
            assert_eq!((s.cell, s.score, s.solved), (2, WIN - 1, true));
        });
        // O: 0, 15; X: 5, 6 with O to move: X threatens 4 and 7 at once: O loses.
        let b = Board4::from_masks(0b1000_0000_0000_0001, 0b110_0000).unwrap();
        nodes(1_000_000, |m| {
            let s = search(&b, Side::O, &mut tt, &mut h, m).unwrap();
            assert!(s.solved && s.score < -MATE_BOUND, "{s:?}");
        });
    }

    #[test]
    fn tiny_budget_still_gives_a_legal_move() {
        let mut tt = [TtEntry::EMPTY; 64];
        let mut h = History::EMPTY;
        for budget in [1, 2, 5, 17, 100] {
            nodes(budget, |m| {
                let s = search(&Board4::EMPTY, Side::O, &mut tt, &mut h, m).unwrap();
                assert!(Board4::EMPTY.is_legal(s.cell));
                assert!(s.depth >= 1);
            });
        }
    }

    extern crate std;
    use super::super::solver;
    use std::collections::HashSet;
    use std::vec;

    /// A search with a budget large enough to solve any position, and its node count.
    fn solve(b: &Board4, side: Side, tt: &mut [TtEntry], h: &mut History) -> (Searched, u64) {
        let mut out = None;
        nodes(100_000_000, |m| {
            let s = search(b, side, tt, h, m).unwrap();
            out = Some((s, m.nodes()));
        });
        out.unwrap()
    }

    struct Tree {
        tt: std::boxed::Box<[TtEntry]>,
        history: History,
        seen: HashSet<u32>,
        wins: u64,
        max_nodes: u64,
        total_nodes: u64,
        longest: u8,
    }

    /// O (negamax) to move on `b`; X tries every reply.
    fn explore(t: &mut Tree, b: Board4) {
        if !t.seen.insert(b.packed()) {
            return;
        }
        let (s, n) = solve(&b, Side::O, &mut t.tt, &mut t.history);
        t.max_nodes = t.max_nodes.max(n);
        t.total_nodes += n;
        assert!(s.solved && s.score > MATE_BOUND, "{b:?}: {s:?}");
        let after = b.with(s.cell, Side::O).expect("legal move");
        // O keeps a won game: X to move is lost with best play.
        assert_eq!(solver::value(after), -1, "{after:?}");
        if after.winner() == Some(Side::O) {
            t.wins += 1;
            t.longest = t.longest.max(after.stones());
            return;
        }
        assert!(!after.is_full());
        let mut replies = after.legal_moves();
        while replies != 0 {
            let x = replies.trailing_zeros() as u8;
            replies &= replies - 1;
            explore(t, after.with(x, Side::X).unwrap());
        }
    }

    #[test]
    fn negamax_as_o_wins_against_every_x_reply() {
        assert_eq!(solver::value(Board4::EMPTY), 1, "O wins with best play");
        let mut t = Tree {
            tt: vec![TtEntry::EMPTY; TT_DEFAULT_LEN].into_boxed_slice(),
            history: History::EMPTY,
            seen: HashSet::new(),
            wins: 0,
            max_nodes: 0,
            total_nodes: 0,
            longest: 0,
        };
        explore(&mut t, Board4::EMPTY);
        std::println!(
            "negamax as O: {} positions searched, {} won endings, longest game {} plies, \
             nodes max {} total {}",
            t.seen.len(),
            t.wins,
            t.longest,
            t.max_nodes,
            t.total_nodes
        );
        assert!(t.wins > 0);
    }

    #[test]
    fn negamax_values_agree_with_the_solver() {
        // Positions along random games (both sides to move), searched and compared with the
        // exhaustive solver: the proven score's sign is the game value and the chosen move
        // keeps that value.
        let mut tt = vec![TtEntry::EMPTY; TT_DEFAULT_LEN];
        let mut h = History::EMPTY;
        let mut rng = crate::common::rng::Rng::new(7);
        let mut checked = 0;
        for _ in 0..60 {
            let mut b = Board4::EMPTY;
            while b.legal_moves() != 0 {
                let side = b.side_to_move();
                let v = solver::value(b);
                let (s, _) = solve(&b, side, &mut tt, &mut h);
                assert!(s.solved, "{b:?} {s:?}");
                match v {
                    1 => assert!(s.score > MATE_BOUND, "{b:?} {s:?}"),
                    -1 => assert!(s.score < -MATE_BOUND, "{b:?} {s:?}"),
                    _ => assert_eq!(s.score, 0, "{b:?} {s:?}"),
                }
                let child = b.with(s.cell, side).unwrap();
                assert_eq!(-solver::value(child), v, "{b:?} move {}", s.cell);
                checked += 1;
                let moves = b.legal_moves();
                let cell = crate::kxo::agent::nth_cell(moves, rng.below(moves.count_ones()));
                b.play(cell.unwrap(), side);
            }
        }
        assert!(checked > 400, "{checked}");
    }

    #[test]
    fn an_interrupt_discards_the_search() {
        let (mut c, mut i) = (
            NodeClock { ns_per_node: 1 },
            crate::common::budget::AlwaysInterrupt,
        );
        let mut meter = Meter::new(Budget::Nodes(1 << 40), &mut c, &mut i);
        let mut agent = Negamax::new(vec![TtEntry::EMPTY; 64]);
        assert_eq!(agent.choose(&Board4::EMPTY, Side::O, &mut meter), None);
        assert_eq!(meter.stopped(), Some(SearchEnd::Interrupted));
    }

    #[test]
    fn negamax_beats_random_play_through_the_agent_trait() {
        use crate::kxo::agent::RandomAgent;
        let mut storage = [TtEntry::EMPTY; TT_DEFAULT_LEN];
        let mut nega = Negamax::new(&mut storage[..]);
        assert_eq!(
            (nega.kind(), nega.name(), nega.id()),
            (AgentKind::Negamax, "negamax", 0)
        );
        let mut x_wins = 0;
        for seed in 0..100u64 {
            let mut random = RandomAgent::new(seed);
            // Negamax plays O in even seeds, X in odd ones.
            let nega_side = if seed % 2 == 0 { Side::O } else { Side::X };
            let mut b = Board4::EMPTY;
            let mut side = Side::O;
            while b.legal_moves() != 0 {
                let v = solver::value(b);
                let cell = nodes(1_000_000, |m| {
                    if side == nega_side {
                        nega.choose(&b, side, m)
                    } else {
                        random.choose(&b, side, m)
                    }
                })
                .unwrap();
                assert!(b.play(cell, side));
                if side == nega_side {
                    // Never gives away a won or drawn position.
                    assert_eq!(-solver::value(b), v, "seed {seed}");
                }
                side = side.other();
            }
            if nega_side == Side::O {
                assert_eq!(b.winner(), Some(Side::O), "seed {seed}");
            } else if b.winner() == Some(Side::X) {
                x_wins += 1;
            }
        }
        std::println!("negamax as X beat random O {x_wins} times in 50");
        assert!(x_wins >= 40, "{x_wins}");
    }

    #[test]
    fn empty_table_slice_works() {
        let mut h = History::EMPTY;
        let b = Board4::from_masks(0b11, 0b110_0000).unwrap();
        nodes(1_000_000, |m| {
            let s = search(&b, Side::O, &mut [], &mut h, m).unwrap();
            assert_eq!(s.cell, 2);
        });
    }
}
