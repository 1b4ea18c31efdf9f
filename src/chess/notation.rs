//! Move and board notations of the protocol: the classic `<C><P><from>-<to>[x<C><P>][y<C><P>]`
//! move, UCI moves (`e2e4`, `e7e8q`), the 129-byte `01` board and the `06` last-move line.
//!
//! Parsing the classic move has two stages, matching the protocol's order of checks: the
//! syntax ([`ClassicMove::parse`], INVFMT on failure) needs no game, while resolving against a
//! position ([`ClassicMove::resolve`], ILLMOVE on failure) comes after the game and turn
//! checks.

use super::moves::{Move, MoveList};
use super::position::Position;
use super::square::{Color, Piece, Role, Square};
use crate::common::text::BufWriter;
use core::fmt;

/// Why a move text was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Malformed text: the protocol's INVFMT.
    Format,
    /// Well-formed but wrong or illegal in this position: the protocol's ILLMOVE.
    Illegal,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParseError::Format => "malformed move text",
            ParseError::Illegal => "not a legal move in this position",
        })
    }
}

/// A syntactically valid classic move, not yet checked against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassicMove {
    /// The moving piece as named (`WP` in `WPe2-e4`).
    pub piece: Piece,
    /// The origin square.
    pub from: Square,
    /// The destination square.
    pub to: Square,
    /// The declared captured piece (`xBP`), if any.
    pub capture: Option<Piece>,
    /// The declared promotion piece (`yWQ`), if any.
    pub promotion: Option<Piece>,
}

fn parse_piece(c: u8, p: u8) -> Result<Piece, ParseError> {
    let color = Color::from_protocol_char(c).ok_or(ParseError::Format)?;
    let role = Role::from_upper_char(p).ok_or(ParseError::Format)?;
    Ok(Piece { color, role })
}

fn parse_square(f: u8, r: u8) -> Result<Square, ParseError> {
    Square::from_ascii(f, r).ok_or(ParseError::Format)
}

impl ClassicMove {
    /// Parses the syntax: 7, 10 or 13 bytes; colour `W`/`B`; piece `K Q R B N P` (upper
    /// case); squares `a1`-`h8`; `-` between them; then `x<C><P>`, `y<C><P>`, or both in that
    /// order. Any other text is [`ParseError::Format`]; this never returns `Illegal`.
    pub fn parse(text: &[u8]) -> Result<ClassicMove, ParseError> {
        let (head, suffix) = match text.len() {
            7 | 10 | 13 => text.split_at(7),
            _ => return Err(ParseError::Format),
        };
        let &[c, p, f1, r1, dash, f2, r2] = head else {
            return Err(ParseError::Format);
        };
        if dash != b'-' {
            return Err(ParseError::Format);
        }
        let mut mv = ClassicMove {
            piece: parse_piece(c, p)?,
            from: parse_square(f1, r1)?,
            to: parse_square(f2, r2)?,
            capture: None,
            promotion: None,
        };
        match *suffix {
            [] => {}
            [b'x', c, p] => mv.capture = Some(parse_piece(c, p)?),
            [b'y', c, p] => mv.promotion = Some(parse_piece(c, p)?),
            [b'x', c1, p1, b'y', c2, p2] => {
                mv.capture = Some(parse_piece(c1, p1)?);
                mv.promotion = Some(parse_piece(c2, p2)?);
            }
            _ => return Err(ParseError::Format),
        }
        Ok(mv)
    }

    /// Finds the legal move of `pos` this text denotes, or [`ParseError::Illegal`]: the
    /// colour is not the side to move, the named piece is not on the from-square, the capture
    /// is missing, extra or names the wrong piece (a king never), the promotion is missing,
    /// present on a move that does not promote, names a king or pawn or the wrong colour, or
    /// the move is not legal.
    pub fn resolve(&self, pos: &Position) -> Result<Move, ParseError> {
        let us = pos.turn();
        if self.piece.color != us || pos.piece_at(self.from) != Some(self.piece) {
            return Err(ParseError::Illegal);
        }
        if matches!(self.capture, Some(c) if c.role == Role::King || c.color == us) {
            return Err(ParseError::Illegal);
        }
        if let Some(p) = self.promotion {
            if p.color != us || !Role::PROMOTIONS.contains(&p.role) {
                return Err(ParseError::Illegal);
            }
        }
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let found = list.iter().copied().find(|m| {
            m.from() == self.from
                && m.to() == self.to
                && m.promotion() == self.promotion.map(|p| p.role)
        });
        let m = found.ok_or(ParseError::Illegal)?;
        let declared = self.capture.map(|c| c.role);
        if m.capture() != declared {
            return Err(ParseError::Illegal);
        }
        Ok(m)
    }

    /// The classic text of a move of `color` (7, 10 or 13 bytes).
    pub fn from_move(m: Move, color: Color) -> ClassicMove {
        ClassicMove {
            piece: Piece {
                color,
                role: m.role(),
            },
            from: m.from(),
            to: m.to(),
            capture: m.capture().map(|role| Piece {
                color: color.other(),
                role,
            }),
            promotion: m.promotion().map(|role| Piece { color, role }),
        }
    }

    /// Writes the text (7, 10 or 13 bytes).
    pub fn write(&self, w: &mut BufWriter<'_>) -> fmt::Result {
        w.push(&[
            self.piece.color.protocol_char(),
            self.piece.role.upper_char(),
            self.from.file_char(),
            self.from.rank_char(),
            b'-',
            self.to.file_char(),
            self.to.rank_char(),
        ])?;
        if let Some(c) = self.capture {
            w.push(&[b'x', c.color.protocol_char(), c.role.upper_char()])?;
        }
        if let Some(p) = self.promotion {
            w.push(&[b'y', p.color.protocol_char(), p.role.upper_char()])?;
        }
        Ok(())
    }
}

// The tools' one-step parser of a classic move (host only).
#[cfg(not(MODULE))]
pub use super::host::parse_classic;

/// Writes `m`, a move of `color`, in the classic notation.
pub fn write_classic(m: Move, color: Color, w: &mut BufWriter<'_>) -> fmt::Result {
    ClassicMove::from_move(m, color).write(w)
}

/// Parses a UCI move (`e2e4`, `e7e8q`; castling as the king's move `e1g1`): 4 or 5 bytes,
/// lower-case promotion letter `q r b n`. Malformed text is `Format`; a move that is not
/// legal here (including a missing or superfluous promotion) is `Illegal`.
pub fn parse_uci(pos: &Position, text: &[u8]) -> Result<Move, ParseError> {
    let (from, to, promotion) = match *text {
        [f1, r1, f2, r2] => (parse_square(f1, r1)?, parse_square(f2, r2)?, None),
        [f1, r1, f2, r2, p] => {
            let role = match p {
                b'q' => Role::Queen,
                b'r' => Role::Rook,
                b'b' => Role::Bishop,
                b'n' => Role::Knight,
                _ => return Err(ParseError::Format),
            };
            (parse_square(f1, r1)?, parse_square(f2, r2)?, Some(role))
        }
        _ => return Err(ParseError::Format),
    };
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter()
        .copied()
        .find(|m| m.from() == from && m.to() == to && m.promotion() == promotion)
        .ok_or(ParseError::Illegal)
}

/// Writes `m` in UCI notation (4 or 5 bytes).
pub fn write_uci(m: Move, w: &mut BufWriter<'_>) -> fmt::Result {
    w.push(&[
        m.from().file_char(),
        m.from().rank_char(),
        m.to().file_char(),
        m.to().rank_char(),
    ])?;
    if let Some(p) = m.promotion() {
        w.push_byte(p.lower_char())?;
    }
    Ok(())
}

/// Writes the `06` line without its newline: the classic move, a space, the UCI move
/// (`WPe2-e4 e2e4`).
pub fn write_last_move(m: Move, color: Color, w: &mut BufWriter<'_>) -> fmt::Result {
    write_classic(m, color, w)?;
    w.push_byte(b' ')?;
    write_uci(m, w)
}

/// Writes the legal moves of `pos` in the classic notation, separated by single spaces, in
/// generation order (the `07` line without its newline; empty when there is none). At most
/// 218 moves of at most 13 bytes: under 3 KiB.
pub fn write_legal_moves(pos: &Position, w: &mut BufWriter<'_>) -> fmt::Result {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    for (i, &m) in list.iter().enumerate() {
        if i > 0 {
            w.push_byte(b' ')?;
        }
        write_classic(m, pos.turn(), w)?;
    }
    Ok(())
}

/// The `01` board size: 64 squares of two bytes and a newline.
pub const BOARD_LEN: usize = 129;

/// Fills `out` with the `01` board: for a1, b1, ... h1, a2, ... h8 the colour (`W`/`B`) and
/// piece letter, or `**` for an empty square; then `\n`.
pub fn write_board(pos: &Position, out: &mut [u8; BOARD_LEN]) {
    for (i, cell) in out.chunks_exact_mut(2).enumerate() {
        let sq = Square::new_masked(i as u32);
        let pair = match pos.piece_at(sq) {
            Some(p) => [p.color.protocol_char(), p.role.upper_char()],
            None => [b'*', b'*'],
        };
        cell.copy_from_slice(&pair);
    }
    out[BOARD_LEN - 1] = b'\n';
}
