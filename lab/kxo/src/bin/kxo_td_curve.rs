//! The TD(0) agent's learning curve and training speed on the host:
//! `cargo run -p kxo-lab --release --bin kxo_td_curve [GAMES...]`.
//!
//! Trains one table (the module's default size) by self-play and, after 0, 1,000, 10,000 and
//! 100,000 training games, plays 10,000 games against the random agent as O and as X with
//! exploration off, printing wins/draws/losses; the same for a table without the heuristic
//! prior (learning alone). Prints training games per second.

use std::time::Instant;

use kgames_kxo::board::Side;
use kgames_kxo::common::rng::Rng;
use kgames_kxo::td::{entries_for_kb, versus_random, TdEntry, TdTable, DEFAULT_KB};

fn pct(r: (u32, u32, u32)) -> String {
    let n = f64::from(r.0 + r.1 + r.2) / 100.0;
    format!(
        "{:5.1}% {:5.1}% {:5.1}%",
        f64::from(r.0) / n,
        f64::from(r.1) / n,
        f64::from(r.2) / n
    )
}

fn main() {
    let marks: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let marks = if marks.is_empty() {
        vec![0, 1_000, 10_000, 100_000]
    } else {
        marks
    };
    for prior in [true, false] {
        let entries = vec![TdEntry::EMPTY; entries_for_kb(DEFAULT_KB)];
        let mut t = if prior {
            TdTable::new(entries)
        } else {
            TdTable::without_prior(entries)
        };
        let mut rng = Rng::new(1);
        let mut trained = 0u32;
        let mut seconds = 0f64;
        println!(
            "td, {} KiB table, {}: games  | as O vs random: win draw loss | as X vs random: win draw loss",
            DEFAULT_KB,
            if prior { "heuristic prior" } else { "no prior" }
        );
        for &m in &marks {
            let t0 = Instant::now();
            t.train(m.saturating_sub(trained), &mut rng);
            seconds += t0.elapsed().as_secs_f64();
            trained = trained.max(m);
            let o = versus_random(&mut t, Side::O, 10_000, 11, 0);
            let x = versus_random(&mut t, Side::X, 10_000, 11, 0);
            println!(
                "  {trained:>7} | {} | {} | {} entries used",
                pct(o),
                pct(x),
                t.used()
            );
        }
        if seconds > 0.0 {
            println!(
                "  training: {:.0} games/s ({trained} games in {seconds:.2} s)",
                f64::from(trained) / seconds
            );
        }
    }
}
