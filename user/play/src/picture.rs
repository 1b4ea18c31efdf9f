//! The board as a picture, for a UTF-8 terminal with colours ([`Look::picture`]): chess
//! figurines on light and dark squares, reversi discs on a green board, the N x N grid drawn
//! like xo-user's. Every square has a background colour of its own, so the board reads the
//! same on dark and light terminal themes.
//!
//! Marks, from weakest to strongest: the CPU's last move, the person's last move (both
//! squares in chess; the placed disc in reversi, the discs it turned over lighter), a king in
//! check, the legal targets while it is the person's move (chess: of the piece under the
//! cursor or picked, every move with `l`; reversi: every legal square; N x N: with `l`),
//! then the cursor `[ ]` and the picked piece `( )` around the glyph. Each square stays
//! three columns wide, as in the plain look.

use kgames_chess::position::Position;
use kgames_chess::square::{Color as Side, Piece, Role, Square};
use kgames_term::look::{Colors, Look, O_COLOR, X_COLOR};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use crate::game::{Cells, State};
use crate::render::{cursor_shown, View};

/// The colours of a picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    /// Chess: light and dark squares.
    pub light: Color,
    /// See [`Palette::light`].
    pub dark: Color,
    /// Chess: a legal target on a light square and on a dark one.
    pub light_target: Color,
    /// See [`Palette::light_target`].
    pub dark_target: Color,
    /// The person's last move (the panel's "Last you" in the same colour).
    pub human: Color,
    /// The CPU's last move.
    pub cpu: Color,
    /// A king in check.
    pub check: Color,
    /// Reversi: the board.
    pub felt: Color,
    /// Reversi: the discs the latest move turned over.
    pub flipped: Color,
    /// Glyphs and black discs.
    pub ink: Color,
    /// White discs.
    pub white: Color,
}

impl Palette {
    /// The palette for `colors` (`None` for [`Colors::None`]: no picture).
    pub fn of(colors: Colors) -> Option<Palette> {
        match colors {
            Colors::None => None,
            Colors::Ansi256 => Some(Palette {
                light: Color::Indexed(223),
                dark: Color::Indexed(137),
                light_target: Color::Indexed(150),
                dark_target: Color::Indexed(107),
                human: Color::Indexed(117),
                cpu: Color::Indexed(218),
                check: Color::Indexed(203),
                felt: Color::Indexed(28),
                flipped: Color::Indexed(71),
                ink: Color::Indexed(16),
                white: Color::Indexed(231),
            }),
            Colors::Ansi16 => Some(Palette {
                light: Color::Gray,
                dark: Color::Yellow,
                light_target: Color::LightGreen,
                dark_target: Color::Green,
                human: Color::Cyan,
                cpu: Color::Magenta,
                check: Color::Red,
                felt: Color::Green,
                flipped: Color::LightGreen,
                ink: Color::Black,
                white: Color::White,
            }),
        }
    }
}

/// The style of the person's and the CPU's last moves in the panel, in the board's colours
/// (the N x N grid marks either on yellow).
pub fn last_styles(look: Look, grid: bool) -> Option<(Style, Style)> {
    let p = Palette::of(look.colors)?;
    if grid {
        let y = Style::new().bg(Color::Yellow).fg(Color::Black);
        return Some((y, y));
    }
    let s = |bg| Style::new().bg(bg).fg(p.ink);
    Some((s(p.human), s(p.cpu)))
}

/// The figurine of a piece: white pieces outlined, black ones filled.
pub fn figurine(p: Piece) -> char {
    let white = p.color == Side::White;
    match (p.role, white) {
        (Role::King, true) => '♔',
        (Role::Queen, true) => '♕',
        (Role::Rook, true) => '♖',
        (Role::Bishop, true) => '♗',
        (Role::Knight, true) => '♘',
        (Role::Pawn, true) => '♙',
        (Role::King, false) => '♚',
        (Role::Queen, false) => '♛',
        (Role::Rook, false) => '♜',
        (Role::Bishop, false) => '♝',
        (Role::Knight, false) => '♞',
        (Role::Pawn, false) => '♟',
    }
}

/// A white and a black disc.
pub const DISC: char = '●';
/// A legal square or target with nothing on it.
pub const HINT: char = '•';

/// The board's lines, or `None` when `v.look` is no picture. `grid`: the N x N board with
/// its lines (else three-column squares, as the other boards).
pub fn board_lines(v: &View<'_>, grid: bool) -> Option<Vec<Line<'static>>> {
    if !v.look.picture() {
        return None;
    }
    let p = Palette::of(v.look.colors)?;
    Some(match &v.st.cells {
        Cells::Chess(pos) => squares(v, |i, marks| chess_cell(v.st, pos, &p, i, marks)),
        Cells::Reversi(c) => squares(v, |i, marks| reversi_cell(c, &p, i, marks)),
        Cells::Kxo { .. } if grid => grid_lines(v),
        Cells::Kxo { .. } => squares(v, |i, marks| kxo_cell(v.st, i, marks)),
    })
}

/// What marks a square carries.
#[derive(Clone, Copy, Debug, Default)]
struct Marks {
    human: bool,
    cpu: bool,
    flipped: bool,
    target: bool,
}

/// The person may act on the board now.
fn may_act(v: &View<'_>) -> bool {
    cursor_shown(v) && v.st.to_move == v.st.human
}

/// The legal targets to show: chess, of the picked piece or else the one under the cursor
/// (every move with `l`); reversi, every legal square; N x N (where every empty square is
/// legal), only with `l`.
fn targets(v: &View<'_>) -> Vec<usize> {
    let st = v.st;
    if !may_act(v) {
        return Vec::new();
    }
    match &st.cells {
        Cells::Kxo { .. } if !v.show_legal => Vec::new(),
        Cells::Chess(_) if v.show_legal && v.selected.is_none() => st.legal_targets(None),
        Cells::Chess(_) => {
            let from = v
                .selected
                .unwrap_or_else(|| st.index(v.cursor.0, v.cursor.1));
            st.legal_targets(Some(from))
        }
        _ => st.legal_targets(None),
    }
}

/// An 8 x 8 board of three-column squares, `cell` giving each square's glyph and style.
fn squares(v: &View<'_>, cell: impl Fn(usize, Marks) -> (char, Style)) -> Vec<Line<'static>> {
    let st = v.st;
    let targets = targets(v);
    let has = |l: &Option<crate::game::Last>, i: usize, flipped: bool| {
        l.as_ref().is_some_and(|l| {
            if flipped {
                l.flipped.contains(&i)
            } else {
                l.cells.contains(&i)
            }
        })
    };
    let mut lines = vec![header(v)];
    for r in 0..st.n() {
        let mut spans = vec![Span::raw(format!("{} ", st.row_label(r)))];
        for c in 0..st.n() {
            let i = st.index(c, r);
            let marks = Marks {
                human: has(&st.last_human, i, false),
                cpu: has(&st.last_cpu, i, false),
                flipped: has(&st.last_human, i, true) || has(&st.last_cpu, i, true),
                target: targets.contains(&i),
            };
            let (glyph, style) = cell(i, marks);
            let (l, rt) = brackets(v, c, r, i);
            spans.push(Span::styled(format!("{l}{glyph}{rt}"), style));
        }
        lines.push(Line::from(spans));
    }
    lines
}

/// The column labels, each over the middle of its square.
fn header(v: &View<'_>) -> Line<'static> {
    let mut head = String::from("  ");
    for c in 0..v.st.n() {
        head.push_str(&format!(" {} ", v.st.col_label(c)));
    }
    Line::from(head)
}

/// `( )` around the picked piece, `[ ]` around the cursor while the person may act.
fn brackets(v: &View<'_>, c: u8, r: u8, i: usize) -> (char, char) {
    if Some(i) == v.selected {
        ('(', ')')
    } else if (c, r) == v.cursor && cursor_shown(v) {
        ('[', ']')
    } else {
        (' ', ' ')
    }
}

fn chess_cell(st: &State, pos: &Position, p: &Palette, i: usize, m: Marks) -> (char, Style) {
    let sq = Square::new(i as u32);
    // a1 (index 0) is dark.
    let light = (i / 8 + i % 8) % 2 == 1;
    let mut bg = if light { p.light } else { p.dark };
    if m.cpu {
        bg = p.cpu;
    }
    if m.human {
        bg = p.human;
    }
    let checked = st.in_check() && st.result.is_none() && sq.is_some() && {
        let turn = pos.turn();
        pos.king_of(turn) == sq
    };
    if checked {
        bg = p.check;
    }
    let piece = sq.and_then(|s| pos.piece_at(s));
    if m.target {
        bg = if light { p.light_target } else { p.dark_target };
    }
    let glyph = piece.map_or(if m.target { HINT } else { ' ' }, figurine);
    (
        glyph,
        Style::new().bg(bg).fg(p.ink).add_modifier(Modifier::BOLD),
    )
}

fn reversi_cell(cells: &[u8; 64], p: &Palette, i: usize, m: Marks) -> (char, Style) {
    let mut bg = p.felt;
    if m.flipped {
        bg = p.flipped;
    }
    if m.cpu {
        bg = p.cpu;
    }
    if m.human {
        bg = p.human;
    }
    let style = Style::new().bg(bg).add_modifier(Modifier::BOLD);
    match cells.get(i) {
        Some(b'X') => (DISC, style.fg(p.ink)),
        Some(b'O') => (DISC, style.fg(p.white)),
        _ if m.target => (HINT, style.fg(p.ink)),
        _ => (' ', style),
    }
}

/// An N x N square: X and O in xo-user's colours, the last move on yellow.
fn kxo_cell(st: &State, i: usize, m: Marks) -> (char, Style) {
    let (glyph, color) = match st.cell_char(i) {
        'X' => ('X', X_COLOR),
        'O' => ('O', O_COLOR),
        _ if m.target => (HINT, Color::DarkGray),
        _ => (' ', Color::Reset),
    };
    let style = Style::new().fg(color).add_modifier(Modifier::BOLD);
    if m.human || m.cpu {
        (glyph, style.bg(Color::Yellow).fg(Color::Black))
    } else {
        (glyph, style)
    }
}

/// The N x N grid with box lines (as xo-user draws its boards).
fn grid_lines(v: &View<'_>) -> Vec<Line<'static>> {
    let st = v.st;
    let n = st.n();
    let targets = targets(v);
    let rule = |l: &str, m: &str, r: &str| {
        let mut s = format!("  {l}");
        for c in 0..n {
            s.push_str("───");
            s.push_str(if c + 1 == n { r } else { m });
        }
        Line::raw(s)
    };
    let mut head = String::from("  ");
    for c in 0..n {
        head.push_str(&format!("  {} ", st.col_label(c)));
    }
    let mut lines = vec![Line::raw(head), rule("┌", "┬", "┐")];
    for r in 0..n {
        let mut spans = vec![Span::raw(format!("{} │", st.row_label(r)))];
        for c in 0..n {
            let i = st.index(c, r);
            let last =
                |l: &Option<crate::game::Last>| l.as_ref().is_some_and(|l| l.cells.contains(&i));
            let marks = Marks {
                human: last(&st.last_human),
                cpu: last(&st.last_cpu),
                flipped: false,
                target: targets.contains(&i),
            };
            let (glyph, style) = kxo_cell(st, i, marks);
            let (l, rt) = brackets(v, c, r, i);
            spans.push(Span::styled(format!("{l}{glyph}{rt}"), style));
            spans.push(Span::raw("│"));
        }
        lines.push(Line::from(spans));
        lines.push(if r + 1 == n {
            rule("└", "┴", "┘")
        } else {
            rule("├", "┼", "┤")
        });
    }
    lines
}

/// The size of the board's box (columns, rows, borders included) for `n` x `n` squares:
/// with grid lines, or three-column squares.
pub fn board_size(grid: bool, n: u16) -> (u16, u16) {
    if grid {
        (4 * n + 5, 2 * n + 4)
    } else {
        (3 * n + 4, n + 3)
    }
}
