//! Drawing one frame: the board with coordinates (the cursor as `[ ]`, a selected chess piece
//! as `( )`, legal targets as `*` on request, the last move of each side highlighted), the
//! game panel (sides, side to move, discs or captures and check, last moves, the CPU
//! thinking), the message line, the input line and the footer of keys.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

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
            } else if (c, r) == v.cursor && v.thinking.is_none() && st.result.is_none() {
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
    if let Some((x, o)) = st.discs() {
        l.push(Line::from(format!("Discs: X {x}  O {o}")));
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

const HELP: &str = "\
Type a move and Enter:
  reversi d3 or 3 2; chess e2e4, e7e8q, O-O,
  WPe2-e4; kxo C R (column row from 0)
Or arrows to move the cursor [ ], Enter to
play there (chess: Enter on the piece, then
Enter on its target).
With an empty input line:
  l legal moves   p pass (reversi)
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

/// Draws the frame.
pub fn draw(f: &mut Frame<'_>, v: &View<'_>) {
    let area = f.area();
    if area.width < MIN_COLS || area.height < MIN_ROWS {
        let msg = format!(
            "terminal too small: {}x{}, play needs {MIN_COLS}x{MIN_ROWS} (q quits)",
            area.width, area.height
        );
        f.render_widget(Paragraph::new(msg).wrap(Wrap { trim: true }), area);
        return;
    }
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
    let cols =
        Layout::horizontal([Constraint::Length(board_w), Constraint::Min(20)]).split(rows[1]);
    let board = Rect {
        height: board_h.min(cols[0].height),
        ..cols[0]
    };
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
    f.render_widget(
        Paragraph::new(body)
            .wrap(Wrap { trim: false })
            .block(Block::default().borders(Borders::ALL).title(title)),
        cols[1],
    );
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
