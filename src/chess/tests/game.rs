//! Game results on constructed games: checkmate, stalemate, insufficient material, the
//! fifty-move rule (and a mate on its 100th ply), threefold repetition with its en-passant
//! subtlety, resignation, and the MATE > TIE > CHECK > OK priority.

use kgames_chess::game::{DrawReason, Game, Outcome, Status};
use kgames_chess::moves::MoveList;
use kgames_chess::notation::{parse_classic, parse_uci};
use kgames_chess::position::Position;
use kgames_chess::square::Color;

fn game(fen: &str) -> Game {
    Game::from_position(Position::from_fen(fen.as_bytes()).unwrap())
}

/// Plays UCI moves, returning the status of the last one.
fn play(g: &mut Game, moves: &[&str]) -> Status {
    let mut last = Status::Ok;
    for uci in moves {
        let m = parse_uci(g.position(), uci.as_bytes()).unwrap_or_else(|e| panic!("{uci}: {e:?}"));
        last = g.play(m).unwrap();
    }
    last
}

#[test]
fn fools_mate() {
    let mut g = Game::new();
    assert_eq!(play(&mut g, &["f2f3", "e7e5", "g2g4"]), Status::Ok);
    assert_eq!(play(&mut g, &["d8h4"]), Status::Mate);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::Black
        })
    );
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    assert!(list.is_empty());
    let any = parse_uci(&Position::startpos(), b"e2e4").unwrap();
    assert_eq!(g.play(any), None, "a finished game accepts no move");
    assert!(!g.resign(Color::White));
}

#[test]
fn check_and_stalemate() {
    let mut g = game("7k/8/6K1/8/8/8/8/1R6 w - - 0 1");
    assert_eq!(play(&mut g, &["b1b8"]), Status::Mate);
    let mut g = game("7k/8/6K1/8/8/8/8/1R6 w - - 0 1");
    assert_eq!(play(&mut g, &["b1h1"]), Status::Check);
    let mut g = game("7k/8/5K2/8/8/8/8/6R1 w - - 0 1");
    assert_eq!(play(&mut g, &["g1h1"]), Status::Check);
    let mut g = game("7k/8/5K2/8/8/8/8/6R1 w - - 0 1");
    assert_eq!(play(&mut g, &["f6f7"]), Status::Ok);
    let mut g = game("7k/8/5K2/8/8/8/8/6R1 w - - 0 1");
    assert_eq!(play(&mut g, &["g1g7"]), Status::Tie);
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::Stalemate)));
}

#[test]
fn insufficient_material() {
    let cases = [
        // (position, move, insufficient afterwards)
        ("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "e1e2", true), // K-K
        ("4k3/8/8/8/8/8/3nr3/4K3 w - - 0 1", "e1e2", true), // KN-K
        ("4k3/8/8/8/8/8/3br3/4K3 w - - 0 1", "e1e2", true), // KB-K
        ("4k3/8/8/8/8/5B2/3br3/4K3 w - - 0 1", "e1e2", false), // bishops on both colours
        ("4k3/8/8/8/8/6B1/3br3/4K3 w - - 0 1", "e1e2", true), // both bishops on light squares
        ("4k3/8/8/8/8/6N1/3nr3/4K3 w - - 0 1", "e1e2", false), // KN-KN can mate
        ("4k3/8/8/8/8/8/3nrn2/4K3 w - - 0 1", "e1e2", false), // KNN-K
        ("4k3/8/8/8/8/8/3pr3/4K3 w - - 0 1", "e1e2", false), // a pawn remains
    ];
    for (fen, uci, dead) in cases {
        let mut g = game(fen);
        let status = play(&mut g, &[uci]);
        if dead {
            assert_eq!(status, Status::Tie, "{fen}");
            assert_eq!(
                g.outcome(),
                Some(Outcome::Draw(DrawReason::InsufficientMaterial))
            );
        } else {
            assert_ne!(status, Status::Tie, "{fen}");
            assert_eq!(g.outcome(), None);
        }
    }
    assert!(game("8/8/8/8/8/8/8/K6k w - - 0 1").is_over());
}

#[test]
fn fifty_move_rule() {
    const FEN: &str = "7k/8/6K1/8/8/8/8/1R6 w - - 99 80";
    // A quiet move bringing the clock to 100 draws...
    let mut g = game(FEN);
    assert_eq!(play(&mut g, &["b1c1"]), Status::Tie);
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::FiftyMoves)));
    // ... even when it gives check (TIE comes before CHECK) ...
    let mut g = game(FEN);
    assert_eq!(play(&mut g, &["b1h1"]), Status::Tie);
    // ... but not when it mates.
    let mut g = game(FEN);
    assert_eq!(play(&mut g, &["b1b8"]), Status::Mate);
    // A capture or pawn move resets the clock.
    let mut g = game("7k/8/6K1/8/8/8/P7/1R6 w - - 99 80");
    assert_eq!(play(&mut g, &["a2a3"]), Status::Ok);
    assert_eq!(g.position().halfmoves(), 0);
    // 98 plies from zero then one more pair reaches 100.
    let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let mut status = Status::Ok;
    for i in 0..100 {
        assert_eq!(g.outcome(), None, "ply {i}");
        // Shuffle without repeating a position three times: walk the rook along the rank
        // and the king around, using the ply number.
        let mut list = MoveList::new();
        g.legal_moves(&mut list);
        let quiet: Vec<_> = list
            .iter()
            .copied()
            .filter(|m| !m.is_capture() && m.role() != kgames_chess::square::Role::Pawn)
            .collect();
        // Prefer moves that do not repeat: pick the first whose resulting position is new.
        let pick = quiet
            .iter()
            .copied()
            .find(|&m| {
                let mut next = *g.position();
                next.play(m);
                !g.history().contains(&next.repetition_key())
            })
            .unwrap_or(quiet[0]);
        status = g.play(pick).unwrap();
        if g.is_over() {
            assert_eq!(i, 99, "ended early: {:?}", g.outcome());
        }
    }
    assert_eq!(status, Status::Tie);
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::FiftyMoves)));
}

#[test]
fn threefold_repetition() {
    let mut g = Game::new();
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    assert_eq!(play(&mut g, &shuffle), Status::Ok);
    assert_eq!(g.repetitions(), 2);
    assert_eq!(play(&mut g, &shuffle[..3]), Status::Ok);
    assert_eq!(play(&mut g, &shuffle[3..]), Status::Tie);
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
}

#[test]
fn repetition_needs_same_castling_rights() {
    let mut g = Game::new();
    // The kings' walk loses castling rights: the start placement recurs but not the position.
    play(&mut g, &["e2e4", "e7e5", "e1e2", "e8e7", "e2e1", "e7e8"]);
    assert_eq!(g.repetitions(), 1);
    play(&mut g, &["e1e2", "e8e7", "e2e1", "e7e8"]);
    assert_eq!(g.repetitions(), 2);
    // After e1e2 the first time black still had its rights: only two occurrences so far.
    assert_eq!(play(&mut g, &["e1e2"]), Status::Ok);
    assert_eq!(g.repetitions(), 2);
    // Ke7 (no rights on either side) occurs for the third time.
    assert_eq!(play(&mut g, &["e8e7"]), Status::Tie);
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
}

#[test]
fn repetition_and_en_passant() {
    // After 1. e4 the en-passant square e3 is not capturable: the position repeats later
    // without it.
    let mut g = game("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    play(&mut g, &["e2e4", "e8d8", "e1d1", "d8e8", "d1e1"]);
    // The e2e4 position recurs: the uncapturable e3 square does not count.
    assert_eq!(g.repetitions(), 2);
    play(&mut g, &["e8d8", "e1d1", "d8e8", "d1e1"]);
    // The position after e2e4 (black to move, e4 pawn) has now occurred 3 times: once with
    // the (irrelevant) e3 square, twice without.
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));

    // With a black pawn on d4 the capture d4xe3 is legal: the first occurrence differs.
    let mut g = game("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
    play(&mut g, &["e2e4", "e8d8", "e1d1", "d8e8", "d1e1"]);
    play(&mut g, &["e8d8", "e1d1", "d8e8", "d1e1"]);
    assert_eq!(g.outcome(), None);
    assert_eq!(g.repetitions(), 2);

    // A pinned capturer (horizontal pin on the 4th rank) makes the en-passant square
    // irrelevant again.
    let mut g = game("8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1");
    play(&mut g, &["e2e4", "a4a5", "e1d1", "a5a4", "d1e1"]);
    play(&mut g, &["a4a5", "e1d1", "a5a4", "d1e1"]);
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
}

#[test]
fn resignation_and_classic_play() {
    let mut g = Game::new();
    let m = parse_classic(g.position(), b"WPe2-e4").unwrap();
    assert_eq!(g.play(m), Some(Status::Ok));
    assert_eq!(g.last_move(), Some(m));
    assert!(g.resign(Color::Black));
    assert_eq!(
        g.outcome(),
        Some(Outcome::Resignation {
            winner: Color::White
        })
    );
    assert_eq!(Status::Mate.reply(), b"MATE\n");
    assert_eq!(Status::Ok.reply(), b"OK\n");
}
