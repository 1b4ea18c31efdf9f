//! The N x N human-vs-CPU game of `/dev/kxo` (N from 3 to 6, N in a row wins, O moves
//! first) and its Monte Carlo player.
//!
//! Tile `t` is row `t / N`, column `t % N` (row 0 first). A [`BoardN`] keeps one `u64` mask
//! per side; win detection tests the mover's mask against the 2N + 2 precomputed line masks
//! (N rows, N columns, 2 diagonals).
//!
//! The Monte Carlo player ([`choose`]) scores every free tile by `T` uniformly random
//! playouts of the rest of the game (T from 1 to 100): score = 2 * wins + draws for the
//! player; the highest score plays, ties going to the lowest tile. The work splits by tile:
//! [`score_tile`] scores one tile with its own generator ([`tile_rng`]), [`pick`] chooses,
//! so the kernel can spread the tiles over P work items and get the same move for any P.
//!
//! Moves (`02`): see [`parse_move`].

use crate::common::budget::{Meter, SearchEnd};
use crate::common::rng::Rng;
use crate::common::text::BufWriter;

use super::board::{GameState, Side};

/// The smallest board size.
pub const MIN_N: u8 = 3;
/// The largest board size.
pub const MAX_N: u8 = 6;
/// Fewest playouts per tile.
pub const MIN_PLAYOUTS: u8 = 1;
/// Most playouts per tile.
pub const MAX_PLAYOUTS: u8 = 100;
/// The fewest work items (groups of free tiles) of a Monte Carlo move.
pub const MIN_WORKERS: u8 = 1;
/// The most work items (groups of free tiles) of a Monte Carlo move.
pub const MAX_WORKERS: u8 = 10;
/// Most tiles on a board (N = 6).
pub const MAX_TILES: usize = (MAX_N as usize) * (MAX_N as usize);
/// Most lines on a board (2N + 2 for N = 6).
pub const MAX_LINES: usize = 2 * MAX_N as usize + 2;

/// The 2n + 2 winning lines of an n x n board (rows, columns, diagonal, anti-diagonal);
/// the rest of the array is 0.
const fn lines_for(n: u8) -> [u64; MAX_LINES] {
    let mut lines = [0u64; MAX_LINES];
    let n = n as u32;
    let mut i = 0;
    while i < n {
        let mut k = 0;
        while k < n {
            lines[i as usize] |= 1 << (i * n + k); // row i
            lines[(n + i) as usize] |= 1 << (k * n + i); // column i
            k += 1;
        }
        lines[(2 * n) as usize] |= 1 << (i * (n + 1)); // main diagonal
        lines[(2 * n + 1) as usize] |= 1 << ((i + 1) * (n - 1)); // anti-diagonal
        i += 1;
    }
    lines
}

const fn build_lines() -> [[u64; MAX_LINES]; MAX_N as usize + 1] {
    let mut t = [[0u64; MAX_LINES]; MAX_N as usize + 1];
    let mut n = MIN_N;
    while n <= MAX_N {
        t[n as usize] = lines_for(n);
        n += 1;
    }
    t
}

/// `LINES[n][..2n+2]`: the winning lines of the n x n board.
const LINES: [[u64; MAX_LINES]; MAX_N as usize + 1] = build_lines();

// The length of the `01` grid (host only: the tools' buffers).
#[cfg(not(MODULE))]
pub use super::host::{grid_len, MAX_GRID_LEN};

/// An n x n board.
///
/// Invariant: `MIN_N <= n <= MAX_N`, and `o`, `x` are disjoint subsets of the n² tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardN {
    n: u8,
    o: u64,
    x: u64,
}

impl BoardN {
    /// An empty n x n board; `None` unless `MIN_N <= n <= MAX_N`.
    pub const fn new(n: u8) -> Option<BoardN> {
        if n < MIN_N || n > MAX_N {
            None
        } else {
            Some(BoardN { n, o: 0, x: 0 })
        }
    }

    /// A board from side masks; `None` if `n` is out of range, the masks overlap, or a mask has
    /// a bit beyond the n² tiles.
    pub const fn from_masks(n: u8, o: u64, x: u64) -> Option<BoardN> {
        match BoardN::new(n) {
            Some(b) if o & x == 0 && (o | x) & !b.all() == 0 => Some(BoardN { n, o, x }),
            _ => None,
        }
    }

    /// The side length n.
    pub const fn size(&self) -> u8 {
        self.n
    }

    /// The number of tiles, n².
    pub const fn tiles(&self) -> u8 {
        self.n * self.n
    }

    /// The mask of all n² tiles.
    pub const fn all(&self) -> u64 {
        (1u64 << (self.n as u32 * self.n as u32)) - 1
    }

    /// The winning lines of this board (2n + 2 masks).
    pub fn lines(&self) -> &'static [u64] {
        let count = 2 * usize::from(self.n) + 2;
        LINES
            .get(usize::from(self.n))
            .and_then(|l| l.get(..count))
            .unwrap_or(&[])
    }

    /// The tiles of `side`.
    pub const fn mask(&self, side: Side) -> u64 {
        match side {
            Side::O => self.o,
            Side::X => self.x,
        }
    }

    /// The empty tiles.
    pub const fn empty(&self) -> u64 {
        self.all() & !(self.o | self.x)
    }

    /// The tile at column `col`, row `row`; `None` off the board.
    pub const fn tile(&self, col: u8, row: u8) -> Option<u8> {
        if col < self.n && row < self.n {
            Some(row * self.n + col)
        } else {
            None
        }
    }

    /// What holds `tile` (`None` if empty or off the board).
    pub const fn at(&self, tile: u8) -> Option<Side> {
        if tile >= self.tiles() {
            return None;
        }
        super::board::owner(self.o, self.x, 1 << tile)
    }

    /// The side to move by the counts: O when both have as many stones, else X.
    pub const fn side_to_move(&self) -> Side {
        if self.o.count_ones() <= self.x.count_ones() {
            Side::O
        } else {
            Side::X
        }
    }

    /// True when `side` holds a whole line.
    pub fn has_line(&self, side: Side) -> bool {
        let m = self.mask(side);
        for &l in self.lines() {
            if m & l == l {
                return true;
            }
        }
        false
    }

    /// The side holding a whole line, if any (O first; no game reaches both).
    pub fn winner(&self) -> Option<Side> {
        if self.has_line(Side::O) {
            Some(Side::O)
        } else if self.has_line(Side::X) {
            Some(Side::X)
        } else {
            None
        }
    }

    /// True when every tile is taken.
    pub const fn is_full(&self) -> bool {
        self.empty() == 0
    }

    /// The game state: a line wins, else a full board is a draw.
    pub fn state(&self) -> GameState {
        match self.winner() {
            Some(side) => GameState::won_by(side),
            None if self.is_full() => GameState::Draw,
            None => GameState::Running,
        }
    }

    /// The legal moves: the empty tiles while nobody has a line, else none.
    pub fn legal_moves(&self) -> u64 {
        if self.winner().is_some() {
            0
        } else {
            self.empty()
        }
    }

    /// `side` takes `tile`; false (nothing changed) unless the tile is on the board and
    /// empty and nobody has won.
    pub fn play(&mut self, tile: u8, side: Side) -> bool {
        if tile >= self.tiles() || self.legal_moves() & (1 << tile) == 0 {
            return false;
        }
        self.put(tile, side);
        true
    }

    /// The board after `side` takes `tile`, if legal.
    pub fn with(mut self, tile: u8, side: Side) -> Option<BoardN> {
        self.play(tile, side).then_some(self)
    }

    /// Sets a tile without checks (callers pass an empty tile below n²).
    fn put(&mut self, tile: u8, side: Side) {
        let bit = 1u64 << (tile & 63);
        match side {
            Side::O => self.o |= bit,
            Side::X => self.x |= bit,
        }
    }

    /// Writes the `01` grid into `out` and returns its length ([`grid_len`]), or `None` (and
    /// a partly written `out`) if `out` is shorter. Each separator line is `" ---"` n times
    /// then `\n`; each row is `"|"`, then `" C |"` per tile (C is `X`, `O` or a space), then
    /// `\n`; the grid starts with a separator and each row is followed by one.
    pub fn write_grid(&self, out: &mut [u8]) -> Option<usize> {
        let mut w = BufWriter::new(out);
        let sep = |w: &mut BufWriter<'_>| -> Option<()> {
            for _ in 0..self.n {
                w.push(b" ---").ok()?;
            }
            w.push_byte(b'\n').ok()
        };
        sep(&mut w)?;
        for row in 0..self.n {
            w.push_byte(b'|').ok()?;
            for col in 0..self.n {
                let c = match self.at(row * self.n + col) {
                    Some(side) => side.letter(),
                    None => b' ',
                };
                w.push(&[b' ', c, b' ', b'|']).ok()?;
            }
            w.push_byte(b'\n').ok()?;
            sep(&mut w)?;
        }
        Some(w.len())
    }
}

/// Parses the argument of the human's move `02 C R`: column C and row R, each a single
/// digit `0`-`5` (the largest board is 6 x 6), separated by one space: `b"2 1"` is column 2,
/// row 1. Anything else is a format error (`None`, INVFMT). A coordinate that is valid
/// syntax but beyond the current board (`3` on a 3 x 3 board) is for
/// [`BoardN::tile`] to reject (ILLMOVE), so the format check needs no game.
pub fn parse_move(arg: &[u8]) -> Option<(u8, u8)> {
    let digit = |b: u8| (b'0'..=b'5').contains(&b).then(|| b - b'0');
    match *arg {
        [c, b' ', r] => Some((digit(c)?, digit(r)?)),
        _ => None,
    }
}

/// The free tiles of `legal` dealt round-robin (in tile order) to `workers` work items
/// (clamped to 1..=10): item k gets the k-th, (k + P)-th, ... free tile. Items beyond the
/// number of free tiles get none.
pub fn deal(legal: u64, workers: u8) -> [u64; MAX_WORKERS as usize] {
    let p = usize::from(workers.clamp(MIN_WORKERS, MAX_WORKERS));
    let mut groups = [0u64; MAX_WORKERS as usize];
    let mut m = legal;
    let mut k = 0usize;
    while m != 0 {
        let bit = m & m.wrapping_neg();
        m &= m - 1;
        if let Some(g) = groups.get_mut(k % p) {
            *g |= bit;
        }
        k += 1;
    }
    groups
}

/// How one Monte Carlo move was split: the work items that scored tiles and the number of
/// tiles each scored (in item order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Split {
    /// Work items that scored at least one tile.
    pub items: u8,
    /// Tiles scored by item k (`tiles[k]`, k < `items`).
    pub tiles: [u8; MAX_WORKERS as usize],
}

impl Split {
    /// The split of the groups of [`deal`].
    pub fn of(groups: &[u64; MAX_WORKERS as usize]) -> Split {
        let mut s = Split::default();
        for g in groups.iter().filter(|g| **g != 0) {
            if let Some(t) = s.tiles.get_mut(usize::from(s.items)) {
                *t = g.count_ones() as u8;
                s.items += 1;
            }
        }
        s
    }
}

/// The generator for `tile`'s playouts in a move searched with `seed`: independent streams
/// per tile, so the scores do not depend on how the tiles are spread over work items.
pub const fn tile_rng(seed: u64, tile: u8) -> Rng {
    Rng::new(seed ^ (tile as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03))
}

/// The `n`-th set bit of `mask`, if there are that many.
fn nth_tile(mask: u64, n: u32) -> Option<u8> {
    let mut m = mask;
    let mut k = 0;
    while k < n && m != 0 {
        m &= m - 1;
        k += 1;
    }
    (m != 0).then(|| m.trailing_zeros() as u8)
}

/// The Monte Carlo score of `side` playing `tile` on `board`: `playouts` games finished by
/// uniformly random moves of both sides (the opponent first), scoring 2 per win of `side` and
/// 1 per draw, so at most `2 * playouts`. `playouts` is clamped to 1..=100.
///
/// Returns `None` if the move is illegal or the meter stops (either reason: a partial score
/// would not compare with the others). The meter ticks once per random move (at least once).
pub fn score_tile(
    board: &BoardN,
    side: Side,
    tile: u8,
    playouts: u8,
    rng: &mut Rng,
    meter: &mut Meter<'_>,
) -> Option<u32> {
    let start = board.with(tile, side)?;
    if meter.tick().is_some() {
        return None;
    }
    let t = u32::from(playouts.clamp(MIN_PLAYOUTS, MAX_PLAYOUTS));
    if start.has_line(side) {
        return Some(2 * t);
    }
    let mut score = 0u32;
    for _ in 0..t {
        let mut b = start;
        let mut mover = side.other();
        loop {
            let free = b.empty();
            if free == 0 {
                score += 1; // draw
                break;
            }
            if meter.tick().is_some() {
                return None;
            }
            let cell = nth_tile(free, rng.below(free.count_ones()))?;
            b.put(cell, mover);
            if b.has_line(mover) {
                if mover == side {
                    score += 2;
                }
                break;
            }
            mover = mover.other();
        }
    }
    Some(score)
}

/// The tile with the highest score (`scores[t]` for tile `t`, `None` for tiles not scored),
/// ties going to the lowest tile; `None` if nothing was scored.
pub fn pick(scores: &[Option<u32>]) -> Option<u8> {
    let mut best: Option<(u32, u8)> = None;
    for (t, s) in scores.iter().enumerate().take(MAX_TILES) {
        if let Some(s) = *s {
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, t as u8));
            }
        }
    }
    best.map(|(_, t)| t)
}

/// Scores the tiles of the mask `tiles` one after another, each with its own generator
/// ([`tile_rng`]) and [`score_tile`], into `scores` (indexed by tile), until the meter stops:
/// the tiles after that stay as they were. One work item of the parallel player does this for
/// its share of the free tiles ([`deal`]); [`choose`] does it for all of them.
pub fn score_tiles(
    board: &BoardN,
    side: Side,
    tiles: u64,
    playouts: u8,
    seed: u64,
    meter: &mut Meter<'_>,
    scores: &mut [Option<u32>; MAX_TILES],
) {
    let mut m = tiles;
    while m != 0 {
        let tile = m.trailing_zeros() as u8;
        m &= m - 1;
        let mut rng = tile_rng(seed, tile);
        let s = score_tile(board, side, tile, playouts, &mut rng, meter);
        if let Some(slot) = scores.get_mut(usize::from(tile)) {
            *slot = s;
        }
        if meter.stopped().is_some() {
            break;
        }
    }
}

/// The Monte Carlo move for `side`, scoring the free tiles one after another (what P work
/// items do in parallel with [`score_tiles`] and [`pick`]).
///
/// `None` when there is no legal move or the meter reports [`SearchEnd::Interrupted`]. If the
/// budget runs out, the best of the tiles scored so far plays, or the lowest free tile if
/// none was: always a legal move. Deterministic for `seed` and the node budget.
pub fn choose(
    board: &BoardN,
    side: Side,
    playouts: u8,
    seed: u64,
    meter: &mut Meter<'_>,
) -> Option<u8> {
    let legal = board.legal_moves();
    if legal == 0 {
        return None;
    }
    let mut scores = [None; MAX_TILES];
    score_tiles(board, side, legal, playouts, seed, meter, &mut scores);
    if meter.stopped() == Some(SearchEnd::Interrupted) {
        return None;
    }
    pick(&scores).or(Some(legal.trailing_zeros() as u8))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::budget::{Budget, NeverInterrupt, NodeClock};
    extern crate std;
    use std::string::String;

    fn board(n: u8, rows: &[&str]) -> BoardN {
        let (mut o, mut x) = (0u64, 0u64);
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.bytes().enumerate() {
                let bit = 1u64 << (r * usize::from(n) + c);
                match ch {
                    b'O' => o |= bit,
                    b'X' => x |= bit,
                    _ => {}
                }
            }
        }
        BoardN::from_masks(n, o, x).unwrap()
    }

    fn with_meter<R>(nodes: u64, f: impl FnOnce(&mut Meter<'_>) -> R) -> R {
        let (mut c, mut i) = (NodeClock { ns_per_node: 1 }, NeverInterrupt);
        let mut meter = Meter::new(Budget::Nodes(nodes), &mut c, &mut i);
        f(&mut meter)
    }

    #[test]
    fn grid_of_the_protocol_example_is_exact() {
        let b = board(4, &["XXOX", "XOO.", "XOO.", "O.OX"]);
        let mut out = [0u8; MAX_GRID_LEN];
        let len = b.write_grid(&mut out).unwrap();
        assert_eq!(len, 157);
        let expect = " --- --- --- ---\n\
                      | X | X | O | X |\n \
                      --- --- --- ---\n\
                      | X | O | O |   |\n \
                      --- --- --- ---\n\
                      | X | O | O |   |\n \
                      --- --- --- ---\n\
                      | O |   | O | X |\n \
                      --- --- --- ---\n";
        assert_eq!(core::str::from_utf8(&out[..len]).unwrap(), expect);
        // Too small a buffer fails.
        assert_eq!(b.write_grid(&mut out[..156]), None);
    }

    #[test]
    fn grid_bytes_for_every_size() {
        // Built independently, line by line, from the protocol's description.
        for (n, len) in [(3u8, 94usize), (4, 157), (5, 236), (6, 331)] {
            assert_eq!(grid_len(n), len);
            // A diagonal of O and the anti-diagonal of X (the centre of odd boards is O).
            let o = (0..n).fold(0u64, |m, i| m | 1 << (i * n + i));
            let x = (0..n).fold(0u64, |m, i| m | 1 << ((i + 1) * (n - 1))) & !o;
            let b = BoardN::from_masks(n, o, x).unwrap();
            let sep: String = " ---".repeat(usize::from(n)) + "\n";
            let mut expect = sep.clone();
            for r in 0..n {
                expect.push('|');
                for c in 0..n {
                    let ch = if r == c {
                        'O'
                    } else if r + c == n - 1 {
                        'X'
                    } else {
                        ' '
                    };
                    expect.push(' ');
                    expect.push(ch);
                    expect.push_str(" |");
                }
                expect.push('\n');
                expect.push_str(&sep);
            }
            let mut out = [0u8; MAX_GRID_LEN];
            let written = b.write_grid(&mut out).unwrap();
            assert_eq!(written, len);
            assert_eq!(core::str::from_utf8(&out[..written]).unwrap(), expect);
        }
    }

    #[test]
    fn lines_rows_columns_diagonals() {
        for n in MIN_N..=MAX_N {
            let b = BoardN::new(n).unwrap();
            assert_eq!(b.lines().len(), 2 * usize::from(n) + 2);
            for &l in b.lines() {
                assert_eq!(l.count_ones(), u32::from(n));
                assert_eq!(l & !b.all(), 0);
            }
            let row = |r: u8| (0..n).fold(0u64, |m, c| m | 1 << (r * n + c));
            let col = |c: u8| (0..n).fold(0u64, |m, r| m | 1 << (r * n + c));
            let diag = (0..n).fold(0u64, |m, i| m | 1 << (i * n + i));
            let anti = (0..n).fold(0u64, |m, i| m | 1 << (i * n + n - 1 - i));
            for i in 0..n {
                assert!(BoardN::from_masks(n, row(i), 0).unwrap().winner() == Some(Side::O));
                assert!(BoardN::from_masks(n, 0, col(i)).unwrap().winner() == Some(Side::X));
            }
            assert_eq!(
                BoardN::from_masks(n, diag, 0).unwrap().state(),
                GameState::OWon
            );
            assert_eq!(
                BoardN::from_masks(n, 0, anti).unwrap().state(),
                GameState::XWon
            );
            // n - 1 in a row is no win; neither is a row that wraps.
            let short = row(0) & !1;
            assert_eq!(BoardN::from_masks(n, short, 0).unwrap().winner(), None);
            let wrap = (row(0) & !1) | 1 << n;
            assert_eq!(BoardN::from_masks(n, wrap, 0).unwrap().winner(), None);
        }
        // A full 3 x 3 board without a line is a draw.
        let b = board(3, &["OXO", "OXX", "XOO"]);
        assert_eq!(b.state(), GameState::Draw);
        assert_eq!(b.legal_moves(), 0);
    }

    #[test]
    fn boards_reject_bad_input() {
        assert_eq!(BoardN::new(2), None);
        assert_eq!(BoardN::new(7), None);
        assert_eq!(BoardN::from_masks(3, 1, 1), None);
        assert_eq!(BoardN::from_masks(3, 1 << 9, 0), None);
        let mut b = BoardN::new(3).unwrap();
        assert!(!b.play(9, Side::O));
        assert!(!b.play(200, Side::O));
        assert!(b.play(4, Side::O));
        assert!(!b.play(4, Side::X));
        assert_eq!(b.tile(2, 1), Some(5));
        assert_eq!(b.tile(3, 0), None);
        assert_eq!(b.side_to_move(), Side::X);
    }

    #[test]
    fn move_parsing() {
        assert_eq!(parse_move(b"2 1"), Some((2, 1)));
        assert_eq!(parse_move(b"0 5"), Some((0, 5)));
        for bad in [
            &b""[..],
            b"2",
            b"21",
            b"2  1",
            b" 2 1",
            b"2 1 ",
            b"6 0",
            b"0 9",
            b"a 1",
            b"2,1",
            b"-1 1",
            b"2 1\n",
        ] {
            assert_eq!(parse_move(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn monte_carlo_takes_an_immediate_win() {
        // 3 x 3, O to move: O holds 0 and 1 and wins at 2 (X threatens 5 too).
        let b = board(3, &["OO.", "XX.", "..."]);
        for seed in 0..50 {
            let t = with_meter(1 << 40, |m| choose(&b, Side::O, 100, seed, m));
            assert_eq!(t, Some(2), "seed {seed}");
        }
        // 4 x 4, X to move wins the column at 13.
        let b = board(4, &["OX.O", "OX..", ".X..", "O..."]);
        for seed in 0..50 {
            let t = with_meter(1 << 40, |m| choose(&b, Side::X, 100, seed, m));
            assert_eq!(t, Some(13), "seed {seed}");
        }
    }

    #[test]
    fn monte_carlo_blocks_an_immediate_loss() {
        // 3 x 3, X to move: O threatens 2 (row 0).
        let b = board(3, &["OO.", ".X.", "..."]);
        for seed in 0..50 {
            let t = with_meter(1 << 40, |m| choose(&b, Side::X, 100, seed, m));
            assert_eq!(t, Some(2), "seed {seed}");
        }
        // 4 x 4, O to move: X threatens row 1 at tile 4.
        let b = board(4, &["O..O", ".XXX", "O...", "...."]);
        for seed in 0..50 {
            let t = with_meter(1 << 40, |m| choose(&b, Side::O, 100, seed, m));
            assert_eq!(t, Some(4), "seed {seed}");
        }
    }

    #[test]
    fn scores_are_deterministic_and_independent_of_order() {
        let b = board(4, &["O...", ".X..", "..O.", "...."]);
        let side = Side::X;
        let score_all = |order: &[u8]| {
            let mut scores = [None; MAX_TILES];
            with_meter(1 << 40, |m| {
                for &t in order {
                    let mut rng = tile_rng(99, t);
                    scores[usize::from(t)] = score_tile(&b, side, t, 50, &mut rng, m);
                }
            });
            scores
        };
        let forward: std::vec::Vec<u8> = (0..16).collect();
        let backward: std::vec::Vec<u8> = (0..16).rev().collect();
        let (a, z) = (score_all(&forward), score_all(&backward));
        assert_eq!(a, z);
        for t in [0u8, 5, 10] {
            assert_eq!(a[usize::from(t)], None, "occupied tile {t}");
        }
        assert!(a.iter().flatten().all(|&s| s <= 100));
        let chosen = with_meter(1 << 40, |m| choose(&b, side, 50, 99, m));
        assert_eq!(chosen, pick(&a));
        assert_eq!(chosen, with_meter(1 << 40, |m| choose(&b, side, 50, 99, m)));
    }

    #[test]
    fn pick_prefers_high_scores_then_low_tiles() {
        assert_eq!(pick(&[None, Some(3), Some(7), Some(7), None]), Some(2));
        assert_eq!(pick(&[Some(0)]), Some(0));
        assert_eq!(pick(&[None, None]), None);
        assert_eq!(pick(&[]), None);
    }

    #[test]
    fn budget_and_interrupt() {
        let b = BoardN::new(5).unwrap();
        // Out of budget at once: still a legal move.
        for nodes in [1, 2, 50, 3000] {
            let t = with_meter(nodes, |m| choose(&b, Side::O, 100, 1, m)).unwrap();
            assert!(b.legal_moves() & 1 << t != 0);
        }
        struct Now;
        impl crate::common::budget::Interrupt for Now {
            fn pending(&mut self) -> bool {
                true
            }
        }
        let (mut c, mut i) = (NodeClock { ns_per_node: 1 }, Now);
        let mut meter = Meter::new(Budget::Nodes(1 << 40), &mut c, &mut i);
        assert_eq!(choose(&b, Side::O, 100, 1, &mut meter), None);
        // A finished board has no move.
        let won = board(3, &["OOO", "XX.", "..."]);
        assert_eq!(with_meter(100, |m| choose(&won, Side::X, 10, 1, m)), None);
    }

    #[test]
    fn monte_carlo_plays_whole_games() {
        for n in MIN_N..=MAX_N {
            for seed in 0..3u64 {
                let mut b = BoardN::new(n).unwrap();
                let mut side = Side::O;
                let mut rng = Rng::new(seed);
                while b.legal_moves() != 0 {
                    let t = if side == Side::O {
                        with_meter(1 << 40, |m| choose(&b, side, 10, seed, m)).unwrap()
                    } else {
                        let free = b.legal_moves();
                        nth_tile(free, rng.below(free.count_ones())).unwrap()
                    };
                    assert!(b.play(t, side));
                    side = side.other();
                }
                assert!(b.state().is_over());
            }
        }
    }
}
