//! A small deterministic PRNG (SplitMix64 seeding xoshiro256**-style output is overkill here:
//! plain SplitMix64 passes BigCrush and needs one word of state).

/// SplitMix64's increment, 2^64 divided by the golden ratio (odd): the state advances by it at
/// each step, and multiplying by it spreads a counter over all 64 bits (Fibonacci hashing).
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's finaliser (Stafford's mix 13): a 64-bit value each of whose bits depends on
/// every bit of `z`. A bijection, so distinct inputs give distinct outputs.
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One SplitMix64 step, usable in `const` code (tables built at compile time): the state
/// advanced by [`GOLDEN_GAMMA`], and the output [`mix`]ed from it.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(GOLDEN_GAMMA);
    (state, mix(state))
}

/// SplitMix64: deterministic for a given seed, `Copy` so a game can snapshot it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator seeded with `seed`.
    pub const fn new(seed: u64) -> Self {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let (state, z) = splitmix64(self.state);
        self.state = state;
        z
    }

    /// A uniform value in `0..n` (`n` > 0; returns 0 for `n == 0`), without modulo bias worth
    /// mentioning for the small `n` used here (Lemire's multiply-shift).
    pub fn below(&mut self, n: u32) -> u32 {
        ((u64::from(self.next_u64() as u32) * u64::from(n)) >> 32) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_in_range() {
        let (mut a, mut b) = (Rng::new(42), Rng::new(42));
        for _ in 0..1000 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            let v = a.below(7);
            seen[v as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800 && c < 1200), "{seen:?}");
        assert_eq!(a.below(0), 0);
    }
}
