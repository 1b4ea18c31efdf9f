//! Perft divide: the leaf count below each legal move, then the total and the time.
//!
//! `cargo run --release -p chess-lab --bin chess_divide -- "<fen>" <depth>`

use kgames_chess::common::text::BufWriter;
use kgames_chess::movegen::perft;
use kgames_chess::moves::MoveList;
use kgames_chess::notation::write_uci;
use kgames_chess::position::Position;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (fen, depth) = match args.as_slice() {
        [fen, depth] => (fen.as_str(), depth.parse::<u32>().ok()),
        _ => ("", None),
    };
    let Some(depth) = depth.filter(|&d| d >= 1) else {
        eprintln!("usage: divide \"<fen>\" <depth>=1..");
        return ExitCode::from(2);
    };
    let pos = match Position::from_fen(fen.as_bytes()) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("bad FEN: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut total = 0u64;
    for &m in &list {
        let mut child = pos;
        child.play(m);
        let n = perft(&child, depth - 1);
        total += n;
        let mut buf = [0u8; 8];
        let mut w = BufWriter::new(&mut buf);
        write_uci(m, &mut w).ok();
        println!("{}: {n}", String::from_utf8_lossy(w.as_bytes()));
    }
    let micros = start.elapsed().as_micros().max(1);
    println!();
    println!("Moves: {}", list.len());
    println!("Nodes: {total}");
    println!(
        "Time: {} ms ({} knodes/s)",
        micros / 1000,
        u128::from(total) * 1000 / micros
    );
    ExitCode::SUCCESS
}
