//! Static evaluation in centipawns (integers only), from the side to move's point of view:
//! a tapered evaluation (middle-game and endgame scores blended by the remaining pieces)
//! that sums weighted terms ([`super::terms`], weights in [`super::weights`], tuned by
//! `chess-tune`): material, piece-square tables, passed, doubled and isolated pawns, the
//! bishop pair, mobility, rooks on open files, attacks on the king's zone and its pawn
//! shield; plus a mop-up term that drives a bare king to the edge so won endgames get
//! finished. [`evaluate_terms`] walks the same terms for any [`Terms`] sink, so the tuner
//! sees exactly the features the engine scores.

use super::attacks::{attacks, king_attacks};
use super::bitboard::Bitboard;
use super::position::Position;
use super::square::{Color, Piece, Role, Square};
use super::terms;
use super::weights::WEIGHTS;

/// Material values for ordering and pruning: pawn, knight, bishop, rook, queen, king (the
/// king's is never counted).
pub const VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// Game-phase weight per role: knights and bishops 1, rooks 2, queens 4 (24 in all at the
/// start).
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// The full game phase.
pub const PHASE_MAX: i32 = 24;

/// A receiver of the evaluation's terms: `add(color, term, count)` says that `color` has
/// `count` of feature `term` (an index of [`terms`]).
pub trait Terms {
    /// Counts `count` of `term` for `color`.
    fn add(&mut self, color: Color, term: usize, count: i32);
}

/// The engine's sink: the weighted sums, middle game and endgame, per colour.
#[derive(Default)]
struct Sums {
    mg: [i32; 2],
    eg: [i32; 2],
}

impl Terms for Sums {
    #[inline(always)]
    fn add(&mut self, color: Color, term: usize, count: i32) {
        let [mg, eg] = WEIGHTS.get(term).copied().unwrap_or([0, 0]);
        let c = color.index() & 1;
        self.mg[c] += i32::from(mg) * count;
        self.eg[c] += i32::from(eg) * count;
    }
}

/// For each colour and square, the squares in front of a pawn there on its own and the two
/// neighbouring files (an enemy pawn there stops it from being passed).
static PASSED_SPAN: [[u64; 64]; 2] = passed_spans();

const fn passed_spans() -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut df = -1;
        while df <= 1 {
            let nf = f + df;
            if nf >= 0 && nf < 8 {
                let mut nr = 0;
                while nr < 8 {
                    let bit = 1u64 << (nr * 8 + nf);
                    if nr > r {
                        t[0][sq] |= bit;
                    }
                    if nr < r {
                        t[1][sq] |= bit;
                    }
                    nr += 1;
                }
            }
            df += 1;
        }
        sq += 1;
    }
    t
}

/// The table index of `sq` for a piece of `color` (tables are drawn from white's side).
#[inline]
fn table_index(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.flip_vertical().index(),
        Color::Black => sq.index(),
    }
}

fn center_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df + dr
}

fn king_distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// The files holding a square of `b`, as a byte (bit f: file f).
#[inline]
fn files(b: Bitboard) -> u64 {
    let mut f = b.0;
    f |= f >> 32;
    f |= f >> 16;
    f |= f >> 8;
    f & 0xff
}

/// Every square of the files in the byte `files`.
#[inline]
fn file_fill(files: u64) -> u64 {
    (files & 0xff).wrapping_mul(0x0101_0101_0101_0101)
}

/// The squares the pawns of `color` in `pawns` attack.
#[inline]
fn pawn_attack_span(color: Color, pawns: Bitboard) -> u64 {
    let p = pawns.0;
    let not_a = !Bitboard::FILE_A.0;
    let not_h = !Bitboard::FILE_H.0;
    match color {
        Color::White => ((p & not_a) << 7) | ((p & not_h) << 9),
        Color::Black => ((p & not_a) >> 9) | ((p & not_h) >> 7),
    }
}

/// Pawn structure of `color`: passed, doubled and isolated pawns.
fn pawn_structure(color: Color, ours: Bitboard, theirs: Bitboard, t: &mut impl Terms) {
    for sq in ours {
        let span = PASSED_SPAN[color.index() & 1][sq.index()];
        if span & theirs.0 == 0 {
            let rank = match color {
                Color::White => sq.rank(),
                Color::Black => 7 - sq.rank(),
            } as usize;
            t.add(color, terms::PASSED + (rank & 7), 1);
        }
    }
    let own_files = files(ours);
    // Pawns beyond the first on their file.
    let doubled = ours.count() as i32 - own_files.count_ones() as i32;
    t.add(color, terms::DOUBLED, doubled);
    // Pawns on files whose neighbours hold no own pawn.
    let neighbours = (own_files << 1 | own_files >> 1) & 0xff;
    let lonely = own_files & !neighbours;
    t.add(
        color,
        terms::ISOLATED,
        (ours.0 & file_fill(lonely)).count_ones() as i32,
    );
}

/// The squares one side attacks, by kind of attacker.
#[derive(Clone, Copy, Default)]
struct AttackMaps {
    pawns: u64,
    minors: u64,
    rooks: u64,
    queens: u64,
    king: u64,
}

impl AttackMaps {
    fn all(&self) -> u64 {
        self.pawns | self.minors | self.rooks | self.queens | self.king
    }
}

/// The pieces of `color` other than pawns and the king: mobility, rooks on open files and
/// attacks on the enemy king's zone; returns the squares `color` attacks.
fn pieces(pos: &Position, color: Color, pawns: [Bitboard; 2], t: &mut impl Terms) -> AttackMaps {
    let c = color.index() & 1;
    let them = color.other();
    let occupied = pos.occupied();
    let area = !pos.by_color(color).0 & !pawn_attack_span(them, pawns[1 - c]);
    let zone = match pos.king_of(them) {
        Some(k) => king_attacks(k).with(k).0,
        None => 0,
    };
    let all_pawn_files = files(pawns[0] | pawns[1]);
    let own_pawn_files = files(pawns[c]);
    let mut units = 0;
    let mut maps = AttackMaps {
        pawns: pawn_attack_span(color, pawns[c]),
        king: pos.king_of(color).map_or(0, |k| king_attacks(k).0),
        ..AttackMaps::default()
    };
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        let r = role.index();
        let len = terms::MOBILITY_LEN[r];
        for sq in pos.by_piece(Piece { color, role }) {
            let reach = attacks(color, role, sq, occupied).0;
            match role {
                Role::Rook => maps.rooks |= reach,
                Role::Queen => maps.queens |= reach,
                _ => maps.minors |= reach,
            }
            let n = ((reach & area).count_ones() as usize).min(len.saturating_sub(1));
            t.add(color, terms::MOBILITY[r] + n, 1);
            if reach & zone != 0 {
                units += terms::KING_ATTACK_UNITS[r];
            }
            if role == Role::Rook {
                let file = 1u64 << sq.file();
                if all_pawn_files & file == 0 {
                    t.add(color, terms::ROOK_OPEN_FILE, 1);
                } else if own_pawn_files & file == 0 {
                    t.add(color, terms::ROOK_HALF_OPEN_FILE, 1);
                }
            }
        }
    }
    let units = (units as usize).min(terms::KING_ATTACK_LEN - 1);
    t.add(color, terms::KING_ATTACK + units, 1);
    maps
}

/// Threats against the pieces of `color` from the attacks of the other side, `theirs`
/// (`ours`: `color`'s own attacks, for what is defended).
fn threats(
    pos: &Position,
    color: Color,
    ours: &AttackMaps,
    theirs: &AttackMaps,
    t: &mut impl Terms,
) {
    let mine = |role| pos.by_piece(Piece { color, role }).0;
    for (i, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .enumerate()
    {
        let n = (mine(role) & theirs.pawns).count_ones() as i32;
        t.add(color, terms::THREAT_BY_PAWN + i, n);
    }
    let (rooks, queens) = (mine(Role::Rook), mine(Role::Queen));
    t.add(
        color,
        terms::THREAT_BY_MINOR,
        (rooks & theirs.minors).count_ones() as i32,
    );
    t.add(
        color,
        terms::THREAT_BY_MINOR + 1,
        (queens & theirs.minors).count_ones() as i32,
    );
    t.add(
        color,
        terms::THREAT_BY_ROOK,
        (queens & theirs.rooks).count_ones() as i32,
    );
    let loose = theirs.all() & !ours.all();
    let pieces = mine(Role::Knight) | mine(Role::Bishop) | rooks | queens;
    t.add(color, terms::HANGING, (pieces & loose).count_ones() as i32);
    t.add(
        color,
        terms::HANGING_PAWN,
        (mine(Role::Pawn) & loose).count_ones() as i32,
    );
}

/// The pawns of `color` in front of its king (its file and the neighbours, one and two
/// ranks ahead), capped at 3.
fn king_shield(pos: &Position, color: Color, own_pawns: Bitboard, t: &mut impl Terms) {
    let Some(k) = pos.king_of(color) else {
        return;
    };
    let f = u64::from(1u8) << k.file();
    let span = file_fill((f | f << 1 | f >> 1) & 0xff);
    let rank = k.rank();
    let ahead = match color {
        Color::White if rank < 6 => 0xffff_u64 << ((rank + 1) * 8),
        Color::White if rank < 7 => 0xff_u64 << ((rank + 1) * 8),
        Color::Black if rank > 1 => 0xffff_u64 << ((rank - 2) * 8),
        Color::Black if rank > 0 => 0xff_u64 << ((rank - 1) * 8),
        _ => 0,
    };
    let n = (own_pawns.0 & span & ahead).count_ones().min(3) as usize;
    t.add(color, terms::KING_SHIELD + n, 1);
}

/// Walks the cheap terms of `pos` (material, piece-square tables, pawn structure, bishop
/// pair) for both colours into `t` and returns the game phase (0..=[`PHASE_MAX`], 24 with
/// every piece on the board).
fn base_terms(pos: &Position, pawns: [Bitboard; 2], t: &mut impl Terms) -> i32 {
    let mut phase = 0;
    for color in Color::ALL {
        let c = color.index() & 1;
        for role in Role::ALL {
            let r = role.index();
            let mut count = 0;
            for sq in pos.by_piece(Piece { color, role }) {
                t.add(color, terms::PST + r * 64 + table_index(color, sq), 1);
                count += 1;
            }
            t.add(color, terms::MATERIAL + r, count);
            phase += PHASE_WEIGHT[r] * count;
        }
        pawn_structure(color, pawns[c], pawns[1 - c], t);
        if pos
            .by_piece(Piece {
                color,
                role: Role::Bishop,
            })
            .more_than_one()
        {
            t.add(color, terms::BISHOP_PAIR, 1);
        }
    }
    t.add(pos.turn(), terms::TEMPO, 1);
    phase.min(PHASE_MAX)
}

/// Walks the terms of `pos` that need the pieces' attacks (mobility, rooks on open files,
/// king attacks, threats) and the king shields into `t`.
fn piece_terms(pos: &Position, pawns: [Bitboard; 2], t: &mut impl Terms) {
    let mut maps = [AttackMaps::default(); 2];
    for (color, m) in Color::ALL.into_iter().zip(maps.iter_mut()) {
        *m = pieces(pos, color, pawns, t);
        king_shield(pos, color, pawns[color.index() & 1], t);
    }
    let [white, black] = maps;
    threats(pos, Color::White, &white, &black, t);
    threats(pos, Color::Black, &black, &white, t);
}

fn pawns_of(pos: &Position) -> [Bitboard; 2] {
    [Color::White, Color::Black].map(|color| {
        pos.by_piece(Piece {
            color,
            role: Role::Pawn,
        })
    })
}

/// Walks every term of `pos` for both colours into `t` and returns the game phase
/// (0..=[`PHASE_MAX`], 24 with every piece on the board).
pub fn evaluate_terms(pos: &Position, t: &mut impl Terms) -> i32 {
    let pawns = pawns_of(pos);
    let phase = base_terms(pos, pawns, t);
    piece_terms(pos, pawns, t);
    phase
}

/// True when `color` has only its king left.
pub fn is_bare(pos: &Position, color: Color) -> bool {
    (pos.by_color(color) & !pos.by_role(Role::King)) == Bitboard::EMPTY
}

/// How far the terms needing attacks (`piece_terms`) are taken to move an evaluation at
/// most, for [`evaluate_bounded`].
pub const LAZY_MARGIN: i32 = 250;

// The whole evaluation, for the tools and tests (host only; the search asks for a bounded one).
#[cfg(not(MODULE))]
pub use super::host::evaluate;

/// [`evaluate`], except that when the cheap terms alone put the score [`LAZY_MARGIN`] or
/// more outside `alpha..beta`, their score is returned without the terms needing attacks
/// (a lazy evaluation: the caller only needs to know which side of the window it is on).
pub fn evaluate_bounded(pos: &Position, alpha: i32, beta: i32) -> i32 {
    let mut sums = Sums::default();
    let pawns = pawns_of(pos);
    let phase = base_terms(pos, pawns, &mut sums);
    let lazy = blend(pos, &sums, phase);
    if lazy.saturating_sub(LAZY_MARGIN) >= beta || lazy.saturating_add(LAZY_MARGIN) <= alpha {
        return lazy;
    }
    piece_terms(pos, pawns, &mut sums);
    blend(pos, &sums, phase)
}

/// The score for the side to move of the sums, blended by `phase`, with the mop-up term.
fn blend(pos: &Position, sums: &Sums, phase: i32) -> i32 {
    let mut score =
        [0, 1].map(|c| (sums.mg[c] * phase + sums.eg[c] * (PHASE_MAX - phase)) / PHASE_MAX);
    // Mop-up: with a bare enemy king and at least a rook's worth more, push that king to the
    // edge and bring ours closer.
    for color in Color::ALL {
        let them = color.other();
        if is_bare(pos, them) && material(pos, color) >= VALUES[Role::Rook.index()] {
            if let (Some(ours), Some(theirs)) = (pos.king_of(color), pos.king_of(them)) {
                score[color.index() & 1] +=
                    10 * center_distance(theirs) + 4 * (14 - 2 * king_distance(ours, theirs));
            }
        }
    }
    score[pos.turn().index() & 1] - score[pos.turn().other().index() & 1]
}

/// The material of `color` in [`VALUES`].
fn material(pos: &Position, color: Color) -> i32 {
    Role::ALL
        .iter()
        .map(|&role| VALUES[role.index()] * pos.by_piece(Piece { color, role }).count() as i32)
        .sum()
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_and_material() {
        // The start position is level but for the side to move's bonus (middle game).
        let start = Position::startpos();
        assert_eq!(evaluate(&start), i32::from(WEIGHTS[terms::TEMPO][0]));
        // Mirrored positions evaluate the same for their side to move.
        let a = Position::from_fen(b"4k3/8/8/8/3N4/8/PP6/4K3 w - - 0 1").unwrap();
        let b = Position::from_fen(b"4k3/pp6/8/3n4/8/8/8/4K3 b - - 0 1").unwrap();
        assert_eq!(evaluate(&a), evaluate(&b));
        assert!(evaluate(&a) > 400);
        // A central knight is worth more than one in the corner.
        let c = Position::from_fen(b"4k3/8/8/8/8/8/PP6/N3K3 w - - 0 1").unwrap();
        assert!(evaluate(&a) > evaluate(&c));
    }

    /// The counts of every term for each colour.
    struct Counts([[i32; 2]; terms::TERMS]);

    impl Terms for Counts {
        fn add(&mut self, color: Color, term: usize, count: i32) {
            self.0[term][color.index()] += count;
        }
    }

    fn counts(fen: &str) -> [[i32; 2]; terms::TERMS] {
        let pos = Position::from_fen(fen.as_bytes()).unwrap();
        let mut c = Counts([[0; 2]; terms::TERMS]);
        evaluate_terms(&pos, &mut c);
        c.0
    }

    /// The threat terms count what they name, for the side whose piece is threatened.
    #[test]
    fn threats_and_hanging_pieces() {
        // White: knight d5 (attacked by the e6 pawn and the queen, defended by the e4 pawn
        // and the bishop), bishop c6 (unattacked), rook h1 (attacked by the queen down the
        // h-file, undefended). Black: rook a8 (attacked by the bishop, undefended), queen h5
        // (attacked by the rook, undefended), pawn c7 (attacked by the knight, undefended).
        let c = counts("r5k1/2p5/2B1p3/3N3q/4P3/8/8/4K2R w - - 0 1");
        assert_eq!(c[terms::THREAT_BY_PAWN], [1, 0]);
        assert_eq!(c[terms::THREAT_BY_PAWN + 1], [0, 0]);
        assert_eq!(c[terms::THREAT_BY_MINOR], [0, 1]);
        assert_eq!(c[terms::THREAT_BY_MINOR + 1], [0, 0]);
        assert_eq!(c[terms::THREAT_BY_ROOK], [0, 1]);
        assert_eq!(c[terms::HANGING], [1, 2]);
        assert_eq!(c[terms::HANGING_PAWN], [0, 1]);
        assert_eq!(c[terms::TEMPO], [1, 0]);
    }

    extern crate std;
    use std::string::String;
    use std::vec::Vec;

    /// `pos` with the board mirrored top to bottom and the colours swapped (through FEN).
    fn mirrored(pos: &Position) -> Position {
        let mut buf = [0u8; 100];
        let mut w = crate::common::text::BufWriter::new(&mut buf);
        pos.write_fen(&mut w).expect("a FEN fits");
        let fen = String::from_utf8_lossy(w.as_bytes()).into_owned();
        let swap = |s: &str| -> String {
            s.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        };
        let f: Vec<&str> = fen.split(' ').collect();
        let board: Vec<String> = f[0].split('/').rev().map(swap).collect();
        let turn = if f[1] == "w" { "b" } else { "w" };
        let castling: String = "KQkq".chars().filter(|c| swap(f[2]).contains(*c)).collect();
        let castling = if castling.is_empty() {
            String::from("-")
        } else {
            castling
        };
        let ep = match f[3].as_bytes() {
            [file, rank] => String::from_utf8_lossy(&[*file, b'1' + b'8' - *rank]).into_owned(),
            _ => String::from(f[3]),
        };
        let out = std::format!(
            "{} {} {} {} {} {}",
            board.join("/"),
            turn,
            castling,
            ep,
            f[4],
            f[5]
        );
        Position::from_fen(out.as_bytes()).expect("a mirrored FEN")
    }

    /// Every term is colour-blind: a position and its mirror image with the colours swapped
    /// evaluate the same for their side to move, on positions of random games; the lazy
    /// evaluation with an open window is the full one.
    #[test]
    fn mirror_images_evaluate_alike() {
        use crate::chess::game::Game;
        use crate::chess::moves::MoveList;
        use crate::common::rng::Rng;
        let mut rng = Rng::new(7);
        let mut list = MoveList::new();
        let mut checked = 0;
        for _ in 0..200 {
            let mut g = Game::new();
            for _ in 0..80 {
                if g.is_over() {
                    break;
                }
                let pos = *g.position();
                let m = mirrored(&pos);
                assert_eq!(evaluate(&pos), evaluate(&m));
                assert_eq!(evaluate_bounded(&pos, -30_000, 30_000), evaluate(&pos));
                checked += 1;
                g.legal_moves(&mut list);
                let Some(mv) = list.get(rng.below(list.len() as u32) as usize) else {
                    break;
                };
                g.play(mv);
            }
        }
        assert!(checked > 10_000);
    }
}
