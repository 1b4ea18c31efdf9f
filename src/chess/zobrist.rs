//! Zobrist keys, generated at compile time by SplitMix64 from a fixed seed.
//!
//! A position's hash is the XOR of: one key per (piece, square); the key of the castling-rights
//! mask (16 keys, one per mask); the key of the en-passant file when the side to move has a
//! pawn that attacks the en-passant square; and [`SIDE`] when black is to move.

use super::square::{Piece, Square};
use crate::common::rng::splitmix64 as splitmix;

const SEED: u64 = 0x6B67_616D_6573_2121; // "kgames!!"

struct Keys {
    pieces: [[u64; 64]; 12],
    castling: [u64; 16],
    ep_file: [u64; 8],
    side: u64,
}

const fn generate() -> Keys {
    let mut state = SEED;
    let mut keys = Keys {
        pieces: [[0; 64]; 12],
        castling: [0; 16],
        ep_file: [0; 8],
        side: 0,
    };
    let mut p = 0;
    while p < 12 {
        let mut sq = 0;
        while sq < 64 {
            let (s, k) = splitmix(state);
            state = s;
            keys.pieces[p][sq] = k;
            sq += 1;
        }
        p += 1;
    }
    // Castling: XOR of one key per right, so that updates by mask stay consistent.
    let mut rights = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        let (s, k) = splitmix(state);
        state = s;
        rights[i] = k;
        i += 1;
    }
    let mut mask = 0;
    while mask < 16 {
        let mut bit = 0;
        while bit < 4 {
            if mask & (1 << bit) != 0 {
                keys.castling[mask] ^= rights[bit];
            }
            bit += 1;
        }
        mask += 1;
    }
    let mut f = 0;
    while f < 8 {
        let (s, k) = splitmix(state);
        state = s;
        keys.ep_file[f] = k;
        f += 1;
    }
    let (_, k) = splitmix(state);
    keys.side = k;
    keys
}

static KEYS: Keys = generate();

/// The key of `piece` on `sq`.
#[inline]
pub(crate) fn piece(piece: Piece, sq: Square) -> u64 {
    // Piece::index() < 12 and Square::index() < 64 by their invariants.
    KEYS.pieces[piece.index() % 12][sq.index()]
}

/// The key of a castling-rights mask (masked to 0..16).
#[inline]
pub(crate) fn castling(mask: u8) -> u64 {
    KEYS.castling[usize::from(mask & 15)]
}

/// The key of an en-passant square's file.
#[inline]
pub(crate) fn ep_file(sq: Square) -> u64 {
    KEYS.ep_file[sq.file() as usize]
}

/// The key XORed in when black is to move.
pub(crate) const SIDE: u64 = generate().side;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all = [0u64; 12 * 64 + 4 + 8 + 1];
        let mut n = 0;
        for p in &KEYS.pieces {
            for k in p {
                all[n] = *k;
                n += 1;
            }
        }
        for bit in 0..4 {
            all[n] = KEYS.castling[1 << bit];
            n += 1;
        }
        for k in &KEYS.ep_file {
            all[n] = *k;
            n += 1;
        }
        all[n] = SIDE;
        all.sort_unstable();
        assert!(all[0] != 0);
        assert!(all.windows(2).all(|w| w[0] != w[1]));
        assert_eq!(KEYS.castling[0], 0);
        assert_eq!(KEYS.castling[15], KEYS.castling[3] ^ KEYS.castling[12]);
    }
}
