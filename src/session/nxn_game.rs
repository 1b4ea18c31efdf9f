//! The N x N human-vs-CPU game of `/dev/kxo` (PROTOCOL.md section 3) behind the [`Game`]
//! trait: N in a row wins, O moves first, the CPU is the Monte Carlo player.
//!
//! The board size N (3-6) and the playouts per tile T (1-100) are taken at each `00` from
//! [`NXN_SIZE`] and [`NXN_PLAYOUTS`] (the module sets them from its parameters). `02 C R` is
//! column C, row R; `04` (a pass) is ILLMOVE while the game runs (a move always exists);
//! `07` lists the free tiles as `C R` pairs separated by commas.

use core::fmt::Write;
use core::sync::atomic::{AtomicU8, Ordering};

use super::game::{Game, Thought};
use super::reply::{Reply, Word};
use crate::common::budget::Meter;
use crate::kxo::board::{GameState, Side};
use crate::kxo::nxn::{self, BoardN, MAX_N, MAX_PLAYOUTS, MIN_N, MIN_PLAYOUTS};

/// The board size of the next `00` (clamped to 3-6).
pub static NXN_SIZE: AtomicU8 = AtomicU8::new(4);
/// The playouts per tile of the Monte Carlo player (clamped to 1-100).
pub static NXN_PLAYOUTS: AtomicU8 = AtomicU8::new(30);

/// A game of N x N tic-tac-toe against the CPU.
#[derive(Clone)]
pub struct Nxn {
    board: BoardN,
    human: Side,
    playouts: u8,
    plies: u32,
}

impl Nxn {
    /// The board.
    pub fn board(&self) -> &BoardN {
        &self.board
    }

    /// Playouts per tile of this game.
    pub fn playouts(&self) -> u8 {
        self.playouts
    }

    /// The Monte Carlo seed of this position: deterministic play.
    pub fn seed(&self) -> u64 {
        (self.board.mask(Side::O) << 1) ^ self.board.mask(Side::X).rotate_left(37)
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

const HELP: &str = "\
00 X|O       new N x N game (N and the CPU's playouts are module parameters); O moves first
01           the grid
02 C R       the human plays column C, row R (0 to N-1)
03           the CPU (Monte Carlo) moves
04           pass: ILLMOVE while a move exists
07           the free tiles, as C R pairs separated by commas
09           status
99           this help
(files that never write are watchers and read 48-byte records of the AI-vs-AI games)
";

impl Game for Nxn {
    const NAME: &'static str = "kxo";
    const EXTRAS: &'static [u8] = &[7];
    const HELP: &'static str = HELP;
    const BOARD_BEFORE_GAME: bool = false;

    type Side = Side;
    type Input = (u8, u8);
    type Move = u8;
    type TtEntry = ();
    type Ply = ();
    const TT_EMPTY: () = ();
    const PLY_EMPTY: () = ();
    const PLIES: usize = 0;

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

    fn start(human: Side) -> Self {
        let n = NXN_SIZE.load(Ordering::Relaxed).clamp(MIN_N, MAX_N);
        let playouts = NXN_PLAYOUTS
            .load(Ordering::Relaxed)
            .clamp(MIN_PLAYOUTS, MAX_PLAYOUTS);
        // `n` is in range, so `new` succeeds; the 3 x 3 fallback only satisfies the types.
        let board = BoardN::new(n).unwrap_or(SMALLEST);
        Nxn {
            board,
            human,
            playouts,
            plies: 0,
        }
    }

    fn setup(_arg: &[u8], _human: Side) -> Option<Self> {
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

    fn human_04(&mut self) -> Result<Word, Word> {
        Err(Word::IllMove)
    }

    fn think(&self, _tt: &mut [()], _plies: &mut [()], meter: &mut Meter<'_>) -> Thought<u8> {
        let side = self.board.side_to_move();
        match nxn::choose(&self.board, side, self.playouts, self.seed(), meter) {
            Some(tile) => Thought::Move(tile),
            None => Thought::Interrupted,
        }
    }

    fn play_thought(&mut self, thought: Thought<u8>) -> Word {
        match thought {
            Thought::Move(tile) => self.play(tile).unwrap_or(Word::IllMove),
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
            " turn={} n={} playouts={} plies={}",
            char::from(self.board.side_to_move().letter()),
            self.board.size(),
            self.playouts,
            self.plies
        );
    }
}

/// The 3 x 3 board (checked at compile time).
const SMALLEST: BoardN = match BoardN::new(MIN_N) {
    Some(b) => b,
    None => panic!("3 x 3 is a valid size"),
};
