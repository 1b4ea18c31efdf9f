//! Host tests of the session layer: command parsing, check order, turn handling, the CPU
//! move's two phases, and that a rejected command changes nothing.

extern crate std;
use std::string::{String, ToString};
use std::vec::Vec;

use super::chess_game::Chess;
use super::game::{Game, Thought};
use super::reply::Reply;
use super::reversi_game::Reversi;
use super::state::{Action, CommandContext, Session};
use crate::common::budget::{AlwaysInterrupt, Meter, NeverInterrupt, NodeClock};

const START: &[u8] = b"---------------------------OX------XO---------------------------\tX\n";

struct Driver<G: Game> {
    s: Session<G>,
    out: Reply,
    scratch: G::Scratch<crate::HeapAlloc>,
    /// The last command's nonce: a counter, as the device's.
    nonce: u64,
}

impl<G: Game> Driver<G> {
    fn new() -> Self {
        Driver {
            s: Session::new(),
            out: Reply::new(),
            scratch: G::new_scratch(4096, &G::Config::default()).unwrap(),
            nonce: 0,
        }
    }

    fn run(&mut self, raw: &[u8]) -> Vec<u8> {
        self.nonce += 1;
        let env = CommandContext {
            games: 1,
            max_games: 4,
            nonce: self.nonce,
            ..CommandContext::default()
        };
        if let Action::Think(copy) = self.s.execute(raw, &env, &mut self.out) {
            assert!(self.s.is_busy());
            let mut clock = NodeClock { ns_per_node: 1000 };
            let mut never = NeverInterrupt;
            let mut meter = Meter::new(self.s.budget(), &mut clock, &mut never);
            let t = copy.think(&mut self.scratch, &mut meter);
            self.s.finish(t, &mut self.out);
            assert!(!self.s.is_busy());
        }
        self.out.as_bytes().to_vec()
    }

    fn expect(&mut self, raw: &[u8], want: &[u8]) {
        let got = self.run(raw);
        assert_eq!(
            got,
            want,
            "{:?}: got {:?}",
            std::string::String::from_utf8_lossy(raw),
            std::string::String::from_utf8_lossy(&got)
        );
    }

    /// Runs `raw`, expects `want`, and checks that `01` and `11` did not change.
    fn rejected(&mut self, raw: &[u8], want: &[u8]) {
        let before = (self.run(b"01"), self.run(b"11"), self.run(b"09"));
        self.expect(raw, want);
        assert_eq!(
            before,
            (self.run(b"01"), self.run(b"11"), self.run(b"09")),
            "{raw:?}"
        );
    }
}

#[test]
fn reversi_board_before_and_after_a_game_starts() {
    let mut d = Driver::<Reversi>::new();
    d.expect(b"01\n", START);
    d.expect(b"06", b"NOGAME\n");
    d.expect(b"02 3 2", b"NOGAME\n");
    d.expect(b"03", b"NOGAME\n");
    d.expect(b"04", b"NOGAME\n");
    d.expect(b"00 X\n", b"OK\n");
    d.expect(b"01", START);
    d.expect(b"06", b"NONE\n");
    d.expect(b"07", b"d3 c4 f5 e6\n");
    d.expect(b"02 3 2\n", b"OK\n");
    let mut b = START.to_vec();
    b[19] = b'X';
    b[27] = b'X';
    b[65] = b'O';
    d.expect(b"01", &b);
    d.expect(b"06", b"d3\n");
    d.expect(b"11", &[&b[..64], b" O\n"].concat());
}

#[test]
fn reversi_check_order_and_rejections_change_nothing() {
    let mut d = Driver::<Reversi>::new();
    for (cmd, want) in [
        (&b"42"[..], &b"UNKCMD\n"[..]),
        (b"", b"UNKCMD\n"),
        (b"\n", b"UNKCMD\n"),
        (b"x1", b"UNKCMD\n"),
        (b"00", b"INVFMT\n"),
        (b"00 Z", b"INVFMT\n"),
        (b"00 x", b"INVFMT\n"),
        (b"00 XX", b"INVFMT\n"),
        (b"00X", b"INVFMT\n"),
        (b"01 ", b"INVFMT\n"),
        (b"01 x", b"INVFMT\n"),
        (b"02 8 3", b"INVFMT\n"),
        (b"02 3", b"INVFMT\n"),
        (b"02 3  2", b"INVFMT\n"),
        (b"02 3 2 ", b"INVFMT\n"),
        (b"02 a b", b"INVFMT\n"),
        (b"05 0", b"INVFMT\n"),
        (b"05 9001", b"INVFMT\n"),
        (b"05 N0", b"INVFMT\n"),
        (b"05 01", b"INVFMT\n"),
        (b"10 xyz", b"INVFMT\n"),
        (b"01\0", b"INVFMT\n"),
        (b"01 \xff", b"INVFMT\n"),
        (b"01\n\n", b"INVFMT\n"),
        (b"02 3 2", b"NOGAME\n"),
    ] {
        d.rejected(cmd, want);
    }
    d.expect(b"00 O", b"OK\n");
    d.rejected(b"02 3 2", b"OOT\n");
    d.rejected(b"04", b"OOT\n");
    d.rejected(b"08", b"OOT\n");
    d.expect(b"00 X", b"OK\n");
    d.rejected(b"03", b"OOT\n");
    d.rejected(b"02 0 0", b"ILLMOVE\n");
    d.rejected(b"02 3 3", b"ILLMOVE\n");
    d.rejected(b"04", b"ILLMOVE\n");
    let long = [b'0'; 300];
    d.rejected(&long, b"INVFMT\n");
}

#[test]
fn reversi_full_game_with_the_cpu_ends_with_a_result() {
    let mut d = Driver::<Reversi>::new();
    d.expect(b"05 N3000", b"OK\n");
    d.expect(b"00 X", b"OK\n");
    let mut plies = 0;
    let last = loop {
        plies += 1;
        assert!(plies < 130, "the game does not end");
        let board = d.run(b"01");
        assert_eq!(board.len(), 67);
        let human = board[65] == b'X';
        let reply = if human {
            // The human plays the first listed move, or passes.
            let moves = d.run(b"07");
            if moves == b"\n" {
                d.run(b"04")
            } else {
                let sq = super::super::reversi::notation::parse_square(&moves[..2]).unwrap();
                let cmd = std::format!("02 {} {}", sq % 8, sq / 8);
                d.run(cmd.as_bytes())
            }
        } else {
            d.run(b"03")
        };
        match &reply[..] {
            b"OK\n" => continue,
            b"WIN\n" | b"LOSE\n" | b"TIE\n" => break reply,
            other => panic!(
                "unexpected {:?}",
                std::string::String::from_utf8_lossy(other)
            ),
        }
    };
    assert!(!last.is_empty());
    d.expect(b"02 3 2", b"NOGAME\n");
    d.expect(b"03", b"NOGAME\n");
    assert!(d.run(b"09").starts_with(b"device=reversi state=over"));
    assert_eq!(d.run(b"01").len(), 67);
}

#[test]
fn reversi_is_deterministic_under_a_node_budget() {
    let play = || {
        let mut d = Driver::<Reversi>::new();
        d.run(b"05 N5000");
        d.run(b"00 O");
        let mut moves = Vec::new();
        for _ in 0..20 {
            d.run(b"03");
            moves.push(d.run(b"06"));
            d.run(b"08");
            moves.push(d.run(b"06"));
        }
        moves
    };
    assert_eq!(play(), play());
}

/// A CPU move's search keeps the table of the same game's earlier searches, and clears
/// another game's: after `00` or `10`, and when another game searched in the context between
/// two moves (as when another file's game runs in the same scratch).
#[test]
fn reversi_keeps_the_table_of_its_own_game_only() {
    // The last search's part of 09: its score, depth and nodes.
    fn search(d: &mut Driver<Reversi>) -> String {
        let s = String::from_utf8(d.run(b"09")).unwrap();
        s.split_once(" score=").unwrap().1.to_string()
    }
    // The CPU plays a move for the human (X), then its own after it.
    fn two_moves(d: &mut Driver<Reversi>, budget: &[u8]) -> (Vec<u8>, String) {
        d.expect(b"00 X", b"OK\n");
        d.expect(budget, b"OK\n");
        d.expect(b"08", b"OK\n");
        let setup = d.run(b"11");
        d.expect(b"03", b"OK\n");
        (setup, search(d))
    }
    // The same position searched from a cleared table.
    fn from_setup(d: &mut Driver<Reversi>, budget: &[u8], setup: &[u8]) -> String {
        let mut line = b"10 ".to_vec();
        line.extend_from_slice(setup.strip_suffix(b"\n").unwrap());
        d.expect(budget, b"OK\n");
        d.expect(&line, b"OK\n");
        d.expect(b"03", b"OK\n");
        search(d)
    }
    // Whether the kept table changes the search's score or depth depends on the weights:
    // the first budget at which it does.
    let found = [b"05 N20000", b"05 N30000", b"05 N40000", b"05 N50000"]
        .into_iter()
        .find_map(|budget| {
            let mut warm = Driver::<Reversi>::new();
            let (setup, kept) = two_moves(&mut warm, budget);
            let cleared = from_setup(&mut Driver::<Reversi>::new(), budget, &setup);
            (kept != cleared).then_some((budget, warm, setup, cleared))
        });
    let Some((budget, mut warm, setup, cleared)) = found else {
        panic!("the kept table changes no search");
    };
    // A new game in the same context starts cleared.
    assert_eq!(from_setup(&mut warm, budget, &setup), cleared);
    // Another game searching in the context between two moves clears it.
    let (mut a, mut b) = (Driver::<Reversi>::new(), Driver::<Reversi>::new());
    b.nonce = 1000;
    a.expect(b"00 X", b"OK\n");
    a.expect(budget, b"OK\n");
    a.expect(b"08", b"OK\n");
    core::mem::swap(&mut a.scratch, &mut b.scratch);
    b.expect(b"00 O", b"OK\n");
    b.expect(b"03", b"OK\n");
    core::mem::swap(&mut a.scratch, &mut b.scratch);
    a.expect(b"03", b"OK\n");
    assert_eq!(search(&mut a), cleared);
}

#[test]
fn busy_session_answers_only_01() {
    let mut d = Driver::<Reversi>::new();
    d.run(b"00 O");
    let env = CommandContext::default();
    let Action::Think(copy) = d.s.execute(b"03", &env, &mut d.out) else {
        panic!("03 must search");
    };
    assert!(Session::<Reversi>::answers_while_busy(b"01\n"));
    assert!(!Session::<Reversi>::answers_while_busy(b"02 3 2"));
    let mut out = Reply::new();
    assert!(matches!(d.s.execute(b"01", &env, &mut out), Action::Done));
    assert_eq!(out.as_bytes(), START);
    // An interrupted search leaves the game as it was.
    d.s.finish(Thought::Interrupted, &mut out);
    assert!(!d.s.is_busy());
    assert_eq!(d.run(b"01"), START);
    assert_eq!(d.run(b"06"), b"NONE\n");
    assert_eq!(copy.position().count_x(), 2);
}

#[test]
fn setup_and_help_and_status() {
    let mut d = Driver::<Reversi>::new();
    let cells = [b'X'; 64];
    let mut setup = b"10 ".to_vec();
    setup.extend_from_slice(&cells);
    setup.extend_from_slice(b" O");
    d.expect(&setup, b"OK\n");
    assert!(d.run(b"09").starts_with(b"device=reversi state=over"));
    d.expect(b"07", b"\n");
    let help = d.run(b"99");
    assert!(help.starts_with(b"00 X|O"));
    assert!(help.ends_with(b"99           this help\n"));
    d.expect(b"05 250", b"OK\n");
    assert!(std::str::from_utf8(&d.run(b"09"))
        .unwrap()
        .contains(" budget=250ms "));
}

#[test]
fn chess_flow_and_errors() {
    let mut d = Driver::<Chess>::new();
    d.expect(b"01", b"NOGAME\n");
    d.expect(b"02 WPe2-e4", b"NOGAME\n");
    d.expect(b"02 WPe2e4", b"INVFMT\n");
    d.expect(b"00 W", b"OK\n");
    let board = d.run(b"01");
    assert_eq!(board.len(), 129);
    assert!(board.starts_with(b"WRWNWBWQWKWBWNWRWPWPWPWPWPWPWPWP"));
    d.rejected(b"02 wPe2-e4", b"INVFMT\n");
    d.rejected(b"02 WPe2-e5", b"ILLMOVE\n");
    d.rejected(b"02 BPe7-e5", b"ILLMOVE\n");
    d.rejected(b"03", b"OOT\n");
    d.rejected(b"00 X", b"INVFMT\n");
    d.expect(b"02 WPe2-e4", b"OK\n");
    d.expect(b"06", b"WPe2-e4 e2e4\n");
    d.rejected(b"02 WPd2-d4", b"OOT\n");
    d.expect(b"05 N2000", b"OK\n");
    let r = d.run(b"03");
    assert!(r == b"OK\n" || r == b"CHECK\n", "{r:?}");
    assert!(d.run(b"06").starts_with(b"BP") || d.run(b"06").starts_with(b"BN"));
    d.expect(b"04", b"OK\n");
    d.expect(b"02 WPd2-d4", b"NOGAME\n");
    assert_eq!(d.run(b"01").len(), 129);
    // Mate in one from a set-up position.
    d.expect(b"00 W", b"OK\n");
    d.expect(b"10 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", b"OK\n");
    d.expect(b"02 WRa1-a8", b"MATE\n");
    d.expect(b"03", b"NOGAME\n");
    d.expect(b"11", b"R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1\n");
}

#[test]
fn chess_appends_uci_moves_and_reports_the_search() {
    let mut d = Driver::<Chess>::new();
    d.expect(b"12", b"INVFMT\n");
    d.expect(b"12 e2e4", b"NOGAME\n");
    d.expect(b"00 W", b"OK\n");
    d.expect(b"12 e2e4 e7e5 g1f3", b"OK\n");
    d.expect(
        b"11",
        b"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\n",
    );
    // All or nothing: a bad move anywhere changes nothing.
    d.rejected(b"12 b8c6 e2e4", b"ILLMOVE\n");
    d.rejected(b"12 b8c6  g8f6", b"INVFMT\n");
    d.rejected(b"12 b8c6 zz", b"INVFMT\n");
    d.rejected(b"12 e7e8q", b"ILLMOVE\n");
    d.expect(b"12 f8c5 f3e5", b"OK\n");
    // The repetition history is the game's: the third occurrence is a draw.
    d.expect(b"00 W", b"OK\n");
    d.expect(b"12 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1", b"OK\n");
    d.expect(b"12 f6g8", b"TIE\n");
    d.expect(b"12 e2e4", b"NOGAME\n");
    // Moves past the end of the game are refused.
    d.expect(b"00 W", b"OK\n");
    d.rejected(b"12 f2f3 e7e5 g2g4 d8h4 a2a3", b"ILLMOVE\n");
    d.expect(b"12 f2f3 e7e5 g2g4 d8h4", b"MATE\n");
    // 09 reports the last search.
    d.expect(b"00 W", b"OK\n");
    d.expect(b"05 N3000", b"OK\n");
    d.expect(b"12 e2e4", b"OK\n");
    let r = d.run(b"03");
    assert!(r == b"OK\n" || r == b"CHECK\n", "{r:?}");
    let status = String::from_utf8(d.run(b"09")).unwrap();
    assert!(status.contains(" depth="), "{status}");
    // The test's clock takes 1 us a node.
    assert!(status.contains(" nodes=3000 ms=3 pv="), "{status}");
    let pv = status
        .split(" pv=")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let last = String::from_utf8(d.run(b"06")).unwrap();
    assert!(
        last.trim_end().ends_with(pv.split(',').next().unwrap()),
        "{pv} {last}"
    );
}

/// A CPU move's search keeps the table and history of the same game's earlier searches in
/// its context, and clears those of any other game: after `00`, and when another game
/// searched in the context between two moves (as when the device's pool hands the context to
/// another file).
#[test]
fn chess_keeps_the_table_of_its_own_game_only() {
    fn opening(d: &mut Driver<Chess>) -> Vec<u8> {
        d.expect(b"00 W", b"OK\n");
        d.expect(b"05 N20000", b"OK\n");
        d.expect(b"12 e2e4", b"OK\n");
        d.expect(b"03", b"OK\n");
        d.run(b"06")
    }
    let reply = |d: &mut Driver<Chess>| {
        let legal = String::from_utf8(d.run(b"07")).unwrap();
        let first = legal.split(' ').next().unwrap().trim_end().to_string();
        let mut line = b"12 ".to_vec();
        // 07 lists classic moves ("WPe2-e4"); 12 takes UCI ("e2e4").
        line.extend(first[2..].replace(['-', 'x'], "").bytes());
        line
    };
    // One game, one context: the second search starts from the first one's table.
    let mut warm = Driver::<Chess>::new();
    let first = opening(&mut warm);
    let after = reply(&mut warm);
    warm.expect(&after, b"OK\n");
    warm.expect(b"03", b"OK\n");
    let kept = warm.run(b"09");
    // The same position searched from a cleared table.
    let moves = String::from_utf8(first.clone()).unwrap();
    let m1 = moves.trim_end().split(' ').nth(1).unwrap().to_string();
    let mut cold = Driver::<Chess>::new();
    cold.expect(b"00 W", b"OK\n");
    cold.expect(b"05 N20000", b"OK\n");
    let mut line = std::format!("12 e2e4 {m1} ").into_bytes();
    line.extend_from_slice(&after[3..]);
    cold.expect(&line, b"OK\n");
    cold.expect(b"03", b"OK\n");
    let cleared = cold.run(b"09");
    assert_ne!(kept, cleared, "the kept table does not change this search");
    // A new game in the same context (`00`) starts cleared.
    warm.expect(b"00 W", b"OK\n");
    warm.expect(&line, b"OK\n");
    warm.expect(b"03", b"OK\n");
    assert_eq!(warm.run(b"09"), cleared);
    // Another game searching in the context between two moves clears it.
    let (mut a, mut b) = (Driver::<Chess>::new(), Driver::<Chess>::new());
    b.nonce = 1000;
    assert_eq!(opening(&mut a), first);
    core::mem::swap(&mut a.scratch, &mut b.scratch);
    opening(&mut b);
    core::mem::swap(&mut a.scratch, &mut b.scratch);
    a.expect(&after, b"OK\n");
    a.expect(b"03", b"OK\n");
    assert_eq!(a.run(b"09"), cleared);
    // A game whose first search in the context had a single legal move (it returns before
    // any iteration) still cleared the other game's table and history: its next search is
    // the one it makes in a context of its own.
    fn forced(b: &mut Driver<Chess>) -> Vec<u8> {
        b.expect(b"00 W", b"OK\n");
        b.expect(b"05 N20000", b"OK\n");
        b.expect(b"12 e2e4 f7f5 d1h5", b"CHECK\n");
        assert!(!b.run(b"07").contains(&b' '), "more than one legal move");
        b.expect(b"03", b"OK\n");
        b.expect(b"12 f1c4", b"OK\n");
        let r = b.run(b"03");
        assert!(r == b"OK\n" || r == b"CHECK\n", "{r:?}");
        b.run(b"09")
    }
    let alone = forced(&mut Driver::<Chess>::new());
    let (mut a, mut b) = (Driver::<Chess>::new(), Driver::<Chess>::new());
    b.nonce = 1000;
    opening(&mut a);
    a.expect(&after, b"OK\n");
    a.expect(b"03", b"OK\n");
    core::mem::swap(&mut a.scratch, &mut b.scratch);
    assert_eq!(forced(&mut b), alone);
    // An interrupted search (a signal: the game unchanged, the move asked again) leaves the
    // context to nobody: the search asked again starts cleared.
    let mut i = Driver::<Chess>::new();
    assert_eq!(opening(&mut i), first);
    i.expect(&after, b"OK\n");
    let env = CommandContext::default();
    let Action::Think(copy) = i.s.execute(b"03", &env, &mut i.out) else {
        panic!("03 does not search");
    };
    let mut clock = NodeClock { ns_per_node: 1000 };
    let mut always = AlwaysInterrupt;
    let mut meter = Meter::new(i.s.budget(), &mut clock, &mut always);
    let t = copy.think(&mut i.scratch, &mut meter);
    assert!(matches!(t, Thought::Interrupted));
    i.s.finish(t, &mut i.out);
    i.expect(b"03", b"OK\n");
    assert_eq!(i.run(b"09"), cleared);
}

/// Random and mutated command lines never panic and always get a reply ending in `\n`.
fn fuzz<G: Game>(seeds: &[&[u8]], rounds: usize) {
    let mut rng = crate::common::rng::Rng::new(0x6b67);
    let alphabet = b"0123456789 XOWBKQRNPxyabcdefgh-/wkqrnp\r\n\t\0\xff";
    let mut d = Driver::<G>::new();
    d.run(b"05 N300");
    for i in 0..rounds {
        let mut line: Vec<u8> = seeds[i % seeds.len()].to_vec();
        let edits = rng.below(6);
        for _ in 0..edits {
            let c = alphabet[rng.below(alphabet.len() as u32) as usize];
            let at = rng.below(line.len() as u32 + 1) as usize;
            match rng.below(3) {
                0 => line.insert(at, c),
                1 if at < line.len() => line[at] = c,
                _ if at < line.len() => {
                    line.remove(at);
                }
                _ => line.push(c),
            }
        }
        let reply = d.run(&line);
        assert!(reply.ends_with(b"\n"), "{line:?} -> {reply:?}");
    }
}

#[test]
fn reversi_fuzzed_commands_never_panic() {
    let seeds: [&[u8]; 10] = [
        b"00 X",
        b"00 O",
        b"01",
        b"02 3 2",
        b"03",
        b"04",
        b"07",
        b"08",
        b"10 ---------------------------OX------XO--------------------------- X",
        b"05 N20",
    ];
    fuzz::<Reversi>(&seeds, 100_000);
}

#[test]
fn chess_fuzzed_commands_never_panic() {
    let seeds: [&[u8]; 10] = [
        b"00 W",
        b"00 B",
        b"02 WPe2-e4",
        b"02 WPf7-g8xBNyWQ",
        b"03",
        b"07",
        b"10 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        b"10 4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
        b"11",
        b"12 e2e4 e7e5 g1f3 b8c6 f1b5",
    ];
    fuzz::<Chess>(&seeds, 100_000);
}

#[test]
fn nxn_game_against_the_monte_carlo_player() {
    use super::nxn_game::Nxn;
    let mut d = Driver::<Nxn>::new();
    d.expect(b"01", b"NOGAME\n");
    d.expect(b"05 100", b"UNKCMD\n");
    d.expect(b"02 0 0", b"NOGAME\n");
    d.expect(b"02 6 0", b"INVFMT\n");
    d.expect(b"00 X", b"OK\n");
    let empty = d.run(b"01");
    assert_eq!(empty.len(), 157, "the 4 x 4 grid is 157 bytes");
    assert!(empty.starts_with(b" --- --- --- ---\n|   |   |   |   |\n"));
    d.rejected(b"02 0 0", b"OOT\n");
    d.expect(b"05 N5000", b"UNKCMD\n");
    d.expect(b"03", b"OK\n");
    d.rejected(b"03", b"OOT\n");
    d.rejected(b"04", b"ILLMOVE\n");
    d.rejected(b"02 4 0", b"ILLMOVE\n");
    let legal = d.run(b"07");
    assert_eq!(legal.split(|&b| b == b',').count(), 15, "{legal:?}");
    // Play the first free tile until the end.
    for _ in 0..20 {
        let legal = d.run(b"07");
        let first = legal
            .split(|&b| b == b',' || b == b'\n')
            .next()
            .unwrap()
            .to_vec();
        let r = d.run(&[b"02 ".as_slice(), &first].concat());
        if r != b"OK\n" {
            assert!(r == b"WIN\n" || r == b"LOSE\n" || r == b"TIE\n", "{r:?}");
            d.expect(b"03", b"NOGAME\n");
            return;
        }
        let r = d.run(b"03");
        if r != b"OK\n" {
            assert!(r == b"LOSE\n" || r == b"TIE\n", "{r:?}");
            assert!(d.run(b"09").starts_with(b"device=kxo state=over"));
            return;
        }
    }
    panic!("the game did not end");
}

fn status(d: &mut Driver<Reversi>) -> std::string::String {
    std::string::String::from_utf8(d.run(b"09")).unwrap()
}

#[test]
fn reversi_status_carries_the_last_search_score() {
    use crate::reversi::search::SearchContext;
    use kgames_reversi::solve;
    let mut d = Driver::<Reversi>::new();
    d.run(b"05 N3000");
    d.run(b"00 O");
    assert!(!status(&mut d).contains("score="), "no search yet");
    d.expect(b"03", b"OK\n");
    let s = status(&mut d);
    let v = s
        .split(' ')
        .find_map(|kv| kv.strip_prefix("score="))
        .unwrap();
    assert!(!v.ends_with('!'), "a midgame estimate is not exact: {s}");
    // Then the search's depth, nodes (the budget) and time.
    let after = s.split(" score=").nth(1).unwrap();
    let keys: std::vec::Vec<&str> = after
        .split(' ')
        .skip(1)
        .take(3)
        .map(|kv| kv.split('=').next().unwrap())
        .collect();
    assert_eq!(keys, ["depth", "nodes", "ms"], "{s}");
    assert!(s.contains(" nodes=3000 ms=3"), "{s}");
    let n: i32 = v.parse().unwrap();
    assert!((-64..=64).contains(&n) && v.starts_with(['+', '-']), "{s}");
    // Near the end the search solves: the score is the exact result for the side that moved
    // (with a choice of moves: a forced move is played unsearched).
    loop {
        let pos = *d.s.game().unwrap().position();
        assert!(!pos.is_over(), "the game ended early");
        if pos.count_empty() <= 10 && pos.legal_moves().count_ones() > 1 {
            let mut tt = std::vec![crate::reversi::tt::TtEntry::EMPTY; 1 << 12];
            let mut clock = NodeClock { ns_per_node: 1000 };
            let mut never = NeverInterrupt;
            let mut meter = Meter::new(
                crate::common::budget::Budget::Nodes(1 << 40),
                &mut clock,
                &mut never,
            );
            let want = solve(&pos, &mut SearchContext::new(&mut tt), &mut meter)
                .unwrap()
                .score;
            d.run(b"05 N100000000");
            let cmd: &[u8] = if d.s.game().unwrap().human_to_move() {
                b"08"
            } else {
                b"03"
            };
            d.run(cmd);
            let s = status(&mut d);
            assert!(s.contains(&std::format!(" score={want:+}! ")), "{s}");
            break;
        }
        let cmd: &[u8] = if d.s.game().unwrap().human_to_move() {
            b"08"
        } else {
            b"03"
        };
        if pos.legal_moves() == 0 {
            d.run(if cmd == b"08" { b"04" } else { b"03" });
        } else {
            d.run(cmd);
        }
    }
    // A new game forgets it.
    d.run(b"00 X");
    assert!(!status(&mut d).contains("score="));
}

#[test]
fn disc_scores_from_search_scores() {
    use super::reversi_game::disc_score;
    use crate::reversi::search::WIN;
    assert_eq!(disc_score(12, true), 12);
    assert_eq!(disc_score(-64, true), -64);
    assert_eq!(disc_score(1250, false), 12);
    assert_eq!(disc_score(-99, false), 0);
    assert_eq!(disc_score(WIN + 20, false), 20);
    assert_eq!(disc_score(-WIN - 6, false), -6);
    assert_eq!(disc_score(i32::MAX, false), 64);
    assert_eq!(disc_score(i32::MIN, true), -64);
}

#[test]
fn nxn_new_game_arguments_and_status() {
    use super::nxn_game::Nxn;
    let mut d = Driver::<Nxn>::new();
    for bad in [
        &b"00 X 7"[..],
        b"00 X 2",
        b"00 X 04",
        b"00 X 4 0",
        b"00 X 4 101",
        b"00 X 4 30 0",
        b"00 X 4 30 11",
        b"00 X 4 30 2 1",
        b"00 X  4",
        b"00 X 4 ",
        b"00 Y 4",
        b"00 X a",
    ] {
        d.expect(bad, b"INVFMT\n");
    }
    d.expect(b"01", b"NOGAME\n");
    d.expect(b"00 X 5 7 3", b"OK\n");
    let status = String::from_utf8(d.run(b"09")).unwrap();
    assert!(
        status.contains(" n=5 playouts=7 workers=3 plies=0") && !status.contains("last_items"),
        "{status}"
    );
    assert_eq!(
        d.run(b"01").len(),
        crate::kxo::nxn::grid_len(5),
        "5 x 5 grid"
    );
    d.expect(b"03", b"OK\n");
    let status = String::from_utf8(d.run(b"09")).unwrap();
    // The 25 free tiles dealt round robin over the game's 3 work items.
    assert!(
        status.contains(" plies=1 last_items=3 last_split=9,8,8"),
        "{status}"
    );
    // Plain `00 X` keeps the defaults.
    d.expect(b"00 X", b"OK\n");
    let status = String::from_utf8(d.run(b"09")).unwrap();
    assert!(status.contains(" n=4 playouts=30 workers=4 "), "{status}");
    // Two games (two nonces) differ in their seeds, so the same moves need not get the same
    // replies; the same config and nonce give the same game (a seed replays).
    let c = crate::session::nxn_game::NxnConfig::default();
    let new = |nonce| Nxn::parse_new(b"X", &c, nonce).unwrap().1;
    let (a, b) = (new(1), new(2));
    assert_ne!(a.game_seed(), b.game_seed());
    assert_ne!(a.seed(), b.seed());
    assert_eq!(new(1).seed(), a.seed());
    // The config's size, playouts and workers are what a plain `00` uses.
    let small = crate::session::nxn_game::NxnConfig {
        size: 3,
        playouts: 7,
        workers: 2,
        seed: 9,
    };
    let g = Nxn::parse_new(b"O", &small, 1).unwrap().1;
    assert_eq!((g.playouts(), g.workers()), (7, 2));
    assert_ne!(g.seed(), a.seed());
}

#[path = "tests/data/replies.rs"]
mod replies;

/// The table kgames.ko's KUnit suite checks the kernel's build against (tests/data/replies.rs).
#[test]
fn reversi_replies_as_tabled() {
    let mut d = Driver::<Reversi>::new();
    for &(cmd, want) in replies::REVERSI_REPLIES {
        let got = d.run(cmd);
        assert_eq!(
            got,
            want,
            "{:?}: got {:?}",
            String::from_utf8_lossy(cmd),
            String::from_utf8_lossy(&got)
        );
    }
}

#[test]
fn kxo_machine_figures_fit_the_status_at_their_widest() {
    use super::state::StatusExtra;
    use crate::uapi::state::{KxoState, MAX_GAMES};
    let mut s = KxoState {
        games: 9,
        period_ms: 100,
        watchers: 2,
        paused: 0,
        stopped: 1,
        always: 0,
        agents: 31,
        seq: 40,
        reserved: [0; 8],
        pairings: [[0; 2]; MAX_GAMES],
    };
    assert_eq!(
        StatusExtra::kxo_machine(&s, true).as_bytes(),
        b" ai_games=9 watchers=2 paused=0 stopped=1 seq=40 td_ready=1"
    );
    (s.games, s.watchers, s.paused, s.stopped, s.seq) = (u32::MAX, u32::MAX, 255, 255, u64::MAX);
    let widest = StatusExtra::kxo_machine(&s, false);
    assert_eq!(widest.as_bytes().len(), 99);
    assert!(widest
        .as_bytes()
        .ends_with(b" seq=18446744073709551615 td_ready=0"));
}
