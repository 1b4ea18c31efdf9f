//! Drawing one frame: a header line (time, rate, lost records, pause state, the machine), the
//! tabs, the tab's body, the footer with the keys, and the help on top when asked for. Below
//! [`MIN_W`] x [`MIN_H`] only a "terminal too small" line is drawn.

mod games;
mod help;
mod load;
mod records;

use std::time::Duration;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Tabs, Wrap};
use ratatui::Frame;

use crate::control::{Control, Role, Tab};
use crate::model::Model;

pub use games::{COMPACT_H, PANEL_H, PANEL_W};

/// The smallest terminal drawn: one board with the header, tabs and footer.
pub const MIN_W: u16 = 32;
/// See [`MIN_W`].
pub const MIN_H: u16 = 13;

pub use kgames_term::look::{O_COLOR, X_COLOR};

/// Everything a frame shows.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    /// The state shown (the frozen copy while frozen).
    pub model: &'a Model,
    /// Tab, scroll, pause state, help.
    pub control: &'a Control,
    /// The wall-clock time, `HH:MM:SS UTC`.
    pub clock: &'a str,
    /// Time since the start (for the rate).
    pub now: Duration,
    /// Where the stream comes from (`/dev/kxo`, `replay FILE x2`).
    pub source: &'a str,
    /// The latest notice (what an ioctl did or why it failed), if any.
    pub notice: Option<&'a Notice>,
}

/// A status message shown in the footer for a while: what a control key did, or why it
/// failed (in red).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The message.
    pub text: String,
    /// A failure (red) rather than a confirmation.
    pub error: bool,
}

/// What the draw learned about scrolling: rows per page and the largest offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fit {
    /// Rows (board rows or lines) that fit.
    pub page: usize,
    /// The largest useful scroll offset.
    pub max_scroll: usize,
    /// On the Games tab: boards per row (0 on the other tabs).
    pub cols: usize,
}

/// A span in a bold style.
fn bold(s: impl Into<String>) -> Span<'static> {
    Span::styled(s.into(), Style::default().add_modifier(Modifier::BOLD))
}

/// A count that is red when not zero (lost records are never hidden).
fn alarm(label: &str, n: u64) -> Span<'static> {
    let style = if n > 0 {
        Style::default().fg(Color::White).bg(Color::Red)
    } else {
        Style::default()
    };
    Span::styled(format!("{label} {n}"), style)
}

fn header(v: &View<'_>) -> Line<'static> {
    let m = v.model;
    let sep = || Span::raw("  ");
    let mut spans = vec![
        bold(v.clock.to_string()),
        sep(),
        alarm("lost", m.lost),
        Span::raw(" "),
        alarm("gaps", m.gaps),
        sep(),
        Span::raw(format!("{} rec/s", m.rate(v.now))),
        sep(),
    ];
    let c = v.control;
    let (word, style) = if c.module_paused {
        ("PAUSED (module)", Color::Yellow)
    } else if c.frozen {
        ("FROZEN (display)", Color::Yellow)
    } else if m.replay_ended {
        ("replay ended", Color::Magenta)
    } else if c.role == Role::Replay {
        ("replaying", Color::Green)
    } else {
        ("live", Color::Green)
    };
    spans.push(Span::styled(
        word,
        Style::default().fg(Color::Black).bg(style),
    ));
    if let Some(s) = m.state {
        spans.push(sep());
        spans.push(Span::raw(format!(
            "{} games {} ms  {} watchers{}",
            s.games,
            s.period_ms,
            s.watchers,
            if s.stopped != 0 { "  STOPPED" } else { "" }
        )));
    }
    spans.push(sep());
    spans.push(Span::styled(
        v.source.to_string(),
        Style::default().fg(Color::DarkGray),
    ));
    Line::from(spans)
}

fn tabs(c: &Control) -> Tabs<'static> {
    let titles: Vec<Line<'static>> = Tab::ALL
        .iter()
        .map(|t| Line::from(format!("{} {}", t.index() + 1, t.title())))
        .collect();
    Tabs::new(titles)
        .select(c.tab.index())
        .highlight_style(Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD))
}

/// The footer: the notice, if any, else the main keys.
fn footer(notice: Option<&Notice>) -> Line<'static> {
    if let Some(n) = notice {
        let style = if n.error {
            Style::default().fg(Color::White).bg(Color::Red)
        } else {
            Style::default().fg(Color::Black).bg(Color::Green)
        };
        return Line::from(vec![
            Span::styled(n.text.clone(), style),
            Span::raw("  ? help"),
        ]);
    }
    let key = |k: &str| Span::styled(k.to_string(), Style::default().fg(Color::Yellow));
    Line::from(vec![
        key("q"),
        Span::raw(" quit  "),
        key("^P"),
        Span::raw(" pause  "),
        key("Tab 1-3"),
        Span::raw(" tabs  "),
        key("↑↓ PgUp PgDn"),
        Span::raw(" scroll  "),
        key("?"),
        Span::raw(" help"),
    ])
}

/// Draws the frame; returns the scroll geometry of the tab shown.
pub fn draw(f: &mut Frame<'_>, v: &View<'_>) -> Fit {
    let area = f.area();
    if area.width < MIN_W || area.height < MIN_H {
        let msg = format!(
            "terminal too small: {}x{}, xo-user needs at least {MIN_W}x{MIN_H} (q quits)",
            area.width, area.height
        );
        f.render_widget(
            Paragraph::new(msg)
                .style(Style::default().fg(Color::Yellow))
                .wrap(Wrap { trim: true }),
            area,
        );
        return Fit::default();
    }
    let [head, tab_row, body, foot] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(area);
    f.render_widget(Paragraph::new(header(v)), head);
    f.render_widget(tabs(v.control), tab_row);
    let (fit, position) = match v.control.tab {
        Tab::Games => games::draw(f, body, v),
        Tab::Records => records::draw(f, body, v),
        Tab::Load => load::draw(f, body, v),
    };
    f.render_widget(Paragraph::new(footer(v.notice)), foot);
    // The scroll position, right-aligned over the end of the keys when narrow.
    if !position.is_empty() && v.notice.is_none() {
        let w = (position.chars().count() as u16 + 1).min(foot.width);
        let r = Rect {
            x: foot.x + foot.width - w,
            width: w,
            ..foot
        };
        f.render_widget(
            Paragraph::new(format!(" {position}")).style(Style::default().fg(Color::Cyan)),
            r,
        );
    }
    if v.control.help {
        help::draw(f, area);
    }
    fit
}

/// `first-last of total` for a scrolled list of `total` items showing `shown` from `first`.
fn position(what: &str, first: usize, shown: usize, total: usize) -> String {
    if total == 0 {
        String::new()
    } else {
        let last = (first + shown).min(total);
        format!("{what} {}-{last} of {total}", (first + 1).min(last))
    }
}

/// The area of `r` less `n` columns on the left.
fn indent(r: Rect, n: u16) -> Rect {
    Rect {
        x: r.x.saturating_add(n),
        width: r.width.saturating_sub(n),
        ..r
    }
}
