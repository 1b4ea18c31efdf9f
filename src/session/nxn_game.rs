//! The N x N human-vs-CPU game of `/dev/kxo` (docs/protocol.md, "/dev/kxo") behind the [`Game`]
//! trait: N in a row wins, O moves first, the CPU is the Monte Carlo player.
//!
//! `00 X|O [N [T [P]]]` starts a game with board size N (3-6), playouts per tile T (1-100)
//! and work items P (1-10); an omitted value comes from the device's [`NxnConfig`] (the module
//! parameters `kxo_n`, `kxo_playouts`, `kxo_workers`). `02 C R` is
//! column C, row R; `04` (a pass) is ILLMOVE while the game runs (a move always exists);
//! `07` lists the free tiles as `C R` pairs separated by commas.
//!
//! Seeds: each `00` mixes the device's nonce (a counter of its commands) with
//! [`NxnConfig::seed`] (`kxo_seed`) into the game's seed; a move's playouts draw from the game
//! seed and the ply. So two games differ even after the same moves, and a fixed `kxo_seed`
//! replays the same games after a load that receives the same commands.

use core::fmt::Write;

use super::game::{Game, Thought};
use super::reply::{Reply, Word};
use super::scratch::Alloc;
use crate::common::budget::{parse_decimal, Meter};
use crate::common::rng::{mix, GOLDEN_GAMMA};
use crate::kxo::board::{GameState, Side};
use crate::kxo::nxn::{
    self, deal, BoardN, Split, MAX_N, MAX_PLAYOUTS, MAX_WORKERS, MIN_N, MIN_PLAYOUTS, MIN_WORKERS,
};

/// The settings of a `00` that omits them, and the seed every game seed derives from: the
/// module parameters `kxo_n`, `kxo_playouts`, `kxo_workers` and `kxo_seed`, validated by the
/// device (each value in its range).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NxnConfig {
    /// Board size N (3-6).
    pub size: u8,
    /// Playouts per tile T (1-100).
    pub playouts: u8,
    /// Work items P (1-10).
    pub workers: u8,
    /// The seed all game seeds derive from.
    pub seed: u64,
}

impl Default for NxnConfig {
    /// The module parameters' defaults: 4 x 4, 30 playouts, 4 work items, seed 1.
    fn default() -> Self {
        NxnConfig {
            size: 4,
            playouts: 30,
            workers: 4,
            seed: 1,
        }
    }
}

impl NxnConfig {
    /// The seed of the game a `00` with `nonce` starts.
    pub const fn game_seed(&self, nonce: u64) -> u64 {
        mix(self.seed ^ mix(nonce.wrapping_add(1)))
    }
}

/// The move the Monte Carlo player chose, with how its tiles were dealt over P groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct McMove {
    /// The tile to play.
    pub tile: u8,
    /// The groups and the tiles dealt to each.
    pub split: Split,
}

/// A game of N x N tic-tac-toe against the CPU.
#[derive(Clone)]
pub struct Nxn {
    board: BoardN,
    human: Side,
    playouts: u8,
    workers: u8,
    seed: u64,
    plies: u32,
    /// The split of the CPU's last move (no items before its first).
    last_split: Split,
}

impl Nxn {
    /// A new game with these settings (each clamped into its range) and `seed`.
    pub fn new(human: Side, n: u8, playouts: u8, workers: u8, seed: u64) -> Nxn {
        let n = n.clamp(MIN_N, MAX_N);
        Nxn {
            // `n` is in range, so `new` succeeds; the 3 x 3 fallback only satisfies the types.
            board: BoardN::new(n).unwrap_or(SMALLEST),
            human,
            playouts: playouts.clamp(MIN_PLAYOUTS, MAX_PLAYOUTS),
            workers: workers.clamp(MIN_WORKERS, MAX_WORKERS),
            seed,
            plies: 0,
            last_split: Split::default(),
        }
    }

    /// Playouts per tile of this game.
    pub fn playouts(&self) -> u8 {
        self.playouts
    }

    /// The groups the free tiles of a CPU move are dealt over (P).
    pub fn workers(&self) -> u8 {
        self.workers
    }

    /// The game's seed (see the module documentation).
    pub fn game_seed(&self) -> u64 {
        self.seed
    }

    /// The Monte Carlo seed of the move at this ply: the game seed and the ply.
    pub fn seed(&self) -> u64 {
        mix(self.seed ^ u64::from(self.plies).wrapping_mul(GOLDEN_GAMMA))
    }

    fn result_word(&self) -> Word {
        match self.board.state() {
            GameState::Running => Word::Ok,
            GameState::Draw => Word::Tie,
            GameState::OWon if self.human == Side::O => Word::Win,
            GameState::XWon if self.human == Side::X => Word::Win,
            _ => Word::Lose,
        }
    }

    fn play(&mut self, tile: u8) -> Option<Word> {
        let side = self.board.side_to_move();
        self.board = self.board.with(tile, side)?;
        self.plies = self.plies.saturating_add(1);
        Some(self.result_word())
    }
}

/// One number of `00`'s optional arguments, in `lo..=hi`.
fn number(arg: Option<&[u8]>, default: u8, lo: u8, hi: u8) -> Option<u8> {
    let Some(digits) = arg else {
        return Some(default);
    };
    let v = parse_decimal(digits, 3)?;
    let v = u8::try_from(v).ok()?;
    (lo..=hi).contains(&v).then_some(v)
}

const HELP: &str = "\
00 X|O [N [T [P]]]  new game: you play X or O (O moves first) on N x N (3-6), the CPU with
                    T playouts per tile (1-100) over P work items (1-10); omitted values are
                    the module parameters kxo_n, kxo_playouts, kxo_workers
01           the grid
02 C R       the human plays column C, row R (0 to N-1)
03           the CPU (Monte Carlo) moves
04           pass: ILLMOVE while a move exists
07           the free tiles, as C R pairs separated by commas
09           status (n, playouts, workers, and the last CPU move's split over work items)
99           this help
(files that never write are watchers and read 48-byte records of the AI-vs-AI games)
";

impl Game for Nxn {
    type Config = NxnConfig;
    const NAME: &'static str = "kxo";
    const EXTRAS: &'static [u8] = &[7];
    const HELP: &'static str = HELP;
    const BOARD_BEFORE_GAME: bool = false;

    type Side = Side;
    type Input = (u8, u8);
    type Move = McMove;
    /// The Monte Carlo player keeps no memory between moves.
    type Scratch<A: Alloc> = ();

    fn new_scratch<A: Alloc>(_tt_entries: usize, _: &NxnConfig) -> Option<()> {
        Some(())
    }

    fn parse_side(arg: &[u8]) -> Option<Side> {
        match arg {
            b"X" => Some(Side::X),
            b"O" => Some(Side::O),
            _ => None,
        }
    }

    fn default_side() -> Side {
        Side::X
    }

    fn side_letter(side: Side) -> u8 {
        side.letter()
    }

    fn start(human: Side, nonce: u64) -> Self {
        let c = NxnConfig::default();
        Nxn::new(human, c.size, c.playouts, c.workers, c.game_seed(nonce))
    }

    fn parse_new(arg: &[u8], config: &NxnConfig, nonce: u64) -> Option<(Side, Self)> {
        let mut parts = arg.split(|&b| b == b' ');
        let side = Self::parse_side(parts.next()?)?;
        let n = number(parts.next(), config.size.clamp(MIN_N, MAX_N), MIN_N, MAX_N)?;
        let t = number(
            parts.next(),
            config.playouts.clamp(MIN_PLAYOUTS, MAX_PLAYOUTS),
            MIN_PLAYOUTS,
            MAX_PLAYOUTS,
        )?;
        let p = number(
            parts.next(),
            config.workers.clamp(MIN_WORKERS, MAX_WORKERS),
            MIN_WORKERS,
            MAX_WORKERS,
        )?;
        if parts.next().is_some() {
            return None;
        }
        Some((side, Nxn::new(side, n, t, p, config.game_seed(nonce))))
    }

    fn setup(_arg: &[u8], _human: Side, _nonce: u64) -> Option<Self> {
        None
    }

    fn write_idle_board(_out: &mut Reply) {}

    fn write_board(&self, out: &mut Reply) {
        let n = self.board.write_grid(out.remaining_mut()).unwrap_or(0);
        out.advance(n);
    }

    fn parse_move(arg: &[u8]) -> Option<(u8, u8)> {
        nxn::parse_move(arg)
    }

    fn human_to_move(&self) -> bool {
        self.board.side_to_move() == self.human
    }

    fn is_over(&self) -> bool {
        self.board.state() != GameState::Running
    }

    fn play_human(&mut self, (col, row): (u8, u8)) -> Result<Word, Word> {
        let tile = self.board.tile(col, row).ok_or(Word::IllMove)?;
        self.play(tile).ok_or(Word::IllMove)
    }

    fn pass_or_resign(&mut self) -> Result<Word, Word> {
        Err(Word::IllMove)
    }

    /// The Monte Carlo player, in the caller's task (the kernel: the writer's): every free tile
    /// scored in turn within the meter's budget. The tiles are dealt over the game's P groups
    /// ([`deal`]) only to report the split (`09`'s `last_split=`); each tile has its own
    /// generator, so the move does not depend on P.
    fn think<A: Alloc>(&self, _scratch: &mut (), meter: &mut Meter<'_>) -> Thought<McMove> {
        let legal = self.board.legal_moves();
        if legal == 0 {
            return Thought::Pass;
        }
        let side = self.board.side_to_move();
        match nxn::choose(&self.board, side, self.playouts, self.seed(), meter) {
            Some(tile) => Thought::Move(McMove {
                tile,
                split: Split::of(&deal(legal, self.workers)),
            }),
            None => Thought::Interrupted,
        }
    }

    fn play_thought(&mut self, thought: Thought<McMove>) -> Word {
        match thought {
            Thought::Move(m) => {
                let word = self.play(m.tile).unwrap_or(Word::IllMove);
                if word != Word::IllMove {
                    self.last_split = m.split;
                }
                word
            }
            Thought::Pass | Thought::Interrupted => Word::IllMove,
        }
    }

    fn write_last(&self, _out: &mut Reply) {}

    fn write_legal(&self, out: &mut Reply) {
        let n = self.board.size();
        let mut free = self.board.legal_moves();
        let mut first = true;
        while free != 0 {
            let t = free.trailing_zeros() as u8;
            free &= free - 1;
            // `n` is 3-6; checked so that no division-by-zero path exists.
            let (Some(col), Some(row)) = (t.checked_rem(n), t.checked_div(n)) else {
                continue;
            };
            let sep = if first { "" } else { "," };
            let _ = write!(out, "{sep}{col} {row}");
            first = false;
        }
    }

    fn write_position(&self, _out: &mut Reply) {}

    fn write_status(&self, out: &mut Reply) {
        let _ = write!(
            out,
            " turn={} n={} playouts={} workers={} plies={}",
            char::from(self.board.side_to_move().letter()),
            self.board.size(),
            self.playouts,
            self.workers,
            self.plies
        );
        let s = &self.last_split;
        if s.items > 0 {
            let _ = write!(out, " last_items={} last_split=", s.items);
            for (k, t) in s.tiles.iter().take(usize::from(s.items)).enumerate() {
                let _ = write!(out, "{}{t}", if k == 0 { "" } else { "," });
            }
        }
    }
}

/// The 3 x 3 board (checked at compile time).
const SMALLEST: BoardN = match BoardN::new(MIN_N) {
    Some(b) => b,
    None => panic!("3 x 3 is a valid size"),
};
