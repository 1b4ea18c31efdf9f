//! The CPU player: iterative deepening principal-variation search (alpha-beta with zero-window
//! re-searches), quiescence search on captures and promotions, check extension, null-move
//! pruning and late-move reductions, MVV-LVA, killer, history and continuation-history move
//! ordering, a transposition table (buckets of four, replaced by depth and age, prefetched
//! as moves are made), correction history of the static evaluation, and draw detection
//! (repetition, fifty moves, insufficient material) inside the tree.
//!
//! Memory lives with the caller: the transposition table is a `&mut [TtEntry]` (16 bytes an
//! entry; any length, 0 disables it) and the per-ply state a `&mut [Ply]` (2152 bytes a
//! ply: the ply's position, its move list and ordering keys; [`MAX_PLY`] = 32 plies are
//! 67 KiB), the history table a `&mut History` (3 KiB), the correction history a
//! `&mut [i16]` ([`SearchContext::set_correction`], 32 KiB usually) and the continuation
//! history another ([`SearchContext::set_continuation`], 1,152 KiB). The search never goes
//! deeper than `plies.len() - 1` plies (at most `MAX_PLY - 1`), and its recursion only keeps
//! a few scalars per frame on the stack. The buffers may be allocated once and reused; the
//! table and the histories are cleared at the start of every [`best_move`] (unless the table is
//! kept) so results depend only on the game and the budget.
//!
//! Every node calls [`Meter::tick`]. On `OutOfBudget` the best move of the deepest finished
//! iteration is returned (or a better one found in the unfinished iteration, or, before any
//! iteration finished, the first move in the ordering: always legal); on `Interrupted`,
//! [`SearchResult::Interrupted`].

use super::continuation;
use super::correction::{correction, update as update_correction};
use super::eval::{evaluate_bounded, VALUES};
use super::game::Game;
pub use super::history::History;
use super::moves::{Move, MoveList, MAX_MOVES};
use super::nnue::{Accumulator, Network};
use super::position::Position;
use super::reductions::late_move_reduction;
use super::see::see_ge;
use super::square::{Color, Role};
use crate::common::budget::{Meter, SearchEnd};

/// The score of being checkmated at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
const INFINITY: i32 = 31_000;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - 1000;
/// The reverse futility margin per remaining ply (centipawns).
const FUTILITY_MARGIN: i32 = 90;
/// Futility pruning of quiet moves: at this depth or less, a static evaluation this far
/// (centipawns per remaining ply, plus [`QUIET_FUTILITY_BASE`]) below alpha skips the quiet
/// moves after the first.
const QUIET_FUTILITY_MARGIN: i32 = 100;
const QUIET_FUTILITY_BASE: i32 = 80;
const QUIET_FUTILITY_DEPTH: i32 = 3;
/// Late-move pruning: at this depth or less, quiet moves after the first
/// `LATE_MOVES_BASE + depth * depth` are skipped.
const LATE_MOVE_DEPTH: i32 = 3;
const LATE_MOVES_BASE: i32 = 3;
/// SEE pruning (`loses_exchange`): at this depth or less, in non-PV nodes, a move after the
/// first that gives away more than a margin by static exchange is skipped.
const SEE_PRUNE_DEPTH: i32 = 6;
const SEE_CAPTURE_MARGIN: i32 = 100;
const SEE_QUIET_MARGIN: i32 = 30;
/// Internal iterative reduction: a node at this depth or more without a table move is
/// searched a ply shallower.
const IIR_DEPTH: i32 = 4;
/// Singular extensions from this depth on (see `Search::singular`).
const SINGULAR_DEPTH: i32 = 6;
/// At most this many singular searches run inside one another (each adds two frames to the
/// recursion's stack: see `scripts/stack-sizes.py`). A second one would need depth 13 or
/// more in the first.
pub const MAX_SINGULAR_NESTING: u8 = 1;
/// The first half-width of the aspiration window (centipawns).
const ASPIRATION: i32 = 15;
/// The deepest ply the search uses (the per-ply slice may be shorter). It bounds the
/// recursion: in the module's build each level costs a `negamax` frame and a null move's
/// (about 290 bytes), and each singular search two frames more, so the deepest chain under a
/// `/dev/chess` write stays near 10.9 KiB of the kernel's 16 KiB (`scripts/stack-sizes.sh`;
/// the host's `fits_a_kernel_sized_stack` test checks the same bound).
pub const MAX_PLY: usize = 32;

/// What the score in a table entry means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

impl Bound {
    /// Whether an entry's `score` with this bound settles a node searched in the window
    /// (`alpha`, `beta`).
    fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// One transposition-table entry (16 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    key: u64,
    mv: u16,
    score: i16,
    depth: i8,
    bound: Bound,
    /// The game's ply (by its move number, wrapping) at the search that wrote it: its age.
    generation: u8,
}

/// Entries in one bucket of the table (64 bytes): a position's entry may be any of them.
const TT_BUCKET: usize = 4;

/// Plies of depth an entry loses in the replacement order per ply of the game since it was
/// written: one move of each side makes a 2-ply-old entry worth 8 plies less.
const TT_AGE_WEIGHT: i32 = 4;

impl TtEntry {
    /// An unused entry.
    pub const EMPTY: TtEntry = TtEntry {
        key: 0,
        mv: 0,
        score: 0,
        depth: -1,
        bound: Bound::Upper,
        generation: 0,
    };
}

impl Default for TtEntry {
    fn default() -> Self {
        TtEntry::EMPTY
    }
}

/// The search state of one ply (about 2.1 KiB): allocate a slice of them with [`Ply::EMPTY`].
#[derive(Clone, Debug)]
pub struct Ply {
    pos: Position,
    /// Whether `pos`'s side to move is in check: written with `pos`, read many times.
    in_check: bool,
    moves: MoveList,
    order: [i16; MAX_MOVES],
    killers: [u16; 2],
    after_null: bool,
    /// The [`History::index`] of the move that led here, or [`NO_PREVIOUS`] (the root, a
    /// null move).
    previous: u16,
    /// The move a singular search at this ply leaves out (0: none).
    excluded: u16,
}

/// [`Ply::previous`] when no move led to the ply.
const NO_PREVIOUS: u16 = u16::MAX;

impl Ply {
    /// An unused ply.
    pub const EMPTY: Ply = Ply {
        pos: Position::empty(),
        in_check: false,
        moves: MoveList::EMPTY,
        order: [0; MAX_MOVES],
        killers: [0; 2],
        after_null: false,
        previous: NO_PREVIOUS,
        excluded: 0,
    };

    /// Makes this ply a search's root at `pos`: no move or null move led here, nothing
    /// left out, and `in_check` written with `pos`.
    fn set_root(&mut self, pos: Position) {
        self.pos = pos;
        self.in_check = pos.is_check();
        self.after_null = false;
        self.previous = NO_PREVIOUS;
        self.excluded = 0;
    }
}

impl Default for Ply {
    fn default() -> Self {
        Ply::EMPTY
    }
}

/// Facts about the last search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// The deepest fully searched iteration (0 if none finished).
    pub depth: u32,
    /// The score of the chosen move for the side to move, in centipawns (mate scores are
    /// near [`MATE`]).
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// The deepest ply reached (quiescence included; below [`MAX_PLY`]).
    pub seldepth: u32,
}

/// The longest principal variation kept (moves).
pub const MAX_PV: usize = 16;

/// Told about every finished iteration of a search (a UCI front end prints `info` lines).
pub trait Observer {
    /// Iteration `info.depth` finished with `info.score` after `info.nodes` nodes; `pv` is
    /// its principal variation (at least the best move).
    fn iteration(&mut self, info: &SearchInfo, pv: &[Move]);
}

/// An [`Observer`] that ignores everything.
pub struct NoObserver;

impl Observer for NoObserver {
    fn iteration(&mut self, _: &SearchInfo, _: &[Move]) {}
}

/// Caller-owned search memory, options and the last search's facts.
pub struct SearchContext<'a> {
    tt: &'a mut [TtEntry],
    plies: &'a mut [Ply],
    history: &'a mut History,
    info: SearchInfo,
    pruning: bool,
    keep_table: bool,
    max_depth: u32,
    pv: [Move; MAX_PV],
    pv_len: usize,
    nnue: Option<Network<'a>>,
    accs: &'a mut [Accumulator],
    /// Bit `p`: `accs[p]` holds the accumulator of `plies[p].pos`.
    acc_valid: u64,
    /// The correction history's table (empty: none).
    correction: &'a mut [i16],
    /// The continuation history's table (empty: none).
    continuation: &'a mut [i16],
}

impl<'a> SearchContext<'a> {
    /// A context over a transposition table (any length, 0 disables it), per-ply storage
    /// (at least 2 plies for a useful search; more than [`MAX_PLY`] are not used) and the
    /// history table that orders quiet moves (cleared at every search, or halved when the
    /// table is kept: see [`SearchContext::set_keep_table`]).
    pub fn new(tt: &'a mut [TtEntry], plies: &'a mut [Ply], history: &'a mut History) -> Self {
        SearchContext {
            tt,
            plies,
            history,
            info: SearchInfo::default(),
            pruning: true,
            keep_table: false,
            max_depth: MAX_PLY as u32,
            pv: [Move::PLACEHOLDER; MAX_PV],
            pv_len: 0,
            nnue: None,
            accs: &mut [],
            acc_valid: 0,
            correction: &mut [],
            continuation: &mut [],
        }
    }

    /// Corrects the static evaluation by the correction history (src/chess/correction.rs)
    /// in `table` ([`CORRECTION_ENTRIES`](super::correction::CORRECTION_ENTRIES) of them is
    /// usual; empty: no correction). Cleared with the history, kept with the table.
    pub fn set_correction(&mut self, table: &'a mut [i16]) {
        self.correction = table;
    }

    /// Orders quiet moves by the continuation history (src/chess/continuation.rs) in `table`
    /// as well ([`CONTINUATION_ENTRIES`](super::continuation::CONTINUATION_ENTRIES) of them;
    /// empty: none). Cleared with the history, kept with the table.
    pub fn set_continuation(&mut self, table: &'a mut [i16]) {
        self.continuation = table;
    }

    /// Evaluates with the network `net` instead of the classic evaluation, keeping one
    /// accumulator per ply in `accs` (give it [`MAX_PLY`] entries: plies beyond its length
    /// are evaluated classically).
    pub fn set_nnue(&mut self, net: Network<'a>, accs: &'a mut [Accumulator]) {
        self.nnue = Some(net);
        self.accs = accs;
        self.acc_valid = 0;
    }

    /// Whether the network evaluates (see [`SearchContext::set_nnue`]).
    pub fn uses_nnue(&self) -> bool {
        self.nnue.is_some()
    }

    /// Keeps the transposition table's entries from the previous search (the table then
    /// belongs to one game: the moves of that game profit from each other's work). Off by
    /// default: the table is cleared at every search, so the move depends only on the game
    /// and the budget. A node-budget search with a kept table is still deterministic for the
    /// same sequence of searches.
    pub fn set_keep_table(&mut self, on: bool) {
        self.keep_table = on;
    }

    /// Stops iterative deepening after `depth` plies (1 and up; default and at most
    /// `MAX_PLY - 1`).
    pub fn set_max_depth(&mut self, depth: u32) {
        self.max_depth = depth.max(1);
    }

    /// The principal variation of the last finished iteration (empty before any).
    pub fn pv(&self) -> &[Move] {
        self.pv.get(..self.pv_len).unwrap_or(&[])
    }

    /// Enables (the default) or disables the selective parts of the search: null-move
    /// pruning and late-move reductions. Without them the search is a plain full-width
    /// alpha-beta (slower, for comparison and testing).
    pub fn set_pruning(&mut self, on: bool) {
        self.pruning = on;
    }

    /// Facts about the last search.
    pub fn info(&self) -> SearchInfo {
        self.info
    }
}

/// The outcome of [`best_move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchResult {
    /// The move to play (always legal).
    Move(Move),
    /// A signal interrupted the search: discard it.
    Interrupted,
    /// The game is over or the side to move has no legal move.
    NoMove,
}

/// Chooses a move for the side to move of `game` within the budget of `meter`.
/// Deterministic for a given game and node budget.
pub fn best_move(game: &Game, ctx: &mut SearchContext<'_>, meter: &mut Meter<'_>) -> SearchResult {
    best_move_observed(game, ctx, meter, &mut NoObserver)
}

/// [`best_move`], telling `observer` about every finished iteration.
pub fn best_move_observed(
    game: &Game,
    ctx: &mut SearchContext<'_>,
    meter: &mut Meter<'_>,
    observer: &mut dyn Observer,
) -> SearchResult {
    ctx.info = SearchInfo::default();
    ctx.pv_len = 0;
    // Before any early return: a caller that did not keep the table may hand it to another
    // game next, which must find it cleared (the device's rule, src/session/chess_game.rs).
    if !ctx.keep_table {
        ctx.tt.fill(TtEntry::EMPTY);
        *ctx.history = History::EMPTY;
        ctx.correction.fill(0);
        ctx.continuation.fill(0);
    }
    if game.is_over() {
        return SearchResult::NoMove;
    }
    let max_ply = ctx.plies.len().min(MAX_PLY);
    let Some(root) = ctx.plies.first_mut() else {
        return first_legal(game);
    };
    root.set_root(*game.position());
    ctx.acc_valid = 0;
    let pos = root.pos;
    pos.legal_moves(&mut root.moves);
    let Some(fallback) = root.moves.get(0) else {
        return SearchResult::NoMove;
    };
    if root.moves.len() == 1 {
        return SearchResult::Move(fallback);
    }
    for p in ctx.plies.iter_mut() {
        p.killers = [0; 2];
    }
    if ctx.keep_table {
        ctx.history.age();
    }
    let mut s = Search {
        ctx,
        meter,
        history: game.history(),
        max_ply,
        root_depth: 0,
        singular_nesting: 0,
        generation: game_ply(&pos) as u8,
    };
    s.score_moves(0, 0);
    s.sort_root();
    let mut best = s
        .ctx
        .plies
        .first()
        .and_then(|p| p.moves.get(0))
        .unwrap_or(fallback);
    if s.meter.check() == Some(SearchEnd::Interrupted) {
        return SearchResult::Interrupted;
    }
    let last_depth = (max_ply as i32 - 1).min(s.ctx.max_depth as i32);
    if max_ply >= 2 {
        for depth in 1..=last_depth {
            s.root_depth = depth;
            let found = s.aspiration(depth, s.ctx.info.score);
            match s.meter.stopped() {
                Some(SearchEnd::Interrupted) => return SearchResult::Interrupted,
                Some(SearchEnd::OutOfBudget) => {
                    if let Some((m, score)) = found {
                        best = m;
                        s.ctx.info.score = score;
                    }
                    break;
                }
                None => {}
            }
            if let Some((m, score)) = found {
                best = m;
                s.ctx.info.depth = depth as u32;
                s.ctx.info.score = score;
                s.ctx.info.nodes = s.meter.nodes();
                s.collect_pv(m, depth as usize);
                observer.iteration(&s.ctx.info, s.ctx.pv());
                // A forced mate within the searched depth will not change.
                if score.abs() >= MATE_BOUND && MATE - score.abs() <= depth {
                    break;
                }
            }
        }
    }
    s.ctx.info.nodes = s.meter.nodes();
    if s.meter.stopped() == Some(SearchEnd::Interrupted) {
        return SearchResult::Interrupted;
    }
    SearchResult::Move(best)
}

/// The plies played in `pos`'s game before it, by its move number.
fn game_ply(pos: &Position) -> u32 {
    2 * pos.fullmoves() + u32::from(pos.turn() == Color::Black)
}

/// The first legal move of `game`, for a context without per-ply storage. In a frame of its
/// own: its move list (about 1 KiB) would otherwise sit in [`best_move_observed`]'s frame,
/// under the whole recursion of the search.
#[inline(never)]
fn first_legal(game: &Game) -> SearchResult {
    let mut list = MoveList::new();
    game.position().legal_moves(&mut list);
    match list.get(0) {
        Some(m) => SearchResult::Move(m),
        None => SearchResult::NoMove,
    }
}

struct Search<'s, 'a, 'm> {
    ctx: &'s mut SearchContext<'a>,
    meter: &'s mut Meter<'m>,
    history: &'s [u64],
    max_ply: usize,
    /// The depth of the current iteration.
    root_depth: i32,
    /// How many singular searches are running inside one another.
    singular_nesting: u8,
    /// The generation of the entries this search writes: the root's game ply.
    generation: u8,
}

/// Ordering keys: higher first. Quiet moves take their history value itself, so the
/// quiet moves are ordered as finely as the history tells them apart.
const ORDER_TT: i16 = 32_767;
const ORDER_QUEEN_PROMOTION: i16 = 32_000;
const ORDER_CAPTURE: i16 = 31_000;
const ORDER_KILLER: i16 = 30_900;
/// Captures that lose material in the exchange (static exchange evaluation): after the
/// quiet moves.
const ORDER_BAD_CAPTURE: i16 = -31_000;
/// Quiet moves: this plus the history value (the history's and the continuation history's
/// after the moves one and two plies before), within ORDER_BAD_CAPTURE + 1..=ORDER_QUIET_MAX.
const ORDER_QUIET: i16 = 0;
const ORDER_QUIET_MAX: i16 = ORDER_COUNTER - 1;
/// The quiet reply that last cut after the same move (piece and target square).
const ORDER_COUNTER: i16 = ORDER_KILLER - 2;
const ORDER_UNDERPROMOTION: i16 = -32_000;

fn order_key(m: Move, tt_move: u16, killers: [u16; 2], counter: u16, history: i32) -> i16 {
    let packed = m.packed();
    if packed == tt_move {
        return ORDER_TT;
    }
    let promo = match m.promotion() {
        Some(Role::Queen) => ORDER_QUEEN_PROMOTION - ORDER_CAPTURE,
        Some(_) => return ORDER_UNDERPROMOTION,
        None => 0,
    };
    if let Some(victim) = m.capture() {
        // Most valuable victim, then least valuable attacker: 8 * victim - attacker.
        return promo + ORDER_CAPTURE + 8 * (victim as i16) + 5 - (m.role() as i16);
    }
    if promo > 0 {
        return ORDER_QUEEN_PROMOTION;
    }
    if packed == killers[0] {
        ORDER_KILLER
    } else if packed == killers[1] {
        ORDER_KILLER - 1
    } else if packed == counter {
        ORDER_COUNTER
    } else {
        (i32::from(ORDER_QUIET) + history)
            .clamp(i32::from(ORDER_BAD_CAPTURE) + 1, i32::from(ORDER_QUIET_MAX)) as i16
    }
}

/// SEE pruning: whether `m` loses more material in the exchange on its square than a node at
/// `depth` can be expected to win back: a capture more than `SEE_CAPTURE_MARGIN * depth`, a
/// quiet move more than `SEE_QUIET_MARGIN * depth * depth` (never a promotion, castling or en
/// passant: [`see_ge`] counts them as even).
fn loses_exchange(pos: &Position, m: Move, depth: i32) -> bool {
    let threshold = if m.capture().is_some() {
        -SEE_CAPTURE_MARGIN * depth
    } else {
        -SEE_QUIET_MARGIN * depth * depth
    };
    !see_ge(pos, m, threshold)
}

/// The bit of ply `ply` in [`SearchContext`]'s accumulator mask (none beyond 63).
#[inline(always)]
fn ply_bit(ply: usize) -> u64 {
    1u64.checked_shl(ply as u32).unwrap_or(0)
}

fn score_to_tt(score: i32, ply: usize) -> i16 {
    let ply = ply as i32;
    let s = if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    };
    s.clamp(-INFINITY, INFINITY) as i16
}

fn score_from_tt(score: i16, ply: usize) -> i32 {
    let (s, ply) = (i32::from(score), ply as i32);
    if s >= MATE_BOUND {
        s - ply
    } else if s <= -MATE_BOUND {
        s + ply
    } else {
        s
    }
}

impl Search<'_, '_, '_> {
    fn pos(&self, ply: usize) -> Option<&Position> {
        self.ctx.plies.get(ply).map(|p| &p.pos)
    }

    /// Fills the context's principal variation: `best`, then the table's moves as long as
    /// they are legal and new, at most `depth` moves, using the plies beyond the root as
    /// scratch space (free between iterations).
    #[inline(never)]
    fn collect_pv(&mut self, best: Move, depth: usize) {
        self.ctx.pv[0] = best;
        self.ctx.pv_len = 1;
        let Some(root) = self.ctx.plies.first().map(|p| p.pos) else {
            return;
        };
        let mut pos = root;
        pos.play(best);
        let mut seen = [0u64; MAX_PV];
        seen[0] = root.hash();
        while self.ctx.pv_len < MAX_PV.min(depth) {
            let key = pos.hash();
            if seen
                .get(..self.ctx.pv_len)
                .is_some_and(|s| s.contains(&key))
            {
                break;
            }
            let Some(e) = self.tt_probe(key) else {
                break;
            };
            if e.mv == 0 {
                break;
            }
            let packed = e.mv;
            let Some(scratch) = self.ctx.plies.get_mut(1) else {
                break;
            };
            pos.legal_moves(&mut scratch.moves);
            let Some(m) = scratch.moves.iter().copied().find(|m| m.packed() == packed) else {
                break;
            };
            if let Some(slot) = seen.get_mut(self.ctx.pv_len) {
                *slot = key;
            }
            if let Some(slot) = self.ctx.pv.get_mut(self.ctx.pv_len) {
                *slot = m;
            }
            self.ctx.pv_len += 1;
            pos.play(m);
        }
    }

    /// Sets up ply `ply + 1` as ply `ply` after its move `index`; returns that move.
    #[inline(never)]
    fn make(&mut self, ply: usize, index: usize) -> Option<Move> {
        let (head, tail) = self.ctx.plies.split_at_mut(ply.checked_add(1)?);
        let cur = head.last()?;
        let next = tail.first_mut()?;
        let m = cur.moves.get(index)?;
        next.pos = cur.pos;
        next.pos.play(m);
        let key = next.pos.hash();
        next.in_check = next.pos.is_check();
        next.after_null = false;
        next.excluded = 0;
        next.previous = History::index(cur.pos.turn(), m);
        self.ctx.acc_valid &= !ply_bit(ply + 1);
        self.tt_prefetch(key);
        Some(m)
    }

    /// The [`History::index`] of the moves one ply and two plies before ply `ply`
    /// ([`NO_PREVIOUS`] where there is none: the root, a null move).
    fn previous_moves(&self, ply: usize) -> (u16, u16) {
        let previous = |p: Option<&Ply>| p.map_or(NO_PREVIOUS, |p| p.previous);
        let one = previous(self.ctx.plies.get(ply));
        let two = previous(ply.checked_sub(1).and_then(|b| self.ctx.plies.get(b)));
        (one, two)
    }

    /// The history update after a cut by the quiet move `index` of ply `ply`: a bonus for
    /// it ([`History::bonus`] of the depth), the same penalty for the quiet moves searched
    /// before it; the same in the continuation history after the moves one and two plies
    /// before.
    #[inline(never)]
    fn reward_quiet(&mut self, ply: usize, index: usize, depth: i32) {
        let (one, two) = self.previous_moves(ply);
        let Some(p) = self.ctx.plies.get(ply) else {
            return;
        };
        let history = &mut *self.ctx.history;
        let table = &mut *self.ctx.continuation;
        let bonus = History::bonus(depth);
        let color = p.pos.turn();
        for (i, &m) in p.moves.iter().enumerate().take(index + 1) {
            if m.is_tactical() {
                continue;
            }
            let b = if i == index { bonus } else { -bonus };
            history.update(color, m, b);
            let cur = History::index(color, m);
            continuation::update(table, one, cur, b);
            continuation::update(table, two, cur, b);
        }
    }

    /// Computes the ordering keys of ply `ply`'s moves.
    #[inline(never)]
    fn score_moves(&mut self, ply: usize, tt_move: u16) {
        let (one, two) = self.previous_moves(ply);
        let history = &*self.ctx.history;
        let table = &*self.ctx.continuation;
        if let Some(p) = self.ctx.plies.get_mut(ply) {
            let killers = p.killers;
            let counter = if p.previous == NO_PREVIOUS {
                0
            } else {
                history.counter(p.previous)
            };
            let color = p.pos.turn();
            for (key, &m) in p.order.iter_mut().zip(p.moves.iter()) {
                let h = if m.is_tactical() {
                    0
                } else {
                    let cur = History::index(color, m);
                    history.get(color, m)
                        + continuation::get(table, one, cur)
                        + continuation::get(table, two, cur)
                };
                *key = order_key(m, tt_move, killers, counter, h);
            }
        }
    }

    /// Swaps the best-keyed remaining move of ply `ply` into slot `start` (the first of equal
    /// keys wins, so the order is deterministic).
    #[inline(never)]
    fn pick(&mut self, ply: usize, start: usize) {
        let Some(p) = self.ctx.plies.get_mut(ply) else {
            return;
        };
        let Some(keys) = p.order.get(start..p.moves.len()) else {
            return;
        };
        // The first of the highest keys.
        let mut best = start;
        let mut best_key = i16::MIN;
        for (i, &key) in (start..).zip(keys) {
            if key > best_key {
                best = i;
                best_key = key;
            }
        }
        if best != start {
            p.moves.as_mut_slice().swap(start, best);
            p.order.swap(start, best);
        }
    }

    /// [`Self::pick`], then a capture picked by its victim and attacker is checked by static
    /// exchange: one that loses material is keyed [`ORDER_BAD_CAPTURE`] and the pick is made
    /// again (each capture is demoted at most once, so this ends). Lazy: the captures after a
    /// cut are never looked at.
    fn pick_good(&mut self, ply: usize, start: usize) {
        loop {
            self.pick(ply, start);
            let Some(p) = self.ctx.plies.get_mut(ply) else {
                return;
            };
            let (Some(m), Some(key)) = (p.moves.get(start), p.order.get_mut(start)) else {
                return;
            };
            // The keys of captures without promotion (see `order_key`).
            if (ORDER_CAPTURE..ORDER_QUEEN_PROMOTION).contains(key) && !see_ge(&p.pos, m, 0) {
                *key = ORDER_BAD_CAPTURE;
                continue;
            }
            return;
        }
    }

    /// The ordering key of move `i` of ply `ply`.
    #[inline]
    fn key_at(&self, ply: usize, i: usize) -> Option<i16> {
        self.ctx
            .plies
            .get(ply)
            .and_then(|p| p.order.get(i).copied())
    }

    /// Orders the root moves once (stable selection by key).
    fn sort_root(&mut self) {
        let len = self.ctx.plies.first().map_or(0, |p| p.moves.len());
        for i in 0..len {
            // Keep equal keys in generation order: find the first maximal key.
            let Some(p) = self.ctx.plies.first_mut() else {
                return;
            };
            let mut best = i;
            for j in i..len {
                if p.order.get(j) > p.order.get(best) {
                    best = j;
                }
            }
            if best != i {
                if let Some(s) = p.moves.as_mut_slice().get_mut(i..=best) {
                    s.rotate_right(1);
                }
                if let Some(s) = p.order.get_mut(i..=best) {
                    s.rotate_right(1);
                }
            }
        }
    }

    /// Searches the root moves to `depth` in the window (`alpha`, `beta`); returns the best
    /// move and score found (a score at or above `beta` is a lower bound: the search stopped
    /// there), or `None` if no move scored above `alpha` (or the search stopped before the
    /// first move was fully searched).
    fn root(&mut self, depth: i32, mut alpha: i32, beta: i32) -> Option<(Move, i32)> {
        let len = self.ctx.plies.first().map_or(0, |p| p.moves.len());
        let mut best: Option<(Move, i32, usize)> = None;
        for i in 0..len {
            let m = self.make(0, i)?;
            let score = if i == 0 {
                -self.negamax(1, depth - 1, -beta, -alpha)
            } else {
                let s = -self.negamax(1, depth - 1, -alpha - 1, -alpha);
                if s > alpha && self.meter.stopped().is_none() {
                    -self.negamax(1, depth - 1, -beta, -alpha)
                } else {
                    s
                }
            };
            if self.meter.stopped().is_some() {
                break;
            }
            if score > alpha {
                alpha = score;
                best = Some((m, score, i));
                if score >= beta {
                    break;
                }
            }
        }
        let (m, score, index) = best?;
        // Search the best move first next time; the others keep their relative order.
        if let Some(s) = self
            .ctx
            .plies
            .first_mut()
            .and_then(|p| p.moves.as_mut_slice().get_mut(..=index))
        {
            s.rotate_right(1);
        }
        Some((m, score))
    }

    /// One iteration at `depth` with aspiration windows: from depth 4 on, a window of
    /// [`ASPIRATION`] around the previous iteration's score, widened twofold on the side that
    /// failed until the score falls inside (or the window is infinite).
    fn aspiration(&mut self, depth: i32, previous: i32) -> Option<(Move, i32)> {
        let mut delta = ASPIRATION;
        let (mut alpha, mut beta) = if depth >= 4 && previous.abs() < MATE_BOUND {
            (previous - delta, previous + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let found = self.root(depth, alpha, beta);
            if self.meter.stopped().is_some() {
                return found;
            }
            match found {
                Some((_, score)) if score >= beta && beta < INFINITY => {
                    beta = (score + delta).min(INFINITY);
                }
                None if alpha > -INFINITY => {
                    alpha = (alpha - delta).max(-INFINITY);
                }
                other => return other,
            }
            delta = delta.saturating_mul(2);
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// True when ply `ply`'s position is a draw by rule: fifty moves, insufficient material,
    /// or a repetition of a position since the last irreversible move (once is enough inside
    /// the tree).
    #[inline(never)]
    fn is_draw(&self, ply: usize) -> bool {
        let Some(pos) = self.pos(ply) else {
            return false;
        };
        if pos.halfmoves() >= 100 || pos.is_insufficient_material() {
            return true;
        }
        let key = pos.hash();
        let reversible = usize::from(pos.halfmoves());
        let mut back = 2;
        while back <= reversible {
            if back <= ply {
                if self.pos(ply - back).map(|p| p.hash()) == Some(key) {
                    return true;
                }
            } else {
                // `back - ply` plies before the root: the history ends with the root.
                let k = back - ply;
                let idx = self.history.len().checked_sub(1 + k);
                match idx.and_then(|i| self.history.get(i)) {
                    Some(&h) if h == key => return true,
                    Some(_) => {}
                    None => break,
                }
            }
            back += 2;
        }
        false
    }

    /// The table's bucket for `key` (the whole table when it is smaller than a bucket).
    fn tt_bucket(&self, key: u64) -> core::ops::Range<usize> {
        let len = self.ctx.tt.len();
        let buckets = (len / TT_BUCKET) as u64;
        if buckets == 0 {
            return 0..len;
        }
        let start = (key % buckets) as usize * TT_BUCKET;
        start..start + TT_BUCKET
    }

    /// Prefetching: asks the CPU to bring `key`'s bucket into the cache now, so that the
    /// child node's probe, a few hundred instructions later, does not wait for memory. Its
    /// first and last entries: a bucket is one 64-byte line where the table is 64-byte
    /// aligned (the kernel's page-aligned allocation), two where it is not (a host `Vec`).
    #[inline]
    fn tt_prefetch(&self, key: u64) {
        let bucket = self.tt_bucket(key);
        let ends = [bucket.start, bucket.end.saturating_sub(1)];
        for e in ends.iter().filter_map(|&i| self.ctx.tt.get(i)) {
            crate::common::cache::prefetch(e);
        }
    }

    /// The table's entry for `key`, if its bucket holds one.
    #[inline]
    fn tt_probe(&self, key: u64) -> Option<TtEntry> {
        self.ctx
            .tt
            .get(self.tt_bucket(key))?
            .iter()
            .find(|e| e.key == key)
            .copied()
    }

    /// Writes `entry` into `key`'s bucket: over the position's own entry (keeping its move
    /// when `entry` has none), else over the one worth least: the shallowest, each ply of
    /// the game since an entry was written counting as [`TT_AGE_WEIGHT`] plies less. The
    /// entry's generation is set here, to this search's.
    #[inline(never)]
    fn tt_store(&mut self, mut entry: TtEntry) {
        let range = self.tt_bucket(entry.key);
        let generation = self.generation;
        entry.generation = generation;
        let Some(bucket) = self.ctx.tt.get_mut(range) else {
            return;
        };
        let worth = |e: &TtEntry| {
            i32::from(e.depth) - TT_AGE_WEIGHT * i32::from(generation.wrapping_sub(e.generation))
        };
        if let Some(e) = bucket.iter_mut().find(|e| e.key == entry.key) {
            if entry.mv == 0 {
                entry.mv = e.mv;
            }
            *e = entry;
        } else if let Some(e) = bucket.iter_mut().min_by_key(|e| worth(e)) {
            *e = entry;
        }
    }

    #[inline]
    fn reached(&mut self, ply: usize) {
        let ply = ply as u32;
        if ply > self.ctx.info.seldepth {
            self.ctx.info.seldepth = ply;
        }
    }

    /// Whether the side to move at `ply` is in check, and the position's hash.
    #[inline(never)]
    fn node_facts(&self, ply: usize) -> Option<(bool, u64)> {
        self.ctx.plies.get(ply).map(|p| (p.in_check, p.pos.hash()))
    }

    /// The static evaluation at `ply`.
    #[inline(never)]
    fn static_eval(&mut self, ply: usize) -> i32 {
        self.evaluate_at(ply, -INFINITY, INFINITY)
    }

    /// The evaluation at `ply`: the network's when the context has one (and an accumulator
    /// for this ply), else the classic one, lazy outside `alpha..beta`.
    #[inline(never)]
    fn evaluate_at(&mut self, ply: usize, alpha: i32, beta: i32) -> i32 {
        if let Some(score) = self.nnue_eval(ply) {
            return score;
        }
        self.pos(ply)
            .map_or(0, |p| evaluate_bounded(p, alpha, beta))
    }

    /// The network's evaluation at `ply`, bringing the accumulators up to date lazily: from
    /// the nearest ply whose accumulator is valid (a full refresh at the root if none), one
    /// update per ply, each from its parent's position to its own.
    fn nnue_eval(&mut self, ply: usize) -> Option<i32> {
        let net = self.ctx.nnue?;
        let plies = &*self.ctx.plies;
        let accs = &mut *self.ctx.accs;
        if ply >= accs.len() || ply >= plies.len() {
            return None;
        }
        let mut from = ply;
        while from > 0 && self.ctx.acc_valid & ply_bit(from) == 0 {
            from -= 1;
        }
        if self.ctx.acc_valid & ply_bit(from) == 0 {
            net.refresh(&plies.get(from)?.pos, accs.get_mut(from)?);
            self.ctx.acc_valid |= ply_bit(from);
        }
        for k in from + 1..=ply {
            let (head, tail) = accs.split_at_mut(k);
            let (parent, acc) = (head.last()?, tail.first_mut()?);
            net.update(parent, &plies.get(k - 1)?.pos, &plies.get(k)?.pos, acc);
            self.ctx.acc_valid |= ply_bit(k);
        }
        let pos = &plies.get(ply)?.pos;
        #[cfg(test)]
        {
            // Unit tests check every lazily updated accumulator against a full refresh.
            let mut fresh = Accumulator::EMPTY;
            net.refresh(pos, &mut fresh);
            assert!(
                accs.get(ply) == Some(&fresh),
                "stale accumulator at ply {ply}"
            );
        }
        Some(net.evaluate(accs.get(ply)?, pos))
    }

    /// Generates the moves of ply `ply` (all legal moves, or the tactical ones); returns
    /// their number.
    #[inline(never)]
    fn generate(&mut self, ply: usize, tactical: bool) -> usize {
        let Some(p) = self.ctx.plies.get_mut(ply) else {
            return 0;
        };
        if tactical {
            p.pos.tactical_moves(&mut p.moves);
        } else {
            p.pos.legal_moves(&mut p.moves);
        }
        p.moves.len()
    }

    /// SEE pruning: [`loses_exchange`] for move `index` of ply `ply`.
    #[inline(never)]
    fn loses_exchange_at(&self, ply: usize, index: usize, depth: i32) -> bool {
        self.ctx
            .plies
            .get(ply)
            .and_then(|p| Some(loses_exchange(&p.pos, p.moves.get(index)?, depth)))
            .unwrap_or(false)
    }

    /// Null-move pruning: true when passing at ply `ply` still fails high at a reduced depth
    /// (so a real move is assumed to as well). Only tried with pieces left (zugzwang is
    /// unlikely then) and a static evaluation at or above `beta`.
    #[inline(never)]
    fn null_move_cuts(&mut self, ply: usize, depth: i32, beta: i32, eval: i32) -> bool {
        let Some(p) = self.ctx.plies.get(ply) else {
            return false;
        };
        let pos = &p.pos;
        let us = pos.by_color(pos.turn());
        let pieces = us & !(pos.by_role(Role::Pawn) | pos.by_role(Role::King));
        if p.after_null || pieces.is_empty() || eval < beta {
            return false;
        }
        let Some((head, tail)) = ply
            .checked_add(1)
            .map(|n| self.ctx.plies.split_at_mut(n.min(self.ctx.plies.len())))
        else {
            return false;
        };
        let (Some(cur), Some(next)) = (head.last(), tail.first_mut()) else {
            return false;
        };
        next.pos = cur.pos;
        next.pos.play_null();
        let key = next.pos.hash();
        // The side to move now was the side not to move: never in check in a legal position.
        next.in_check = false;
        next.after_null = true;
        next.excluded = 0;
        next.previous = NO_PREVIOUS;
        self.ctx.acc_valid &= !ply_bit(ply + 1);
        self.tt_prefetch(key);
        // A reduction growing with depth and with how far the evaluation beats beta.
        let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
        let score = -self.negamax(ply + 1, depth - 1 - r, -beta, -beta + 1);
        self.meter.stopped().is_none() && score >= beta
    }

    /// The singular search at ply `ply`: every move but `tt_move` in a null window at
    /// `singular_beta`, at `depth`. Returns the best score (below `singular_beta` when
    /// `tt_move` is singular).
    #[inline(never)]
    fn singular(&mut self, ply: usize, depth: i32, singular_beta: i32, tt_move: u16) -> i32 {
        let Some(p) = self.ctx.plies.get_mut(ply) else {
            return singular_beta;
        };
        p.excluded = tt_move;
        self.singular_nesting = self.singular_nesting.saturating_add(1);
        let score = self.negamax(ply, depth, singular_beta - 1, singular_beta);
        self.singular_nesting = self.singular_nesting.saturating_sub(1);
        if let Some(p) = self.ctx.plies.get_mut(ply) {
            p.excluded = 0;
        }
        score
    }

    fn negamax(&mut self, ply: usize, mut depth: i32, mut alpha: i32, beta: i32) -> i32 {
        if self.meter.tick().is_some() {
            return 0;
        }
        self.reached(ply);
        if self.is_draw(ply) {
            return 0;
        }
        if ply + 1 >= self.max_ply {
            return self.static_eval(ply);
        }
        let Some((in_check, key)) = self.node_facts(ply) else {
            return 0;
        };
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(ply, alpha, beta);
        }
        let mut tt_move = 0;
        let mut tt_hit = None;
        let pv = beta - alpha > 1;
        // A singular search leaves the table's move out: the entry says nothing of the rest.
        let excluded = self.ctx.plies.get(ply).map_or(0, |p| p.excluded);
        if let Some(e) = self.tt_probe(key) {
            if excluded == 0 {
                tt_move = e.mv;
                let score = score_from_tt(e.score, ply);
                if !pv && i32::from(e.depth) >= depth && e.bound.settles(score, alpha, beta) {
                    return score;
                }
                tt_hit = Some((score, i32::from(e.depth), e.bound));
            }
        }
        if depth >= IIR_DEPTH && tt_move == 0 && excluded == 0 && !in_check {
            depth -= 1;
        }
        // Reverse futility pruning: near the leaves, a static evaluation that beats beta by
        // a margin per ply is taken as a cut.
        // The static evaluation, where the pruning below or the correction history uses it
        // (computed once); the pruning uses it corrected.
        let selective = self.ctx.pruning && !pv && !in_check && beta.abs() < MATE_BOUND;
        let correcting = !in_check && !self.ctx.correction.is_empty();
        let raw_eval = if selective || correcting {
            self.static_eval(ply)
        } else {
            0
        };
        let eval = match self.pos(ply) {
            Some(p) if correcting => (raw_eval + correction(self.ctx.correction, p))
                .clamp(-MATE_BOUND + 1, MATE_BOUND - 1),
            _ => raw_eval,
        };
        if selective && depth <= 6 && eval - FUTILITY_MARGIN * depth >= beta {
            return eval;
        }
        if selective && depth >= 3 && excluded == 0 && self.null_move_cuts(ply, depth, beta, eval) {
            return beta;
        }
        // Singular extension: the table's move is searched a ply deeper when every other
        // move falls short of its score by a margin; multi-cut when even they reach beta.
        let mut singular = false;
        if let Some((tt_score, tt_depth, tt_bound)) = tt_hit {
            if self.ctx.pruning
                && depth >= SINGULAR_DEPTH
                && tt_move != 0
                && tt_depth >= depth - 3
                && tt_bound != Bound::Upper
                && tt_score.abs() < MATE_BOUND
                && (ply as i32) < 2 * self.root_depth
                && self.singular_nesting < MAX_SINGULAR_NESTING
            {
                let singular_beta = tt_score - 2 * depth;
                let score = self.singular(ply, (depth - 1) / 2, singular_beta, tt_move);
                if self.meter.stopped().is_some() {
                    return 0;
                }
                if score < singular_beta {
                    singular = true;
                } else if singular_beta >= beta {
                    return singular_beta;
                }
            }
        }
        let count = self.generate(ply, false);
        if count == 0 {
            return if in_check { -(MATE - ply as i32) } else { 0 };
        }
        self.score_moves(ply, tt_move);
        // Quiet moves that cannot matter near the leaves (see the constants).
        let futile = selective
            && depth <= QUIET_FUTILITY_DEPTH
            && eval + QUIET_FUTILITY_BASE + QUIET_FUTILITY_MARGIN * depth <= alpha;
        let late_moves = if selective && depth <= LATE_MOVE_DEPTH {
            (LATE_MOVES_BASE + depth * depth) as usize
        } else {
            usize::MAX
        };
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = 0u16;
        let mut best_tactical = false;
        for i in 0..count {
            self.pick_good(ply, i);
            if selective
                && i > 0
                && depth <= SEE_PRUNE_DEPTH
                && best_score > -MATE_BOUND
                && self.loses_exchange_at(ply, i, depth)
            {
                continue;
            }
            if excluded != 0
                && self
                    .ctx
                    .plies
                    .get(ply)
                    .and_then(|p| p.moves.get(i))
                    .is_some_and(|m| m.packed() == excluded)
            {
                continue;
            }
            let Some(m) = self.make(ply, i) else {
                break;
            };
            let extension = i32::from(singular && m.packed() == tt_move);
            // Late-move reduction: quiet moves late in the ordering, not killers, not giving
            // check, are first searched shallower (see `late_move_reduction`).
            let ordered_late = self.key_at(ply, i).is_some_and(|k| k <= ORDER_QUIET_MAX);
            if i > 0
                && (futile || i >= late_moves)
                && !m.is_tactical()
                && ordered_late
                && !self.ctx.plies.get(ply + 1).is_some_and(|p| p.in_check)
            {
                continue;
            }
            let reduction = if self.ctx.pruning
                && i >= 2
                && depth >= 3
                && !in_check
                && !m.is_tactical()
                && ordered_late
                && !self.ctx.plies.get(ply + 1).is_some_and(|p| p.in_check)
            {
                (late_move_reduction(depth, i) - i32::from(pv)).clamp(0, depth - 2)
            } else {
                0
            };
            let next_depth = depth - 1 + extension;
            let score = if i == 0 {
                -self.negamax(ply + 1, next_depth, -beta, -alpha)
            } else {
                let mut s = -self.negamax(ply + 1, next_depth - reduction, -alpha - 1, -alpha);
                if reduction > 0 && s > alpha && self.meter.stopped().is_none() {
                    s = -self.negamax(ply + 1, next_depth, -alpha - 1, -alpha);
                }
                if s > alpha && s < beta && self.meter.stopped().is_none() {
                    -self.negamax(ply + 1, next_depth, -beta, -alpha)
                } else {
                    s
                }
            };
            if self.meter.stopped().is_some() {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = m.packed();
                best_tactical = m.is_tactical();
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        if !m.is_tactical() {
                            if let Some(p) = self.ctx.plies.get_mut(ply) {
                                if p.killers[0] != best_move {
                                    p.killers[1] = p.killers[0];
                                    p.killers[0] = best_move;
                                }
                                if p.previous != NO_PREVIOUS {
                                    self.ctx.history.set_counter(p.previous, best_move);
                                }
                            }
                            self.reward_quiet(ply, i, depth);
                        }
                        break;
                    }
                }
            }
        }
        if excluded != 0 {
            // A singular search: no entry, no correction (the table's move was left out).
            return if best_score == -INFINITY {
                alpha
            } else {
                best_score
            };
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt_store(TtEntry {
            key,
            mv: best_move,
            score: score_to_tt(best_score, ply),
            depth: depth.clamp(0, 127) as i8,
            bound,
            generation: 0,
        });
        // Correction history: a quiet best move (or none) whose score says where the
        // position really stands relative to its static evaluation.
        let informative = match bound {
            Bound::Exact => true,
            Bound::Lower => best_score > raw_eval,
            Bound::Upper => best_score < raw_eval,
        };
        if correcting && !best_tactical && informative && best_score.abs() < MATE_BOUND {
            if let Some(p) = self.ctx.plies.get(ply) {
                update_correction(self.ctx.correction, &p.pos, depth, best_score, raw_eval);
            }
        }
        best_score
    }

    /// The tactical moves of ply `ply` without under-promotions (unless in check); returns
    /// their number.
    #[inline(never)]
    fn generate_tactical(&mut self, ply: usize, in_check: bool) -> usize {
        let count = self.generate(ply, true);
        if in_check {
            return count;
        }
        match self.ctx.plies.get_mut(ply) {
            Some(p) => {
                p.moves
                    .retain(|m| matches!(m.promotion(), None | Some(Role::Queen)));
                p.moves.len()
            }
            None => 0,
        }
    }

    fn quiesce(&mut self, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if self.meter.tick().is_some() {
            return 0;
        }
        self.reached(ply);
        if ply + 1 >= self.max_ply {
            return self.static_eval(ply);
        }
        let Some((in_check, key)) = self.node_facts(ply) else {
            return 0;
        };
        // Any entry of the main search is at least as deep as this one.
        if beta - alpha == 1 {
            if let Some(e) = self.tt_probe(key) {
                let score = score_from_tt(e.score, ply);
                if e.bound.settles(score, alpha, beta) {
                    return score;
                }
            }
        }
        let mut best_score = -INFINITY;
        if !in_check {
            if self.pos(ply).is_some_and(|p| p.is_insufficient_material()) {
                return 0;
            }
            let stand = self.evaluate_at(ply, alpha, beta);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best_score = stand;
        }
        let count = self.generate_tactical(ply, in_check);
        if count == 0 && in_check {
            return -(MATE - ply as i32);
        }
        self.score_moves(ply, 0);
        for i in 0..count {
            self.pick_good(ply, i);
            let Some(m) = self.ctx.plies.get(ply).and_then(|p| p.moves.get(i)) else {
                break;
            };
            // Delta pruning: a capture that cannot lift the score to alpha even with a margin;
            // and captures that lose material in the exchange on their square.
            if !in_check && m.promotion().is_none() {
                let gain = m.capture().map_or(0, |r| VALUES[r.index()]);
                if best_score + gain + 200 <= alpha {
                    continue;
                }
                // Demoted by `pick_good` and picked last: only losing captures remain.
                if self.key_at(ply, i) == Some(ORDER_BAD_CAPTURE) {
                    break;
                }
            }
            if self.make(ply, i).is_none() {
                break;
            }
            let score = -self.quiesce(ply + 1, -beta, -alpha);
            if self.meter.stopped().is_some() {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best_score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::history::HISTORY_MAX;
    use crate::common::budget::{Budget, NeverInterrupt, NodeClock};

    fn find(pos: &Position, uci: &str) -> Move {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        list.iter()
            .copied()
            .find(|&m| {
                let mut buf = [0u8; 8];
                let mut w = crate::common::text::BufWriter::new(&mut buf);
                crate::chess::notation::write_uci(m, &mut w).unwrap();
                w.as_bytes() == uci.as_bytes()
            })
            .unwrap()
    }

    /// SEE pruning skips moves that give material away, by more the shallower the node,
    /// and never a promotion or a sound move.
    #[test]
    fn loses_exchange_by_depth() {
        // White: Qd1, Nb1, pawn a7; black: Nb6 (guarding a8), pawns c6, d6, e5.
        let pos = Position::from_fen(b"4k3/P7/1npp4/4p3/8/8/8/1N1QK3 w - - 0 1").unwrap();
        // Qd5 hangs the queen to c6 (-900): pruned at any depth up to 5 (30 * 25 = 750).
        assert!(loses_exchange(&pos, find(&pos, "d1d5"), 1));
        assert!(loses_exchange(&pos, find(&pos, "d1d5"), 5));
        assert!(!loses_exchange(&pos, find(&pos, "d1d5"), 6));
        // Nc3 is safe.
        assert!(!loses_exchange(&pos, find(&pos, "b1c3"), 1));
        // A promotion is never pruned, even one that loses the new piece.
        assert!(!loses_exchange(&pos, find(&pos, "a7a8n"), 1));
    }

    /// The counter-move orders after the killers and before every other quiet move, however
    /// high their history.
    #[test]
    fn counter_move_orders_between_killers_and_history() {
        let mut list = MoveList::new();
        Position::startpos().legal_moves(&mut list);
        let (m, killer) = (list.get(0).unwrap(), list.get(1).unwrap());
        let killers = [killer.packed(), 0];
        let counter = order_key(m, 0, killers, m.packed(), 0);
        assert_eq!(counter, ORDER_COUNTER);
        assert!(counter < order_key(killer, 0, killers, m.packed(), 0));
        assert!(counter > order_key(m, 0, killers, 0, HISTORY_MAX));
        assert_eq!(order_key(m, m.packed(), killers, m.packed(), 0), ORDER_TT);
    }

    /// Quiet moves are ordered by every point of their history value, between the losing
    /// captures and the counter-move whatever the value.
    #[test]
    fn quiet_moves_keep_their_history_order() {
        let mut list = MoveList::new();
        Position::startpos().legal_moves(&mut list);
        let m = list.get(0).unwrap();
        let key = |h: i32| order_key(m, 0, [0, 0], 0, h);
        assert!(key(1) > key(0) && key(0) > key(-1));
        assert!(key(3 * HISTORY_MAX) < ORDER_COUNTER);
        assert!(key(-3 * HISTORY_MAX) > ORDER_BAD_CAPTURE);
    }

    /// A search of four plies over `ctx` with no game history.
    fn test_search<'s, 'a, 'm>(
        ctx: &'s mut SearchContext<'a>,
        meter: &'s mut Meter<'m>,
    ) -> Search<'s, 'a, 'm> {
        Search {
            ctx,
            meter,
            history: &[],
            max_ply: 4,
            root_depth: 0,
            singular_nesting: 0,
            generation: 0,
        }
    }

    /// Runs `f` on a search from `pos` of at most 8 plies at iteration depth 6, over a
    /// table of 4,096 entries, with the classic evaluation.
    fn on_search(pos: Position, f: impl FnOnce(&mut Search<'_, '_, '_>)) {
        extern crate std;
        let mut tt = std::vec![TtEntry::EMPTY; 1 << 12];
        let mut plies = [const { Ply::EMPTY }; 8];
        let mut history = History::EMPTY;
        plies[0].set_root(pos);
        let mut ctx = SearchContext::new(&mut tt, &mut plies, &mut history);
        let (mut clock, mut never) = (NodeClock { ns_per_node: 0 }, NeverInterrupt);
        let mut meter = Meter::new(Budget::Nodes(1_000_000), &mut clock, &mut never);
        let mut s = test_search(&mut ctx, &mut meter);
        s.max_ply = 8;
        s.root_depth = 6;
        f(&mut s);
    }

    /// A singular search leaves the table's move out: the only move that takes the queen is
    /// singular (the rest fall far short of its score), a quiet king move is not (the capture
    /// is still there); neither search leaves an entry for the position in the table, and
    /// the ply's excluded move is cleared after each.
    #[test]
    fn singular_search_leaves_the_table_move_out() {
        // White: Kg1, pawns a2, e4; black: Ke8, Qd5, pawn c6: only exd5 takes the queen.
        let pos = Position::from_fen(b"4k3/8/2p5/3q4/4P3/8/P7/6K1 w - - 0 1").unwrap();
        on_search(pos, |s| {
            let singular_beta = -400;
            let capture = find(&pos, "e4d5").packed();
            let without_capture = s.singular(0, 3, singular_beta, capture);
            assert!(without_capture < singular_beta, "{without_capture}");
            assert_eq!(s.ctx.plies[0].excluded, 0);
            let without_king_move = s.singular(0, 3, singular_beta, find(&pos, "g1f1").packed());
            assert!(without_king_move >= singular_beta, "{without_king_move}");
            assert_eq!(s.ctx.plies[0].excluded, 0);
            assert_eq!(s.tt_probe(pos.hash()), None);
        });
    }

    /// The index of the move `uci` in ply `ply`'s list.
    fn index_of(s: &Search<'_, '_, '_>, ply: usize, uci: &str) -> usize {
        let p = &s.ctx.plies[ply];
        let m = find(&p.pos, uci);
        p.moves.iter().position(|&x| x == m).unwrap()
    }

    /// Ply `ply + 1` after the move `uci` of ply `ply`, its moves generated and keyed.
    fn after(s: &mut Search<'_, '_, '_>, ply: usize, uci: &str) {
        s.generate(ply, false);
        let i = index_of(s, ply, uci);
        s.make(ply, i).unwrap();
        s.generate(ply + 1, false);
        s.score_moves(ply + 1, 0);
    }

    /// The ordering key of the move `uci` of ply `ply`.
    fn key_of(s: &Search<'_, '_, '_>, ply: usize, uci: &str) -> i16 {
        s.key_at(ply, index_of(s, ply, uci)).unwrap()
    }

    /// The continuation history lifts a quiet move that cut after the same move one ply
    /// before and after the same move of its own side two plies before (most when both
    /// match), not after other moves, and not without a table; a search fills the table.
    #[test]
    fn continuation_history_orders_replies() {
        extern crate std;
        let mut tt = [TtEntry::EMPTY; 64];
        let mut plies = [const { Ply::EMPTY }; 4];
        let mut history = History::EMPTY;
        let mut table = std::vec![0i16; crate::chess::continuation::CONTINUATION_ENTRIES];
        plies[0].pos = Position::startpos();
        let mut ctx = SearchContext::new(&mut tt, &mut plies, &mut history);
        ctx.set_continuation(&mut table);
        let (mut clock, mut never) = (NodeClock { ns_per_node: 0 }, NeverInterrupt);
        let mut meter = Meter::new(Budget::Nodes(1_000_000), &mut clock, &mut never);
        let mut s = test_search(&mut ctx, &mut meter);
        // 1. e4 Nf6 cuts at depth 6, 2. Nc3 after it; the history heuristic's own table is
        // emptied, so only the continuation history orders.
        after(&mut s, 0, "e2e4");
        let nf6 = index_of(&s, 1, "g8f6");
        s.reward_quiet(1, nf6, 6);
        after(&mut s, 1, "g8f6");
        let nc3 = index_of(&s, 2, "b1c3");
        s.reward_quiet(2, nc3, 6);
        *s.ctx.history = History::EMPTY;
        // After 1. e4, Nf6 first among the quiet moves.
        after(&mut s, 0, "e2e4");
        let lifted = key_of(&s, 1, "g8f6");
        assert!(lifted > ORDER_QUIET, "{lifted}");
        let p = &s.ctx.plies[1];
        for (i, &m) in p.moves.iter().enumerate() {
            if i != index_of(&s, 1, "g8f6") {
                assert!(p.order[i] <= ORDER_QUIET, "{m:?} {}", p.order[i]);
            }
        }
        // After 1. d4 it is not lifted.
        after(&mut s, 0, "d2d4");
        assert_eq!(key_of(&s, 1, "g8f6"), ORDER_QUIET);
        // 2. Nc3: after e4 and Nf6 most; after e4 and Nc6 (e4 two plies before) or d4 and
        // Nf6 (Nf6 a ply before) less; after d4 and Nc6 not at all.
        after(&mut s, 0, "e2e4");
        after(&mut s, 1, "g8f6");
        let both = key_of(&s, 2, "b1c3");
        after(&mut s, 1, "b8c6");
        let two = key_of(&s, 2, "b1c3");
        assert!(both > two && two > ORDER_QUIET, "{both} {two}");
        after(&mut s, 0, "d2d4");
        after(&mut s, 1, "g8f6");
        let one = key_of(&s, 2, "b1c3");
        assert!(both > one && one > ORDER_QUIET, "{both} {one}");
        after(&mut s, 1, "b8c6");
        assert_eq!(key_of(&s, 2, "b1c3"), ORDER_QUIET);
        // Without a table, nothing is lifted.
        s.ctx.continuation = &mut [];
        after(&mut s, 0, "e2e4");
        assert_eq!(key_of(&s, 1, "g8f6"), ORDER_QUIET);
        // A search fills the table.
        table.fill(0);
        let mut plies = [const { Ply::EMPTY }; MAX_PLY];
        let mut ctx = SearchContext::new(&mut tt, &mut plies, &mut history);
        ctx.set_continuation(&mut table);
        let mut meter = Meter::new(Budget::Nodes(20_000), &mut clock, &mut never);
        let game = Game::from_position(Position::startpos());
        assert!(matches!(
            best_move(&game, &mut ctx, &mut meter),
            SearchResult::Move(_)
        ));
        assert!(table.iter().filter(|&&v| v != 0).count() > 100);
    }

    /// A table entry for `key` at `depth` with move `mv`.
    fn entry(key: u64, depth: i8, mv: u16) -> TtEntry {
        TtEntry {
            key,
            mv,
            score: 0,
            depth,
            bound: Bound::Exact,
            generation: 0,
        }
    }

    /// A bucket keeps its deepest entries: a new position replaces the shallowest; the
    /// position's own entry is rewritten in place, keeping its move when the new one has
    /// none; a full table's entries of earlier moves of the game give way first.
    #[test]
    fn table_buckets_keep_deep_and_recent_entries() {
        // Two buckets of four: keys 0, 2, 4, ... share the first.
        let mut tt = [TtEntry::EMPTY; 2 * TT_BUCKET];
        let mut plies = [const { Ply::EMPTY }; 4];
        let mut history = History::EMPTY;
        let mut ctx = SearchContext::new(&mut tt, &mut plies, &mut history);
        let (mut clock, mut never) = (NodeClock { ns_per_node: 0 }, NeverInterrupt);
        let mut meter = Meter::new(Budget::Nodes(1_000), &mut clock, &mut never);
        let mut s = test_search(&mut ctx, &mut meter);
        s.generation = 10;
        for (key, depth) in [(2, 5), (4, 1), (6, 7), (8, 3)] {
            s.tt_store(entry(key, depth, 1));
        }
        s.tt_store(entry(10, 2, 1));
        let depth = |s: &Search<'_, '_, '_>, key| s.tt_probe(key).map(|e| e.depth);
        assert_eq!(depth(&s, 4), None);
        assert_eq!(
            [2, 6, 8, 10].map(|k| depth(&s, k)),
            [Some(5), Some(7), Some(3), Some(2)]
        );
        // The second bucket is untouched.
        assert!(s.ctx.tt[TT_BUCKET..].iter().all(|e| *e == TtEntry::EMPTY));
        // The same position: in place, whatever its depth, the move kept.
        s.tt_store(entry(6, 1, 0));
        assert_eq!(s.tt_probe(6).map(|e| (e.depth, e.mv)), Some((1, 1)));
        assert_eq!(depth(&s, 2), Some(5));
        // Three moves later (six plies), shallow entries replace the older deep ones.
        s.generation = 16;
        for key in [12, 14, 16, 18] {
            s.tt_store(entry(key, 1, 2));
        }
        assert_eq!(
            [12, 14, 16, 18].map(|k| s.tt_probe(k).map(|e| e.generation)),
            [Some(16); 4]
        );
    }

    /// Quiescence takes a cut from the table in a null window, never in a PV window.
    #[test]
    fn quiescence_cuts_on_a_table_entry() {
        let pos = Position::startpos();
        let mut tt = [TtEntry::EMPTY; 64];
        let mut plies = [const { Ply::EMPTY }; 4];
        let mut history = History::EMPTY;
        plies[0].set_root(pos);
        // The first entry of the position's bucket (16 buckets of four).
        let slot = (pos.hash() % 16) as usize * TT_BUCKET;
        tt[slot] = TtEntry {
            key: pos.hash(),
            mv: 0,
            score: 500,
            depth: 3,
            bound: Bound::Lower,
            generation: 0,
        };
        let mut ctx = SearchContext::new(&mut tt, &mut plies, &mut history);
        let (mut clock, mut never) = (NodeClock { ns_per_node: 0 }, NeverInterrupt);
        let mut meter = Meter::new(Budget::Nodes(1_000_000), &mut clock, &mut never);
        let mut s = test_search(&mut ctx, &mut meter);
        assert_eq!(s.quiesce(0, 99, 100), 500);
        let real = s.quiesce(0, 0, 100);
        assert!(real < 100, "{real}");
        // An upper bound above the window does not cut.
        if let Some(e) = s.ctx.tt.get_mut(slot) {
            e.bound = Bound::Upper;
        }
        assert_eq!(s.quiesce(0, 99, 100), real);
    }

    /// Searches with the network: every evaluation's lazily updated accumulator equals a
    /// fresh one (checked inside `nnue_eval` in test builds), across null moves, captures,
    /// castling, en passant and promotions.
    #[test]
    fn lazy_accumulators_match_a_refresh() {
        let net = Network::embedded().unwrap();
        let fens: [&[u8]; 4] = [
            b"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            b"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            b"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            b"rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
        ];
        let mut tt = [TtEntry::EMPTY; 1024];
        let mut plies = [const { Ply::EMPTY }; MAX_PLY];
        let mut history = History::EMPTY;
        let mut accs = [Accumulator::EMPTY; MAX_PLY];
        for f in fens {
            let game = Game::from_position(Position::from_fen(f).unwrap());
            let mut ctx = SearchContext::new(&mut tt, &mut plies, &mut history);
            ctx.set_nnue(net, &mut accs);
            let (mut clock, mut never) = (NodeClock { ns_per_node: 0 }, NeverInterrupt);
            let mut meter = Meter::new(Budget::Nodes(20_000), &mut clock, &mut never);
            assert!(matches!(
                best_move(&game, &mut ctx, &mut meter),
                SearchResult::Move(_)
            ));
            assert!(ctx.info().nodes >= 20_000);
        }
    }
}
