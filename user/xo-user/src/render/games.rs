//! The Games tab: one panel per game in a grid, as many per row as fit.
//!
//! ```text
//! #3 r12 MCTS vs NEGA
//!    A   B   C   D
//!  ┌───┬───┬───┬───┐
//! 1│ O │   │ X │   │
//!  ├───┼───┼───┼───┤
//! 2│   │ O │   │   │
//!  ├───┼───┼───┼───┤
//! 3│   │   │ X │   │
//!  ├───┼───┼───┼───┤
//! 4│   │   │   │   │
//!  └───┴───┴───┴───┘
//! 5 moves, last B2
//! policy mcts:random
//! ```
//!
//! (13 rows; the compact panel below has 10.)
//!
//! The last line is the slot's pairing policy (`KXO_IOC_STATE`'s `pairings`: O's then X's
//! choice, `random` for a side drawn each round), dim while it is `random:random`, yellow
//! otherwise; without a state sample it is left blank. The selected game's title is shown
//! in reverse video.
//!
//! When the full panels would not show every row of boards, the compact panel (no rules
//! between the board's rows, 10 rows) is used.

use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use kgames_uapi::agent::AgentKind;
use kgames_uapi::pairing::{side_name, RANDOM};
use kgames_uapi::record::Record;

use super::{position, Fit, View, O_COLOR, X_COLOR};
use crate::cells::{cell_name, last_move, mark, Mark, SIDE};
use crate::model::GameView;

/// Columns of one panel, with its gap.
pub const PANEL_W: u16 = 22;
/// Rows of one panel.
pub const PANEL_H: u16 = 13;
/// Rows of one compact panel (no rules between the board's rows), used when the full panels
/// would not show every row of boards.
pub const COMPACT_H: u16 = 10;

/// The pairing policy of game slot `game` from the latest state sample: `[O, X]`, agent
/// ids or `pairing::RANDOM` (`None` without a sample, or for a slot beyond its games).
pub fn policy(v: &View<'_>, game: u16) -> Option<[u8; 2]> {
    let s = v.model.state?;
    (u32::from(game) < s.games)
        .then(|| s.pairings.get(usize::from(game)).copied())
        .flatten()
}

/// `policy mcts:random`, dim while both sides are drawn.
fn policy_line(p: Option<[u8; 2]>) -> Line<'static> {
    let Some([o, x]) = p else {
        return Line::raw("");
    };
    let color = if [o, x] == [RANDOM, RANDOM] {
        Color::DarkGray
    } else {
        Color::Yellow
    };
    Line::styled(
        format!("policy {}:{}", side_name(o), side_name(x)),
        Style::default().fg(color),
    )
}

/// The four-letter tag of an agent id (`?` for an unknown id).
pub(super) fn tag(id: u8) -> &'static str {
    AgentKind::from_id(id).map_or("?", AgentKind::tag)
}

/// `MCTS vs NEGA`, each in its side's colour.
pub(super) fn pairing(r: &Record) -> Vec<Span<'static>> {
    vec![
        Span::styled(tag(r.o_agent), Style::default().fg(O_COLOR)),
        Span::raw(" vs "),
        Span::styled(tag(r.x_agent), Style::default().fg(X_COLOR)),
    ]
}

fn rule(left: char, mid: char, right: char) -> Line<'static> {
    let mut s = String::from(" ");
    s.push(left);
    for c in 0..SIDE {
        s.push_str("───");
        s.push(if c + 1 == SIDE { right } else { mid });
    }
    Line::raw(s)
}

fn cell_span(r: &Record, i: u8) -> Span<'static> {
    let (text, color) = match mark(r.board, i) {
        Mark::Empty => ("   ", Color::Reset),
        Mark::O => (" O ", O_COLOR),
        Mark::X => (" X ", X_COLOR),
        Mark::Bad => (" ? ", Color::Magenta),
    };
    let mut style = Style::default().fg(color).add_modifier(Modifier::BOLD);
    if last_move(r) == Some(i) {
        style = style.bg(Color::Yellow).fg(Color::Black);
    }
    Span::styled(text, style)
}

fn status(g: &GameView) -> Line<'static> {
    let r = &g.shown;
    let won = |side: &str, id: u8, color: Color| {
        Span::styled(
            format!("{side} wins: {}", tag(id)),
            Style::default().fg(color).add_modifier(Modifier::BOLD),
        )
    };
    let mut spans = vec![Span::raw(format!("{} moves", r.move_count))];
    match r.state {
        Record::RUNNING => {
            if let Some(c) = last_move(r) {
                spans.push(Span::raw(format!(", last {}", cell_name(c))));
            }
        }
        Record::O_WON => spans = vec![won("O", r.o_agent, O_COLOR)],
        Record::X_WON => spans = vec![won("X", r.x_agent, X_COLOR)],
        _ => {
            spans = vec![Span::styled(
                "draw",
                Style::default()
                    .fg(Color::Yellow)
                    .add_modifier(Modifier::BOLD),
            )]
        }
    }
    if r.state != Record::RUNNING {
        spans.push(Span::raw(format!(" ({})", r.move_count)));
    }
    Line::from(spans)
}

/// The lines of one game's panel.
fn panel(
    g: &GameView,
    compact: bool,
    policy: Option<[u8; 2]>,
    selected: bool,
) -> Vec<Line<'static>> {
    let r = &g.shown;
    let mut id_style = Style::default().add_modifier(Modifier::BOLD);
    if selected {
        id_style = id_style.add_modifier(Modifier::REVERSED);
    }
    let mut title = vec![
        Span::styled(format!("#{} r{}", r.game, r.round), id_style),
        Span::raw(" "),
    ];
    title.extend(pairing(r));
    let mut lines = vec![Line::from(title), Line::raw("   A   B   C   D")];
    lines.push(rule('┌', '┬', '┐'));
    for row in 0..SIDE {
        let mut spans = vec![Span::raw(format!("{}│", row + 1))];
        for col in 0..SIDE {
            spans.push(cell_span(r, row * SIDE + col));
            spans.push(Span::raw("│"));
        }
        lines.push(Line::from(spans));
        if row + 1 == SIDE {
            lines.push(rule('└', '┴', '┘'));
        } else if !compact {
            lines.push(rule('├', '┼', '┤'));
        }
    }
    lines.push(status(g));
    lines.push(policy_line(policy));
    lines
}

/// Draws the grid; the scroll unit is one row of boards.
pub(super) fn draw(f: &mut Frame<'_>, area: Rect, v: &View<'_>) -> (Fit, String) {
    let games: Vec<&GameView> = v.model.games.values().collect();
    if games.is_empty() {
        f.render_widget(
            Paragraph::new(format!("waiting for records from {} ...", v.source)),
            area,
        );
        return (Fit::default(), String::new());
    }
    let cols = usize::from((area.width / PANEL_W).max(1));
    let rows = games.len().div_ceil(cols);
    let compact = usize::from(area.height / PANEL_H) < rows;
    let panel_h = if compact { COMPACT_H } else { PANEL_H };
    let rows_fit = usize::from((area.height / panel_h).max(1));
    let max_scroll = rows.saturating_sub(rows_fit);
    let first = v.control.scroll().min(max_scroll);
    for (slot, g) in games
        .iter()
        .skip(first * cols)
        .take(rows_fit * cols)
        .enumerate()
    {
        let (row, col) = ((slot / cols) as u16, (slot % cols) as u16);
        let r = Rect {
            x: area.x + col * PANEL_W,
            y: area.y + row * panel_h,
            width: PANEL_W.min(area.width),
            height: panel_h.min(area.height.saturating_sub(row * panel_h)),
        };
        let index = first * cols + slot;
        let lines = panel(
            g,
            compact,
            policy(v, g.shown.game),
            index == v.control.selected,
        );
        f.render_widget(Paragraph::new(lines), r);
    }
    let shown = (rows_fit * cols).min(games.len().saturating_sub(first * cols));
    (
        Fit {
            page: rows_fit,
            max_scroll,
            cols,
        },
        position("boards", first * cols, shown, games.len()),
    )
}
