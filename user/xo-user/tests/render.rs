//! Rendering tests: a recorded stream (synthetic, written and read back through the recording
//! format) drawn with ratatui's test backend at several sizes.

use std::time::Duration;

use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use ratatui::Terminal;

use kgames_uapi::agent::AgentKind;
use kgames_uapi::record::Record;
use xo_user::cells::{cell_name, last_move, moves_text};
use xo_user::control::{Control, Role};
use xo_user::model::Model;
use xo_user::msg::Msg;
use xo_user::render::{self, Fit, Notice, View};
use xo_user::{recfile, synth};

const CLOCK: &str = "12:34:56 UTC";

/// The model after `secs` seconds of a recorded 9-game stream.
fn recorded(secs: u64) -> Model {
    let spec = synth::Spec {
        games: 9,
        period: Duration::from_millis(100),
        length: Duration::from_secs(secs),
        seed: 3,
    };
    let bytes = synth::recording(spec);
    let mut model = Model::new();
    for m in recfile::read_all(&bytes[..]).unwrap() {
        let at = match &m {
            Msg::Records { at, .. } | Msg::Loads { at, .. } | Msg::State { at, .. } => *at,
            _ => Duration::ZERO,
        };
        model.apply(&m, at);
    }
    model
}

fn draw(model: &Model, control: &Control, w: u16, h: u16) -> (Buffer, Fit) {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    let view = View {
        model,
        control,
        clock: CLOCK,
        now: Duration::from_secs(30),
        source: "/dev/kxo",
        notice: None,
    };
    let mut fit = Fit::default();
    t.draw(|f| fit = render::draw(f, &view)).unwrap();
    (t.backend().buffer().clone(), fit)
}

fn text(b: &Buffer) -> String {
    let a = b.area;
    let mut s = String::new();
    for y in 0..a.height {
        for x in 0..a.width {
            s.push_str(b[(x, y)].symbol());
        }
        s.push('\n');
    }
    s
}

fn live() -> Control {
    Control::new(Role::User, false)
}

fn pairing(r: &Record) -> String {
    let tag = |id| AgentKind::from_id(id).unwrap().tag();
    format!("{} vs {}", tag(r.o_agent), tag(r.x_agent))
}

#[test]
fn games_tab_80x24_shows_two_rows_of_compact_boards() {
    let m = recorded(20);
    let (b, fit) = draw(&m, &live(), 80, 24);
    let s = text(&b);
    let first = s.lines().next().unwrap();
    assert!(first.starts_with(CLOCK), "{s}");
    assert!(
        first.starts_with(&format!("{CLOCK}  lost 0 gaps 0  ")),
        "{first}"
    );
    assert!(first.contains("rec/s"));
    assert!(first.contains("9 games 100 ms"), "{first}");
    for tab in ["1 Games", "2 Records", "3 Load"] {
        assert!(s.lines().nth(1).unwrap().contains(tab), "{s}");
    }
    assert_eq!(s.matches("┌───┬───┬───┬───┐").count(), 6, "{s}");
    assert_eq!(s.matches("├───┼").count(), 0, "compact panels");
    for g in m.games.values().take(6) {
        let r = &g.shown;
        assert!(
            s.contains(&format!("#{} r{} {}", r.game, r.round, pairing(r))),
            "{s}"
        );
    }
    assert!(s.contains("boards 1-6 of 9"), "{s}");
    assert!(s.lines().last().unwrap().starts_with("q quit"));
    assert_eq!(
        fit,
        Fit {
            page: 2,
            max_scroll: 1,
            cols: 3
        }
    );
}

#[test]
fn games_tab_200x60_shows_every_board_in_full() {
    let m = recorded(20);
    let (b, fit) = draw(&m, &live(), 200, 60);
    let s = text(&b);
    assert_eq!(s.matches("┌───┬───┬───┬───┐").count(), 9, "{s}");
    assert_eq!(
        s.matches("├───┼───┼───┼───┤").count(),
        27,
        "3 inner rules per board"
    );
    assert!(s.contains("boards 1-9 of 9"));
    assert_eq!(fit.max_scroll, 0);
    // Each board: its cells, coloured, the last move highlighted.
    for g in m.games.values() {
        let r = &g.shown;
        assert!(s.contains(&pairing(r)));
        let Some(cell) = last_move(r) else { continue };
        let (col, row) = (u16::from(cell % 4), u16::from(cell / 4));
        let (px, py) = ((r.game % 9) * 22, 2);
        let (x, y) = (px + 2 + 4 * col, py + 3 + 2 * row);
        let c = &b[(x + 1, y)];
        assert!(
            c.symbol() == "O" || c.symbol() == "X",
            "game {} cell {}",
            r.game,
            cell_name(cell)
        );
        assert_eq!(c.bg, Color::Yellow, "the last move is highlighted");
    }
    // O and X in their colours (somewhere on screen).
    let cells: Vec<_> = b.content().iter().collect();
    assert!(cells
        .iter()
        .any(|c| c.symbol() == "O" && c.fg == render::O_COLOR));
    assert!(cells
        .iter()
        .any(|c| c.symbol() == "X" && c.fg == render::X_COLOR));
}

#[test]
fn small_terminals() {
    let m = recorded(5);
    for (w, h) in [(40, 12), (20, 30), (80, 5)] {
        let (b, fit) = draw(&m, &live(), w, h);
        let s = text(&b);
        assert!(s.contains("terminal too small"), "{w}x{h}: {s}");
        assert!(!s.contains('┌'));
        assert_eq!(fit, Fit::default());
    }
    // The smallest drawn size: one board per row, scrolling.
    let (b, fit) = draw(&m, &live(), render::MIN_W, render::MIN_H);
    let s = text(&b);
    assert_eq!(s.matches("┌───┬───┬───┬───┐").count(), 1, "{s}");
    assert_eq!(
        fit,
        Fit {
            page: 1,
            max_scroll: 8,
            cols: 1
        }
    );
    // Scrolled to the third board.
    let mut c = live();
    c.fit(fit.page, fit.max_scroll);
    c.scroll[0] = 2;
    let (b, _) = draw(&m, &c, render::MIN_W, render::MIN_H);
    let s = text(&b);
    let r = &m.games[&2].shown;
    assert!(s.contains(&format!("#2 r{}", r.round)), "{s}");
    assert!(s.contains("boards 3-3 of 9"), "{s}");
}

#[test]
fn records_tab_shows_moves_in_cell_names_and_results_per_pairing() {
    let m = recorded(30);
    let mut c = live();
    c.tab = xo_user::control::Tab::Records;
    let (b, _) = draw(&m, &c, 200, 60);
    let s = text(&b);
    assert!(s.contains("Moves per game"));
    for g in m.games.values() {
        let moves = moves_text(&g.shown);
        let head: String = moves.chars().take(40).collect();
        assert!(s.contains(&head), "game {}: {head}\n{s}", g.shown.game);
    }
    assert!(s.contains("Results per pairing"));
    let ((o, x), p) = m.pairs.iter().next().unwrap();
    let tag = |id: &u8| AgentKind::from_id(*id).unwrap().tag();
    let row = format!(
        "{:<4} vs {:<6}{:>7}{:>7}{:>7}",
        tag(o),
        tag(x),
        p.o_wins,
        p.x_wins,
        p.draws
    );
    assert!(s.contains(&row), "{row}\n{s}");
}

#[test]
fn load_tab_shows_all_five_agents_with_figures_and_sparklines() {
    let m = recorded(30);
    let mut c = live();
    c.tab = xo_user::control::Tab::Load;
    let (b, _) = draw(&m, &c, 80, 24);
    let s = text(&b);
    for k in AgentKind::ALL {
        assert!(
            s.lines().any(|l| l.starts_with(k.name())),
            "{}\n{s}",
            k.name()
        );
    }
    let l = m.loads.unwrap();
    let h = kgames_uapi::load::hundredths(l[4][0]);
    assert!(s.contains(&format!("{}.{:02}", h / 100, h % 100)), "{s}");
    assert!(
        s.chars().any(|ch| "▁▂▃▄▅▆▇█".contains(ch)),
        "a sparkline\n{s}"
    );
    assert!(s.contains("in the pairings: negamax random mcts td mc"));
}

#[test]
fn pause_states_lost_records_and_help_are_shown() {
    let mut m = recorded(5);
    let mut c = live();
    c.frozen = true;
    let s = text(&draw(&m, &c, 80, 24).0);
    assert!(s.lines().next().unwrap().contains("FROZEN"));
    c.frozen = false;
    c.module_paused = true;
    let s = text(&draw(&m, &c, 80, 24).0);
    assert!(s.lines().next().unwrap().contains("PAUSED (module)"));
    // A loss: a record 5 past the last one, with the device's lost count.
    let last = m.games[&0].shown;
    let mut r = last;
    r.seq = m.state.unwrap().seq + 100;
    r.lost = 4;
    m.apply(
        &Msg::Records {
            at: Duration::ZERO,
            records: vec![r],
        },
        Duration::from_secs(6),
    );
    let (b, _) = draw(&m, &live(), 80, 24);
    let s = text(&b);
    assert!(s.contains("lost 4 gaps"), "{s}");
    let lost_x = s.lines().next().unwrap().find("lost 4").unwrap();
    assert_eq!(b[(lost_x as u16, 0)].bg, Color::Red, "never hidden: in red");
    let mut c = live();
    c.help = true;
    let s = text(&draw(&m, &c, 80, 24).0);
    assert!(s.contains("xo-user help") && s.contains("Ctrl-P"));
}

#[test]
fn a_stream_recorded_on_the_live_device_renders() {
    // 28.5 s of /dev/kxo in the VM (default parameters, five agents), `xo-user --record`.
    let bytes = include_bytes!("data/live-vm.kxorec");
    let mut m = Model::new();
    for msg in recfile::read_all(&bytes[..]).unwrap() {
        m.apply(&msg, Duration::from_secs(30));
    }
    assert_eq!(m.games.len(), 9);
    assert_eq!((m.lost, m.gaps), (0, 0), "snapshots are no gaps");
    assert_eq!(m.snapshots, 9);
    let (b, _) = draw(&m, &live(), 200, 60);
    let s = text(&b);
    assert_eq!(s.matches("┌───┬───┬───┬───┐").count(), 9, "{s}");
    for g in m.games.values() {
        assert!(s.contains(&pairing(&g.shown)), "{s}");
    }
    assert!(s.contains("9 games 100 ms"));
}

#[test]
fn policies_the_selection_and_notices_are_shown() {
    let mut m = recorded(20);
    let mut state = m.state.unwrap();
    state.pairings[1] = [AgentKind::Mcts.id(), kgames_uapi::pairing::RANDOM];
    m.state = Some(state);
    let mut c = live();
    c.selected = 1;
    let (b, _) = draw(&m, &c, 200, 60);
    let s = text(&b);
    assert_eq!(s.matches("policy random:random").count(), 8, "{s}");
    assert_eq!(s.matches("policy mcts:random").count(), 1, "{s}");
    // Game 1's panel is the second: its policy in yellow, the others dim; its id reversed.
    let (y, line) = s
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("policy mcts:random"))
        .unwrap();
    let x = line.find("policy mcts").unwrap() as u16; // ASCII before it on this line
    assert_eq!((x, b[(x, y as u16)].fg), (render::PANEL_W, Color::Yellow));
    assert_eq!(b[(0, y as u16)].fg, Color::DarkGray);
    let title = s.lines().position(|l| l.contains("#1 r")).unwrap() as u16;
    let at = |x| b[(x, title)].modifier.contains(Modifier::REVERSED);
    assert!(
        at(render::PANEL_W) && !at(0),
        "only the selected id is reversed"
    );
    // Without a state sample (an old module, or before the first) no policy line.
    m.state = None;
    let s = text(&draw(&m, &c, 200, 60).0);
    assert!(!s.contains("policy "), "{s}");
    // A notice takes the footer: green when it worked, red when not.
    let c = live();
    for (error, bg) in [(false, Color::Green), (true, Color::Red)] {
        let n = Notice {
            text: "#1 policy mcts:random from its next round".into(),
            error,
        };
        let mut t = ratatui::Terminal::new(TestBackend::new(80, 24)).unwrap();
        let view = View {
            model: &m,
            control: &c,
            clock: CLOCK,
            now: Duration::from_secs(30),
            source: "/dev/kxo",
            notice: Some(&n),
        };
        t.draw(|f| {
            render::draw(f, &view);
        })
        .unwrap();
        let b = t.backend().buffer().clone();
        let s = text(&b);
        let last = s.lines().last().unwrap();
        assert!(last.starts_with(&n.text), "{last}");
        assert!(!last.contains("boards"), "no scroll position over it");
        assert_eq!(b[(0, 23)].bg, bg);
    }
    // The help lists the new keys.
    let mut c = live();
    c.help = true;
    let s = text(&draw(&m, &c, 80, 24).0);
    for k in [
        "a / A",
        "random nega rand mcts td mc",
        "R   ",
        "KXO_IOC_RESTART",
        "Left Right",
    ] {
        assert!(s.contains(k), "{k}\n{s}");
    }
}
