//! The data generator's games: a random opening, then the engine against itself at a fixed
//! node budget, keeping the quiet positions (not in check, a quiet best move, no mate score)
//! for the tuner, each labelled afterwards with the game's result. Each move's search is the
//! product's ([`GameSearch::Product`]) or the plain one the sets up to 2026-12-01 were made
//! with ([`GameSearch::Plain`]).

use crate::data::{Result3, Sample};
use kgames_chess::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
use kgames_chess::common::rng::Rng;
use kgames_chess::common::text::BufWriter;
use kgames_chess::continuation::CONTINUATION_ENTRIES;
use kgames_chess::correction::CORRECTION_ENTRIES;
use kgames_chess::game::{Game, Outcome};
use kgames_chess::moves::MoveList;
use kgames_chess::nnue::{Accumulator, Network};
use kgames_chess::position::Position;
use kgames_chess::search::{
    best_move, History, Ply, SearchContext, SearchResult, TtEntry, MATE_BOUND, MAX_PLY,
};
use kgames_chess::square::Color;

/// How the games are played.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Nodes per move.
    pub nodes: u64,
    /// Uniformly random moves before the engine takes over (the opening).
    pub random_plies: u32,
    /// A game longer than this is a draw.
    pub max_plies: u32,
    /// A game is won by the side every search has rated at least this many centipawns up
    /// for [`ADJUDICATE_PLIES`] plies in a row.
    pub adjudicate_cp: i32,
    /// The evaluation: this network, or the classic one when `None` (data from the network's
    /// own games is the second generation).
    pub net: Option<Network<'static>>,
    /// Which search plays each move.
    pub search: GameSearch,
}

/// The search that plays the games' moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GameSearch {
    /// Every move from a cleared table and history, without correction or continuation
    /// history: how the data sets up to 2026-12-01 were made.
    Plain,
    /// As `/dev/chess` and `kgames-uci` search: correction and continuation history, and the
    /// table and the histories kept from move to move within a game (cleared at its start).
    Product,
}

/// Plies in a row of a decisive score before a game is adjudicated.
pub const ADJUDICATE_PLIES: u32 = 8;

/// The search memory reused game after game.
pub struct Memory {
    tt: Vec<TtEntry>,
    plies: Vec<Ply>,
    history: Box<History>,
    accs: Vec<Accumulator>,
    correction: Vec<i16>,
    continuation: Vec<i16>,
}

impl Memory {
    /// A table of `entries` entries and the per-ply storage.
    pub fn new(entries: usize) -> Memory {
        Memory {
            tt: vec![TtEntry::EMPTY; entries.max(1)],
            plies: vec![Ply::EMPTY; 64],
            history: Box::new(History::EMPTY),
            accs: vec![Accumulator::EMPTY; MAX_PLY],
            correction: vec![0; CORRECTION_ENTRIES],
            continuation: vec![0; CONTINUATION_ENTRIES],
        }
    }
}

/// `count` positions of uniformly random games from the start (each position reached by a
/// move, at most `plies` moves a game), for tests that need varied positions.
pub fn random_positions(seed: u64, count: usize, plies: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut list = MoveList::new();
    let mut out = Vec::new();
    while out.len() < count {
        let mut game = Game::new();
        for _ in 0..plies {
            game.legal_moves(&mut list);
            let Some(m) = list.get(rng.below(list.len().max(1) as u32) as usize) else {
                break;
            };
            game.play(m);
            if game.is_over() {
                break;
            }
            out.push(*game.position());
        }
    }
    out.truncate(count);
    out
}

/// The FEN of `pos`.
pub fn fen(pos: &Position) -> String {
    let mut buf = [0u8; 100];
    let mut w = BufWriter::new(&mut buf);
    // 100 bytes hold any FEN (at most 92).
    let _ = pos.write_fen(&mut w);
    String::from_utf8_lossy(w.as_bytes()).into_owned()
}

/// A random opening of `plies` moves that does not end the game.
fn opening(rng: &mut Rng, plies: u32) -> Game {
    let mut list = MoveList::new();
    'again: loop {
        let mut g = Game::new();
        for _ in 0..plies {
            g.legal_moves(&mut list);
            match list.get(rng.below(list.len() as u32) as usize) {
                Some(m) => {
                    g.play(m);
                }
                None => continue 'again,
            }
            if g.is_over() {
                continue 'again;
            }
        }
        return g;
    }
}

/// Plays one game and returns its quiet positions labelled with its result and with the
/// search's score of the position in centipawns from white's side (as `score`; a caller that
/// writes the classic two-field lines drops it).
pub fn play_game(rng: &mut Rng, s: &Settings, mem: &mut Memory) -> Vec<Sample> {
    let mut g = opening(rng, s.random_plies);
    let mut kept = Vec::new();
    let mut decisive: (Option<Color>, u32) = (None, 0);
    let mut result = Result3::Draw;
    for ply in 0..s.max_plies {
        if let Some(outcome) = g.outcome() {
            result = match outcome {
                Outcome::Checkmate { winner } | Outcome::Resignation { winner } => win(winner),
                Outcome::Draw(_) => Result3::Draw,
            };
            break;
        }
        let mut ctx = SearchContext::new(&mut mem.tt, &mut mem.plies, &mut mem.history);
        if let Some(net) = s.net {
            ctx.set_nnue(net, &mut mem.accs);
        }
        if s.search == GameSearch::Product {
            ctx.set_correction(&mut mem.correction);
            ctx.set_continuation(&mut mem.continuation);
            // The game's first search clears what the last game left.
            ctx.set_keep_table(ply > 0);
        }
        let (mut clock, mut never) = (NodeClock { ns_per_node: 0 }, NeverInterrupt);
        let mut meter = Meter::new(Budget::Nodes(s.nodes), &mut clock, &mut never);
        let SearchResult::Move(m) = best_move(&g, &mut ctx, &mut meter) else {
            break;
        };
        let score = ctx.info().score;
        let pos = g.position();
        if !pos.is_check() && !m.is_tactical() && score.abs() < MATE_BOUND {
            let white = if pos.turn() == Color::White {
                score
            } else {
                -score
            };
            kept.push((fen(pos), white));
        }
        // Adjudication: the same side rated winning by both engines' searches.
        let ahead = if score >= s.adjudicate_cp {
            Some(pos.turn())
        } else if score <= -s.adjudicate_cp {
            Some(pos.turn().other())
        } else {
            None
        };
        decisive = match (ahead, decisive) {
            (Some(c), (Some(d), n)) if c == d => (Some(c), n + 1),
            (Some(c), _) => (Some(c), 1),
            (None, _) => (None, 0),
        };
        if let (Some(c), n) = decisive {
            if n >= ADJUDICATE_PLIES {
                result = win(c);
                break;
            }
        }
        g.play(m);
    }
    kept.into_iter()
        .map(|(fen, cp)| Sample {
            fen,
            result,
            score: Some(cp),
        })
        .collect()
}

fn win(c: Color) -> Result3 {
    match c {
        Color::White => Result3::WhiteWins,
        Color::Black => Result3::BlackWins,
    }
}
