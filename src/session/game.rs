//! The trait a device's game implements to plug into the session layer.

use super::reply::{Reply, Word};
use super::scratch::Alloc;
use crate::common::budget::Meter;

/// What a CPU search produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Thought<M> {
    /// Play this move.
    Move(M),
    /// The side to move has no move and passes (reversi).
    Pass,
    /// A signal stopped the search: nothing is played.
    Interrupted,
}

/// One game of a device: its rules, its text forms and its CPU player.
///
/// The session layer checks the command number, the argument format, whether a game is in
/// progress and then calls these; each method that changes the game either succeeds or leaves
/// the game exactly as it was.
pub trait Game: Clone + Sized + Unpin {
    /// The device name (`reversi`).
    const NAME: &'static str;
    /// The commands of section 0.4 this device knows, beyond 00-04, 09 and 99.
    const EXTRAS: &'static [u8];
    /// The reply of `99`.
    const HELP: &'static str;
    /// Whether `01` answers before the first game (reversi: the start board) or NOGAME.
    const BOARD_BEFORE_GAME: bool;

    /// The device's settings for new games (the module parameters that concern them, passed
    /// in by the device, never read from globals); `()` where there are none.
    type Config: Copy + Default + Send + Unpin;
    /// A player's side (colour).
    type Side: Copy + PartialEq + Unpin;
    /// A parsed human move of `02`.
    type Input: Copy;
    /// A move the CPU chose.
    type Move: Copy;
    /// The CPU search's memory (its tables, per-ply records, move-ordering memory), made
    /// once per search context with the device's allocator `A` and reused by every search.
    type Scratch<A: Alloc>: Send;
    /// A scratch whose transposition table has `tt_entries` entries (a game without a
    /// table ignores it), for the device's settings `config` (chess: which evaluation);
    /// `None` when memory is short.
    fn new_scratch<A: Alloc>(tt_entries: usize, config: &Self::Config) -> Option<Self::Scratch<A>>;

    /// Parses the argument of `00` (`X`/`O`, `W`/`B`).
    fn parse_side(arg: &[u8]) -> Option<Self::Side>;
    /// The side of the human before any `00`.
    fn default_side() -> Self::Side;
    /// The side letter.
    fn side_letter(side: Self::Side) -> u8;
    /// A new game from the start position, the human playing `human`; `nonce` as in
    /// [`Game::parse_new`].
    fn start(human: Self::Side, nonce: u64) -> Self;
    /// Parses the whole argument of `00` and starts the game it names, with the device's
    /// `config` and `nonce`, a number that differs between the `00`s of a device (a game that
    /// draws random numbers seeds them from both): by default exactly one side letter
    /// ([`Game::parse_side`]) and [`Game::start`]. `None` is INVFMT.
    fn parse_new(arg: &[u8], config: &Self::Config, nonce: u64) -> Option<(Self::Side, Self)> {
        let _ = config;
        match arg {
            [c] => {
                let side = Self::parse_side(&[*c])?;
                Some((side, Self::start(side, nonce)))
            }
            _ => None,
        }
    }
    /// A new game from the position given to `10`, or `None` when it is malformed or invalid;
    /// `nonce` as in [`Game::parse_new`].
    fn setup(arg: &[u8], human: Self::Side, nonce: u64) -> Option<Self>;
    /// The `01` board before any game (only called when [`Self::BOARD_BEFORE_GAME`]).
    fn write_idle_board(out: &mut Reply);
    /// The `01` board.
    fn write_board(&self, out: &mut Reply);
    /// Parses the argument of `02` (the format only: no game needed).
    fn parse_move(arg: &[u8]) -> Option<Self::Input>;
    /// True when the human is to move.
    fn human_to_move(&self) -> bool;
    /// True once the game has ended.
    fn is_over(&self) -> bool;
    /// Plays the human's move (`02`); ILLMOVE leaves the game unchanged. Returns the reply word.
    fn play_human(&mut self, input: Self::Input) -> Result<Word, Word>;
    /// `12`: appends moves given in the device's own list form (chess: UCI moves separated
    /// by single spaces), all or nothing. Only devices listing 12 in [`Game::EXTRAS`] are
    /// asked. Returns the reply word of the last move.
    fn append(&mut self, _arg: &[u8]) -> Result<Word, Word> {
        Err(Word::UnkCmd)
    }
    /// The human's `04` (reversi: pass, chess: resign). Returns the reply word.
    fn pass_or_resign(&mut self) -> Result<Word, Word>;
    /// Whether `scratch` holds this game's memory from an earlier search (the device's pool
    /// then hands it out before any other free context, so a game keeps its context from
    /// move to move). By default no game keeps anything.
    fn owns<A: Alloc>(&self, scratch: &Self::Scratch<A>) -> bool {
        let _ = scratch;
        false
    }
    /// Searches a move for the side to move within the meter's budget.
    fn think<A: Alloc>(
        &self,
        scratch: &mut Self::Scratch<A>,
        meter: &mut Meter<'_>,
    ) -> Thought<Self::Move>;
    /// Plays a searched move (or the pass) for the side to move. Returns the reply word.
    fn play_thought(&mut self, thought: Thought<Self::Move>) -> Word;
    /// `06`: the last move, `NONE` before any (no newline).
    fn write_last(&self, out: &mut Reply);
    /// `07`: the legal moves of the side to move, space-separated (no newline).
    fn write_legal(&self, out: &mut Reply);
    /// `11`: the position in the notation of `10` (no newline).
    fn write_position(&self, out: &mut Reply);
    /// `09`: the game's own `key=value` pairs, each preceded by a space (no newline).
    fn write_status(&self, out: &mut Reply);
}
