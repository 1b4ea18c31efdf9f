//! Differential test against the shakmaty crate: over positions from random games (fixed
//! seed), the legal-move sets, check, checkmate, stalemate, insufficient material, legal en
//! passant and the FEN agree; and every legal move round-trips through the classic and UCI
//! notations.

use kgames_chess::common::rng::Rng;
use kgames_chess::common::text::BufWriter;
use kgames_chess::fen::STARTING_FEN;
use kgames_chess::moves::{Move, MoveList};
use kgames_chess::notation::{parse_classic, parse_uci, write_classic, write_uci};
use kgames_chess::position::Position;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};

fn key(from: u32, to: u32, promo: Option<char>) -> (u32, u32, Option<char>) {
    (from, to, promo)
}

fn ours(m: &Move) -> (u32, u32, Option<char>) {
    key(
        m.from().to_u32(),
        m.to().to_u32(),
        m.promotion().map(|r| char::from(r.lower_char())),
    )
}

fn theirs(m: &shakmaty::Move) -> (u32, u32, Option<char>) {
    match m.to_uci(CastlingMode::Standard) {
        UciMove::Normal {
            from,
            to,
            promotion,
        } => key(u32::from(from), u32::from(to), promotion.map(|r| r.char())),
        other => panic!("unexpected {other:?}"),
    }
}

fn fen_of(pos: &Position) -> String {
    let mut buf = [0u8; 128];
    let mut w = BufWriter::new(&mut buf);
    pos.write_fen(&mut w).unwrap();
    String::from_utf8(w.as_bytes().to_vec()).unwrap()
}

fn check_notation_round_trip(pos: &Position, list: &MoveList) {
    for &m in list {
        let mut buf = [0u8; 16];
        let mut w = BufWriter::new(&mut buf);
        write_classic(m, pos.turn(), &mut w).unwrap();
        assert!(matches!(w.len(), 7 | 10 | 13));
        assert_eq!(parse_classic(pos, w.as_bytes()), Ok(m));
        let mut buf = [0u8; 8];
        let mut w = BufWriter::new(&mut buf);
        write_uci(m, &mut w).unwrap();
        assert_eq!(parse_uci(pos, w.as_bytes()), Ok(m));
    }
}

/// Plays random games until `positions` positions have been compared; returns the count of
/// positions with each property, so the test can check the sample exercised them.
fn compare(positions: usize, seed: u64) -> [usize; 6] {
    let mut rng = Rng::new(seed);
    let mut seen = [0usize; 6]; // check, mate, stalemate, insufficient, legal ep, promotion
    let mut compared = 0;
    let mut list = MoveList::new();
    while compared < positions {
        let mut pos = Position::from_fen(STARTING_FEN.as_bytes()).unwrap();
        let mut theirs_pos = Chess::default();
        for _ply in 0..400 {
            compared += 1;
            pos.legal_moves(&mut list);
            let mut a: Vec<_> = list.iter().map(ours).collect();
            let legal = theirs_pos.legal_moves();
            let mut b: Vec<_> = legal.iter().map(theirs).collect();
            a.sort_unstable();
            b.sort_unstable();
            let fen = fen_of(&pos);
            assert_eq!(a, b, "{fen}");
            assert_eq!(pos.count_legal_moves(), list.len(), "{fen}");
            assert_eq!(
                fen,
                Fen::from_position(&theirs_pos, EnPassantMode::Always).to_string()
            );
            assert_eq!(pos.is_check(), theirs_pos.is_check(), "{fen}");
            let mate = list.is_empty() && pos.is_check();
            let stalemate = list.is_empty() && !pos.is_check();
            assert_eq!(mate, theirs_pos.is_checkmate(), "{fen}");
            assert_eq!(stalemate, theirs_pos.is_stalemate(), "{fen}");
            assert_eq!(
                pos.is_insufficient_material(),
                theirs_pos.is_insufficient_material(),
                "{fen}"
            );
            assert_eq!(
                pos.has_legal_ep(),
                theirs_pos.legal_ep_square().is_some(),
                "{fen}"
            );
            assert_eq!(pos.hash(), pos.compute_hash(), "{fen}");
            assert_eq!(Position::from_fen(fen.as_bytes()), Ok(pos), "{fen}");
            if compared % 7 == 0 {
                check_notation_round_trip(&pos, &list);
            }
            let flags = [
                pos.is_check(),
                mate,
                stalemate,
                pos.is_insufficient_material(),
                pos.has_legal_ep(),
                list.iter().any(|m| m.promotion().is_some()),
            ];
            for (s, f) in seen.iter_mut().zip(flags) {
                *s += usize::from(f);
            }
            if list.is_empty() || pos.is_insufficient_material() || compared >= positions {
                break;
            }
            let m = list.get(rng.below(list.len() as u32) as usize).unwrap();
            let tm = legal
                .iter()
                .find(|t| theirs(t) == ours(&m))
                .cloned()
                .unwrap();
            pos.play(m);
            theirs_pos.play_unchecked(tm);
        }
    }
    seen
}

#[test]
fn agrees_with_shakmaty_on_100000_positions() {
    let seen = compare(100_000, 0x5EED_C4E5);
    // The sample must exercise every rule compared.
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    println!("check, mate, stalemate, insufficient, legal ep, promotion: {seen:?}");
}

#[test]
#[ignore = "2 000 000 positions, a few seconds: cargo test --release -p kgames-chess -- --ignored"]
fn agrees_with_shakmaty_on_2000000_positions() {
    let seen = compare(2_000_000, 0xC0FF_EE00_2026);
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    println!("check, mate, stalemate, insufficient, legal ep, promotion: {seen:?}");
}
