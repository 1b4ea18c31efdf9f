//! The Records tab: each game's moves so far in cell names, then the results per pairing.

use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use kgames_uapi::record::Record;

use super::games::{pairing, tag};
use super::{bold, position, Fit, View, O_COLOR, X_COLOR};
use crate::cells::moves_text;

/// One result as a letter: `O`, `X` or `D`.
fn result_span(state: u8) -> Span<'static> {
    match state {
        Record::O_WON => Span::styled("O", Style::default().fg(O_COLOR)),
        Record::X_WON => Span::styled("X", Style::default().fg(X_COLOR)),
        _ => Span::styled("D", Style::default().fg(Color::Yellow)),
    }
}

/// The moves of a game, wrapped to `width` columns after a prefix of `indent` columns.
fn move_lines(r: &Record, width: usize, indent: usize) -> Vec<String> {
    if r.move_count == 0 {
        return vec!["(no move yet)".into()];
    }
    let text = moves_text(r);
    let per_line = (width.saturating_sub(indent) / 6).max(1); // "B2 -> " is 6 columns
    let names: Vec<&str> = text.split(" -> ").collect();
    names
        .chunks(per_line)
        .enumerate()
        .map(|(i, c)| {
            let more = if (i + 1) * per_line < names.len() {
                " ->"
            } else {
                ""
            };
            format!("{}{more}", c.join(" -> "))
        })
        .collect()
}

/// Every line of the tab.
fn lines(v: &View<'_>, width: usize) -> Vec<Line<'static>> {
    let m = v.model;
    let mut out = vec![Line::from(bold(
        "Moves per game (cells: columns A-D left to right, rows 1-4 top to bottom)",
    ))];
    const INDENT: usize = 24;
    for g in m.games.values() {
        let r = &g.shown;
        let mut head = vec![Span::styled(
            format!("#{:<2} r{:<5} ", r.game, r.round),
            Style::default().add_modifier(Modifier::BOLD),
        )];
        head.extend(pairing(r));
        let used: usize = head.iter().map(|s| s.content.chars().count()).sum();
        head.push(Span::raw(" ".repeat(INDENT.saturating_sub(used))));
        let result = match r.state {
            Record::RUNNING => String::new(),
            Record::O_WON => format!("  O wins ({})", tag(r.o_agent)),
            Record::X_WON => format!("  X wins ({})", tag(r.x_agent)),
            _ => "  draw".into(),
        };
        for (i, text) in move_lines(r, width, INDENT).into_iter().enumerate() {
            let mut spans = if i == 0 {
                head.clone()
            } else {
                vec![Span::raw(" ".repeat(INDENT))]
            };
            spans.push(Span::raw(text));
            out.push(Line::from(spans));
        }
        if !result.is_empty() {
            if let Some(l) = out.last_mut() {
                l.spans
                    .push(Span::styled(result, Style::default().fg(Color::Green)));
            }
        }
    }
    out.push(Line::raw(""));
    out.push(Line::from(bold(
        "Results per pairing (O agent vs X agent): O wins, X wins, draws, latest last",
    )));
    out.push(Line::raw(format!(
        "{:<14}{:>7}{:>7}{:>7}  last",
        "pairing", "O won", "X won", "draws"
    )));
    if m.pairs.is_empty() {
        out.push(Line::raw("(no game has ended yet)"));
    }
    for (&(o, x), p) in &m.pairs {
        let mut spans = vec![
            Span::styled(format!("{:<4}", tag(o)), Style::default().fg(O_COLOR)),
            Span::raw(" vs "),
            Span::styled(format!("{:<6}", tag(x)), Style::default().fg(X_COLOR)),
            Span::raw(format!("{:>7}{:>7}{:>7}  ", p.o_wins, p.x_wins, p.draws)),
        ];
        for (i, s) in p.last.iter().enumerate() {
            if i > 0 {
                spans.push(Span::raw(" "));
            }
            spans.push(result_span(*s));
        }
        out.push(Line::from(spans));
    }
    out
}

/// Draws the tab; the scroll unit is one line.
pub(super) fn draw(f: &mut Frame<'_>, area: Rect, v: &View<'_>) -> (Fit, String) {
    let all = lines(v, usize::from(area.width));
    let page = usize::from(area.height);
    let max_scroll = all.len().saturating_sub(page);
    let first = v.control.scroll().min(max_scroll);
    let shown: Vec<Line<'static>> = all.iter().skip(first).take(page).cloned().collect();
    f.render_widget(Paragraph::new(shown), area);
    (
        Fit {
            page,
            max_scroll,
            cols: 0,
        },
        position("lines", first, page, all.len()),
    )
}
