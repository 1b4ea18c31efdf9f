//! Drawing one frame: the board with coordinates (the cursor as `[ ]`, a selected chess piece
//! as `( )`, legal targets as `*` on request, the last move of each side highlighted), the
//! game panel (sides, side to move, discs or captures and check, last moves, the CPU
//! thinking), the message line, the input line and the footer of keys.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

use crate::clocks::clock_text;
use crate::game::State;
use crate::kind::Kind;
use crate::picture;
use kgames_client::Status;
use kgames_term::look::{Colors, Look};

/// The smallest terminal drawn in full.
pub const MIN_COLS: u16 = 60;
/// The smallest terminal drawn in full.
pub const MIN_ROWS: u16 = 16;

/// The spinner of the thinking indicator.
const SPIN: [char; 4] = ['|', '/', '-', '\\'];

/// What one frame shows.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    /// The game.
    pub st: &'a State,
    /// The input line.
    pub input: &'a str,
    /// The cursor: display column, display row.
    pub cursor: (u8, u8),
    /// Chess: the board index of the piece picked with Enter.
    pub selected: Option<usize>,
    /// The CPU is thinking (the spinner's frame).
    pub thinking: Option<usize>,
    /// Show the legal moves.
    pub show_legal: bool,
    /// The line's description (`/dev/chess, private game`).
    pub label: &'a str,
    /// Show the key help instead of the game panel.
    pub help: bool,
    /// Glyphs and colours ([`picture`] when both).
    pub look: Look,
    /// Looking back: `st` is the game after this many plies, not the game now.
    pub looking: Option<usize>,
    /// The time the person and the CPU spent in this game.
    pub clocks: (std::time::Duration, std::time::Duration),
}

const HUMAN_LAST: Style = Style::new().bg(Color::Cyan).fg(Color::Black);
const CPU_LAST: Style = Style::new().bg(Color::Magenta).fg(Color::Black);

/// The styles of the person's and the CPU's last moves: the picture's colours, the plain
/// look's, or (`NO_COLOR`) reverse video and underline.
fn last_styles(look: Look, kind: Kind) -> (Style, Style) {
    if look.colors == Colors::None {
        let m = |m| Style::new().add_modifier(m);
        return (
            m(Modifier::REVERSED),
            m(Modifier::UNDERLINED | Modifier::BOLD),
        );
    }
    if look.picture() {
        if let Some(s) = picture::last_styles(look, kind == Kind::Kxo) {
            return s;
        }
    }
    (HUMAN_LAST, CPU_LAST)
}

/// The cursor shows: no CPU move in flight, the game not over, not looking back.
pub fn cursor_shown(v: &View<'_>) -> bool {
    v.thinking.is_none() && v.st.result.is_none() && v.looking.is_none()
}

/// The board in the plain look: letters, the cursor `[ ]`, the picked piece `( )`, legal
/// targets `*` on request.
fn board_lines(v: &View<'_>) -> Vec<Line<'static>> {
    let st = v.st;
    let (human_last, cpu_last) = last_styles(v.look, v.st.kind);
    let n = st.n();
    let targets = if v.show_legal || v.selected.is_some() {
        st.legal_targets(v.selected)
    } else {
        Vec::new()
    };
    let mut lines = Vec::new();
    let mut head = String::from("  ");
    for c in 0..n {
        head.push_str(&format!(" {} ", st.col_label(c)));
    }
    lines.push(Line::from(head));
    for r in 0..n {
        let mut spans = vec![Span::raw(format!("{} ", st.row_label(r)))];
        for c in 0..n {
            let i = st.index(c, r);
            let mut ch = st.cell_char(i);
            if targets.contains(&i) && (ch == '.' || ch == ' ') {
                ch = '*';
            }
            let (l, rt) = if Some(i) == v.selected {
                ('(', ')')
            } else if (c, r) == v.cursor && cursor_shown(v) {
                ('[', ']')
            } else {
                (' ', ' ')
            };
            let mut style = Style::new();
            if st.last_cpu.as_ref().is_some_and(|l| l.cells.contains(&i)) {
                style = cpu_last;
            }
            if st.last_human.as_ref().is_some_and(|l| l.cells.contains(&i)) {
                style = human_last;
            }
            if targets.contains(&i) {
                style = style.add_modifier(Modifier::UNDERLINED);
            }
            spans.push(Span::styled(format!("{l}{ch}{rt}"), style));
        }
        lines.push(Line::from(spans));
    }
    lines
}

fn panel_lines(v: &View<'_>) -> Vec<Line<'static>> {
    let st = v.st;
    let k = st.kind;
    let cpu = k.other(st.human);
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let mut l = vec![Line::from(format!(
        "You: {}   CPU: {}",
        k.side_name(st.human),
        k.side_name(cpu)
    ))];
    match (&st.result, v.thinking) {
        _ if v.looking.is_some() => l.push(Line::styled(
            format!(
                "Looking back: after {} of {} plies (< > step, Esc returns)",
                v.looking.unwrap_or(0),
                st.moves.len()
            ),
            bold.fg(Color::Yellow),
        )),
        (Some(r), _) => l.push(Line::styled(
            format!("Game over: {r}"),
            bold.fg(Color::Yellow),
        )),
        (None, Some(frame)) => l.push(Line::styled(
            format!("CPU thinking {} (Esc interrupts)", SPIN[frame % SPIN.len()]),
            bold,
        )),
        (None, None) if st.to_move == st.human => {
            l.push(Line::styled(
                format!("{} to move: you", k.side_name(st.to_move)),
                bold,
            ));
            if k == Kind::Reversi && st.legal.is_empty() {
                l.push(Line::styled(
                    "You have no move: p passes",
                    bold.fg(Color::Yellow),
                ));
            }
        }
        (None, None) => l.push(Line::from(format!(
            "{} to move: the CPU",
            k.side_name(st.to_move)
        ))),
    }
    l.push(Line::from(format!(
        "Clock: you {}  CPU {}",
        clock_text(v.clocks.0),
        clock_text(v.clocks.1)
    )));
    if let Some((x, o)) = st.discs() {
        l.push(Line::from(format!("Discs: X {x}  O {o}")));
        l.push(share_bar(v.look, (x as u32, 'X'), (o as u32, 'O')));
    }
    if let Some((w, b)) = st.material() {
        l.push(Line::from(format!("Material: white {w}  black {b}")));
        l.push(share_bar(v.look, (w, 'W'), (b, 'B')));
    }
    if let Some((w, b)) = st.captured() {
        l.push(Line::from(format!("White took: {w}")));
        l.push(Line::from(format!("Black took: {b}")));
        if st.in_check() && st.result.is_none() {
            l.push(Line::styled(
                format!("CHECK: {} is in check", k.side_name(st.to_move)),
                bold.fg(Color::Red),
            ));
        }
    }
    if k == Kind::Kxo {
        let status = Status::parse(&st.status);
        let get = |key: &str| status.get(key).unwrap_or("?").to_string();
        l.push(Line::from(format!(
            "{0} x {0}, {0} in a row; playouts {1}, workers {2}",
            st.n(),
            get("playouts"),
            get("workers")
        )));
    }
    let last = |who: &str, x: &Option<crate::game::Last>, style: Style| {
        Line::from(vec![
            Span::raw(format!("Last {who}: ")),
            match x {
                Some(m) => Span::styled(m.text.clone(), style),
                None => Span::raw("-"),
            },
        ])
    };
    let (human_last, cpu_last) = last_styles(v.look, v.st.kind);
    l.push(last("you", &st.last_human, human_last));
    l.push(last("CPU", &st.last_cpu, cpu_last));
    if v.looking.is_none() {
        l.extend(search_line(st).map(Line::from));
    }
    if v.show_legal {
        let moves = if st.legal.is_empty() {
            "none".to_string()
        } else {
            st.legal.join(if k == Kind::Kxo { ", " } else { " " })
        };
        l.push(Line::from(format!("Legal: {moves}")));
    }
    l
}

/// The width of the discs' and the material's bar.
const BAR: u32 = 24;

/// A bar split between two sides by their counts: in a picture, the black side's share in
/// black and the white side's in white (X and black are dark, O and white light); otherwise
/// the sides' letters (`XXXXXXXXOOOO...`).
fn share_bar(look: Look, (a, a_side): (u32, char), (b, b_side): (u32, char)) -> Line<'static> {
    let total = a.saturating_add(b).max(1);
    let left = (a * BAR + total / 2) / total;
    let right = BAR - left;
    let part = |n: u32, ch: char| ch.to_string().repeat(n as usize);
    match picture::Palette::of(look.colors).filter(|_| look.picture()) {
        Some(p) => {
            let shade = |side: char| {
                if matches!(side, 'X' | 'B') {
                    p.ink
                } else {
                    p.white
                }
            };
            Line::from(vec![
                Span::styled(part(left, ' '), Style::new().bg(shade(a_side))),
                Span::styled(part(right, ' '), Style::new().bg(shade(b_side))),
            ])
        }
        None => Line::from(format!("{}{}", part(left, a_side), part(right, b_side))),
    }
}

/// `1234567` as `1,234,567`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// The CPU's last search as `09` reports it (reversi, chess), the score from the person's
/// side: `CPU: depth 9, 120,345 nodes, 95 ms; you -0.35` (chess in pawns), `... you -4 discs`
/// or `you +2 discs (solved)` (reversi).
pub fn search_line(st: &State) -> Option<String> {
    let status = Status::parse(&st.status);
    let depth: u32 = status.number("depth")?;
    let nodes: u64 = status.number("nodes")?;
    let ms: u64 = status.number("ms")?;
    let you = match st.kind {
        Kind::Chess => {
            // Centipawns for the CPU, the side that moved; a mate is within 1000 of 30000.
            let cp: i32 = status.number("score")?;
            let mine = -cp;
            if mine.abs() >= 29_000 {
                let moves = (30_000 - mine.abs() + 1) / 2;
                let who = if mine > 0 {
                    "you mate"
                } else {
                    "the CPU mates"
                };
                format!("{who} in {moves}")
            } else {
                let sign = if mine < 0 { '-' } else { '+' };
                let a = mine.abs();
                format!("you {sign}{}.{:02}", a / 100, a % 100)
            }
        }
        Kind::Reversi => {
            let (discs, exact) = status.disc_score()?;
            let solved = if exact { " (solved)" } else { "" };
            format!("you {:+} discs{solved}", -discs)
        }
        Kind::Kxo => return None,
    };
    Some(format!(
        "CPU: depth {depth}, {} nodes, {ms} ms; {you}",
        grouped(nodes)
    ))
}

/// The move list in its box: the latest moves (or, looking back, the move looked at) in view,
/// the move looked at in reverse video.
fn render_moves(f: &mut Frame<'_>, v: &View<'_>, area: Rect) {
    let st = v.st;
    let lines = st.move_lines();
    let rows = usize::from(area.height.saturating_sub(2)).max(1);
    // The ply to show: the last one, or the last one played before the position looked at
    // (none at the start).
    let focus = v.looking.map_or(st.moves.len(), |k| k).checked_sub(1);
    let focus_line = lines
        .iter()
        .position(|l| focus.is_some_and(|f| l.plies.contains(&f)))
        .unwrap_or(0);
    let first = (focus_line + 1).saturating_sub(rows);
    let shown: Vec<Line<'static>> = lines
        .iter()
        .skip(first)
        .take(rows)
        .map(|l| {
            let mut spans = vec![Span::styled(
                format!("{:>5}", l.label),
                Style::new().add_modifier(Modifier::DIM),
            )];
            for &i in &l.plies {
                spans.push(Span::raw(" "));
                let text = st.moves.get(i).cloned().unwrap_or_default();
                let style = if v.looking.is_some() && Some(i) == focus {
                    Style::new().add_modifier(Modifier::REVERSED)
                } else {
                    Style::new()
                };
                spans.push(Span::styled(format!("{text:<7}"), style));
            }
            Line::from(spans)
        })
        .collect();
    let title = format!(" moves ({}) ", st.moves.len());
    f.render_widget(
        Paragraph::new(shown).block(Block::default().borders(Borders::ALL).title(title)),
        area,
    );
}

const HELP: &str = "\
Type a move and Enter:
  reversi d3 or 3 2; chess e2e4, e7e8q, O-O,
  WPe2-e4; kxo C R (column row from 0)
Or arrows to move the cursor [ ], Enter to
play there (chess: Enter on the piece, then
Enter on its target), or click the squares.
With an empty input line:
  l legal moves   p pass (reversi)
  < > look back and forth through the moves
  r resign (chess)  n new game
  s switch colour   t switch game
  q quit   ? this help
Esc or Ctrl-C interrupts the CPU's move.
Any key closes this help.";

fn footer(v: &View<'_>) -> String {
    if v.thinking.is_some() {
        return "CPU thinking: Esc or Ctrl-C interrupts".into();
    }
    if v.st.result.is_some() {
        return "n new game  s colour  t game  q quit".into();
    }
    let k = match v.st.kind {
        Kind::Reversi => "p pass  ",
        Kind::Chess => "r resign  ",
        Kind::Kxo => "",
    };
    format!("Enter play  arrows cursor  l legal  {k}n new  s colour  t game  ? help  q quit")
}

/// The smallest terminal for the compact layout: the board's box, a line of news and the
/// input line.
pub fn compact_size(v: &View<'_>) -> (u16, u16) {
    let (w, h) = picture::board_size(false, u16::from(v.st.n()));
    (w.max(24), h + 2)
}

/// The compact layout, below [`MIN_COLS`] x [`MIN_ROWS`]: the board, one line (the CPU
/// thinking, the latest message, or whose move it is) and the input line; no panel.
fn draw_compact(f: &mut Frame<'_>, v: &View<'_>, area: Rect) {
    let (_, board_h) = picture::board_size(false, u16::from(v.st.n()));
    let rows = Layout::vertical([
        Constraint::Length(board_h),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .split(area);
    let (board_w, _) = picture::board_size(false, u16::from(v.st.n()));
    let lines = picture::board_lines(v, false).unwrap_or_else(|| board_lines(v));
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" board ")),
        Rect {
            width: board_w.min(rows[0].width),
            ..rows[0]
        },
    );
    let news = match (&v.st.result, v.thinking) {
        (_, Some(_)) => "CPU thinking (Esc interrupts)".to_string(),
        (Some(r), _) => r.clone(),
        _ if !v.st.message.is_empty() => v.st.message.clone(),
        _ => format!("{} to move", v.st.kind.side_name(v.st.to_move)),
    };
    f.render_widget(Paragraph::new(news), rows[1]);
    f.render_widget(Paragraph::new(format!("> {}_", v.input)), rows[2]);
}

/// Where a frame's parts go: the five rows (title, board and panel, message, input, footer),
/// the board's and the panel's columns, the board's box and whether the N x N picture has its
/// grid lines.
struct Regions {
    rows: std::rc::Rc<[Rect]>,
    cols: std::rc::Rc<[Rect]>,
    board: Rect,
    grid: bool,
}

fn frame_layout(area: Rect, v: &View<'_>) -> Regions {
    let n = u16::from(v.st.n());
    // The N x N picture's grid lines when they leave room for the five lines around the board.
    let grid = v.look.picture()
        && v.st.kind == Kind::Kxo
        && picture::board_size(true, n).1 + 5 <= area.height;
    let (board_w, board_h) = picture::board_size(grid, n);
    let rows = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(board_h),
        Constraint::Length(2),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .split(area);
    let cols =
        Layout::horizontal([Constraint::Length(board_w), Constraint::Min(20)]).split(rows[1]);
    let board = Rect {
        height: board_h.min(cols[0].height),
        ..cols[0]
    };
    Regions {
        rows,
        cols,
        board,
        grid,
    }
}

/// The board square (display column, row) at screen position `x`, `y` of a frame of `area`,
/// if there is one there (a mouse click).
pub fn board_cell(area: Rect, v: &View<'_>, x: u16, y: u16) -> Option<(u8, u8)> {
    let n = u16::from(v.st.n());
    let (board, grid) = if area.width < MIN_COLS || area.height < MIN_ROWS {
        // The compact layout's board, at the top left.
        let (w, h) = compact_size(v);
        if area.width < w || area.height < h {
            return None;
        }
        let (bw, bh) = picture::board_size(false, n);
        (Rect::new(area.x, area.y, bw, bh), false)
    } else {
        let r = frame_layout(area, v);
        (r.board, r.grid)
    };
    // Inside the box: the column labels on line 0; the squares three columns wide after a
    // two-column row label, or, with grid lines, after "R │" in four-column cells, on every
    // other line below the top rule.
    if x >= board.right().saturating_sub(1) || y >= board.bottom().saturating_sub(1) {
        return None;
    }
    let dx = x.checked_sub(board.x + 1)?;
    let dy = y.checked_sub(board.y + 1)?;
    let (c, r) = if grid {
        let line = dy.checked_sub(2)?;
        let col = dx.checked_sub(3)?;
        if line % 2 == 1 || col % 4 == 3 {
            return None;
        }
        (col / 4, line / 2)
    } else {
        (dx.checked_sub(2)? / 3, dy.checked_sub(1)?)
    };
    (c < n && r < n).then_some((c as u8, r as u8))
}

/// Draws the frame.
pub fn draw(f: &mut Frame<'_>, v: &View<'_>) {
    let area = f.area();
    if area.width < MIN_COLS || area.height < MIN_ROWS {
        let (w, h) = compact_size(v);
        if area.width >= w && area.height >= h {
            draw_compact(f, v, area);
        } else {
            let msg = format!(
                "terminal too small: {}x{}, play needs {w}x{h} (q quits)",
                area.width, area.height
            );
            f.render_widget(Paragraph::new(msg).wrap(Wrap { trim: true }), area);
        }
        return;
    }
    let Regions {
        rows,
        cols,
        board,
        grid,
    } = frame_layout(area, v);
    let title = format!(
        " play {}: you {} vs the CPU ({})",
        v.st.kind,
        v.st.kind.side_name(v.st.human),
        v.label
    );
    f.render_widget(
        Paragraph::new(title).style(Style::new().add_modifier(Modifier::BOLD)),
        rows[0],
    );
    let lines = picture::board_lines(v, grid).unwrap_or_else(|| board_lines(v));
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" board ")),
        board,
    );
    let (title, body) = if v.help {
        (
            " keys ",
            HELP.lines().map(|s| Line::from(s.to_string())).collect(),
        )
    } else {
        (" game ", panel_lines(v))
    };
    // The move list below the game panel when there are moves and room for three of them.
    let panel_h = u16::try_from(body.len())
        .unwrap_or(u16::MAX)
        .saturating_add(2);
    let (panel, moves) = if !v.help && !v.st.moves.is_empty() && cols[1].height >= panel_h + 5 {
        let parts =
            Layout::vertical([Constraint::Length(panel_h), Constraint::Min(5)]).split(cols[1]);
        (parts[0], Some(parts[1]))
    } else {
        (cols[1], None)
    };
    f.render_widget(
        Paragraph::new(body)
            .wrap(Wrap { trim: false })
            .block(Block::default().borders(Borders::ALL).title(title)),
        panel,
    );
    if let Some(area) = moves {
        render_moves(f, v, area);
    }
    f.render_widget(
        Paragraph::new(v.st.message.clone()).wrap(Wrap { trim: true }),
        rows[2],
    );
    f.render_widget(Paragraph::new(format!("> {}_", v.input)), rows[3]);
    f.render_widget(
        Paragraph::new(footer(v)).style(Style::new().add_modifier(Modifier::REVERSED)),
        rows[4],
    );
}
