//! The help box (`?`).

use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

const HELP: &[&str] = &[
    "q, Ctrl-Q, Ctrl-C  quit (root with --stop-on-quit: stop the games)",
    "Ctrl-P             root: pause/resume the module for every watcher;",
    "                   others and replays: freeze/unfreeze this display",
    "Tab, Shift-Tab     next/previous tab; 1 2 3: Games Records Load",
    "Up Down PgUp PgDn  scroll (Home/End: first/last)",
    "Left Right (h l)   select a game (its #id is shown reversed)",
    "a / A              root: the selected game's O / X policy, next of",
    "                   random nega rand mcts td mc (from its next round)",
    "R                  root: restart the games (KXO_IOC_RESTART), e.g. after",
    "                   a stop; others get EPERM, shown in the footer",
    "?, Esc             close this help",
    "",
    "Cells: columns A-D left to right, rows 1-4 top to bottom (B2 = cell 5).",
    "The last move is highlighted; O is cyan, X is red.",
    "lost: records the device dropped for this viewer (it was too slow);",
    "gaps: records missing between sequence numbers (a pause is not a gap).",
];

/// Draws the help centred on `area`.
pub(super) fn draw(f: &mut Frame<'_>, area: Rect) {
    let w = area.width.min(76);
    let h = area.height.min(HELP.len() as u16 + 2);
    let r = Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    };
    f.render_widget(Clear, r);
    let lines: Vec<Line<'static>> = HELP.iter().map(|s| Line::raw(*s)).collect();
    f.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" xo-user help ")
                .style(Style::default().fg(Color::White).bg(Color::Black)),
        ),
        r,
    );
}
