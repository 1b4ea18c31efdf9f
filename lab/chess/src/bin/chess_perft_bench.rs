//! Perft benchmark, side by side in one run: ours against shakmaty and cozy-chess, from the
//! start position to depth 6 and Kiwipete to depth 5, with bulk counting at the last ply (the
//! number of legal moves is the count) and without it (every leaf move is played). Each case
//! runs every engine `rounds` times (default 3) and keeps the fastest; the ratios are ours
//! divided by the peer's (below 1 = ours faster).
//! `cargo run --release -p chess-lab --bin chess_perft_bench -- [rounds]`

use std::time::{Duration, Instant};

const CASES: [(&str, &str, u32, u64); 2] = [
    (
        "start d6",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
        119_060_324,
    ),
    (
        "Kiwipete d5",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
        193_690_690,
    ),
];

mod ours {
    use kgames_chess::movegen::perft;
    use kgames_chess::moves::MoveList;
    use kgames_chess::position::Position;

    pub fn run(fen: &str, depth: u32, bulk: bool) -> u64 {
        let pos = Position::from_fen(fen.as_bytes()).expect("valid FEN");
        if bulk {
            perft(&pos, depth)
        } else {
            full(&pos, depth)
        }
    }

    /// Without bulk counting: the public move generator and `play` down to depth 0.
    fn full(pos: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let mut n = 0;
        for &m in &list {
            let mut child = *pos;
            child.play(m);
            n += full(&child, depth - 1);
        }
        n
    }
}

mod shakmaty_peer {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    pub fn run(fen: &str, depth: u32, bulk: bool) -> u64 {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("valid FEN")
            .into_position(CastlingMode::Standard)
            .expect("valid position");
        walk(&pos, depth, bulk)
    }

    fn walk(pos: &Chess, depth: u32, bulk: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = pos.legal_moves();
        if bulk && depth == 1 {
            return moves.len() as u64;
        }
        let mut n = 0;
        for m in &moves {
            let mut child = pos.clone();
            child.play_unchecked(*m);
            n += walk(&child, depth - 1, bulk);
        }
        n
    }
}

mod cozy_peer {
    use cozy_chess::Board;

    pub fn run(fen: &str, depth: u32, bulk: bool) -> u64 {
        let board: Board = fen.parse().expect("valid FEN");
        walk(&board, depth, bulk)
    }

    fn walk(board: &Board, depth: u32, bulk: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut n = 0;
        if bulk && depth == 1 {
            board.generate_moves(|moves| {
                n += moves.len() as u64;
                false
            });
            return n;
        }
        board.generate_moves(|moves| {
            for m in moves {
                let mut child = board.clone();
                child.play_unchecked(m);
                n += walk(&child, depth - 1, bulk);
            }
            false
        });
        n
    }
}

type Runner = fn(&str, u32, bool) -> u64;

fn best_of(rounds: u32, run: Runner, fen: &str, depth: u32, bulk: bool, expect: u64) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..rounds {
        let start = Instant::now();
        let n = run(fen, depth, bulk);
        best = best.min(start.elapsed());
        assert_eq!(n, expect, "wrong perft count");
    }
    best
}

/// Seconds with three decimals.
fn secs(d: Duration) -> String {
    format!("{}.{:03}", d.as_secs(), d.subsec_millis())
}

/// `ours / theirs` with two decimals (integer arithmetic).
fn ratio(ours: Duration, theirs: Duration) -> String {
    let r = ours.as_micros() * 100 / theirs.as_micros().max(1);
    format!("{}.{:02}", r / 100, r % 100)
}

fn main() {
    let rounds: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3)
        .max(1);
    println!("chess perft, best of {rounds} (ratio = ours / peer, below 1 = ours faster)");
    println!(
        "{:<12} {:<5} {:>9} {:>9} {:>9} {:>11} {:>9}",
        "case", "bulk", "ours s", "shakmaty", "cozy", "/shakmaty", "/cozy"
    );
    for bulk in [true, false] {
        for (name, fen, depth, expect) in CASES {
            let t_ours = best_of(rounds, ours::run, fen, depth, bulk, expect);
            let t_shak = best_of(rounds, shakmaty_peer::run, fen, depth, bulk, expect);
            let t_cozy = best_of(rounds, cozy_peer::run, fen, depth, bulk, expect);
            println!(
                "{:<12} {:<5} {:>9} {:>9} {:>9} {:>11} {:>9}",
                name,
                if bulk { "yes" } else { "no" },
                secs(t_ours),
                secs(t_shak),
                secs(t_cozy),
                ratio(t_ours, t_shak),
                ratio(t_ours, t_cozy)
            );
        }
    }
}
