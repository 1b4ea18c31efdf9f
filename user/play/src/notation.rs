//! What a person types, translated to the device's notation (docs/protocol.md, "Reversi",
//! "Chess", "/dev/kxo").
//!
//! - reversi: `d3` (also `D3`) or `3 2` (column, row, 0-7) to the `02` argument `3 2`;
//! - chess: UCI `e2e4`, `e7e8q`, `e1g1`, castling `O-O` / `O-O-O` (or `0-0`), resolved against
//!   the position (read with `11`) to the classic `WPe2-e4`, `WPe4-d5xBP`, `WPe7-e8yWQ`,
//!   `WKe1-g1`, en passant `WPe5-d6xBP`; a classic move typed as such is passed on unchanged
//!   after a format check (the device judges it);
//! - kxo: `C R` (column, row, 0 to N-1), or `b3` like reversi.
//!
//! Errors are sentences for the person; nothing is sent when the text is wrong.

use kgames_chess::moves::Move;
use kgames_chess::notation::{parse_uci, write_classic, ClassicMove, ParseError};
use kgames_chess::position::Position;
use kgames_chess::square::{Role, Square};
use kgames_common::common::text::BufWriter;

/// A square of a grid of side `n` from `d3` (a letter column, a digit row from 1) or `3 2`
/// (column, row, both from 0). `(column, row)`.
pub fn grid_square(text: &str, n: u8) -> Result<(u8, u8), String> {
    let t = text.trim();
    let b = t.as_bytes();
    let last = char::from(b'a' + n - 1);
    let bad = || {
        format!(
            "\"{t}\" is not a square: type a letter a-{last} and a digit 1-{n} (d3), or column and row 0-{} (3 2)",
            n - 1
        )
    };
    let (c, r) = match *b {
        [c, r] if c.is_ascii_alphabetic() && r.is_ascii_digit() => {
            let c = c.to_ascii_lowercase().wrapping_sub(b'a');
            let r = r.wrapping_sub(b'1');
            (c, r)
        }
        [c, b' ', r] if c.is_ascii_digit() && r.is_ascii_digit() => (c - b'0', r - b'0'),
        _ => return Err(bad()),
    };
    if c < n && r < n {
        Ok((c, r))
    } else {
        Err(bad())
    }
}

/// The `02` argument of a reversi move: `d3` or `3 2` to `3 2`.
pub fn reversi_move(text: &str) -> Result<String, String> {
    grid_square(text, 8).map(|(c, r)| format!("{c} {r}"))
}

/// The `02` argument of an N x N move: `C R` (or `b3`) to `C R`.
pub fn kxo_move(text: &str, n: u8) -> Result<String, String> {
    grid_square(text, n).map(|(c, r)| format!("{c} {r}"))
}

/// The reversi name of a cell: column 3, row 2 is `d3`.
pub fn square_name(col: u8, row: u8) -> String {
    format!("{}{}", char::from(b'a' + col), row + 1)
}

/// `m` (a move of the side to move of `pos`) in the classic notation.
pub fn classic_text(pos: &Position, m: Move) -> String {
    let mut buf = [0u8; 16];
    let mut w = BufWriter::new(&mut buf);
    // 13 bytes at most: always fits.
    let _ = write_classic(m, pos.turn(), &mut w);
    String::from_utf8_lossy(w.as_bytes()).into_owned()
}

/// `m` in UCI notation (`e2e4`, `e7e8q`).
pub fn uci_text(m: Move) -> String {
    let mut s = format!("{}{}", sq_name(m.from()), sq_name(m.to()));
    if let Some(p) = m.promotion() {
        s.push(char::from(p.lower_char()));
    }
    s
}

/// `e4`.
pub fn sq_name(s: Square) -> String {
    format!("{}{}", char::from(s.file_char()), char::from(s.rank_char()))
}

/// `m` (a legal move of the side to move of `pos`) in standard algebraic notation: `e4`,
/// `Nbd7`, `exd5`, `e8=Q`, `O-O`, with `+` for check and `#` for mate.
pub fn san(pos: &Position, m: Move) -> String {
    use kgames_chess::moves::MoveKind;
    let mut s = if m.kind() == MoveKind::Castle {
        if m.to().file_char() == b'g' {
            "O-O".to_string()
        } else {
            "O-O-O".to_string()
        }
    } else if m.role() == Role::Pawn {
        let mut s = String::new();
        if m.is_capture() {
            s.push(char::from(m.from().file_char()));
            s.push('x');
        }
        s += &sq_name(m.to());
        if let Some(p) = m.promotion() {
            s.push('=');
            s.push(char::from(p.upper_char()));
        }
        s
    } else {
        // The same piece kind reaching the same square from elsewhere: the file tells them
        // apart if it can, else the rank, else both.
        let rivals: Vec<Move> = legal(pos)
            .into_iter()
            .filter(|o| o.role() == m.role() && o.to() == m.to() && o.from() != m.from())
            .collect();
        let mut s = char::from(m.role().upper_char()).to_string();
        if !rivals.is_empty() {
            let file = m.from().file_char();
            let rank = m.from().rank_char();
            if rivals.iter().all(|o| o.from().file_char() != file) {
                s.push(char::from(file));
            } else if rivals.iter().all(|o| o.from().rank_char() != rank) {
                s.push(char::from(rank));
            } else {
                s.push(char::from(file));
                s.push(char::from(rank));
            }
        }
        if m.is_capture() {
            s.push('x');
        }
        s + &sq_name(m.to())
    };
    let mut after = *pos;
    after.play(m);
    if after.is_check() {
        s.push(if after.has_legal_move() { '+' } else { '#' });
    }
    s
}

fn legal(pos: &Position) -> Vec<Move> {
    let mut list = kgames_chess::moves::MoveList::new();
    pos.legal_moves(&mut list);
    list.iter().copied().collect()
}

/// The classic `02` argument of a chess move typed in any accepted form, for the side to move
/// of `pos`.
pub fn chess_move(pos: &Position, text: &str) -> Result<String, String> {
    let t = text.trim();
    let b = t.as_bytes();
    if matches!(b.first(), Some(b'W' | b'B')) && b.len() >= 7 {
        // The classic form: the format is checked here, the rest by the device.
        return match ClassicMove::parse(b) {
            Ok(_) => Ok(t.to_string()),
            Err(_) => Err(format!(
                "\"{t}\" is not a classic move: colour, piece, from-to, then xCP for a capture and yCP for a promotion (WPe2-e4, WPe4-d5xBP, WPe7-e8yWQ)"
            )),
        };
    }
    let castle = match t {
        "O-O" | "0-0" | "o-o" => Some(6),
        "O-O-O" | "0-0-0" | "o-o-o" => Some(2),
        _ => None,
    };
    if let Some(file) = castle {
        // The king two files from e: only castling moves it so.
        let found = legal(pos).into_iter().find(|m| {
            m.role() == Role::King
                && m.from().file() == 4
                && m.to().file() == file
                && m.from().rank() == m.to().rank()
        });
        return match found {
            Some(m) => Ok(classic_text(pos, m)),
            None => Err(format!("{t}: castling is not legal now")),
        };
    }
    // UCI, also with a dash (e2-e4) or an '=' before the promotion (e7e8=q).
    let uci: String = t
        .chars()
        .filter(|c| *c != '-' && *c != '=')
        .map(|c| c.to_ascii_lowercase())
        .collect();
    match parse_uci(pos, uci.as_bytes()) {
        Ok(m) => Ok(classic_text(pos, m)),
        Err(ParseError::Format) => Err(format!(
            "\"{t}\" is not a move: type from and to squares (e2e4), a promotion letter (e7e8q), O-O, or the classic WPe2-e4"
        )),
        Err(ParseError::Illegal) => {
            let ub = uci.as_bytes();
            let promotes = ub.len() == 4
                && legal(pos).iter().any(|m| {
                    m.promotion().is_some()
                        && Some(m.from()) == Square::from_ascii(ub[0], ub[1])
                        && Some(m.to()) == Square::from_ascii(ub[2], ub[3])
                });
            if promotes {
                Err(format!("{t} promotes: add q, r, b or n ({uci}q)"))
            } else {
                Err(format!("illegal move: {t} is not legal here"))
            }
        }
    }
}

/// The from- and to-squares named by a classic move text (`WPe2-e4...`).
pub fn classic_squares(text: &str) -> Option<(Square, Square)> {
    let b = text.as_bytes();
    if b.len() < 7 {
        return None;
    }
    Some((
        Square::from_ascii(b[2], b[3])?,
        Square::from_ascii(b[5], b[6])?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fen(s: &str) -> Position {
        Position::from_fen(s.as_bytes()).unwrap()
    }

    /// The SAN of the move typed as `uci` in `fen`.
    fn san_of(fen_text: &str, uci: &str) -> String {
        let p = fen(fen_text);
        let m = parse_uci(&p, uci.as_bytes()).unwrap();
        san(&p, m)
    }

    #[test]
    fn standard_algebraic_notation() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(san_of(start, "e2e4"), "e4");
        assert_eq!(san_of(start, "g1f3"), "Nf3");
        // Knights on b1 and f3 both reach d2: the file; rooks on a1 and a5 both reach a3:
        // the rank.
        let two = "4k3/8/8/R7/8/8/8/RN2K3 w - - 0 1";
        assert_eq!(san_of(two, "a1a3"), "R1a3");
        assert_eq!(san_of(two, "a5a3"), "R5a3");
        let knights = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
        assert_eq!(san_of(knights, "b1d2"), "Nbd2");
        // Captures, en passant, promotion with check, castling, mate.
        let ep = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
        assert_eq!(san_of(ep, "e5d6"), "exd6");
        assert_eq!(san_of("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), "b8=Q+");
        assert_eq!(san_of("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), "O-O");
        assert_eq!(san_of("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"), "Ra8#");
        assert_eq!(san_of("4k3/8/8/8/8/3q4/8/3NK3 b - - 0 1", "d3d1"), "Qxd1+");
    }

    #[test]
    fn reversi_squares_both_forms() {
        assert_eq!(reversi_move("d3").unwrap(), "3 2");
        assert_eq!(reversi_move(" D3 ").unwrap(), "3 2");
        assert_eq!(reversi_move("3 2").unwrap(), "3 2");
        assert_eq!(reversi_move("a1").unwrap(), "0 0");
        assert_eq!(reversi_move("h8").unwrap(), "7 7");
        assert_eq!(reversi_move("7 7").unwrap(), "7 7");
        for bad in ["i1", "a9", "a0", "8 1", "3  2", "d", "", "pass", "3,2"] {
            let e = reversi_move(bad).unwrap_err();
            assert!(e.contains("not a square"), "{bad}: {e}");
        }
        assert_eq!(square_name(3, 2), "d3");
    }

    #[test]
    fn kxo_squares_depend_on_n() {
        assert_eq!(kxo_move("2 1", 3).unwrap(), "2 1");
        assert_eq!(kxo_move("c2", 3).unwrap(), "2 1");
        assert_eq!(kxo_move("5 5", 6).unwrap(), "5 5");
        assert!(kxo_move("3 0", 3).is_err());
        assert!(kxo_move("d1", 3).is_err());
        let e = kxo_move("x", 4).unwrap_err();
        assert!(e.contains("a-d") && e.contains("0-3"), "{e}");
    }

    #[test]
    fn chess_plain_moves_and_captures() {
        let p = Position::startpos();
        assert_eq!(chess_move(&p, "e2e4").unwrap(), "WPe2-e4");
        assert_eq!(chess_move(&p, "e2-e4").unwrap(), "WPe2-e4");
        assert_eq!(chess_move(&p, "g1f3").unwrap(), "WNg1-f3");
        assert_eq!(chess_move(&p, "E2E4").unwrap(), "WPe2-e4");
        let p = fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2");
        assert_eq!(chess_move(&p, "e4d5").unwrap(), "WPe4-d5xBP");
        let p = fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2");
        assert_eq!(chess_move(&p, "d5e4").unwrap(), "BPd5-e4xWP");
        assert_eq!(chess_move(&p, "g8f6").unwrap(), "BNg8-f6");
    }

    #[test]
    fn chess_castling_every_way() {
        let p = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(chess_move(&p, "e1g1").unwrap(), "WKe1-g1");
        assert_eq!(chess_move(&p, "O-O").unwrap(), "WKe1-g1");
        assert_eq!(chess_move(&p, "0-0").unwrap(), "WKe1-g1");
        assert_eq!(chess_move(&p, "O-O-O").unwrap(), "WKe1-c1");
        let p = fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
        assert_eq!(chess_move(&p, "O-O").unwrap(), "BKe8-g8");
        assert_eq!(chess_move(&p, "e8c8").unwrap(), "BKe8-c8");
        let p = fen("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
        assert!(chess_move(&p, "O-O")
            .unwrap_err()
            .contains("castling is not legal"));
        assert!(chess_move(&p, "e1g1").unwrap_err().contains("illegal move"));
    }

    #[test]
    fn chess_promotion_and_en_passant() {
        let p = fen("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(chess_move(&p, "a7a8q").unwrap(), "WPa7-a8yWQ");
        assert_eq!(chess_move(&p, "a7a8n").unwrap(), "WPa7-a8yWN");
        assert_eq!(chess_move(&p, "a7a8=Q").unwrap(), "WPa7-a8yWQ");
        assert_eq!(chess_move(&p, "a7b8r").unwrap(), "WPa7-b8xBNyWR");
        let e = chess_move(&p, "a7a8").unwrap_err();
        assert!(e.contains("promotes") && e.contains("a7a8q"), "{e}");
        assert!(chess_move(&p, "a7a8k").unwrap_err().contains("not a move"));
        let p = fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
        assert_eq!(chess_move(&p, "e5d6").unwrap(), "WPe5-d6xBP");
        let p = fen("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 2");
        assert_eq!(chess_move(&p, "e4d3").unwrap(), "BPe4-d3xWP");
    }

    #[test]
    fn chess_classic_form_is_checked_and_passed_on() {
        let p = Position::startpos();
        assert_eq!(chess_move(&p, "WPe2-e4").unwrap(), "WPe2-e4");
        // Well-formed but illegal: the device says so.
        assert_eq!(chess_move(&p, "WPe2-e5").unwrap(), "WPe2-e5");
        assert_eq!(chess_move(&p, "WPe7-e8yWQ").unwrap(), "WPe7-e8yWQ");
        for bad in ["WPe2e4xx", "WXe2-e4", "WPe2-e4xBZ", "BPe7-e9"] {
            assert!(
                chess_move(&p, bad).unwrap_err().contains("classic"),
                "{bad}"
            );
        }
    }

    #[test]
    fn chess_wrong_input_says_why() {
        let p = Position::startpos();
        assert!(chess_move(&p, "e2e5").unwrap_err().contains("illegal move"));
        assert!(chess_move(&p, "e7e5").unwrap_err().contains("illegal move"));
        assert!(chess_move(&p, "hello").unwrap_err().contains("not a move"));
        assert!(chess_move(&p, "").unwrap_err().contains("not a move"));
        assert!(chess_move(&p, "z2z4").unwrap_err().contains("not a move"));
    }

    #[test]
    fn names_and_squares_of_classic_texts() {
        let p = Position::startpos();
        let m = parse_uci(&p, b"g1f3").unwrap();
        assert_eq!(uci_text(m), "g1f3");
        assert_eq!(classic_text(&p, m), "WNg1-f3");
        let (f, t) = classic_squares("WPe7-e8yWQ").unwrap();
        assert_eq!((sq_name(f), sq_name(t)), ("e7".into(), "e8".into()));
        assert!(classic_squares("WP").is_none());
    }
}
