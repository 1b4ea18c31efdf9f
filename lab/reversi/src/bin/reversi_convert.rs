//! `reversi_convert <KGRPAT01 file> <KGRPAT02 file out>`: converts a weight set of the first
//! pattern layout (4 phases, 10 patterns, 38 instances) to today's (12 phases of 5 plies,
//! Zebra's 46 instances, parity), so that the new layout starts from the shipped knowledge.
//!
//! The conversion is exact: today's phases split the old ones at their bounds (45, 30 and 15
//! empties); the edge with its X-squares takes the old edge's weight whatever the X-squares
//! hold; the 3x3 corner, the rows, the diagonals and mobility keep their tables; the 5x2
//! corner and parity start at 0. The converted set evaluates every position as the old one.

use kgames_reversi::pattern::{self, PHASES, PHASE_WEIGHTS, WEIGHTS, WEIGHTS_MAGIC};
use std::process::ExitCode;

/// The first layout: cells of its 10 patterns (edge, 3x3 corner, rows 2-4, diagonals 8-4).
const OLD_CELLS: [u32; 10] = [8, 9, 8, 8, 8, 8, 7, 6, 5, 4];
/// Its phases and weights per phase (the tables, then 2 x 32 mobility).
const OLD_PHASES: usize = 4;

/// The first layout's phase of a position with `empties` empties.
fn old_phase(empties: usize) -> usize {
    match empties {
        45.. => 0,
        30..=44 => 1,
        15..=29 => 2,
        _ => 3,
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != 2 || args[0] == "--help" || args[0] == "-h" {
        println!("usage: reversi_convert <KGRPAT01 weights> <KGRPAT02 weights out>");
        return if args.first().is_some_and(|a| a == "--help" || a == "-h") {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(2)
        };
    }
    let old_offsets: Vec<usize> = OLD_CELLS
        .iter()
        .scan(0usize, |o, &c| {
            let at = *o;
            *o += 3usize.pow(c);
            Some(at)
        })
        .collect();
    let old_mobility = old_offsets[9] + 3usize.pow(OLD_CELLS[9]);
    let old_phase_weights = old_mobility + 64;
    let blob = match std::fs::read(&args[0]) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("reversi_convert: {}: {e}", args[0]);
            return ExitCode::FAILURE;
        }
    };
    let Some(body) = blob.strip_prefix(b"KGRPAT01") else {
        eprintln!("reversi_convert: {}: not a KGRPAT01 weights file", args[0]);
        return ExitCode::FAILURE;
    };
    if body.len() != 2 * OLD_PHASES * old_phase_weights {
        eprintln!(
            "reversi_convert: {}: {} bytes of weights, not {}",
            args[0],
            body.len(),
            2 * OLD_PHASES * old_phase_weights
        );
        return ExitCode::FAILURE;
    }
    let old = |i: usize| i16::from_le_bytes([body[2 * i], body[2 * i + 1]]);
    let mut new = vec![0i16; WEIGHTS];
    for p in 0..PHASES {
        let ob = old_phase(59 - 5 * p) * old_phase_weights;
        let nb = p * PHASE_WEIGHTS;
        // Edge with X-squares: the edge's weight for all 9 X-square contents.
        for i in 0..3usize.pow(10) {
            new[nb + pattern::OFFSETS[0] + i] = old(ob + old_offsets[0] + i / 9);
        }
        // 3x3 corner, rows 2-4, diagonals: the same tables.
        for (t, ot) in [
            (1, 1),
            (3, 2),
            (4, 3),
            (5, 4),
            (6, 5),
            (7, 6),
            (8, 7),
            (9, 8),
            (10, 9),
        ] {
            for i in 0..3usize.pow(OLD_CELLS[ot]) {
                new[nb + pattern::OFFSETS[t] + i] = old(ob + old_offsets[ot] + i);
            }
        }
        for j in 0..64 {
            new[nb + pattern::OFFSETS[11] + j] = old(ob + old_mobility + j);
        }
    }
    let mut out = WEIGHTS_MAGIC.to_vec();
    for w in &new {
        out.extend_from_slice(&w.to_le_bytes());
    }
    if let Err(e) = std::fs::write(&args[1], &out) {
        eprintln!("reversi_convert: {}: {e}", args[1]);
        return ExitCode::FAILURE;
    }
    println!("wrote {} ({} bytes)", args[1], out.len());
    ExitCode::SUCCESS
}
