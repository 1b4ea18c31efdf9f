//! The `chess` suite (docs/protocol.md, "Chess").

use crate::dev::Dev;
use crate::{as_uid, ensure, same, Outcome, Test};

const C: &str = "/dev/chess";

/// The `chess` suite.
pub fn tests() -> Vec<Test> {
    vec![
        Test {
            suite: "chess",
            name: "01 before a game is NOGAME; the exact 129-byte boards",
            uid: 2201,
            run: boards,
        },
        Test {
            suite: "chess",
            name: "mate in one from 10: MATE, then NOGAME, final board kept",
            uid: 2202,
            run: mate_in_one,
        },
        Test {
            suite: "chess",
            name: "a whole game, scripted human against the CPU, ends in MATE or TIE",
            uid: 2203,
            run: whole_game,
        },
        Test {
            suite: "chess",
            name: "castling, en passant and promotion in classic notation",
            uid: 2204,
            run: special_moves,
        },
        Test {
            suite: "chess",
            name: "every error word; a rejected move leaves 01 unchanged",
            uid: 2205,
            run: errors,
        },
        Test {
            suite: "chess",
            name: "kgames-uci through /dev/chess plays a whole game, keeping its table: kgames-uci --host's moves",
            uid: 2206,
            run: crate::uci::whole_game,
        },
        Test {
            suite: "chess_classic",
            name: "with chess_eval=0 /dev/chess plays the classic evaluation's moves (kgames-uci --host --eval classic), not the network's",
            uid: 2208,
            run: crate::uci::whole_game_classic,
        },
        Test {
            suite: "chess_plain",
            name: "with chess_simd=0 /dev/chess's network runs its plain loops and plays kgames-uci --host --simd off's moves",
            uid: 2211,
            run: crate::uci::whole_game_plain,
        },
        Test {
            suite: "chess",
            name: "two games searched in turn each keep their own table: both play kgames-uci --host's moves",
            uid: 2209,
            run: crate::uci::interleaved_games,
        },
        Test {
            suite: "chess",
            name: "five games searched in turn on the four search contexts clear each other's tables: kgames-uci --host --clear-table's moves",
            uid: 2210,
            run: crate::uci::more_games_than_contexts,
        },
        Test {
            suite: "chess",
            name: "kgames-uci through /dev/chess: stop ends go infinite with a legal move",
            uid: 2207,
            run: crate::uci::stop_infinite,
        },
        Test {
            suite: "chess",
            name: "two users are isolated",
            uid: 0,
            run: isolated,
        },
    ]
}

/// The 129-byte board of a set-up of (square, piece) pairs, e.g. ("e4", "WP").
fn board(pieces: &[(&str, &str)]) -> Vec<u8> {
    let mut b = vec![b'*'; 128];
    for (sq, p) in pieces {
        let s = sq.as_bytes();
        let i = usize::from(s[1] - b'1') * 8 + usize::from(s[0] - b'a');
        b[2 * i..2 * i + 2].copy_from_slice(p.as_bytes());
    }
    b.push(b'\n');
    b
}

fn start_pieces() -> Vec<(String, String)> {
    let back = ["R", "N", "B", "Q", "K", "B", "N", "R"];
    let mut v = Vec::new();
    for (f, p) in back.iter().enumerate() {
        let file = char::from(b'a' + f as u8);
        v.push((format!("{file}1"), format!("W{p}")));
        v.push((format!("{file}2"), "WP".to_string()));
        v.push((format!("{file}7"), "BP".to_string()));
        v.push((format!("{file}8"), format!("B{p}")));
    }
    v
}

fn board_of(v: &[(String, String)]) -> Vec<u8> {
    let refs: Vec<(&str, &str)> = v.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    board(&refs)
}

fn boards(_: u32) -> Outcome {
    let mut d = Dev::open(C)?;
    d.expect("01", b"NOGAME\n")?;
    d.expect("00 W", b"OK\n")?;
    let start = d.cmd("01")?;
    ensure!(start.len() == 129, "board length {}", start.len());
    same("start board", &start, &board_of(&start_pieces()))?;
    ensure!(
        start.starts_with(b"WRWNWBWQWKWBWNWRWPWPWPWPWPWPWPWP"),
        "start prefix"
    );
    d.expect("02 WPe2-e4", b"OK\n")?;
    let mut v = start_pieces();
    v.retain(|(s, _)| s != "e2");
    v.push(("e4".into(), "WP".into()));
    same("after e2-e4", &d.cmd("01")?, &board_of(&v))?;
    d.expect("06", b"WPe2-e4 e2e4\n")
}

fn mate_in_one(_: u32) -> Outcome {
    let mut d = Dev::open(C)?;
    d.expect("00 W", b"OK\n")?;
    d.expect("10 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", b"OK\n")?;
    d.expect("02 WRa1-a8", b"MATE\n")?;
    d.expect("02 WPf2-f3", b"NOGAME\n")?;
    d.expect("03", b"NOGAME\n")?;
    d.expect("04", b"NOGAME\n")?;
    let want = board(&[
        ("a8", "WR"),
        ("g8", "BK"),
        ("f7", "BP"),
        ("g7", "BP"),
        ("h7", "BP"),
        ("f2", "WP"),
        ("g2", "WP"),
        ("h2", "WP"),
        ("g1", "WK"),
    ]);
    same("final board", &d.cmd("01")?, &want)
}

fn whole_game(_: u32) -> Outcome {
    let mut d = Dev::open(C)?;
    d.expect("00 B", b"OK\n")?;
    d.expect("05 N3000", b"OK\n")?;
    // White (the CPU) has king and queen against the human's lone king.
    d.expect("10 8/8/8/4k3/8/8/3QK3/8 w - - 0 1", b"OK\n")?;
    for ply in 0..400 {
        let r = if ply % 2 == 0 {
            d.cmd("03")?
        } else {
            let moves = d.cmd("07")?;
            let first = moves
                .split(|&b| b == b' ' || b == b'\n')
                .next()
                .unwrap_or(b"");
            ensure!(
                !first.is_empty(),
                "no legal move listed but the game goes on"
            );
            d.cmd(&format!("02 {}", String::from_utf8_lossy(first)))?
        };
        match &r[..] {
            b"OK\n" | b"CHECK\n" => continue,
            b"MATE\n" | b"TIE\n" => {
                d.expect("03", b"NOGAME\n")?;
                ensure!(d.cmd("01")?.len() == 129, "final board");
                return Ok(());
            }
            other => return Err(format!("ply {ply}: {:?}", String::from_utf8_lossy(other))),
        }
    }
    Err("no MATE or TIE within 400 plies".into())
}

fn special_moves(_: u32) -> Outcome {
    let mut d = Dev::open(C)?;
    d.expect("00 W", b"OK\n")?;
    // Castling king side.
    d.expect("10 r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", b"OK\n")?;
    d.expect("02 WKe1-g1", b"OK\n")?;
    let want = board(&[
        ("a1", "WR"),
        ("f1", "WR"),
        ("g1", "WK"),
        ("a8", "BR"),
        ("e8", "BK"),
        ("h8", "BR"),
    ]);
    same("after O-O", &d.cmd("01")?, &want)?;
    d.expect("06", b"WKe1-g1 e1g1\n")?;
    // Queen side.
    d.expect("10 r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", b"OK\n")?;
    d.expect("02 WKe1-c1", b"OK\n")?;
    let want = board(&[
        ("c1", "WK"),
        ("d1", "WR"),
        ("h1", "WR"),
        ("a8", "BR"),
        ("e8", "BK"),
        ("h8", "BR"),
    ]);
    same("after O-O-O", &d.cmd("01")?, &want)?;
    // En passant, declared as a capture of the pawn onto the empty square.
    d.expect("10 4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", b"OK\n")?;
    d.rejected("02 WPe5-d6", b"ILLMOVE\n")?;
    d.expect("02 WPe5-d6xBP", b"OK\n")?;
    same(
        "after e.p.",
        &d.cmd("01")?,
        &board(&[("d6", "WP"), ("e8", "BK"), ("e1", "WK")]),
    )?;
    // Promotion, and promotion with capture.
    d.expect("10 1n5k/4P3/8/8/8/8/8/4K3 w - - 0 1", b"OK\n")?;
    d.rejected("02 WPe7-e8", b"ILLMOVE\n")?;
    d.rejected("02 WPe7-e8yWK", b"ILLMOVE\n")?;
    d.rejected("02 WPe7-e8yWP", b"ILLMOVE\n")?;
    d.rejected("02 WPe7-e8yBQ", b"ILLMOVE\n")?;
    d.expect("02 WPe7-e8yWQ", b"CHECK\n")?;
    same(
        "after e8=Q",
        &d.cmd("01")?,
        &board(&[("e8", "WQ"), ("b8", "BN"), ("h8", "BK"), ("e1", "WK")]),
    )?;
    d.expect("10 k4n2/6P1/8/8/8/8/8/4K3 w - - 0 1", b"OK\n")?;
    d.expect("02 WPg7-f8xBNyWQ", b"CHECK\n")?;
    same(
        "after gxf8=Q",
        &d.cmd("01")?,
        &board(&[("f8", "WQ"), ("a8", "BK"), ("e1", "WK")]),
    )
}

fn errors(_: u32) -> Outcome {
    let mut d = Dev::open(C)?;
    d.expect("02 WPe2-e4", b"NOGAME\n")?;
    d.expect("02 WPe2e4", b"INVFMT\n")?;
    d.expect("00 W", b"OK\n")?;
    for (line, want) in [
        ("42", &b"UNKCMD\n"[..]),
        ("00 w", b"INVFMT\n"),
        ("02 WPe2e4", b"INVFMT\n"),
        ("02 wPe2-e4", b"INVFMT\n"),
        ("02 Wpe2-e4", b"INVFMT\n"),
        ("02 WPe9-e4", b"INVFMT\n"),
        ("02 WPi2-e4", b"INVFMT\n"),
        ("02 WPe2-e4xbp", b"INVFMT\n"),
        ("02 WPe2-e4q", b"INVFMT\n"),
        ("02 WPe2-e", b"INVFMT\n"),
        ("02 WPe2-e44", b"INVFMT\n"),
        ("02 WPe2-e4zBP", b"INVFMT\n"),
        ("02 BPe7-e5", b"ILLMOVE\n"),
        ("02 WPe2-e5", b"ILLMOVE\n"),
        ("02 WNe2-e4", b"ILLMOVE\n"),
        ("02 WPe2-e4xBP", b"ILLMOVE\n"),
        ("02 WPe2-e4yWQ", b"ILLMOVE\n"),
        ("02 WKe1-g1", b"ILLMOVE\n"),
        ("03", b"OOT\n"),
        ("10 not a fen", b"INVFMT\n"),
    ] {
        d.rejected(line, want)?;
    }
    d.expect("02 WPe2-e4", b"OK\n")?;
    d.rejected("02 WPd2-d4", b"OOT\n")?;
    d.rejected("04", b"OOT\n")?;
    // A capture declared wrongly, and leaving the king in check.
    d.expect("10 4k3/8/8/3p4/4P3/8/8/4K2r w - - 0 1", b"OK\n")?;
    d.rejected("02 WPe4-d5", b"ILLMOVE\n")?;
    d.rejected("02 WPe4-d5xBN", b"ILLMOVE\n")?;
    d.expect("10 4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", b"OK\n")?;
    d.rejected("02 WKe1-d1", b"ILLMOVE\n")?;
    d.rejected("02 WKe1-e2", b"ILLMOVE\n")?;
    // Resigning ends the game.
    d.expect("04", b"OK\n")?;
    d.expect("02 WKe1-d2xBR", b"NOGAME\n")
}

fn isolated(_: u32) -> Outcome {
    as_uid(2206, || {
        let mut d = Dev::open(C)?;
        d.expect("00 W", b"OK\n")?;
        d.expect("02 WPd2-d4", b"OK\n")
    })?;
    as_uid(2207, || {
        let mut e = Dev::open(C)?;
        e.expect("01", b"NOGAME\n")?;
        e.expect("00 B", b"OK\n")?;
        e.expect("06", b"NONE\n")
    })?;
    as_uid(2206, || {
        let mut d = Dev::open(C)?;
        d.expect("06", b"WPd2-d4 d2d4\n")
    })
}
