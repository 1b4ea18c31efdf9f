//! Deep CPU searches on random legal positions, through the session layer's `Game::think`
//! with the kernel's table size: the searches the other targets cap at 300 nodes, run here at
//! 50,000 to 400,000 nodes with overflow checks and debug assertions on.
//!
//! Input: byte 0 picks the game (even: reversi, odd: chess) and the node budget (bits 1-2:
//! 50,000 x 1, 2, 4 or 8); each further byte plays the (byte mod n)-th legal move from the
//! start position (reversi passes when it must), so any input is a legal position reached
//! in play. The CPU then moves for the side to move.
//!
//! Invariants: no panic or overflow; the search ends within its budget (plus the nodes between
//! two checks of the meter); it is never interrupted (nothing interrupts it); the position
//! after its move is one of those the legal moves lead to (a pass exactly when there is no
//! legal move).

use kgames_chess::chess::moves::MoveList;
use kgames_chess::chess::position::Position as ChessPosition;
use kgames_reversi::reversi::bitboard::Squares;
use kgames_reversi::reversi::position::Position as ReversiPosition;
use kgames_session::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
use kgames_session::session::chess_game::{Chess, ChessConfig};
use kgames_session::session::game::{Game, Thought};
use kgames_session::session::reply::Reply;
use kgames_session::session::reversi_game::Reversi;
use kgames_session::HeapAlloc;

use crate::engines::fen_of;

/// Table entries of the searches: the module parameter `tt_entries`' default.
pub const TT_ENTRIES: usize = 1 << 16;
/// The smallest node budget; byte 0 doubles it up to three times.
pub const BASE_NODES: u64 = 50_000;
/// How far past its budget a search may count: the nodes it visits between two checks of
/// the meter, with room to spare.
pub const OVERRUN: u64 = 4_096;

/// The target.
pub fn run(data: &[u8]) {
    let Some((&head, moves)) = data.split_first() else {
        return;
    };
    let nodes = BASE_NODES << ((head >> 1) & 3);
    if head & 1 == 0 {
        let (arg, children) = reversi_walk(moves);
        deep::<Reversi>(&arg, &children, (), [b"X", b"O"], nodes);
    } else {
        let (fen, children) = chess_walk(moves);
        let config = ChessConfig::default();
        deep::<Chess>(&fen, &children, config, [b"W", b"B"], nodes);
    }
}

/// The reversi position `moves` reach from the start, as the argument of `10`, and the
/// arguments of the positions one move later (the pass's, when there is no legal move).
fn reversi_walk(moves: &[u8]) -> (Vec<u8>, Vec<Vec<u8>>) {
    let mut pos = ReversiPosition::start();
    for &b in moves {
        let legal = pos.legal_moves();
        let next = if legal == 0 {
            pos.pass()
        } else {
            let n = legal.count_ones() as usize;
            Squares(legal)
                .nth(usize::from(b) % n)
                .and_then(|sq| pos.play(sq))
        };
        match next {
            Some(p) => pos = p,
            None => break,
        }
    }
    let legal = pos.legal_moves();
    let children = if legal == 0 {
        pos.pass().into_iter().map(|p| p.setup().to_vec()).collect()
    } else {
        Squares(legal)
            .filter_map(|sq| pos.play(sq))
            .map(|p| p.setup().to_vec())
            .collect()
    };
    (pos.setup().to_vec(), children)
}

/// The chess position `moves` reach from the start, as a FEN, and the FENs one move later.
fn chess_walk(moves: &[u8]) -> (Vec<u8>, Vec<Vec<u8>>) {
    let mut pos = ChessPosition::startpos();
    let mut list = MoveList::new();
    for &b in moves {
        list.clear();
        pos.legal_moves(&mut list);
        let Some(m) = list.get(usize::from(b) % list.len().max(1)) else {
            break;
        };
        pos.play(m);
    }
    list.clear();
    pos.legal_moves(&mut list);
    let children = (0..list.len())
        .filter_map(|i| list.get(i))
        .map(|m| {
            let mut p = pos;
            p.play(m);
            fen_of(&p)
        })
        .collect();
    (fen_of(&pos), children)
}

/// Sets up `arg` with the CPU to move and runs one CPU move of `nodes` nodes on it.
fn deep<G: Game>(
    arg: &[u8],
    children: &[Vec<u8>],
    config: G::Config,
    sides: [&[u8]; 2],
    nodes: u64,
) {
    let Some(mut game) = sides
        .iter()
        .filter_map(|s| G::parse_side(s))
        .filter_map(|side| G::setup(arg, side, 0))
        .find(|g| !g.human_to_move())
    else {
        panic!("no side of {arg:?} leaves the CPU to move");
    };
    if game.is_over() {
        return;
    }
    let mut scratch = G::new_scratch::<HeapAlloc>(TT_ENTRIES, &config).expect("host allocation");
    let mut clock = NodeClock { ns_per_node: 1000 };
    let mut never = NeverInterrupt;
    let mut meter = Meter::new(Budget::Nodes(nodes), &mut clock, &mut never);
    let thought = game.think(&mut scratch, &mut meter);
    let spent = meter.nodes();
    assert!(
        spent <= nodes + OVERRUN,
        "{spent} nodes on a budget of {nodes}"
    );
    assert!(
        !matches!(thought, Thought::Interrupted),
        "an uninterrupted search was interrupted"
    );
    game.play_thought(thought);
    let mut out = Reply::new();
    game.write_position(&mut out);
    assert!(
        children.iter().any(|c| c[..] == *out.as_bytes()),
        "the CPU's move from {:?} leads to {:?}, not a position a legal move reaches",
        String::from_utf8_lossy(arg),
        String::from_utf8_lossy(out.as_bytes())
    );
}
