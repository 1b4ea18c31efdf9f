//! Rendering with ratatui's test backend at several sizes, on games driven through the
//! in-process session layer: the board with coordinates, the cursor, the side to move, the
//! last moves, discs, captures and check, the grid, the thinking indicator, the footer.

use std::time::Duration;

use kgames_client::{Budget, Request};
use kgames_term::look::{Colors, Look};
use play::cpu::CpuResult;
use play::game::{Next, Options, Play, State};
use play::kind::Kind;
use play::link::sim;
use play::render::{draw, View};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn game(kind: Kind, human: char, opts: Options, fen: Option<&str>) -> Play {
    let mut p = Play::new(kind, sim(kind), opts, human);
    p.start(fen).unwrap();
    p
}

fn view(p: &Play) -> View<'_> {
    View {
        st: &p.st,
        input: "",
        cursor: (3, 4),
        selected: None,
        thinking: None,
        show_legal: false,
        label: "test",
        help: false,
        look: PLAIN,
        looking: None,
        clocks: (Duration::from_secs(83), Duration::from_secs(5)),
    }
}

/// Today's plain look: letters, the 16 colours.
const PLAIN: Look = Look {
    unicode: false,
    colors: Colors::Ansi16,
};

fn screen(v: &View<'_>, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| draw(f, v)).unwrap();
    let buf = t.backend().buffer().clone();
    let mut s = String::new();
    for y in 0..h {
        for x in 0..w {
            s.push_str(buf[(x, y)].symbol());
        }
        s.push('\n');
    }
    s
}

fn cpu(p: &mut Play) -> Next {
    let r = p.link.send(Request::CpuMove).unwrap();
    p.cpu_done(CpuResult::Reply(r))
}

/// Reversi as X at 100 nodes a move, after d3.
fn reversi_after_d3() -> Play {
    let mut p = game(
        Kind::Reversi,
        'X',
        Options {
            budget: Some(Budget::Nodes(100)),
            ..Options::default()
        },
        None,
    );
    assert_eq!(p.human_move("d3"), Next::Cpu);
    p
}

#[test]
fn reversi_at_several_sizes() {
    let mut p = reversi_after_d3();
    cpu(&mut p);
    for (w, h) in [(60, 16), (80, 24), (120, 40)] {
        let s = screen(&view(&p), w, h);
        assert!(s.contains("│   a  b  c  d  e  f  g  h │"), "{w}x{h}\n{s}");
        assert!(s.contains("│1  .  .  .  .  .  .  .  . │"), "{s}");
        // O's reply to d3 is c3, e3 or c5: a3 and b3 stay empty.
        assert!(s.contains("│3  .  .  "), "{s}");
        assert!(
            s.contains("[X]") || s.contains("[O]") || s.contains("[.]"),
            "cursor\n{s}"
        );
        assert!(s.contains("X to move: you"), "{s}");
        assert!(s.contains("Clock: you 1:23  CPU 0:05"), "{s}");
        assert!(s.contains("Discs: X 3  O 3"), "{s}");
        assert!(s.contains("Last you: d3"), "{s}");
        assert!(s.contains("p pass"), "{s}");
    }
    let mut v = view(&p);
    v.show_legal = true;
    let s = screen(&v, 80, 24);
    assert!(s.contains("Legal: "), "{s}");
    assert!(s.contains(" * "), "legal targets\n{s}");
}

#[test]
fn too_small_says_so() {
    let p = game(Kind::Chess, 'W', Options::default(), None);
    let s = screen(&view(&p), 40, 12);
    assert!(s.contains("terminal too small: 40x12, play needs"), "{s}");
    assert!(s.contains("28x13 (q quits)"), "{s}");
}

#[test]
fn compact_layout_below_the_full_one() {
    let p = game(Kind::Chess, 'W', Options::default(), None);
    let s = screen(&view(&p), 40, 14);
    assert!(s.contains("│8  r  n  b  q  k  b  n  r │"), "{s}");
    assert!(s.contains("> _"), "{s}");
    assert!(!s.contains(" game "), "no panel\n{s}");
    // The mouse finds the squares there too: e2 is column 4, display row 6.
    let v = view(&p);
    let area = ratatui::layout::Rect::new(0, 0, 40, 14);
    assert_eq!(play::render::board_cell(area, &v, 15, 8), Some((4, 6)));
    assert_eq!(play::render::board_cell(area, &v, 35, 8), None);
    // And in the full layout, under the title line.
    let area = ratatui::layout::Rect::new(0, 0, 100, 30);
    assert_eq!(play::render::board_cell(area, &v, 16, 9), Some((4, 6)));
}

#[test]
fn bars_share_the_discs_and_the_material() {
    let p = reversi_after_d3();
    let s = screen(&view(&p), 100, 30);
    // X 4, O 1: 19 and 5 of 24.
    assert!(s.contains("│XXXXXXXXXXXXXXXXXXXOOOOO "), "{s}");
    let c = game(Kind::Chess, 'W', Options::default(), None);
    let s = screen(&view(&c), 100, 30);
    assert!(s.contains("Material: white 39  black 39"), "{s}");
    assert!(s.contains("│WWWWWWWWWWWWBBBBBBBBBBBB "), "{s}");
}

#[test]
fn chess_board_captures_check_and_thinking() {
    // White to move can take on d5 and the black king is in check after Qxf7?
    let fen = "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5Q2/PPPP1PPP/RNB1KBNR w KQkq - 0 3";
    let mut p = game(
        Kind::Chess,
        'W',
        Options {
            budget: Some(Budget::Nodes(500)),
            ..Options::default()
        },
        Some(fen),
    );
    assert_eq!(p.human_move("e4d5"), Next::Cpu);
    let mut v = view(&p);
    v.thinking = Some(1);
    let s = screen(&v, 80, 24);
    assert!(s.contains("│8  r  n  b  q  k  b  n  r │"), "{s}");
    assert!(s.contains("CPU thinking / (Esc interrupts)"), "{s}");
    assert!(s.contains("White took: p"), "{s}");
    assert!(s.contains("Last you: e4d5 (WPe4-d5xBP)"), "{s}");
    assert!(s.contains("Esc or Ctrl-C interrupts"), "{s}");
    assert!(!s.contains('['), "no cursor while thinking\n{s}");
    let fen = "4k3/8/8/8/8/8/4Q3/4K3 b - - 0 1";
    let p = game(Kind::Chess, 'B', Options::default(), Some(fen));
    let s = screen(&view(&p), 100, 30);
    assert!(s.contains("CHECK: black is in check"), "{s}");
    assert!(s.contains("White took: qrrbbnnpppppppp"), "{s}");
    assert!(s.contains("Black took: RRBBNNPPPPPPPP"), "{s}");
    assert!(s.contains("r resign"), "{s}");
}

#[test]
fn chess_selection_and_result() {
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let mut p = game(Kind::Chess, 'W', Options::default(), Some(fen));
    let mut v = view(&p);
    v.selected = Some(0); // a1
    let s = screen(&v, 80, 24);
    assert!(s.contains("│1 (R)"), "{s}");
    assert!(s.contains("│8  *"), "targets of the rook\n{s}");
    assert_eq!(p.human_move("a1a8"), Next::Over);
    let s = screen(&view(&p), 80, 24);
    assert!(s.contains("Game over: Checkmate: you win"), "{s}");
    assert!(s.contains("n new game  s colour  t game  q quit"), "{s}");
}

#[test]
fn kxo_grids_of_each_size() {
    for n in 3..=6u8 {
        let mut p = game(
            Kind::Kxo,
            'O',
            Options {
                size: Some(n),
                playouts: Some(3),
                ..Options::default()
            },
            None,
        );
        assert_eq!(p.human_move("0 0"), Next::Cpu);
        cpu(&mut p);
        let s = screen(&view(&p), 80, 24);
        let labels: String = (0..n).map(|c| format!(" {c} ")).collect();
        assert!(s.contains(&format!("│  {labels}│")), "{n}\n{s}");
        assert!(s.contains("│0  O "), "{s}");
        assert!(
            s.contains(&format!("{n} x {n}, {n} in a row; playouts 3")),
            "{s}"
        );
        assert!(s.contains("Last you: 0 0"), "{s}");
        assert!(s.contains("O to move: you"), "{s}");
    }
}

#[test]
fn help_replaces_the_panel() {
    let p = game(Kind::Kxo, 'X', Options::default(), None);
    let mut v = view(&p);
    v.help = true;
    let s = screen(&v, 80, 24);
    assert!(s.contains(" keys ") && s.contains("s switch colour"), "{s}");
}

#[test]
fn reversi_without_a_move_says_to_pass() {
    // X (b1) cannot flank O (a1); O can play c1.
    let cells = format!("OX{}", "-".repeat(62));
    let mut p = game(
        Kind::Reversi,
        'X',
        Options::default(),
        Some(&format!("{cells} X")),
    );
    let s = screen(&view(&p), 80, 24);
    assert!(s.contains("You have no move: p passes"), "{s}");
    assert_eq!(p.pass_or_resign(), Next::Cpu);
    assert_eq!(p.st.last_human.as_ref().unwrap().text, "pass");
}

/// The cell of the board at screen column `x`, row `y`: its symbol and background.
fn cell_at(v: &View<'_>, w: u16, h: u16, x: u16, y: u16) -> (String, ratatui::style::Color) {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| draw(f, v)).unwrap();
    let c = &t.backend().buffer()[(x, y)];
    (c.symbol().to_string(), c.bg)
}

#[test]
fn pictures_in_256_and_16_colours_and_without_colour() {
    use ratatui::style::Color;
    let p = game(Kind::Chess, 'W', Options::default(), None);
    let mut v = view(&p);
    v.look = Look {
        unicode: true,
        colors: Colors::Ansi256,
    };
    let s = screen(&v, 80, 24);
    assert!(s.contains("│8  ♜  ♞  ♝  ♛  ♚  ♝  ♞  ♜ │"), "{s}");
    assert!(s.contains("│1  ♖  ♘  ♗  ♕  ♔  ♗  ♘  ♖ │"), "{s}");
    // a8 (screen column 4, row 3) is light, b8 dark.
    assert_eq!(cell_at(&v, 80, 24, 4, 3), ("♜".into(), Color::Indexed(223)));
    assert_eq!(cell_at(&v, 80, 24, 7, 3), ("♞".into(), Color::Indexed(137)));
    v.look.colors = Colors::Ansi16;
    assert_eq!(cell_at(&v, 80, 24, 4, 3).1, Color::Gray);
    v.look.colors = Colors::None;
    let s = screen(&v, 80, 24);
    assert!(
        s.contains("│8  r  n  b  q  k  b  n  r │"),
        "NO_COLOR: letters\n{s}"
    );

    let p = reversi_after_d3();
    let mut v = view(&p);
    v.look = Look {
        unicode: true,
        colors: Colors::Ansi256,
    };
    let s = screen(&v, 80, 24);
    assert!(s.contains("│3           ●  "), "{s}");
    // d3 (screen column 13, row 5) on the person's colour, d4 turned over (row 6) lighter.
    assert_eq!(
        cell_at(&v, 80, 24, 13, 5),
        ("●".into(), Color::Indexed(117))
    );
    assert_eq!(cell_at(&v, 80, 24, 13, 6), ("●".into(), Color::Indexed(71)));
    assert_eq!(cell_at(&v, 80, 24, 16, 6).1, Color::Indexed(28), "felt");
    v.look.colors = Colors::Ansi16;
    assert_eq!(cell_at(&v, 80, 24, 13, 5), ("●".into(), Color::Cyan));
    assert_eq!(cell_at(&v, 80, 24, 13, 6).1, Color::LightGreen);
    assert_eq!(cell_at(&v, 80, 24, 16, 6).1, Color::Green);
}

/// The move list as text, one line per move number (`1. e4 e5`).
fn move_text(st: &State) -> Vec<String> {
    st.move_lines()
        .iter()
        .map(|l| {
            let mut s = l.label.clone();
            for &i in &l.plies {
                s.push(' ');
                s.push_str(st.moves.get(i).map_or("?", String::as_str));
            }
            s
        })
        .collect()
}

#[test]
fn the_cpu_search_and_the_move_list() {
    use play::render::search_line;
    let mut p = reversi_after_d3();
    cpu(&mut p);
    let line = search_line(&p.st).expect("a search line after the CPU's move");
    assert!(
        line.starts_with("CPU: depth ") && line.contains(" nodes, ") && line.contains(" discs"),
        "{line}"
    );
    assert_eq!(p.st.moves.len(), 2);
    assert_eq!(p.st.moves[0], "d3");
    assert_eq!(move_text(&p.st), [format!("1. d3 {}", p.st.moves[1])]);
    assert_eq!(p.st.history.len(), 3);
    let s = screen(&view(&p), 100, 30);
    assert!(s.contains(" moves (2) "), "{s}");
    assert!(
        s.contains(&format!("   1. d3      {}", p.st.moves[1])),
        "{s}"
    );
    // Looking back one ply: d3's board, no cursor, the line says so.
    let back = p.st.at_ply(1).unwrap();
    let mut v = view(&p);
    v.st = &back;
    v.looking = Some(1);
    let s = screen(&v, 100, 30);
    assert!(s.contains("Looking back: after 1 of 2 plies"), "{s}");
    assert!(!s.contains('['), "no cursor while looking back\n{s}");
    assert!(s.contains("Discs: X 4  O 1"), "{s}");

    // Chess: SAN in the list, numbering from a FEN with black to move, the score in pawns.
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 2";
    let mut c = game(
        Kind::Chess,
        'B',
        Options {
            budget: Some(Budget::Nodes(800)),
            ..Options::default()
        },
        Some(fen),
    );
    assert_eq!(c.human_move("g8f6"), Next::Cpu);
    cpu(&mut c);
    assert_eq!(c.st.moves[0], "Nf6");
    assert!(move_text(&c.st)[0] == "2... Nf6", "{:?}", move_text(&c.st));
    assert!(
        move_text(&c.st)[1].starts_with("3. "),
        "{:?}",
        move_text(&c.st)
    );
    let line = search_line(&c.st).unwrap();
    assert!(line.contains(" ms; you ") && line.contains('.'), "{line}");
}
