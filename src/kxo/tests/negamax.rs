//! The negamax agent solves the empty board: the value kgames.ko's KUnit suite checks the
//! kernel's build against (data/solved.rs).

#[path = "data/solved.rs"]
mod solved;

use kgames_kxo::board::{Board4, Side};
use kgames_kxo::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
use kgames_kxo::negamax::{search, History, TtEntry, MATE_BOUND, TT_DEFAULT_LEN};

#[test]
fn negamax_solves_the_empty_board() {
    let mut tt = vec![TtEntry::EMPTY; TT_DEFAULT_LEN];
    let mut history = History::EMPTY;
    let (mut c, mut i) = (NodeClock { ns_per_node: 1 }, NeverInterrupt);
    let mut meter = Meter::new(Budget::Nodes(Budget::MAX_NODES), &mut c, &mut i);
    let s = search(&Board4::EMPTY, Side::O, &mut tt, &mut history, &mut meter)
        .expect("the empty board has moves");
    assert!(s.solved && s.score > MATE_BOUND, "{s:?}");
    assert_eq!((s.score, s.cell), solved::EMPTY_BOARD, "{s:?}");
}
