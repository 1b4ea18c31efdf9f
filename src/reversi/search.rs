//! The CPU player: iterative deepening negascout (PVS) with a transposition table and
//! Multi-ProbCut (a shallow search's score, beyond a fitted margin, cuts a deep node),
//! switching to the exact endgame solver when the end is within reach.
//!
//! Scores: midgame scores are [`eval`](super::eval) units (100 is about one disc) for the side
//! to move; a game end found inside the midgame tree scores `WIN + d` / `-WIN + d` for a final
//! difference `d`. An exact result ([`SearchResult::exact`]) is the final disc difference for
//! the side to move with the empties given to the winner.
//!
//! Memory: the caller owns the table (`&mut [TtEntry]`, 16 bytes per entry, any length). On the
//! stack, a midgame or sorted endgame node keeps one 88-byte move list plus a few words (about
//! 320 bytes per frame in an x86-64 host release build; about 180 for the unsorted solver
//! nodes with at most 6 empties). The midgame recursion is at most [`MAX_DEPTH`] plies plus
//! passes (a Multi-ProbCut search is shallower than the node that starts it); the solver's
//! at most the number of empties plus passes, and the CPU player only solves at
//! [`SOLVE_EMPTIES`] or fewer empties (after a short deepening), with a large budget at
//! [`LARGE_SOLVE_EMPTIES`] or fewer (after a deepening to [`LARGE_PRE_SOLVE_DEPTH`]), or once
//! the deepening gets within [`SOLVE_MARGIN`] plies of the end with at most
//! [`MAX_SOLVE_EMPTIES`] empties.

use super::bitboard::{self, square_bit, Bitboard, Squares, CORNERS};
use super::eval::EvalKind;
use super::movelist::MoveList;
use super::position::{final_score, Position};
use super::tt::{self, Bound, Table, TtEntry, NO_MOVE};
use crate::common::budget::{Budget, Meter, SearchEnd};
use crate::common::rng::Rng;

/// The deepest midgame iteration (bounds the midgame recursion, hence the stack).
pub const MAX_DEPTH: u8 = 24;
/// At or below this many empties the CPU solves the position exactly after a midgame
/// deepening to [`PRE_SOLVE_DEPTH`].
pub const SOLVE_EMPTIES: u32 = 14;
/// The midgame depth searched before an exact solve at [`SOLVE_EMPTIES`] or fewer empties.
pub const PRE_SOLVE_DEPTH: u32 = 2;
/// With a budget of at least [`LARGE_BUDGET_MS`] ms (or [`LARGE_BUDGET_NODES`] nodes), the
/// solver starts at this many empties: win/loss/draw first, then the exact score (on the host
/// at 1 s per move, exact from 20 empties and win/loss/draw from 22).
pub const LARGE_SOLVE_EMPTIES: u32 = 22;
/// The midgame depth searched before a solve at [`LARGE_SOLVE_EMPTIES`] (the fallback move).
pub const LARGE_PRE_SOLVE_DEPTH: u32 = 6;
/// A time budget this large (ms) counts as large.
pub const LARGE_BUDGET_MS: u32 = 500;
/// A node budget this large counts as large.
pub const LARGE_BUDGET_NODES: u64 = 5_000_000;
/// The exact solver is tried once the midgame depth plus this margin reaches the empties.
pub const SOLVE_MARGIN: u32 = 8;
/// The exact solver is never tried with more empties than this (bounds its recursion).
pub const MAX_SOLVE_EMPTIES: u32 = 26;

/// With a time budget and at least this many empties, the CPU picks at random (from the
/// context's seeded generator) among the root moves within [`VARIETY_MARGIN`] of the best, so
/// that it does not always play the same game. Off with a node budget (deterministic play).
pub const VARIETY_EMPTIES: u32 = 46;
/// How far below the best score (eval units) a root move still counts as near-equal.
pub const VARIETY_MARGIN: i32 = 60;

/// Base of the midgame score of a finished game (won by the side to move).
pub const WIN: i32 = 30_000;
/// The root solver skips its win and draw tests when the midgame guess is a loss by at least
/// this many discs, and starts the exact tests at the guess.
pub const WLD_SKIP_GUESS: i32 = 8;
/// Larger than any score.
pub(super) const INF: i32 = 31_000;

/// What the caller keeps between searches: the transposition table.
///
/// Results depend on the table's contents: for a result that depends only on the position and
/// the budget, [`clear`](Self::clear) it before each search. A table kept between the moves
/// of one game (as `/dev/reversi` keeps it) lets each move reuse the work of the previous
/// ones: its midgame bounds, best moves and solved scores are properties of the positions
/// alone. A node-budget search with a kept table is still deterministic for the same sequence
/// of searches.
pub struct SearchContext<'a> {
    tt: &'a mut [TtEntry],
    generation: u8,
    eval: EvalKind,
    /// Multi-ProbCut in the midgame search (default on).
    selective: bool,
    /// The choices among near-equal opening moves (kept by [`clear`](Self::clear)).
    rng: Rng,
}

impl<'a> SearchContext<'a> {
    /// A context over a caller-allocated table (any length, 0 disables it; entries should
    /// start as [`TtEntry::EMPTY`]).
    pub fn new(tt: &'a mut [TtEntry]) -> Self {
        SearchContext {
            tt,
            generation: 0,
            eval: EvalKind::default(),
            selective: true,
            rng: Rng::new(0x5EED),
        }
    }

    /// Turns Multi-ProbCut in the midgame search on or off (default on).
    pub fn set_selective(&mut self, on: bool) {
        self.selective = on;
    }

    /// Seeds the choice among near-equal opening moves (see [`VARIETY_EMPTIES`]).
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    /// Selects the static evaluation (default: [`EvalKind::Pattern`]).
    pub fn set_eval(&mut self, eval: EvalKind) {
        self.eval = eval;
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.tt.fill(TtEntry::EMPTY);
        self.generation = 0;
    }
}

/// The CPU's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Play this square (always legal).
    Move(u8),
    /// Pass (only when the side to move has no legal move).
    Pass,
    /// Interrupted: discard the result.
    Interrupted,
}

/// A search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The decision.
    pub outcome: Outcome,
    /// The score for the side to move: exact disc difference if `exact`, else eval units.
    pub score: i32,
    /// The last completed midgame depth (0 if none, or if solved outright).
    pub depth: u8,
    /// True when `score` is the proven final disc difference.
    pub exact: bool,
    /// Nodes searched (the meter's count at the end).
    pub nodes: u64,
}

/// The state of one search: the table, the meter and whether it stopped.
pub(crate) struct Searcher<'t, 'm, 'c> {
    pub(crate) tt: Table<'t>,
    meter: &'m mut Meter<'c>,
    /// Set once the meter said stop; every node then returns at once, with a value to ignore.
    pub(crate) stopped: bool,
    pub(crate) eval: EvalKind,
    selective: bool,
}

/// The moves at the root, best first.
pub(super) struct RootMoves {
    squares: [u8; 64],
    len: usize,
}

/// What a root search found.
pub(super) struct RootResult {
    /// Best score among the fully searched moves (fail-soft).
    pub(super) best: i32,
    /// The move with that score (valid if `searched_any`).
    best_sq: u8,
    /// At least one move was fully searched.
    searched_any: bool,
    /// Every move was searched (or a cutoff proved the bound).
    pub(super) complete: bool,
    /// With a margin: the moves proven to score at least their entry of `near_lb`.
    near: Bitboard,
    near_lb: [i32; 64],
}

/// What a root search does: a midgame search or an exact solve.
#[derive(Clone, Copy)]
pub(super) enum Mode {
    /// Depth, and the margin of near-equal moves (0: none).
    Midgame(u8, i32),
    Solve,
}

/// Multi-ProbCut from this depth on.
const MPC_MIN_DEPTH: u8 = 3;
/// The cut's width in standard deviations of the shallow search's error, in hundredths.
const MPC_T: i32 = 100;

/// Multi-ProbCut's shallow search depth for a node of `depth`: about half, of the same
/// parity (the lab's `reversi_mpc_fit` fits its table at these depths).
pub fn mpc_shallow_depth(depth: u8) -> u8 {
    ((depth >> 1) & 0xFE) ^ (depth & 1)
}

/// The standard deviation (eval units) of the deep score less the shallow one, by depth 3..=10
/// (deeper: 10's) and empties / 10, fitted by `reversi_mpc_fit` (lab).
const MPC_SIGMA: [[i32; 6]; 8] = [
    [340, 410, 370, 360, 270, 220],
    [310, 390, 330, 330, 230, 180],
    [290, 390, 320, 290, 260, 150],
    [390, 450, 410, 400, 380, 220],
    [350, 450, 370, 340, 310, 210],
    [330, 430, 360, 310, 310, 210],
    [310, 380, 340, 270, 300, 180],
    [390, 480, 410, 340, 410, 210],
];

/// The cut's margin at `depth` with `empties` empties.
fn mpc_margin(depth: u8, empties: u32) -> i32 {
    let d = usize::from(depth.clamp(3, 10) - 3);
    let e = (empties / 10).min(5) as usize;
    let sigma = MPC_SIGMA
        .get(d)
        .and_then(|row| row.get(e))
        .copied()
        .unwrap_or(400);
    sigma * MPC_T / 100
}

/// The midgame score of a finished game.
#[inline]
fn terminal(me: Bitboard, opp: Bitboard) -> i32 {
    let d = final_score(me, opp);
    match d.cmp(&0) {
        core::cmp::Ordering::Greater => WIN + d,
        core::cmp::Ordering::Less => -WIN + d,
        core::cmp::Ordering::Equal => 0,
    }
}

/// A cheap ordering score from the square alone.
#[inline]
fn static_score(sq: u8, empty: Bitboard) -> i32 {
    const X_SQUARES: [(u8, u8); 4] = [(9, 0), (14, 7), (49, 56), (54, 63)];
    const C_SQUARES: [(u8, u8); 8] = [
        (1, 0),
        (8, 0),
        (6, 7),
        (15, 7),
        (48, 56),
        (57, 56),
        (55, 63),
        (62, 63),
    ];
    let bit = square_bit(sq);
    let mut s = 500;
    if bit & CORNERS != 0 {
        s += 300;
    }
    for (x, c) in X_SQUARES {
        if x == sq && empty & square_bit(c) != 0 {
            s -= 200;
        }
    }
    for (x, c) in C_SQUARES {
        if x == sq && empty & square_bit(c) != 0 {
            s -= 60;
        }
    }
    s
}

/// The full ordering score: static value and the opponent's replies after the move.
#[inline]
fn mobility_score(me: Bitboard, opp: Bitboard, sq: u8) -> i32 {
    let f = bitboard::flips(me, opp, sq);
    child_score(sq, me | f | square_bit(sq), opp & !f)
}

/// [`mobility_score`] of the move `sq` that left `nme` (the mover's discs) and `nopp`.
#[inline]
fn child_score(sq: u8, nme: Bitboard, nopp: Bitboard) -> i32 {
    let replies = bitboard::moves(nopp, nme);
    static_score(sq, !(nme | nopp))
        - 25 * replies.count_ones() as i32
        - 60 * (replies & CORNERS).count_ones() as i32
}

impl RootMoves {
    pub(super) fn new(me: Bitboard, opp: Bitboard, moves: Bitboard) -> Self {
        let mut list = MoveList::new();
        for sq in Squares(moves) {
            list.push(sq, mobility_score(me, opp, sq));
        }
        let mut r = RootMoves {
            squares: [0; 64],
            len: 0,
        };
        while let Some(sq) = list.next_move() {
            if let Some(slot) = r.squares.get_mut(r.len) {
                *slot = sq;
                r.len += 1;
            }
        }
        r
    }

    fn first(&self) -> u8 {
        self.squares[0]
    }

    /// Moves `sq` to the front, keeping the others' order.
    fn promote(&mut self, sq: u8) {
        let len = self.len.min(64);
        if let Some(i) = self.squares[..len].iter().position(|&s| s == sq) {
            self.squares[..=i].rotate_right(1);
        }
    }
}

impl<'t, 'm, 'c> Searcher<'t, 'm, 'c> {
    pub(super) fn new(ctx: &'t mut SearchContext<'_>, meter: &'m mut Meter<'c>) -> Self {
        ctx.generation = ctx.generation.wrapping_add(1);
        Searcher {
            tt: Table::new(&mut *ctx.tt, ctx.generation),
            meter,
            stopped: false,
            eval: ctx.eval,
            selective: ctx.selective,
        }
    }

    /// Counts a node; true when the search must unwind.
    #[inline]
    pub(crate) fn tick(&mut self) -> bool {
        if self.meter.tick().is_some() {
            self.stopped = true;
        }
        self.stopped
    }

    /// Negascout to `depth` plies (passes do not count), fail-soft.
    ///
    /// A pass is the same search with the sides swapped and the window negated: it is taken
    /// in this frame (at most once in a row), not by a recursive call, so the recursion is at
    /// most `depth` frames deep however many passes a position forces (a position set with
    /// `10` can force one every other ply). Nodes are counted as if it were a call.
    fn pvs(
        &mut self,
        mut me: Bitboard,
        mut opp: Bitboard,
        depth: u8,
        mut alpha: i32,
        mut beta: i32,
        mut passed: bool,
    ) -> i32 {
        let mut negate = false;
        loop {
            if self.tick() {
                return 0;
            }
            let v = if depth == 0 {
                self.eval.evaluate(me, opp)
            } else {
                let moves = bitboard::moves(me, opp);
                if moves != 0 {
                    self.pvs_moves(me, opp, moves, depth, alpha, beta)
                } else if passed || bitboard::moves(opp, me) == 0 {
                    terminal(me, opp)
                } else {
                    (me, opp) = (opp, me);
                    (alpha, beta) = (-beta, -alpha);
                    passed = true;
                    negate = !negate;
                    continue;
                }
            };
            return if negate { -v } else { v };
        }
    }

    /// [`Searcher::pvs`] at a node where the side to move has `moves` (not 0) and `depth > 0`.
    #[inline(always)]
    fn pvs_moves(
        &mut self,
        me: Bitboard,
        opp: Bitboard,
        moves: Bitboard,
        depth: u8,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        let key = tt::hash(me, opp);
        let mut tt_move = NO_MOVE;
        if let Some(h) = self.tt.probe(key, false) {
            tt_move = h.best;
            if h.depth >= depth {
                match h.bound {
                    Some(Bound::Exact) => return h.score,
                    Some(Bound::Lower) => alpha = alpha.max(h.score),
                    Some(Bound::Upper) => beta = beta.min(h.score),
                    None => {}
                }
                if alpha >= beta {
                    return h.score;
                }
            }
        }

        // Multi-ProbCut: a shallow search predicts this one's score.
        if self.selective && depth >= MPC_MIN_DEPTH {
            if let Some(v) = self.probcut(me, opp, depth, alpha, beta) {
                return v;
            }
        }

        let empty = !(me | opp);
        let mut list = MoveList::new();
        for sq in Squares(moves) {
            let s = if sq == tt_move {
                1023
            } else if depth >= 2 {
                let f = bitboard::flips(me, opp, sq);
                let (nme, nopp) = (me | f | square_bit(sq), opp & !f);
                // Prefetch the child's slot for its probe.
                self.tt.prefetch(tt::hash(nopp, nme));
                child_score(sq, nme, nopp)
            } else {
                static_score(sq, empty)
            };
            list.push(sq, s);
        }

        let Some((best, best_move)) = self.negascout(
            me,
            opp,
            &mut list,
            alpha,
            beta,
            -INF,
            |s, nme, nopp, a, b| s.pvs(nme, nopp, depth - 1, a, b, false),
        ) else {
            return 0;
        };
        self.tt.store(
            key,
            false,
            depth,
            Bound::of(best, alpha, beta),
            best,
            best_move,
        );
        best
    }

    /// Multi-ProbCut at a node of `depth`: `Some(beta)` when a shallow search scores so far
    /// above `beta` that the deep one would too with high probability, `Some(alpha)` when
    /// so far below `alpha`; `None` when neither (or when stopped: `Some(0)`, thrown away).
    fn probcut(
        &mut self,
        me: Bitboard,
        opp: Bitboard,
        depth: u8,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let shallow = mpc_shallow_depth(depth);
        let margin = mpc_margin(depth, (!(me | opp)).count_ones());
        let high = beta.saturating_add(margin);
        if high < WIN - 64 && self.pvs(me, opp, shallow, high - 1, high, false) >= high {
            return Some(if self.stopped { 0 } else { beta });
        }
        let low = alpha.saturating_sub(margin);
        if low > 64 - WIN && self.pvs(me, opp, shallow, low, low + 1, false) <= low {
            return Some(if self.stopped { 0 } else { alpha });
        }
        self.stopped.then_some(0)
    }

    /// The move loop of a fail-soft negascout node, shared by the midgame search and the
    /// endgame solver: the moves of `list` in order from `me`'s side, the first with the full
    /// window and the others with a null window first, re-searched when they beat `alpha`;
    /// `child(self, me, opp, alpha, beta)` is the child node's search from its mover's side.
    /// Returns the best score (from `worst` up) and its move, or `None` when the search was
    /// stopped (its result must be thrown away).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn negascout(
        &mut self,
        me: Bitboard,
        opp: Bitboard,
        list: &mut MoveList,
        mut alpha: i32,
        beta: i32,
        worst: i32,
        mut child: impl FnMut(&mut Self, Bitboard, Bitboard, i32, i32) -> i32,
    ) -> Option<(i32, u8)> {
        let mut best = worst;
        let mut best_move = NO_MOVE;
        let mut first = true;
        while let Some(sq) = list.next_move() {
            let f = bitboard::flips(me, opp, sq);
            let (nme, nopp) = (me | f | square_bit(sq), opp & !f);
            let mut v;
            if first {
                v = -child(self, nopp, nme, -beta, -alpha);
                first = false;
            } else {
                v = -child(self, nopp, nme, -alpha - 1, -alpha);
                if v > alpha && v < beta && !self.stopped {
                    v = -child(self, nopp, nme, -beta, -v);
                }
            }
            if self.stopped {
                return None;
            }
            if v > best {
                best = v;
                best_move = sq;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        Some((best, best_move))
    }

    /// Searches the root moves in order within `alpha..beta` (negascout, fail-soft). With a
    /// midgame `margin > 0`, every later move is first tested against `best - margin`, and those that
    /// pass are recorded in [`RootResult::near`].
    pub(super) fn root_search(
        &mut self,
        me: Bitboard,
        opp: Bitboard,
        root: &mut RootMoves,
        mode: Mode,
        mut alpha: i32,
        beta: i32,
    ) -> RootResult {
        let margin = match mode {
            Mode::Midgame(_, margin) => margin,
            Mode::Solve => 0,
        };
        let mut r = RootResult {
            best: -INF,
            best_sq: root.first(),
            searched_any: false,
            complete: false,
            near: 0,
            near_lb: [-INF; 64],
        };
        // The near-equal moves are told by exact scores: a search without Multi-ProbCut (whose
        // cuts depend on the window and the table, and would tell symmetric moves apart).
        let selective = self.selective;
        self.selective &= margin == 0;
        let len = root.len.min(64);
        for i in 0..len {
            let sq = root.squares[i];
            let f = bitboard::flips(me, opp, sq);
            let (nme, nopp) = (me | f | square_bit(sq), opp & !f);
            let child = |s: &mut Self, a: i32, b: i32| match mode {
                Mode::Midgame(d, _) => -s.pvs(nopp, nme, d.saturating_sub(1), -b, -a, false),
                Mode::Solve => -s.solve(nopp, nme, -b, -a, false),
            };
            let mut v;
            let mut lb = -INF;
            if i == 0 {
                v = child(self, alpha, beta);
                lb = v;
            } else {
                let t = alpha - margin;
                v = if margin > 0 {
                    child(self, t - 1, t)
                } else {
                    alpha
                };
                if v >= t && !self.stopped {
                    lb = v;
                    v = child(self, alpha, alpha + 1);
                    if v > alpha && v < beta && !self.stopped {
                        v = child(self, v, beta);
                    }
                    lb = lb.max(v);
                }
            }
            if self.stopped {
                break;
            }
            if margin > 0 && lb > -INF {
                r.near |= square_bit(sq);
                if let Some(slot) = r.near_lb.get_mut(usize::from(sq & 63)) {
                    *slot = lb;
                }
            }
            if v > r.best || !r.searched_any {
                r.best = v;
                r.best_sq = sq;
            }
            r.searched_any = true;
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
        self.selective = selective;
        r.complete = !self.stopped;
        if r.searched_any {
            root.promote(r.best_sq);
        }
        r
    }

    /// Solves the root: win/loss/draw first, then the exact score. `Some((score, move,
    /// exact))`; a non-exact answer is a proven win with a winning move.
    ///
    /// The exact score is found by null-window tests (window `t-1..t+1`: final scores are
    /// even) starting from `guess` (a midgame score, eval units), stepping away from it by
    /// doubling steps until the score is bracketed, then bisecting: near the true score each
    /// test costs little more than a proof tree, far less than one wide-window search.
    pub(super) fn solve_root(
        &mut self,
        me: Bitboard,
        opp: Bitboard,
        root: &mut RootMoves,
        guess: i32,
    ) -> RootAnswer {
        let mut t = disc_guess(guess);
        // Proven bounds on the score: lower <= score <= upper, both even.
        let (mut lower, mut upper, mut best_sq) = if t <= -WLD_SKIP_GUESS {
            // A clear loss: the exact tests start at the guess at once (the tests of a win and
            // of a draw would be two refutations of every move, each about an exact test's cost).
            (-64, 64, root.first())
        } else {
            match self.solve_root_wld(me, opp, root) {
                Ok(bounds) => bounds,
                Err(answer) => return answer,
            }
        };
        t = t.clamp(lower, upper);
        let mut step = 2;
        let (mut went_up, mut went_down) = (false, false);
        while lower < upper {
            let (alpha, beta) = (t - 1, t + 1);
            let r = self.root_search(me, opp, root, Mode::Solve, alpha, beta);
            if !r.complete {
                break;
            }
            if r.best >= beta {
                lower = even_up(r.best.min(upper));
                best_sq = r.best_sq;
                went_up = true;
            } else if r.best <= alpha {
                upper = even_down(r.best.max(lower));
                went_down = true;
            } else {
                (lower, upper, best_sq) = (r.best, r.best, r.best_sq);
                break;
            }
            if lower >= upper {
                break;
            }
            // Bracketed once both directions failed; until then every test failed the same way.
            t = if went_up && went_down {
                even_down((lower + upper) / 2).clamp(lower, upper)
            } else if went_up {
                (lower + step).min(upper)
            } else {
                (upper - step).max(lower)
            };
            // Each new test lies strictly inside the bounds' span or at one end.
            step = (step * 2).min(64);
        }
        if lower == upper && !self.stopped {
            Some((lower, best_sq, true))
        } else if lower > 0 {
            Some((lower, best_sq, false))
        } else {
            None
        }
    }

    /// The win/draw/loss tests of [`Searcher::solve_root`]: win first (window 0..1: a move
    /// that is not a win needs only an upper bound), then, when there is none, draw or loss
    /// (window -1..0). `Ok((lower, upper, move))`: the proven even bounds on the score and the
    /// best move so far; `Err(answer)`: the root's answer (a draw, or stopped).
    fn solve_root_wld(
        &mut self,
        me: Bitboard,
        opp: Bitboard,
        root: &mut RootMoves,
    ) -> Result<(i32, i32, u8), RootAnswer> {
        let win = self.root_search(me, opp, root, Mode::Solve, 0, 1);
        if !win.complete {
            return Err((win.searched_any && win.best >= 1).then_some((
                win.best,
                win.best_sq,
                false,
            )));
        }
        if win.best >= 1 {
            return Ok((even_up(win.best.min(64)), 64, win.best_sq));
        }
        let draw = self.root_search(me, opp, root, Mode::Solve, -1, 0);
        if !draw.complete {
            return Err(None);
        }
        if draw.best >= 0 {
            return Err(Some((0, draw.best_sq, true)));
        }
        Ok((-64, even_down(draw.best.max(-64)), draw.best_sq))
    }
}

/// The root solver's answer: `Some((score, move, exact))`, a non-exact one a proven win with a
/// winning move; `None` when stopped before either.
type RootAnswer = Option<(i32, u8, bool)>;

/// A midgame score (eval units, or a game end found in the tree) as an even disc difference.
fn disc_guess(score: i32) -> i32 {
    let discs = if score >= WIN - 64 {
        score - WIN
    } else if score <= 64 - WIN {
        score + WIN
    } else {
        score / 100
    };
    even_down(discs.clamp(-64, 64))
}

/// The even number at or below `v`.
fn even_down(v: i32) -> i32 {
    v - v.rem_euclid(2)
}

/// The even number at or above `v`.
fn even_up(v: i32) -> i32 {
    v + v.rem_euclid(2)
}

/// Chooses the CPU's move within the meter's budget.
///
/// Always answers a legal move when one exists ([`Outcome::Pass`] only when none does), even
/// when the budget runs out at once (then the statically best-ordered move);
/// [`Outcome::Interrupted`] when the meter reports an interrupt. Deterministic for a given
/// position, table content and node budget.
pub fn best_move(
    pos: &Position,
    ctx: &mut SearchContext<'_>,
    meter: &mut Meter<'_>,
) -> SearchResult {
    let (me, opp) = (pos.mover(), pos.opponent());
    let moves = bitboard::moves(me, opp);
    if moves == 0 {
        let over = bitboard::moves(opp, me) == 0;
        return SearchResult {
            outcome: Outcome::Pass,
            score: if over { final_score(me, opp) } else { 0 },
            depth: 0,
            exact: over,
            nodes: meter.nodes(),
        };
    }
    let mut root = RootMoves::new(me, opp, moves);
    let mut res = SearchResult {
        outcome: Outcome::Move(root.first()),
        score: ctx.eval.evaluate(me, opp),
        depth: 0,
        exact: false,
        nodes: 0,
    };
    let empties = pos.count_empty();
    let margin = match meter.budget() {
        Budget::TimeMs(_) if empties >= VARIETY_EMPTIES => VARIETY_MARGIN,
        _ => 0,
    };
    let large = match meter.budget() {
        Budget::TimeMs(ms) => ms >= LARGE_BUDGET_MS,
        Budget::Nodes(n) => n >= LARGE_BUDGET_NODES,
    };
    // The near-equal moves of the last complete iteration, with their lower bounds and best.
    let mut near: (Bitboard, [i32; 64], i32) = (0, [-INF; 64], 0);
    if moves.count_ones() > 1 {
        // The table's generation grows with the discs on the board, so that a table kept
        // between the moves of a game (see [`SearchContext`]) ages: a search replaces the
        // entries of earlier moves first, whatever context it runs in.
        ctx.generation = 64u8.saturating_sub(empties as u8);
        let mut s = Searcher::new(ctx, meter);
        for depth in 1..=MAX_DEPTH {
            // A short midgame deepening first, so that a budget too small for the solver
            // still yields a searched move.
            let d = u32::from(depth);
            if (empties <= SOLVE_EMPTIES && d > PRE_SOLVE_DEPTH)
                || (large && empties <= LARGE_SOLVE_EMPTIES && d > LARGE_PRE_SOLVE_DEPTH)
                || (d + SOLVE_MARGIN >= empties && empties <= MAX_SOLVE_EMPTIES)
            {
                if let Some((score, sq, exact)) = s.solve_root(me, opp, &mut root, res.score) {
                    res.outcome = Outcome::Move(sq);
                    res.score = score;
                    res.exact = exact;
                }
                break;
            }
            let r = s.root_search(me, opp, &mut root, Mode::Midgame(depth, margin), -INF, INF);
            if r.searched_any {
                res.outcome = Outcome::Move(r.best_sq);
                res.score = r.best;
            }
            if r.complete {
                near = (r.near, r.near_lb, r.best);
            }
            if !r.complete || s.meter.check().is_some() {
                break;
            }
            res.depth = depth;
        }
    }
    if margin > 0 && !res.exact {
        // Near-equal: at least that iteration's best score minus the margin.
        let (lbs, best) = (near.1, near.2);
        let ok = Squares(near.0).filter(|&sq| {
            lbs.get(usize::from(sq))
                .is_some_and(|&lb| lb >= best - margin)
        });
        let n = ok.clone().count() as u32;
        if n > 1 {
            // The context's generator, mixed with the node count: under a real clock the
            // count reached within the time differs from run to run, so even a context
            // created afresh for every move (as the module does) varies its games.
            let mut rng = Rng::new(ctx.rng.next_u64() ^ meter.nodes());
            if let Some(sq) = ok.clone().nth(rng.below(n) as usize) {
                res.outcome = Outcome::Move(sq);
            }
        }
    }
    if meter.stopped() == Some(SearchEnd::Interrupted) {
        res.outcome = Outcome::Interrupted;
    }
    res.nodes = meter.nodes();
    res
}
