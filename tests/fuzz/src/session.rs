//! One device's session layer on any sequence of writes: each line of the input is one write
//! (with its `\n`), CPU moves run on a small node budget and every fifth is interrupted.
//!
//! Invariants: no panic or overflow; every reply has its documented form
//! ([`crate::replies::check`]); a rejected command leaves `01`, `11`, `09`, `06` and `07`
//! byte for byte as they were; while a CPU move is in flight `01` shows the position before
//! it and every other command is refused without effect; an interrupted move changes nothing.

use kgames_session::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
use kgames_session::session::game::{Game, Thought};
use kgames_session::session::reply::Reply;
use kgames_session::session::state::{Action, Env, Session};

use crate::replies;

/// Node budget of a reversi or chess CPU move (tiny: the search itself is not the target).
pub const SEARCH_NODES: u64 = 300;
/// Node budget of a kxo Monte Carlo move (its playouts are bounded by the game's settings).
pub const PLAYOUT_NODES: u64 = 1_000_000;

/// The search buffers and budget shared by the sessions of one run.
pub struct Scratch<G: Game> {
    tt: Vec<G::TtEntry>,
    plies: Vec<G::Ply>,
    nodes: u64,
    searches: u64,
}

impl<G: Game> Scratch<G> {
    /// Buffers for CPU moves of `nodes` nodes.
    pub fn new(nodes: u64) -> Self {
        Scratch {
            tt: (0..256).map(|_| G::TT_EMPTY).collect(),
            plies: (0..G::PLIES).map(|_| G::PLY_EMPTY).collect(),
            nodes,
            searches: 0,
        }
    }
}

/// The table figures shown by `09`.
pub fn env() -> Env {
    Env {
        games: 1,
        max_games: 4,
        ..Env::default()
    }
}

/// The answer of a read-only command (run on `copy`, a copy of the session).
fn peek_on<G: Game>(copy: &mut Session<G>, raw: &[u8], env: &Env) -> Vec<u8> {
    let mut out = Reply::new();
    match copy.execute(raw, env, &mut out) {
        Action::Done => out.as_bytes().to_vec(),
        Action::Think(_) => panic!("{raw:?} asked for a search"),
    }
}

/// The answer of a read-only command, run on a copy of the session.
pub fn peek<G: Game>(s: &Session<G>, raw: &[u8], env: &Env) -> Vec<u8> {
    peek_on(&mut s.clone(), raw, env)
}

/// What a user can see of the game: `01`, `11`, `06`, `07` and, with `status`, `09`.
pub fn observe<G: Game>(s: &Session<G>, env: &Env, status: bool) -> Vec<Vec<u8>> {
    let cmds: &[&[u8]] = if status {
        &[b"01", b"11", b"06", b"07", b"09"]
    } else {
        &[b"01", b"11", b"06", b"07"]
    };
    let mut copy = s.clone();
    cmds.iter().map(|c| peek_on(&mut copy, c, env)).collect()
}

/// Runs one write on `s` with every invariant checked; the reply is left in `out` (empty
/// after an interrupted CPU move, which the kernel turns into `ERESTARTSYS`).
pub fn write<G: Game>(
    s: &mut Session<G>,
    out: &mut Reply,
    k: &mut Scratch<G>,
    raw: &[u8],
    env: &Env,
) {
    let before = s.clone();
    if let Action::Think(copy) = s.execute(raw, env, out) {
        assert!(s.is_busy());
        while_busy(s, &peek(&before, b"01", env), env);
        k.searches += 1;
        let thought = if k.searches.is_multiple_of(5) {
            Thought::Interrupted
        } else {
            let mut clock = NodeClock { ns_per_node: 1000 };
            let mut never = NeverInterrupt;
            let mut meter = Meter::new(Budget::Nodes(k.nodes), &mut clock, &mut never);
            copy.think(&mut k.tt, &mut k.plies, &mut meter)
        };
        s.finish(thought, out);
        assert!(!s.is_busy());
        if matches!(thought, Thought::Interrupted) {
            assert!(out.is_empty(), "an interrupted move replied");
            let unchanged = observe(&before, env, true) == observe(s, env, true);
            assert!(unchanged, "an interrupted move changed the game");
            return;
        }
    }
    replies::check::<G>(raw, out.as_bytes());
    if replies::word(out.as_bytes()).is_some_and(replies::is_rejection) {
        let unchanged = observe(&before, env, true) == observe(s, env, true);
        assert!(unchanged, "rejected {raw:?} changed the game");
    }
}

/// While a search is in flight: `01` answers the position before the move, and any other
/// command (which the kernel makes wait) is refused here and changes nothing.
fn while_busy<G: Game>(s: &mut Session<G>, board_before: &[u8], env: &Env) {
    let mut out = Reply::new();
    assert!(matches!(s.execute(b"01\n", env, &mut out), Action::Done));
    assert_eq!(out.as_bytes(), board_before, "01 while busy");
    assert!(matches!(s.execute(b"00 X\n", env, &mut out), Action::Done));
    assert!(s.is_busy());
}

/// The target: each line of `data` is one write on one session.
pub fn run<G: Game>(data: &[u8], nodes: u64) {
    let mut s = Session::<G>::new();
    let mut out = Reply::new();
    let mut k = Scratch::new(nodes);
    let env = env();
    for line in data.split(|&b| b == b'\n') {
        let mut raw = line.to_vec();
        raw.push(b'\n');
        write(&mut s, &mut out, &mut k, &raw, &env);
    }
}
