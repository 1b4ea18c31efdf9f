//! The CPU player: always legal, finds forced mates, respects node and (fake) time budgets,
//! is deterministic, honours interrupts, and fits a kernel-sized stack.

use kgames_chess::common::budget::{Budget, Interrupt, Meter, NeverInterrupt, NodeClock};
use kgames_chess::common::rng::Rng;
use kgames_chess::game::Game;
use kgames_chess::moves::{Move, MoveList};
use kgames_chess::position::Position;
use kgames_chess::search::{
    best_move, History, Ply, SearchContext, SearchResult, TtEntry, MATE, MAX_PLY,
};

struct Buffers {
    tt: Vec<TtEntry>,
    plies: Vec<Ply>,
    history: Box<History>,
}

impl Buffers {
    fn new(tt: usize, plies: usize) -> Self {
        Buffers {
            tt: vec![TtEntry::EMPTY; tt],
            plies: vec![Ply::EMPTY; plies],
            history: Box::new(History::EMPTY),
        }
    }
}

type Outcome = (SearchResult, u64, i32, u32, u32);

fn search(game: &Game, bufs: &mut Buffers, budget: Budget) -> Outcome {
    let mut ctx = SearchContext::new(&mut bufs.tt, &mut bufs.plies, &mut bufs.history);
    let (mut clock, mut never) = (NodeClock { ns_per_node: 1000 }, NeverInterrupt);
    let mut meter = Meter::new(budget, &mut clock, &mut never);
    let r = best_move(game, &mut ctx, &mut meter);
    let info = ctx.info();
    (r, meter.nodes(), info.score, info.depth, info.seldepth)
}

fn game(fen: &str) -> Game {
    Game::from_position(Position::from_fen(fen.as_bytes()).unwrap())
}

fn legal(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list
}

/// True when the side to move can force mate within `n` of its own moves (brute force).
fn forces_mate(pos: &Position, n: u32) -> bool {
    legal(pos).iter().any(|&m| mate_after(pos, m, n))
}

fn mate_after(pos: &Position, m: Move, n: u32) -> bool {
    let mut next = *pos;
    next.play(m);
    let replies = legal(&next);
    if replies.is_empty() {
        return next.is_check();
    }
    n > 1
        && replies.iter().all(|&r| {
            let mut after = next;
            after.play(r);
            forces_mate(&after, n - 1)
        })
}

#[test]
fn finds_mate_in_one() {
    let cases = [
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", // no move: mated
        "r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1",
    ];
    let mut bufs = Buffers::new(1 << 16, 32);
    for fen in cases {
        let g = game(fen);
        let (r, _, score, _, _) = search(&g, &mut bufs, Budget::Nodes(200_000));
        if g.is_over() {
            assert_eq!(r, SearchResult::NoMove);
            continue;
        }
        let SearchResult::Move(m) = r else {
            panic!("{fen}: {r:?}")
        };
        assert!(mate_after(g.position(), m, 1), "{fen}: {m:?}");
        assert_eq!(score, MATE - 1, "{fen}");
    }
}

#[test]
fn finds_mate_in_two() {
    let cases = [
        "k7/8/2K5/8/8/8/8/7R w - - 0 1",
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",
    ];
    let mut bufs = Buffers::new(1 << 16, 32);
    for fen in cases {
        let g = game(fen);
        let pos = g.position();
        assert!(!forces_mate(pos, 1), "{fen} is a mate in one");
        assert!(forces_mate(pos, 2), "{fen} is not a mate in two");
        let (r, _, score, _, _) = search(&g, &mut bufs, Budget::Nodes(500_000));
        let SearchResult::Move(m) = r else {
            panic!("{fen}: {r:?}")
        };
        assert!(mate_after(pos, m, 2), "{fen}: {m:?} does not force mate");
        assert_eq!(score, MATE - 3, "{fen}");
    }
}

#[test]
fn always_legal_on_random_positions() {
    let mut rng = Rng::new(7);
    let mut bufs = Buffers::new(1 << 12, 24);
    let mut searched = 0;
    while searched < 300 {
        let mut g = Game::new();
        for _ in 0..rng.below(120) {
            let list = legal(g.position());
            if g.is_over() {
                break;
            }
            let m = list.get(rng.below(list.len() as u32) as usize).unwrap();
            g.play(m);
        }
        // Tiny budgets exercise the fallback, larger ones real iterations.
        let budget = Budget::Nodes(u64::from(1 + rng.below(3000)));
        let (r, nodes, _, _, _) = search(&g, &mut bufs, budget);
        let list = legal(g.position());
        match r {
            SearchResult::Move(m) => assert!(list.iter().any(|&l| l == m)),
            SearchResult::NoMove => assert!(g.is_over()),
            SearchResult::Interrupted => panic!("not interrupted"),
        }
        let Budget::Nodes(max) = budget else {
            unreachable!()
        };
        assert!(nodes <= max);
        searched += 1;
    }
}

#[test]
fn budgets_are_respected() {
    let g = game("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let mut bufs = Buffers::new(1 << 14, 64);
    for n in [1u64, 10, 1000, 50_000] {
        let (r, nodes, _, _, _) = search(&g, &mut bufs, Budget::Nodes(n));
        assert!(matches!(r, SearchResult::Move(_)));
        assert_eq!(nodes, n, "a node budget is spent exactly");
    }
    // 20 ms at 1000 fake ns per node: 20 000 nodes, noticed at the next check.
    let (r, nodes, _, depth, _) = search(&g, &mut bufs, Budget::TimeMs(20));
    assert!(matches!(r, SearchResult::Move(_)));
    assert!(
        (20_000..20_000 + Meter::CHECK_INTERVAL).contains(&nodes),
        "{nodes}"
    );
    assert!(depth >= 2, "{depth}");
}

#[test]
fn deterministic_under_a_node_budget() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];
    let mut a = Buffers::new(1 << 14, 64);
    let mut b = Buffers::new(1 << 14, 64);
    for fen in fens {
        let g = game(fen);
        let first = search(&g, &mut a, Budget::Nodes(30_000));
        // Reused, dirty buffers give the same answer as fresh ones.
        let again = search(&g, &mut a, Budget::Nodes(30_000));
        let other = search(&g, &mut b, Budget::Nodes(30_000));
        assert_eq!(first, again, "{fen}");
        assert_eq!(first, other, "{fen}");
    }
}

#[test]
fn prefers_winning_material() {
    // A free queen on d5.
    let g = game("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
    let mut bufs = Buffers::new(1 << 14, 32);
    let (r, _, score, _, _) = search(&g, &mut bufs, Budget::Nodes(50_000));
    let SearchResult::Move(m) = r else { panic!() };
    assert_eq!((m.from().index(), m.to().index()), (11, 35), "{m:?}");
    assert!(score > 300);
}

struct AfterChecks(u32);

impl Interrupt for AfterChecks {
    fn pending(&mut self) -> bool {
        self.0 = self.0.saturating_sub(1);
        self.0 == 0
    }
}

#[test]
fn interrupt_is_reported() {
    let g = Game::new();
    let mut bufs = Buffers::new(1 << 12, 32);
    let mut ctx = SearchContext::new(&mut bufs.tt, &mut bufs.plies, &mut bufs.history);
    let (mut clock, mut sig) = (NodeClock { ns_per_node: 0 }, AfterChecks(3));
    let mut meter = Meter::new(Budget::Nodes(10_000_000), &mut clock, &mut sig);
    assert_eq!(
        best_move(&g, &mut ctx, &mut meter),
        SearchResult::Interrupted
    );
}

/// Runs `f` with `pad` bytes of the current stack already in use.
#[inline(never)]
fn with_stack_padding<R>(f: impl FnOnce() -> R) -> R {
    let pad = std::hint::black_box([1u8; 6 * 1024]);
    let r = f();
    std::hint::black_box(&pad);
    r
}

#[test]
fn fits_a_kernel_sized_stack() {
    // A 16 KiB thread stack leaves about 19.5 KiB usable on x86-64 Linux (measured with a
    // recursion of known frame size); after 6 KiB of padding, this closure (a Game, buffers,
    // results: about 3 KiB) and the search must fit in the rest. Measured separately, a search
    // reaching the ply limit needs about 4 KiB more stack than a one-node search (about 130
    // bytes a ply). The positions drive the recursion to the ply limit.
    let handle = std::thread::Builder::new()
        .stack_size(16 * 1024)
        .spawn(|| {
            with_stack_padding(|| {
                let mut bufs = Buffers::new(1 << 12, MAX_PLY);
                let mut results = Vec::new();
                for fen in [
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                    // Small trees: iterative deepening reaches the ply limit.
                    "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
                    "8/8/8/4k3/8/8/8/1K5R w - - 0 1",
                    "8/8/8/8/8/k7/8/1K5Q w - - 0 1",
                ] {
                    let g = game(fen);
                    results.push(search(&g, &mut bufs, Budget::Nodes(2_000_000)));
                }
                results
            })
        })
        .unwrap();
    let results = handle.join().unwrap();
    assert!(results.iter().all(|r| matches!(r.0, SearchResult::Move(_))));
    let deepest = results.iter().map(|r| r.4).max().unwrap();
    assert!(
        deepest as usize >= MAX_PLY - 5,
        "only reached ply {deepest}"
    );
}

#[test]
fn memory_sizes_are_as_documented() {
    use kgames_chess::game::Game;
    use std::mem::size_of;
    assert!(size_of::<Position>() < 200, "{}", size_of::<Position>());
    assert_eq!(size_of::<TtEntry>(), 16);
    assert!(size_of::<Ply>() <= 2160, "{}", size_of::<Ply>());
    assert!(size_of::<MoveList>() <= 1540, "{}", size_of::<MoveList>());
    assert!(size_of::<Game>() <= 1200, "{}", size_of::<Game>());
}

#[test]
fn self_play_ends_with_a_result() {
    let mut g = Game::new();
    let mut bufs = Buffers::new(1 << 14, 48);
    let mut plies = 0;
    while !g.is_over() {
        let (r, _, _, _, _) = search(&g, &mut bufs, Budget::Nodes(3_000));
        let SearchResult::Move(m) = r else {
            panic!("{r:?}")
        };
        assert!(legal(g.position()).iter().any(|&l| l == m));
        g.play(m).unwrap();
        plies += 1;
        assert!(plies < 2000, "no result after {plies} plies");
    }
    println!("self-play: {:?} after {plies} plies", g.outcome());
}
