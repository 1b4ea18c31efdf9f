//! A small match at a fixed node budget per move: the default search (null move and
//! late-move reductions) against the plain full-width search, from random 4-ply openings
//! (fixed seed), each opening played with both colours.
//! `cargo run --release -p chess-lab --bin chess_selfplay -- [games] [nodes]`

use kgames_chess::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
use kgames_chess::common::rng::Rng;
use kgames_chess::game::{Game, Outcome};
use kgames_chess::moves::MoveList;
use kgames_chess::search::{best_move, History, Ply, SearchContext, SearchResult, TtEntry};
use kgames_chess::square::Color;

fn main() {
    let mut args = std::env::args().skip(1);
    let pairs: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let nodes: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let mut tt = vec![TtEntry::EMPTY; 1 << 16];
    let mut plies = vec![Ply::EMPTY; 64];
    let mut history = Box::new(History::EMPTY);
    let mut rng = Rng::new(2026);
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    for _ in 0..pairs {
        let mut opening = Game::new();
        let mut list = MoveList::new();
        for _ in 0..4 {
            opening.legal_moves(&mut list);
            let m = list
                .get(rng.below(list.len() as u32) as usize)
                .expect("a move");
            opening.play(m);
        }
        for pruned_color in Color::ALL {
            let mut g = opening.clone();
            let mut plies_played = 0;
            while !g.is_over() && plies_played < 400 {
                let mut ctx = SearchContext::new(&mut tt, &mut plies, &mut history);
                ctx.set_pruning(g.position().turn() == pruned_color);
                let (mut clock, mut never) = (NodeClock { ns_per_node: 0 }, NeverInterrupt);
                let mut meter = Meter::new(Budget::Nodes(nodes), &mut clock, &mut never);
                let SearchResult::Move(m) = best_move(&g, &mut ctx, &mut meter) else {
                    break;
                };
                g.play(m);
                plies_played += 1;
            }
            match g.outcome() {
                Some(Outcome::Checkmate { winner }) if winner == pruned_color => wins += 1,
                Some(Outcome::Checkmate { .. }) => losses += 1,
                _ => draws += 1,
            }
        }
    }
    println!("pruned search vs full width at {nodes} nodes: +{wins} -{losses} ={draws}");
}
