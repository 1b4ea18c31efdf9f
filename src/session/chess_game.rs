//! `/dev/chess`: the chess engine behind the [`Game`] trait (docs/protocol.md, "Chess").

use core::fmt::Write;

use super::game::{Game, Thought};
use super::reply::{Reply, Word};
use super::scratch::Alloc;
use crate::chess::continuation::CONTINUATION_ENTRIES;
use crate::chess::correction::CORRECTION_ENTRIES;
use crate::chess::game::{Game as ChessGame, Status};
use crate::chess::moves::Move;
use crate::chess::nnue::{Accumulator, Avx2, Network};
use crate::chess::notation::{
    parse_uci, write_board, write_last_move, write_legal_moves, write_uci, ClassicMove, ParseError,
    BOARD_LEN,
};
use crate::chess::position::Position;
use crate::chess::search::{
    best_move, History, Ply, SearchContext, SearchResult, TtEntry, MAX_PLY,
};
use crate::chess::square::Color;
use crate::common::budget::Meter;
use crate::common::text::BufWriter;

/// The longest principal variation `09` reports (moves).
pub const STATUS_PV: usize = 8;

/// What the CPU's search found, besides its move: `09` reports the last one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChessCpuMove {
    /// The move to play.
    pub mv: Move,
    /// The deepest finished iteration.
    pub depth: u32,
    /// The score for the side that moved, in centipawns (mate scores near 30000).
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// The search's time in milliseconds.
    pub ms: u32,
    pv: [Move; STATUS_PV],
    pv_len: u8,
}

impl ChessCpuMove {
    /// The principal variation (its first move is `mv`).
    pub fn pv(&self) -> &[Move] {
        self.pv.get(..usize::from(self.pv_len)).unwrap_or(&[])
    }
}

/// A chess game against the CPU.
#[derive(Clone)]
pub struct Chess {
    game: ChessGame,
    human: Color,
    last_search: Option<ChessCpuMove>,
    /// The game's name among the device's games: the nonce of the `00` or `10` that started
    /// it. A search context whose [`ChessScratch::owner`] is this id holds this game's table.
    id: u64,
}

impl Chess {
    /// The game record.
    pub fn game(&self) -> &ChessGame {
        &self.game
    }
}

fn status_word(s: Option<Status>) -> Word {
    match s {
        Some(Status::Mate) => Word::Mate,
        Some(Status::Tie) => Word::Tie,
        Some(Status::Check) => Word::Check,
        Some(Status::Ok) => Word::Ok,
        None => Word::NoGame,
    }
}

/// Runs `f` on a writer over the free part of `out` and keeps what it wrote (all or nothing).
fn with_writer(out: &mut Reply, f: impl FnOnce(&mut BufWriter<'_>) -> core::fmt::Result) {
    let mut w = BufWriter::new(out.remaining_mut());
    let n = if f(&mut w).is_ok() { w.len() } else { 0 };
    out.advance(n);
}

const HELP: &str = "\
00 W|B       new game, the human plays white or black (white moves first)
01           the board: 64 squares a1..h8, colour+piece or **, then a newline
02 MOVE      the human moves: WPe2-e4, WPe4-d5xBP, WPe7-e8yWQ, WKe1-g1
03           the CPU moves
04           the human resigns
05 MS|N<n>   the CPU's budget per move: 1-9000 ms or a node count
06           the last move (WPe2-e4 e2e4, or NONE)
07           the legal moves of the side to move
08           the CPU plays one move for the human
09           status
10 FEN       set up a position from FEN
11           the position as FEN
12 MOVES     append UCI moves (e2e4 e7e5 ...) to the game, all or nothing
99           this help
";

/// The evaluation the CPU's searches use (the module parameter `chess_eval`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The tuned hand-written evaluation.
    Classic,
    /// The built-in network (src/chess/nnue.rs), the default.
    #[default]
    Network,
}

/// The chess device's settings.
#[derive(Clone, Copy, Debug, Default)]
pub struct ChessConfig {
    /// The evaluation of every search of the device.
    pub evaluation: Evaluation,
    /// The network's loops in AVX2 where the CPU has it (the module parameter `chess_simd`).
    pub simd: bool,
    /// Set at load when `simd` is and the CPU has AVX2 (src/kmod/fpu.rs): the network's
    /// loops run in AVX2 inside the kernel's FPU sections.
    pub avx2: Option<Avx2>,
}

/// The chess search's memory: the transposition table, one record per ply, the history
/// heuristic's table, the correction and continuation histories; with the network, its
/// accumulators (one per ply, 1 KiB each).
///
/// Invariant: the table and the history hold entries of the game named `owner` only (or
/// nothing, when `owner` is `None`): a search for another game clears both first.
pub struct ChessScratch<A: Alloc> {
    /// The [`Chess::id`] of the game the last search was for.
    owner: Option<u64>,
    tt: A::Slice<TtEntry>,
    plies: A::Slice<Ply>,
    history: A::Boxed<History>,
    /// Empty with the classic evaluation.
    accs: A::Slice<Accumulator>,
    /// The correction history's table (src/chess/correction.rs), kept with the table.
    correction: A::Slice<i16>,
    /// The continuation history's table (src/chess/continuation.rs, 1,152 KiB), kept with
    /// the table.
    continuation: A::Slice<i16>,
    net: Option<Network<'static>>,
}

impl Game for Chess {
    const NAME: &'static str = "chess";
    const EXTRAS: &'static [u8] = &[5, 6, 7, 8, 10, 11, 12];
    const HELP: &'static str = HELP;
    const BOARD_BEFORE_GAME: bool = false;
    type Config = ChessConfig;

    type Side = Color;
    type Input = ClassicMove;
    type Move = ChessCpuMove;
    type Scratch<A: Alloc> = ChessScratch<A>;

    fn new_scratch<A: Alloc>(tt_entries: usize, config: &ChessConfig) -> Option<ChessScratch<A>> {
        // The built-in network is checked by Network::parse (and by the host tests); a
        // network that failed it would leave the device classic rather than unusable.
        let net = match config.evaluation {
            Evaluation::Classic => None,
            Evaluation::Network => Network::embedded().map(|net| match config.avx2 {
                Some(avx2) => net.with_avx2(avx2),
                None => net,
            }),
        };
        Some(ChessScratch {
            owner: None,
            tt: A::slice(tt_entries, TtEntry::EMPTY)?,
            plies: A::slice(MAX_PLY, Ply::EMPTY)?,
            history: A::boxed(History::EMPTY)?,
            accs: A::slice(if net.is_some() { MAX_PLY } else { 0 }, Accumulator::EMPTY)?,
            correction: A::slice(CORRECTION_ENTRIES, 0)?,
            continuation: A::slice(CONTINUATION_ENTRIES, 0)?,
            net,
        })
    }

    fn parse_side(arg: &[u8]) -> Option<Color> {
        match arg {
            b"W" => Some(Color::White),
            b"B" => Some(Color::Black),
            _ => None,
        }
    }

    fn default_side() -> Color {
        Color::White
    }

    fn side_letter(side: Color) -> u8 {
        side.protocol_char()
    }

    fn start(human: Color, nonce: u64) -> Self {
        Chess {
            game: ChessGame::new(),
            human,
            last_search: None,
            id: nonce,
        }
    }

    fn setup(arg: &[u8], human: Color, nonce: u64) -> Option<Self> {
        let pos = Position::from_fen(arg).ok()?;
        Some(Chess {
            game: ChessGame::from_position(pos),
            human,
            last_search: None,
            id: nonce,
        })
    }

    fn write_idle_board(_out: &mut Reply) {}

    fn write_board(&self, out: &mut Reply) {
        let mut b = [0; BOARD_LEN];
        write_board(self.game.position(), &mut b);
        let _ = out.push(&b);
    }

    fn parse_move(arg: &[u8]) -> Option<ClassicMove> {
        ClassicMove::parse(arg).ok()
    }

    fn human_to_move(&self) -> bool {
        self.game.position().turn() == self.human
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    fn play_human(&mut self, input: ClassicMove) -> Result<Word, Word> {
        let m = input.resolve(self.game.position()).map_err(|e| match e {
            ParseError::Format => Word::InvFmt,
            ParseError::Illegal => Word::IllMove,
        })?;
        Ok(status_word(self.game.play(m)))
    }

    fn pass_or_resign(&mut self) -> Result<Word, Word> {
        if self.game.resign(self.human) {
            Ok(Word::Ok)
        } else {
            Err(Word::NoGame)
        }
    }

    fn append(&mut self, arg: &[u8]) -> Result<Word, Word> {
        let mut game = self.game.clone();
        let mut status = None;
        for text in arg.split(|&b| b == b' ') {
            let m = parse_uci(game.position(), text).map_err(|e| match e {
                ParseError::Format => Word::InvFmt,
                ParseError::Illegal => Word::IllMove,
            })?;
            status = Some(game.play(m).ok_or(Word::IllMove)?);
        }
        self.game = game;
        Ok(status_word(status))
    }

    fn owns<A: Alloc>(&self, scratch: &ChessScratch<A>) -> bool {
        scratch.owner == Some(self.id)
    }

    fn think<A: Alloc>(
        &self,
        scratch: &mut ChessScratch<A>,
        meter: &mut Meter<'_>,
    ) -> Thought<ChessCpuMove> {
        let ChessScratch {
            owner,
            tt,
            plies,
            history,
            accs,
            correction,
            continuation,
            net,
        } = scratch;
        // The table and history of this game's earlier searches are kept, as `kgames-uci
        // --host` keeps them between the moves of a game; another game's are cleared.
        let keep = *owner == Some(self.id);
        *owner = Some(self.id);
        let mut ctx = SearchContext::new(tt, plies, history);
        ctx.set_keep_table(keep);
        ctx.set_correction(correction);
        ctx.set_continuation(continuation);
        if let Some(net) = *net {
            ctx.set_nnue(net, accs);
        }
        match best_move(&self.game, &mut ctx, meter) {
            SearchResult::Move(mv) => {
                let info = ctx.info();
                let mut found = ChessCpuMove {
                    mv,
                    depth: info.depth,
                    score: info.score,
                    nodes: meter.nodes(),
                    ms: meter.elapsed_ms(),
                    pv: [mv; STATUS_PV],
                    pv_len: 1,
                };
                let pv = ctx.pv();
                // The table's line, when it starts with the move played.
                if pv.first() == Some(&mv) {
                    for (slot, &m) in found.pv.iter_mut().zip(pv) {
                        *slot = m;
                    }
                    found.pv_len = pv.len().min(STATUS_PV) as u8;
                }
                Thought::Move(found)
            }
            SearchResult::Interrupted => {
                // The game stays as it was and its move is asked again: that search starts
                // from a cleared table, as an uninterrupted one would have.
                *owner = None;
                Thought::Interrupted
            }
            SearchResult::NoMove => Thought::Pass,
        }
    }

    fn play_thought(&mut self, thought: Thought<ChessCpuMove>) -> Word {
        match thought {
            Thought::Move(found) => {
                self.last_search = Some(found);
                status_word(self.game.play(found.mv))
            }
            Thought::Pass | Thought::Interrupted => Word::IllMove,
        }
    }

    fn write_last(&self, out: &mut Reply) {
        match self.game.last_move() {
            None => {
                let _ = out.push(b"NONE");
            }
            Some(m) => {
                // The mover of the last move is the side not to move now.
                let color = self.game.position().turn().other();
                with_writer(out, |w| write_last_move(m, color, w));
            }
        }
    }

    fn write_legal(&self, out: &mut Reply) {
        if !self.game.is_over() {
            with_writer(out, |w| write_legal_moves(self.game.position(), w));
        }
    }

    fn write_position(&self, out: &mut Reply) {
        with_writer(out, |w| self.game.position().write_fen(w));
    }

    fn write_status(&self, out: &mut Reply) {
        let pos = self.game.position();
        let _ = write!(
            out,
            " turn={} halfmoves={} fullmoves={}",
            char::from(pos.turn().protocol_char()),
            pos.halfmoves(),
            pos.fullmoves()
        );
        if let Some(found) = &self.last_search {
            let _ = write!(
                out,
                " depth={} score={} nodes={} ms={} pv=",
                found.depth, found.score, found.nodes, found.ms
            );
            for (i, &m) in found.pv().iter().enumerate() {
                if i > 0 {
                    let _ = out.push(b",");
                }
                with_writer(out, |w| write_uci(m, w));
            }
        }
    }
}
