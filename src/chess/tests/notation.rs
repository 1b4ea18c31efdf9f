//! The classic protocol notation (docs/protocol.md, "Chess"): every INVFMT and ILLMOVE case as a
//! table, the accepted forms both ways, UCI, the `01` board and the `06` line.

use kgames_chess::common::text::BufWriter;
use kgames_chess::moves::MoveKind;
use kgames_chess::notation::{
    parse_classic, parse_uci, write_board, write_classic, write_last_move, write_uci, ClassicMove,
    ParseError, BOARD_LEN,
};
use kgames_chess::position::Position;
use kgames_chess::square::Role;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen.as_bytes()).unwrap()
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// 1. e4 d5: a pawn capture is available (exd5).
const CAPTURE: &str = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
/// White to move; a7 promotes; b7 promotes by capturing the c8 knight; e5xd6 en passant.
const PROMO: &str = "2n1k3/PP6/8/3pP3/8/8/8/4K2R w K d6 0 1";
/// Black to move; the e7 bishop is pinned by the e1 rook.
const PINNED: &str = "4k3/4b3/8/8/8/8/8/4RK2 b - - 0 1";

#[test]
fn invfmt_cases() {
    let cases: &[&str] = &[
        "",
        "W",
        "WPe2-e",         // 6 bytes
        "WPe2-e44",       // 8 bytes
        "WPe2-e4x",       // 8 bytes
        "WPe2-e4xB",      // 9 bytes
        "WPe2-e4xBPy",    // 11 bytes
        "WPe2-e4xBPyWQx", // 14 bytes
        "wPe2-e4",        // lower-case colour
        "Wpe2-e4",        // lower-case piece
        "WPe2-e4xbP",     // lower-case captured colour
        "WPe2-e4xBp",     // lower-case captured piece
        "WPe7-e8ywQ",     // lower-case promotion colour
        "WPe7-e8yWq",     // lower-case promotion piece
        "XPe2-e4",        // unknown colour
        "WXe2-e4",        // unknown piece
        "WPe2-e4xBX",     // unknown captured piece
        "WPe7-e8yWX",     // unknown promotion piece
        "WPe9-e4",        // square outside a1-h8
        "WPe0-e4",
        "WPi2-i4",
        "WPE2-E4", // upper-case file
        "WP22-e4",
        "WPe2e4 ", // missing '-'
        "WPe2 e4",
        "WPe2xe4",
        "WPe2--e4",
        "WPe2-e4zBP", // unknown suffix
        "WPe2-e4 BP",
        "WPe2-e4XBP",
        "WPe2-e4YWQ",
        "WPe7-e8yWQxBN", // suffixes in the wrong order
        "WPe2-e4xBPxBP",
        "WPe7-e8yWQyWQ",
        " WPe2-e4",
        "WPe2-e4\n",
    ];
    for text in cases {
        assert_eq!(
            ClassicMove::parse(text.as_bytes()),
            Err(ParseError::Format),
            "{text:?}"
        );
        assert_eq!(
            parse_classic(&pos(START), text.as_bytes()),
            Err(ParseError::Format),
            "{text:?}"
        );
    }
}

#[test]
fn illmove_cases() {
    let cases: &[(&str, &str)] = &[
        (START, "BPe7-e5"), // the opponent's colour
        (START, "WNe2-e4"), // wrong piece on the from-square
        (START, "WPe3-e4"), // empty from-square
        (START, "WBe2-e4"),
        (START, "WPe2-e5"),       // not a legal pawn move
        (START, "WPe2-e2"),       // no move at all
        (START, "WKe1-e2"),       // blocked
        (START, "WKe1-g1"),       // castling through pieces
        (START, "WNg1-e2"),       // own piece on the destination
        (START, "WPe2-e4xBP"),    // extra capture
        (START, "WPe2-e4yWQ"),    // 'y' on a non-promotion
        (START, "WPe2-e4xBK"),    // capturing a king
        (CAPTURE, "WPe4-d5"),     // missing capture
        (CAPTURE, "WPe4-d5xBN"),  // wrong captured piece
        (CAPTURE, "WPe4-d5xWP"),  // own colour captured
        (CAPTURE, "WPe4-d5xBK"),  // a king
        (PROMO, "WPa7-a8"),       // missing promotion
        (PROMO, "WPa7-a8yWK"),    // promotion to a king
        (PROMO, "WPa7-a8yWP"),    // promotion to a pawn
        (PROMO, "WPa7-a8yBQ"),    // promotion of the wrong colour
        (PROMO, "WPb7-c8yWQ"),    // capture-promotion without the capture
        (PROMO, "WPb7-c8xBN"),    // capture-promotion without the promotion
        (PROMO, "WPb7-c8xBByWQ"), // wrong captured piece
        (PROMO, "WPe5-d6"),       // en passant without declaring the capture
        (PROMO, "WPe5-d6xBN"),    // en passant naming a piece other than the pawn
        (PROMO, "WPe5-e6xBP"),    // a capture onto an empty square that is not en passant
        (PROMO, "WKe1-c1"),       // no queen-side right
        (PINNED, "BBe7-d6"),      // leaves the own king in check
        (PINNED, "BKe8-e7"),      // onto an own piece
    ];
    for (fen, text) in cases {
        assert_eq!(
            ClassicMove::parse(text.as_bytes()).map(|_| ()),
            Ok(()),
            "{text} must be well-formed"
        );
        assert_eq!(
            parse_classic(&pos(fen), text.as_bytes()),
            Err(ParseError::Illegal),
            "{fen} {text}"
        );
    }
}

#[test]
fn accepted_forms_round_trip() {
    // (position, classic text, UCI text, kind)
    let cases: &[(&str, &str, &str, MoveKind)] = &[
        (START, "WPe2-e4", "e2e4", MoveKind::DoublePush),
        (START, "WNg1-f3", "g1f3", MoveKind::Normal),
        (CAPTURE, "WPe4-d5xBP", "e4d5", MoveKind::Normal),
        (PROMO, "WPa7-a8yWQ", "a7a8q", MoveKind::Normal),
        (PROMO, "WPa7-a8yWN", "a7a8n", MoveKind::Normal),
        (PROMO, "WPb7-c8xBNyWR", "b7c8r", MoveKind::Normal),
        (PROMO, "WPb7-b8yWB", "b7b8b", MoveKind::Normal),
        (PROMO, "WPe5-d6xBP", "e5d6", MoveKind::EnPassant),
        (PROMO, "WKe1-g1", "e1g1", MoveKind::Castle),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            "BKe8-c8",
            "e8c8",
            MoveKind::Castle,
        ),
        (PINNED, "BKe8-d8", "e8d8", MoveKind::Normal),
    ];
    for (fen, classic, uci, kind) in cases {
        let p = pos(fen);
        let m =
            parse_classic(&p, classic.as_bytes()).unwrap_or_else(|e| panic!("{classic}: {e:?}"));
        assert_eq!(m.kind(), *kind, "{classic}");
        assert_eq!(parse_uci(&p, uci.as_bytes()), Ok(m), "{uci}");
        let mut buf = [0u8; 32];
        let mut w = BufWriter::new(&mut buf);
        write_classic(m, p.turn(), &mut w).unwrap();
        assert_eq!(w.as_bytes(), classic.as_bytes());
        let mut buf = [0u8; 32];
        let mut w = BufWriter::new(&mut buf);
        write_uci(m, &mut w).unwrap();
        assert_eq!(w.as_bytes(), uci.as_bytes());
        let mut buf = [0u8; 32];
        let mut w = BufWriter::new(&mut buf);
        write_last_move(m, p.turn(), &mut w).unwrap();
        assert_eq!(w.as_bytes(), format!("{classic} {uci}").as_bytes());
    }
    let m = parse_classic(&pos(PROMO), b"WPb7-c8xBNyWQ").unwrap();
    assert_eq!(
        (m.capture(), m.promotion()),
        (Some(Role::Knight), Some(Role::Queen))
    );
}

#[test]
fn uci_errors() {
    let p = pos(PROMO);
    for bad in [
        "", "e2e", "e2e4qq", "e2e9", "E2E4", "a7a8Q", "a7a8k", "a7a8p", "e2-e4",
    ] {
        assert_eq!(
            parse_uci(&p, bad.as_bytes()),
            Err(ParseError::Format),
            "{bad}"
        );
    }
    for illegal in ["a7a8", "e1e3", "e5e6q", "h1d1", "e1c1", "a1a2"] {
        assert_eq!(
            parse_uci(&p, illegal.as_bytes()),
            Err(ParseError::Illegal),
            "{illegal}"
        );
    }
}

#[test]
fn board_01() {
    let mut out = [0u8; BOARD_LEN];
    write_board(&Position::startpos(), &mut out);
    let expected = [
        "WRWNWBWQWKWBWNWR",
        "WPWPWPWPWPWPWPWP",
        "****************",
        "****************",
        "****************",
        "****************",
        "BPBPBPBPBPBPBPBP",
        "BRBNBBBQBKBBBNBR",
        "\n",
    ]
    .concat();
    assert_eq!(&out[..], expected.as_bytes());
    assert!(out.starts_with(b"WRWNWBWQWKWBWNWRWPWPWPWPWPWPWPWP"));
    write_board(&pos(PINNED), &mut out);
    assert_eq!(&out[8..12], b"WRWK"); // e1, f1
    assert_eq!(&out[2 * 52..2 * 52 + 2], b"BB"); // e7
    assert_eq!(&out[2 * 60..2 * 60 + 2], b"BK"); // e8
}

#[test]
fn legal_moves_line_07() {
    use kgames_chess::notation::write_legal_moves;
    let mut buf = [0u8; 4096];
    let mut w = BufWriter::new(&mut buf);
    write_legal_moves(&pos(START), &mut w).unwrap();
    let line = std::str::from_utf8(w.as_bytes()).unwrap();
    let mut words: Vec<&str> = line.split(' ').collect();
    words.sort_unstable();
    assert_eq!(words.len(), 20);
    assert!(words.contains(&"WPe2-e4") && words.contains(&"WNg1-f3"));
    assert!(words.iter().all(|w| w.len() == 7));
    // Checkmated: an empty line.
    let mut buf = [0u8; 16];
    let mut w = BufWriter::new(&mut buf);
    let mated = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    write_legal_moves(&mated, &mut w).unwrap();
    assert!(w.is_empty());
}
