//! The Load tab: per agent, the 1/5/15-minute load figures (CPUs, like `/proc/loadavg`) and a
//! sparkline of the 1-minute figure over the samples so far; then the machine's state.

use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Sparkline};
use ratatui::Frame;

use kgames_uapi::agent::AgentKind;
use kgames_uapi::load::hundredths;

use super::{bold, indent, Fit, View};

/// Columns before the sparkline: name and the three figures.
const TEXT_W: u16 = 36;

fn fixed2(h: u64) -> String {
    format!("{}.{:02}", h / 100, h % 100)
}

fn yes_no(v: u8) -> &'static str {
    if v != 0 {
        "yes"
    } else {
        "no"
    }
}

/// Draws the tab (it does not scroll).
pub(super) fn draw(f: &mut Frame<'_>, area: Rect, v: &View<'_>) -> (Fit, String) {
    let m = v.model;
    let mut y = area.y;
    let bottom = area.y + area.height;
    let line = |f: &mut Frame<'_>, l: Line<'static>, y: &mut u16| {
        if *y < bottom {
            f.render_widget(
                Paragraph::new(l),
                Rect {
                    y: *y,
                    height: 1,
                    ..area
                },
            );
            *y += 1;
        }
    };
    line(
        f,
        Line::from(vec![
            bold(format!(
                "{:<10}{:>8}{:>8}{:>8}",
                "agent", "1 min", "5 min", "15 min"
            )),
            Span::raw("    1-minute load, one sample per second"),
        ]),
        &mut y,
    );
    let paired = m.state.map(|s| s.agents);
    for k in AgentKind::ALL {
        if y >= bottom {
            break;
        }
        let l = m.loads.map(|l| l[usize::from(k.id())]).unwrap_or_default();
        let off = paired.is_some_and(|p| p & (1 << k.id()) == 0);
        let style = if off {
            Style::default().fg(Color::DarkGray)
        } else {
            Style::default()
        };
        let text = format!(
            "{:<10}{:>8}{:>8}{:>8}",
            k.name(),
            fixed2(hundredths(l[0])),
            fixed2(hundredths(l[1])),
            fixed2(hundredths(l[2]))
        );
        let row = Rect {
            y,
            height: 1,
            ..area
        };
        f.render_widget(Paragraph::new(Span::styled(text, style)), row);
        let spark = indent(row, TEXT_W);
        let hist = &m.load_history[usize::from(k.id())];
        let n = usize::from(spark.width).min(hist.len());
        let data: Vec<u64> = hist.iter().skip(hist.len() - n).copied().collect();
        // Scaled to at least 0.10 CPU, so idle agents stay flat.
        let max = data.iter().copied().max().unwrap_or(0).max(10);
        f.render_widget(
            Sparkline::default()
                .data(&data)
                .max(max)
                .style(Style::default().fg(if off { Color::DarkGray } else { Color::Green })),
            spark,
        );
        y += 1;
    }
    if m.loads.is_none() {
        line(f, Line::raw("(no load sample yet)"), &mut y);
    }
    line(f, Line::raw(""), &mut y);
    match m.state {
        Some(s) => {
            line(
                f,
                Line::raw(format!(
                    "games {}  period {} ms  watchers {}  paused {}  stopped {}  always {}  seq {}",
                    s.games,
                    s.period_ms,
                    s.watchers,
                    yes_no(s.paused),
                    yes_no(s.stopped),
                    yes_no(s.always),
                    s.seq
                )),
                &mut y,
            );
            let names: Vec<&str> = AgentKind::ALL
                .iter()
                .filter(|k| s.agents & (1 << k.id()) != 0)
                .map(|k| k.name())
                .collect();
            line(
                f,
                Line::raw(format!("in the pairings: {}", names.join(" "))),
                &mut y,
            );
        }
        None => line(f, Line::raw("(no state sample)"), &mut y),
    }
    line(
        f,
        Line::raw(format!(
            "records {}  snapshots {}  lost {}  sequence gaps {}",
            m.records, m.snapshots, m.lost, m.gaps
        )),
        &mut y,
    );
    (Fit::default(), String::new())
}
