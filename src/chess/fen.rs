//! Forsyth-Edwards Notation: strict parsing and formatting.
//!
//! Accepted: the six space-separated fields (board, side, castling, en passant, half-move
//! clock, full-move number), or only the first four (the clocks are then 0 and 1). Exactly one
//! space between fields, no leading or trailing space. Castling rights are `-` or a non-empty
//! subsequence of `KQkq` in that order. The half-move clock is 0..=65535 and the full-move
//! number 1..=999999, decimal without superfluous leading zeros.

use super::bitboard::Bitboard;
use super::position::{Castling, Position};
use super::square::{Color, Piece, Role, Square};
use crate::common::budget::parse_decimal;
use crate::common::text::BufWriter;
use core::fmt;

/// Why a FEN was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Malformed text (bad characters, field count, rank lengths, numbers).
    Format,
    /// A side does not have exactly one king.
    Kings,
    /// A pawn on the 1st or 8th rank.
    PawnOnBackRank,
    /// More than 16 pieces or more than 8 pawns on one side.
    TooManyPieces,
    /// The side not to move is in check.
    OppositeCheck,
    /// The side to move is in check by more than two pieces.
    ImpossibleCheck,
    /// A castling right without its king and rook on their home squares.
    Castling,
    /// An en-passant square without a pawn that just made a double push.
    EnPassant,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenError::Format => "malformed FEN",
            FenError::Kings => "a side does not have exactly one king",
            FenError::PawnOnBackRank => "a pawn on the first or last rank",
            FenError::TooManyPieces => "more than 16 pieces or 8 pawns on one side",
            FenError::OppositeCheck => "the side not to move is in check",
            FenError::ImpossibleCheck => "the side to move is in check by more than two pieces",
            FenError::Castling => "a castling right without its king and rook at home",
            FenError::EnPassant => "an en-passant square without a pawn that just moved two",
        })
    }
}

/// The start position's FEN.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn parse_board(field: &[u8], pos: &mut Position) -> Result<(), FenError> {
    let mut rank: u32 = 7;
    let mut file: u32 = 0;
    let mut last_digit = false;
    for &c in field {
        match c {
            b'/' => {
                if file != 8 || rank == 0 {
                    return Err(FenError::Format);
                }
                rank -= 1;
                file = 0;
                last_digit = false;
            }
            b'1'..=b'8' => {
                if last_digit {
                    return Err(FenError::Format);
                }
                file += u32::from(c - b'0');
                if file > 8 {
                    return Err(FenError::Format);
                }
                last_digit = true;
            }
            _ => {
                let piece = Piece::from_fen_char(c).ok_or(FenError::Format)?;
                if file >= 8 {
                    return Err(FenError::Format);
                }
                pos.put(Square::from_coords(file, rank), piece);
                file += 1;
                last_digit = false;
            }
        }
    }
    if rank != 0 || file != 8 {
        return Err(FenError::Format);
    }
    Ok(())
}

fn parse_castling(field: &[u8]) -> Result<Castling, FenError> {
    if field == b"-" {
        return Ok(Castling::NONE);
    }
    if field.is_empty() {
        return Err(FenError::Format);
    }
    let order = [
        (b'K', Castling::WHITE_KING),
        (b'Q', Castling::WHITE_QUEEN),
        (b'k', Castling::BLACK_KING),
        (b'q', Castling::BLACK_QUEEN),
    ];
    let mut rights = Castling::NONE;
    let mut next = 0;
    for &c in field {
        let idx = order
            .iter()
            .position(|&(ch, _)| ch == c)
            .ok_or(FenError::Format)?;
        if idx < next {
            return Err(FenError::Format);
        }
        let (_, right) = order.get(idx).ok_or(FenError::Format)?;
        rights = rights.union(*right);
        next = idx + 1;
    }
    Ok(rights)
}

fn validate(pos: &Position) -> Result<(), FenError> {
    for color in Color::ALL {
        let side = pos.by_color(color);
        if (side & pos.by_role(Role::King)).count() != 1 {
            return Err(FenError::Kings);
        }
        if side.count() > 16 || (side & pos.by_role(Role::Pawn)).count() > 8 {
            return Err(FenError::TooManyPieces);
        }
    }
    if (pos.by_role(Role::Pawn) & Bitboard::BACKRANKS).any() {
        return Err(FenError::PawnOnBackRank);
    }
    let us = pos.turn();
    let them = us.other();
    if let Some(k) = pos.king_of(them) {
        if pos.is_attacked(k, us) {
            return Err(FenError::OppositeCheck);
        }
    }
    if pos.checkers().count() > 2 {
        return Err(FenError::ImpossibleCheck);
    }
    for color in Color::ALL {
        let rank = color.back_rank();
        let king = Piece {
            color,
            role: Role::King,
        };
        let rook = Piece {
            color,
            role: Role::Rook,
        };
        let king_home = pos.by_piece(king).contains(Square::from_coords(4, rank));
        for (right, file) in [
            (Castling::king_side(color), 7),
            (Castling::queen_side(color), 0),
        ] {
            if pos.castling().contains(right)
                && !(king_home && pos.by_piece(rook).contains(Square::from_coords(file, rank)))
            {
                return Err(FenError::Castling);
            }
        }
    }
    if let Some(ep) = pos.ep_square() {
        // The pawn that just moved two squares stands in front of `ep` (seen from its side),
        // and the squares it crossed are empty.
        let pusher = Piece {
            color: them,
            role: Role::Pawn,
        };
        let expected_rank = match us {
            Color::White => 5,
            Color::Black => 2,
        };
        let pawn_sq = ep.offset(them.forward());
        let origin = ep.offset(-them.forward());
        let ok = ep.rank() == expected_rank
            && matches!(pawn_sq, Some(s) if pos.by_piece(pusher).contains(s))
            && !pos.occupied().contains(ep)
            && matches!(origin, Some(s) if !pos.occupied().contains(s));
        if !ok {
            return Err(FenError::EnPassant);
        }
    }
    Ok(())
}

impl Position {
    /// Parses a FEN (see the module documentation for what is accepted) and checks that the
    /// position is possible: one king each, no pawns on the back ranks, at most 16 pieces and
    /// 8 pawns a side, the side not to move not in check, at most two checkers, castling
    /// rights backed by king and rook, a consistent en-passant square.
    pub fn from_fen(fen: &[u8]) -> Result<Position, FenError> {
        let mut fields: [&[u8]; 6] = [&[]; 6];
        let mut n = 0;
        for field in fen.split(|&c| c == b' ') {
            let slot = fields.get_mut(n).ok_or(FenError::Format)?;
            if field.is_empty() {
                return Err(FenError::Format);
            }
            *slot = field;
            n += 1;
        }
        if n != 4 && n != 6 {
            return Err(FenError::Format);
        }
        let mut pos = Position::empty();
        parse_board(fields[0], &mut pos)?;
        pos.set_turn(match fields[1] {
            b"w" => Color::White,
            b"b" => Color::Black,
            _ => return Err(FenError::Format),
        });
        pos.set_castling(parse_castling(fields[2])?);
        pos.set_ep_square(match fields[3] {
            b"-" => None,
            [f, r] => Some(Square::from_ascii(*f, *r).ok_or(FenError::Format)?),
            _ => return Err(FenError::Format),
        });
        if n == 6 {
            let half = parse_decimal(fields[4], 5).ok_or(FenError::Format)?;
            let full = parse_decimal(fields[5], 6).ok_or(FenError::Format)?;
            let half = u16::try_from(half).map_err(|_| FenError::Format)?;
            if full == 0 {
                return Err(FenError::Format);
            }
            let full = u32::try_from(full).map_err(|_| FenError::Format)?;
            pos.set_clocks(half, full);
        }
        validate(&pos)?;
        pos.refresh_hash();
        Ok(pos)
    }

    /// Writes the position's FEN (six fields; at most 92 bytes).
    pub fn write_fen(&self, w: &mut BufWriter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            let mut empty = 0u8;
            for file in 0..8 {
                match self.piece_at(Square::from_coords(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            w.push_byte(b'0' + empty)?;
                            empty = 0;
                        }
                        w.push_byte(p.fen_char())?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                w.push_byte(b'0' + empty)?;
            }
            if rank > 0 {
                w.push_byte(b'/')?;
            }
        }
        w.push_byte(b' ')?;
        w.push_byte(self.turn().fen_char())?;
        w.push_byte(b' ')?;
        let c = self.castling();
        if c == Castling::NONE {
            w.push_byte(b'-')?;
        }
        for (right, ch) in [
            (Castling::WHITE_KING, b'K'),
            (Castling::WHITE_QUEEN, b'Q'),
            (Castling::BLACK_KING, b'k'),
            (Castling::BLACK_QUEEN, b'q'),
        ] {
            if c.contains(right) && right != Castling::NONE {
                w.push_byte(ch)?;
            }
        }
        w.push_byte(b' ')?;
        match self.ep_square() {
            Some(ep) => w.push(&[ep.file_char(), ep.rank_char()])?,
            None => w.push_byte(b'-')?,
        }
        fmt::Write::write_fmt(
            w,
            format_args!(" {} {}", self.halfmoves(), self.fullmoves()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(fen: &str) {
        let pos = Position::from_fen(fen.as_bytes()).unwrap();
        let mut buf = [0u8; 128];
        let mut w = BufWriter::new(&mut buf);
        pos.write_fen(&mut w).unwrap();
        assert_eq!(core::str::from_utf8(w.as_bytes()).unwrap(), fen);
        assert_eq!(pos.hash(), pos.compute_hash());
    }

    #[test]
    fn round_trips() {
        round_trip(STARTING_FEN);
        round_trip("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        round_trip("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
        round_trip("8/8/8/8/8/8/8/K6k b - - 99 1000");
        round_trip("r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
        assert_eq!(
            Position::from_fen(STARTING_FEN.as_bytes()).unwrap(),
            Position::startpos()
        );
        let four = Position::from_fen(b"8/8/8/8/8/8/8/K6k w - -").unwrap();
        assert_eq!((four.halfmoves(), four.fullmoves()), (0, 1));
    }

    #[test]
    fn rejects_malformed_and_impossible() {
        use FenError::*;
        let cases: &[(&str, FenError)] = &[
            ("", Format),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
                Format,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x",
                Format,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w KQkq - 0 1",
                Format,
            ),
            (
                " rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                Format,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ",
                Format,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
                Format,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",
                Format,
            ),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", Format),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                Format,
            ),
            (
                "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                Format,
            ),
            (
                "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                Format,
            ),
            (
                "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                Format,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1",
                Format,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w QKkq - 0 1",
                Format,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1",
                Format,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqx - 0 1",
                Format,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
                Format,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 01 1",
                Format,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
                Format,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
                Format,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 70000 1",
                Format,
            ),
            (
                "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
                Kings,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNK w kq - 0 1",
                Kings,
            ),
            (
                "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1",
                PawnOnBackRank,
            ),
            ("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", PawnOnBackRank),
            ("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", TooManyPieces),
            ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", OppositeCheck),
            ("4k3/8/8/8/8/3n4/8/r3K2r w - - 0 1", ImpossibleCheck),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
                Castling,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1",
                Kings,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBK1BNR w KQkq - 0 1",
                Castling,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
                EnPassant,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
                EnPassant,
            ),
            (
                "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR b KQkq e6 0 1",
                EnPassant,
            ),
        ];
        for (fen, err) in cases {
            assert_eq!(Position::from_fen(fen.as_bytes()), Err(*err), "{fen}");
        }
    }
}
