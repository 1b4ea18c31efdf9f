//! One device's session layer on any sequence of writes: each line of the input is one write
//! (with its `\n`). CPU moves run on the session's own `05 N<n>` node budget, capped, or on a
//! tiny default under a time budget (the default `05`); every fifth is interrupted.
//!
//! Invariants: no panic or overflow; every reply has its documented form
//! ([`crate::replies::check`]); a rejected command leaves `01`, `11`, `09`, `06` and `07`
//! byte for byte as they were; while a CPU move is in flight `01` shows the position before
//! it and every other command is refused without effect; an interrupted move changes nothing.
//!
//! Speed: the view of the game a rejected write is compared with is kept from the last check
//! ([`Seen`]) when no write changed the session since, and the read-only commands of a view
//! share one reply buffer; each check itself is made in full on every write.

use std::cell::RefCell;

use kgames_client::protocol::is_rejection;
use kgames_session::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
use kgames_session::session::game::{Game, Thought};
use kgames_session::session::reply::Reply;
use kgames_session::session::state::{Action, CommandContext, Session};

use crate::replies;

/// Node budget of a reversi or chess CPU move under a time budget (the default `05`): tiny,
/// the search itself is not the target, and every budget path (spent at once, spent after
/// some iterations) is reached with `05 N<n>`.
pub const SEARCH_NODES: u64 = 8;
/// The cap on a reversi or chess `05 N<n>` budget.
pub const MAX_SEARCH_NODES: u64 = 300;
/// Node budget of a kxo Monte Carlo move under a time budget (one node is one random move of
/// a playout): the first move of a 4 x 4 game with [`KXO_PLAYOUTS`] takes about 450 nodes
/// and is scored in full; larger boards or more playouts run out of budget.
pub const PLAYOUT_NODES: u64 = 500;
/// The cap on a kxo `05 N<n>` budget: the playouts of any board and setting fit (the first
/// move of a 6 x 6 game with 100 playouts per tile takes about 123,000 nodes).
pub const MAX_PLAYOUT_NODES: u64 = 200_000;
/// Playouts per tile of a kxo game started without T (the module parameter `kxo_playouts`,
/// 30 by default; `00 S N T` still asks for 1-100).
pub const KXO_PLAYOUTS: u8 = 2;
/// Transposition-table entries of a CPU search (cleared by every search: small, as the
/// searches are).
pub const TT_ENTRIES: usize = 32;

/// The search buffers and budgets shared by the sessions of one run.
pub struct Scratch<G: Game> {
    scratch: G::Scratch<kgames_session::HeapAlloc>,
    nodes: u64,
    max_nodes: u64,
    searches: u64,
}

impl<G: Game> Scratch<G> {
    /// Buffers for CPU moves of `nodes` nodes under a time budget and at most `max_nodes`
    /// under a node budget.
    pub fn new(nodes: u64, max_nodes: u64) -> Self {
        Scratch {
            scratch: G::new_scratch(TT_ENTRIES, &G::Config::default()).expect("host allocation"),
            nodes,
            max_nodes,
            searches: 0,
        }
    }

    /// The node budget of a CPU move under the session's budget `b`.
    fn budget(&self, b: Budget) -> u64 {
        match b {
            Budget::Nodes(n) => n.min(self.max_nodes),
            Budget::TimeMs(_) => self.nodes,
        }
    }
}

/// The table figures shown by `09`.
pub fn env() -> CommandContext {
    CommandContext {
        games: 1,
        max_games: 4,
        ..CommandContext::default()
    }
}

thread_local! {
    /// The reply buffer of the read-only commands (a `Reply` is 2 KiB: not cleared per use).
    static PEEK: RefCell<Reply> = const { RefCell::new(Reply::new()) };
}

/// The answer of a read-only command (run on `copy`, a copy of the session).
fn peek_on<G: Game>(copy: &mut Session<G>, raw: &[u8], env: &CommandContext) -> Vec<u8> {
    PEEK.with_borrow_mut(|out| match copy.execute(raw, env, out) {
        Action::Done => out.as_bytes().to_vec(),
        Action::Think(_) => panic!("{raw:?} asked for a search"),
    })
}

/// The answer of a read-only command, run on a copy of the session.
pub fn peek<G: Game>(s: &Session<G>, raw: &[u8], env: &CommandContext) -> Vec<u8> {
    peek_on(&mut s.clone(), raw, env)
}

/// What a user can see of the game: `01`, `11`, `06`, `07` and, with `status`, `09`.
pub fn observe<G: Game>(s: &Session<G>, env: &CommandContext, status: bool) -> Vec<Vec<u8>> {
    let cmds: &[&[u8]] = if status {
        &[b"01", b"11", b"06", b"07", b"09"]
    } else {
        &[b"01", b"11", b"06", b"07"]
    };
    let mut copy = s.clone();
    cmds.iter().map(|c| peek_on(&mut copy, c, env)).collect()
}

/// The view of a session's current state (`observe`: `01`, `11`, `06`, `07`, and `09` under
/// the kept `CommandContext` when taken with status), if known. Only [`write()`] changes a
/// session: it takes the view out and puts back the one it observed after the write, so a
/// kept view is always that of the current state.
#[derive(Default)]
pub struct Seen(Option<(CommandContext, Vec<Vec<u8>>)>);

impl Seen {
    /// `observe(s, env, status)` of `s` (the session this belongs to): the kept view when it
    /// was taken under the same `CommandContext` (`09` observed now if it lacks it),
    /// otherwise observed.
    pub fn take<G: Game>(
        &mut self,
        s: &Session<G>,
        env: &CommandContext,
        status: bool,
    ) -> Vec<Vec<u8>> {
        match self.0.take() {
            Some((e, mut view)) if e == *env && view.len() >= 4 => {
                view.truncate(if status { 5 } else { 4 });
                if status && view.len() == 4 {
                    view.push(peek(s, b"09", env));
                }
                view
            }
            _ => observe(s, env, status),
        }
    }

    /// Keeps `view`, `observe(s, env, _)` of the session's current state.
    pub fn keep(&mut self, env: &CommandContext, view: Vec<Vec<u8>>) {
        self.0 = Some((*env, view));
    }
}

/// Runs one write on `s` with every invariant checked; the reply is left in `out` (empty
/// after an interrupted CPU move, which the kernel turns into `ERESTARTSYS`). `seen` belongs
/// to `s` (see [`Seen`]).
pub fn write<G: Game>(
    s: &mut Session<G>,
    seen: &mut Seen,
    out: &mut Reply,
    k: &mut Scratch<G>,
    raw: &[u8],
    env: &CommandContext,
) {
    let before = s.clone();
    // The view of the state before this write (kept, or taken from `before` when needed).
    let mut view_before = seen.0.take();
    let mut unchanged = |s: &Session<G>, seen: &mut Seen| {
        let was = Seen(view_before.take()).take(&before, env, true);
        let now = observe(s, env, true);
        let same = was == now;
        seen.keep(env, now);
        same
    };
    if let Action::Think(copy) = s.execute(raw, env, out) {
        assert!(s.is_busy());
        while_busy(s, &peek(&before, b"01", env), env);
        k.searches += 1;
        let thought = if k.searches.is_multiple_of(5) {
            Thought::Interrupted
        } else {
            let mut clock = NodeClock { ns_per_node: 1000 };
            let mut never = NeverInterrupt;
            let budget = Budget::Nodes(k.budget(s.budget()));
            let mut meter = Meter::new(budget, &mut clock, &mut never);
            copy.think(&mut k.scratch, &mut meter)
        };
        s.finish(thought, out);
        assert!(!s.is_busy());
        if matches!(thought, Thought::Interrupted) {
            assert!(out.is_empty(), "an interrupted move replied");
            assert!(unchanged(s, seen), "an interrupted move changed the game");
            return;
        }
    }
    replies::check::<G>(raw, out.as_bytes());
    if replies::word(out.as_bytes()).is_some_and(is_rejection) {
        assert!(unchanged(s, seen), "rejected {raw:?} changed the game");
    }
}

/// While a search is in flight: `01` answers the position before the move, and any other
/// command (which the kernel makes wait) is refused here and changes nothing.
fn while_busy<G: Game>(s: &mut Session<G>, board_before: &[u8], env: &CommandContext) {
    let mut out = Reply::new();
    assert!(matches!(s.execute(b"01\n", env, &mut out), Action::Done));
    assert_eq!(out.as_bytes(), board_before, "01 while busy");
    assert!(matches!(s.execute(b"00 X\n", env, &mut out), Action::Done));
    assert!(s.is_busy());
}

/// The target: each line of `data` is one write on one session.
pub fn run<G: Game>(data: &[u8], config: G::Config, nodes: u64, max_nodes: u64) {
    let mut s = Session::<G>::with_config(config);
    let mut seen = Seen::default();
    let mut out = Reply::new();
    let mut k = Scratch::new(nodes, max_nodes);
    let env = env();
    let mut raw = Vec::new();
    for line in data.split(|&b| b == b'\n') {
        raw.clear();
        raw.extend_from_slice(line);
        raw.push(b'\n');
        write(&mut s, &mut seen, &mut out, &mut k, &raw, &env);
    }
}
