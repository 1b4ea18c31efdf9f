//! Training positions for the pattern evaluation: the files of `reversi_selfplay` (17-byte
//! records, labelled by the game's result) and the chunk folders of `reversi_datagen`
//! (20-byte records, labelled by a search score and the game's result), read into one list.

use std::path::Path;

/// A position with its training target (eval units: 100 a disc, for the side to move).
pub struct Sample {
    /// The mover's discs.
    pub me: u64,
    /// The opponent's discs.
    pub opp: u64,
    /// The target.
    pub target: i64,
}

fn bits(c: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&c[at..at + 8]);
    u64::from_le_bytes(b)
}

/// Appends the samples of one source to `samples`: a `reversi_selfplay` file (the target is
/// the game's final disc difference), or a folder of `reversi_datagen` chunks in name order
/// (the target is `lambda`% of the search score plus the rest of the game's result).
pub fn read_source(source: &str, lambda: i64, samples: &mut Vec<Sample>) {
    let path = Path::new(source);
    if !path.is_dir() {
        let data = std::fs::read(path).expect("data file");
        samples.extend(data.chunks_exact(17).map(|c| Sample {
            me: bits(c, 0),
            opp: bits(c, 8),
            target: 100 * i64::from(c[16] as i8),
        }));
        return;
    }
    let mut chunks: Vec<_> = std::fs::read_dir(path)
        .expect("data folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("chunk-") && n.ends_with(".bin"))
        })
        .collect();
    chunks.sort();
    for chunk in chunks {
        let data = std::fs::read(&chunk).expect("chunk file");
        samples.extend(data.chunks_exact(20).map(|c| {
            let (result, search) = (i64::from(c[16] as i8), i64::from(c[17] as i8));
            Sample {
                me: bits(c, 0),
                opp: bits(c, 8),
                target: lambda * search + (100 - lambda) * result,
            }
        }));
    }
}
