//! The fixed, varied openings the ladder starts its games from (UCI moves from the start
//! position): open, semi-open, closed and flank games, 4 to 8 plies each. Game `2k` and
//! `2k + 1` share opening `k`, with colours swapped. Beyond the list, opening `k` is list
//! entry `k mod 24` followed by two pseudo-random legal plies seeded by `k` (so long
//! self-play matches at fixed node budgets do not repeat games).

use kgames_chess::common::rng::Rng;
use kgames_chess::game::Game;
use kgames_chess::moves::MoveList;
use kgames_chess::notation::parse_uci;

/// Opening `k`: its name and UCI moves.
pub fn opening(k: usize) -> (String, String) {
    let (name, moves) = OPENINGS[k % OPENINGS.len()];
    if k < OPENINGS.len() {
        return (name.to_string(), moves.to_string());
    }
    let mut game = Game::new();
    for m in moves.split_whitespace() {
        if let Ok(mv) = parse_uci(game.position(), m.as_bytes()) {
            game.play(mv);
        }
    }
    let mut rng = Rng::new(k as u64);
    let mut list = MoveList::new();
    let mut all = moves.to_string();
    for _ in 0..2 {
        game.legal_moves(&mut list);
        let Some(mv) = list.get(rng.below(list.len().max(1) as u32) as usize) else {
            break;
        };
        game.play(mv);
        all.push(' ');
        all.push_str(&crate_uci(mv));
    }
    (format!("{name} #{}", k / OPENINGS.len()), all)
}

/// Opening `k` of `plies` random legal plies from the start position, seeded by `k` (fewer
/// if a game ends first): its name and UCI moves.
pub fn random(k: usize, plies: u32) -> (String, String) {
    let mut game = Game::new();
    let mut rng = Rng::new(k as u64);
    let mut list = MoveList::new();
    let mut all = Vec::new();
    for _ in 0..plies {
        game.legal_moves(&mut list);
        let Some(mv) = list.get(rng.below(list.len().max(1) as u32) as usize) else {
            break;
        };
        game.play(mv);
        all.push(crate_uci(mv));
    }
    (format!("random #{k}"), all.join(" "))
}

fn crate_uci(m: kgames_chess::moves::Move) -> String {
    let mut buf = [0u8; 8];
    let mut w = kgames_chess::common::text::BufWriter::new(&mut buf);
    let _ = kgames_chess::notation::write_uci(m, &mut w);
    String::from_utf8_lossy(w.as_bytes()).into_owned()
}

/// The openings: name and moves.
pub const OPENINGS: [(&str, &str); 24] = [
    ("Ruy Lopez", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"),
    ("Italian", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5"),
    ("Scotch", "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4"),
    ("Petrov", "e2e4 e7e5 g1f3 g8f6 f3e5 d7d6"),
    ("King's Gambit", "e2e4 e7e5 f2f4 e5f4"),
    (
        "Sicilian Najdorf",
        "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6",
    ),
    (
        "Sicilian Taimanov",
        "e2e4 c7c5 g1f3 e7e6 d2d4 c5d4 f3d4 b8c6",
    ),
    ("French", "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6"),
    ("Caro-Kann", "e2e4 c7c6 d2d4 d7d5 e4e5 c8f5"),
    ("Scandinavian", "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5"),
    ("Pirc", "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6"),
    ("Alekhine", "e2e4 g8f6 e4e5 f6d5 d2d4 d7d6"),
    ("Queen's Gambit Declined", "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6"),
    ("Slav", "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6"),
    ("Queen's Gambit Accepted", "d2d4 d7d5 c2c4 d5c4 g1f3 g8f6"),
    ("King's Indian", "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6"),
    ("Nimzo-Indian", "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4"),
    ("Grunfeld", "d2d4 g8f6 c2c4 g7g6 b1c3 d7d5"),
    ("Dutch", "d2d4 f7f5 g2g3 g8f6 f1g2 e7e6"),
    ("Benoni", "d2d4 g8f6 c2c4 c7c5 d4d5 e7e6"),
    ("London", "d2d4 d7d5 g1f3 g8f6 c1f4 c7c5"),
    ("English", "c2c4 e7e5 b1c3 g8f6 g2g3 d7d5"),
    ("Reti", "g1f3 d7d5 c2c4 e7e6 g2g3 g8f6"),
    ("Bird", "f2f4 d7d5 g1f3 g8f6 e2e3 g7g6"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_legal_repeatable_and_varied() {
        let (name, moves) = random(7, 4);
        assert_eq!(name, "random #7");
        assert_eq!(
            random(7, 4),
            (name, moves.clone()),
            "the same seed, the same plies"
        );
        let mut game = Game::new();
        for m in moves.split_whitespace() {
            let mv = parse_uci(game.position(), m.as_bytes()).expect("a legal move");
            game.play(mv);
        }
        assert_eq!(moves.split_whitespace().count(), 4, "{moves}");
        let distinct: std::collections::HashSet<String> = (0..20).map(|k| random(k, 4).1).collect();
        assert!(distinct.len() >= 18, "{distinct:?}");
    }
}
