//! The link's state machine against the session layer of `/dev/reversi` (host): every
//! command, reply and error, clocks, resends, endings, and a fuzz test.

mod common;

use common::{cfg, pos, H};
use kgames_reversi::position::Position;
use othello::lines::{Line, Lines};
use othello::link::{Config, Outcome, Phase};
use othello::wire::{Msg, MAX_LINE};

/// X must pass; after its pass O takes c1 and wins 3-0 (empties to the winner: 64-0).
const X_PASSES: &str = "OX--------------------------------------------------------------";

/// O to move, two moves, lost by any line (exactly solved: 10 empties).
const O_LOST: &str = "XOX-----XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOX-----";

#[test]
fn commands_and_their_replies() {
    let mut h = H::new(cfg());
    h.expect("AT", &["OK"]);
    h.expect("ST 5", &["OK"]);
    h.expect("ST 9", &["OK"]);
    h.expect("ST 0", &["ER"]);
    h.expect("ST 10", &["ER"]);
    h.expect("ST", &["ER"]);
    h.expect("SP X", &["ER"]);
    h.expect("MV D3", &["ER"]); // no game
    h.expect("PS", &["ER"]);
    h.expect("hello", &["ER"]);
    h.expect("OK", &[]); // nothing to acknowledge
    h.expect("PL", &[]);
    h.expect("IL", &["ER"]); // no move of ours to refuse
    h.expect("SP W", &["OK"]);
    assert_eq!(h.link.view().opp, kgames_reversi::position::Color::O);
    h.expect("RST", &["OK"]);
    assert_eq!(h.link.view().opp, kgames_reversi::position::Color::X);
    assert_eq!(h.link.view().move_time, 2);
    h.expect("NG", &["OK"]);
    assert_eq!(h.link.view().phase, Phase::Playing);
    h.expect("EG", &["OK"]);
    assert_eq!(h.link.view().phase, Phase::Over);
    h.expect("MV D3", &["ER"]);
}

#[test]
fn a_move_is_answered_and_the_engine_replies() {
    let mut h = H::new(cfg());
    h.expect("NG", &["OK"]);
    let got = h.send("MV D3");
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0], "OK");
    let Some(Msg::Mm(sq)) = Msg::parse(got[1].as_bytes()) else {
        panic!("{got:?}")
    };
    assert!(Position::start().play(19).unwrap().is_legal(sq));
    assert_eq!(h.link.view().moves.len(), 2);
    h.expect("OK", &[]);
    assert_eq!(h.link.deadline(), None, "acknowledged: nothing to resend");
}

#[test]
fn the_engine_moves_first_as_black() {
    let mut h = H::new(cfg());
    h.expect("SP W", &["OK"]);
    let got = h.send("NG");
    assert_eq!(got[0], "OK");
    assert!(
        matches!(Msg::parse(got[1].as_bytes()), Some(Msg::Mm(_))),
        "{got:?}"
    );
}

#[test]
fn illegal_and_late_moves_are_void_and_the_same_side_moves_again() {
    let mut h = H::new(Config {
        max_violations: 4,
        ..cfg()
    });
    h.expect("NG", &["OK"]);
    h.expect("MV A1", &["IL"]);
    h.expect("PL", &[]);
    h.expect("PS", &["IL"]); // a pass while a move exists
    assert!(h.link.view().moves.is_empty());
    h.now += 2001;
    h.expect("MV D3", &["IT"]);
    h.expect("PL", &[]);
    // The clock restarted at the IT: within 2 s now.
    h.now += 1999;
    let got = h.send("MV D3");
    assert_eq!(got[0], "OK", "{got:?}");
}

#[test]
fn repeated_violations_forfeit() {
    let mut h = H::new(Config {
        max_violations: 2,
        ..cfg()
    });
    h.expect("NG", &["OK"]);
    h.expect("MV A1", &["IL"]);
    h.expect("MV A1", &["IL", "WN"]);
    assert_eq!(h.link.view().result, Some(Outcome::Win));
    h.expect("OK", &[]);
}

#[test]
fn a_move_out_of_turn_is_illegal() {
    let mut h = H::new(cfg());
    h.expect("NG", &["OK"]);
    // Two moves in one read: the engine answers the first before the second is handled.
    let got = h.raw(b"MV D3\rMV C4\r");
    assert_eq!(got[0], "OK");
    assert!(matches!(Msg::parse(got[1].as_bytes()), Some(Msg::Mm(_))));
    assert!(got[2] == "IL" || got[2] == "OK", "{got:?}");
}

#[test]
fn passes_both_ways_and_the_result() {
    // The opponent (black) has no move: PS is accepted, the engine takes c1 and wins.
    let mut h = H::new(Config {
        position: Some(pos(X_PASSES, 'X')),
        ..cfg()
    });
    h.expect("NG", &["OK"]);
    h.expect("MV C1", &["IL"]);
    h.expect("PS", &["OK", "MM C1"]);
    assert_eq!(h.link.view().phase, Phase::Over);
    h.expect("OK", &["WN"]);
    h.expect("OK", &[]);
    // The engine (black now) has no move: it passes, then loses.
    h.expect("SP W", &["OK"]);
    h.expect("NG", &["OK", "MP"]);
    h.expect("OK", &[]);
    h.expect("MV C1", &["OK", "LS"]);
    assert_eq!(h.link.view().result, Some(Outcome::Lose));
    h.expect("OK", &[]);
}

#[test]
fn a_tie_is_te() {
    // Find a full board but one square where black's last move ties 32-32.
    let tie = (20..44)
        .find_map(|k| {
            let cells: String = (0..64)
                .map(|i| match i {
                    63 => '-',
                    i if i < k => 'X',
                    _ => 'O',
                })
                .collect();
            let p = pos(&cells, 'X');
            let n = p.play(63)?;
            (n.is_over() && n.winner().is_none()).then_some(cells)
        })
        .expect("a tying position");
    let mut h = H::new(Config {
        position: Some(pos(&tie, 'X')),
        ..cfg()
    });
    h.expect("NG", &["OK"]);
    h.expect("MV H8", &["OK", "TE"]);
    assert_eq!(h.link.view().result, Some(Outcome::Tie));
}

#[test]
fn an_unacknowledged_message_is_resent_then_the_game_abandoned() {
    let mut h = H::new(cfg());
    h.expect("SP W", &["OK"]);
    let got = h.send("NG");
    let mm = got[1].clone();
    assert_eq!(h.wait(999), Vec::<String>::new());
    assert_eq!(h.wait(1), [mm.as_str()]);
    assert_eq!(h.wait(1000), [mm.as_str()]);
    assert_eq!(h.wait(1000), [mm.as_str()]);
    assert_eq!(
        h.wait(1000),
        Vec::<String>::new(),
        "three resends, then abandoned"
    );
    assert_eq!(h.link.view().phase, Phase::Over);
    assert_eq!(h.link.deadline(), None);
}

#[test]
fn the_engine_resigns_a_proven_loss_only_when_asked() {
    for resign in [false, true] {
        let mut h = H::new(Config {
            position: Some(pos(O_LOST, 'O')),
            resign,
            budget: Some(kgames_common::budget::Budget::Nodes(1_000_000)),
            ..cfg()
        });
        let got = h.send("NG");
        if resign {
            assert_eq!(got, ["OK", "QT"]);
            assert_eq!(h.link.view().result, Some(Outcome::Lose));
        } else {
            assert!(got[1] == "MM D1" || got[1] == "MM D8", "{got:?}");
        }
    }
}

#[test]
fn a_refused_engine_move_is_taken_back_and_played_again() {
    let mut h = H::new(cfg());
    h.expect("SP W", &["OK"]);
    let got = h.send("NG");
    let mm = got[1].clone();
    // A referee relays the opponent's IT: the engine plays on and moves again.
    let got = h.send("IT");
    assert_eq!(got, ["PL".to_string(), mm.clone()]);
    assert_eq!(h.link.view().moves.len(), 1);
    h.expect("OK", &[]);
    h.expect("IL", &["ER"]); // acknowledged: nothing to refuse any more
}

#[test]
fn garbage_and_long_lines_are_er_and_change_nothing() {
    let mut h = H::new(cfg());
    h.expect("NG", &["OK"]);
    let before = h.link.view().pos;
    assert_eq!(h.raw(&[b'A'; 5000]), Vec::<String>::new());
    assert!(h.lines.pending() <= MAX_LINE);
    assert_eq!(h.raw(b"\r"), ["ER"]);
    assert_eq!(h.raw(b"\x00\xff\x7f\r"), ["ER"]);
    assert_eq!(h.raw(b"mv d3\r"), ["ER"]);
    assert_eq!(h.link.view().pos, before);
    // \n and \r\n end lines too.
    assert_eq!(h.raw(b"AT\nAT\r\n"), ["OK", "OK"]);
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn fuzzed_input_split_randomly_never_panics_and_is_answered_in_words() {
    const PIECES: &[&[u8]] = &[
        b"AT", b"RST", b"SP B", b"SP W", b"NG", b"EG", b"ST 1", b"ST 9", b"ST 0", b"MV ", b"D3",
        b"C4", b"F5", b"E6", b"A1", b"PS", b"OK", b"PL", b"IL", b"IT", b"\r", b"\n", b"\r\n", b" ",
        b"\x00", b"\xff", b"MV D3\r", b"OK\r",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..300 {
        let mut h = H::new(Config {
            budget: Some(kgames_common::budget::Budget::Nodes(200)),
            ..Config::default()
        });
        let mut stream = Vec::new();
        for _ in 0..rng.below(200) {
            if rng.below(10) == 0 {
                let n = rng.below(40);
                stream.extend((0..n).map(|_| rng.next() as u8));
            } else {
                stream.extend_from_slice(PIECES[rng.below(PIECES.len())]);
            }
        }
        let mut i = 0;
        while i < stream.len() {
            let n = 1 + rng.below(24);
            let end = (i + n).min(stream.len());
            for l in h.raw(&stream[i..end]) {
                assert!(
                    Msg::parse(l.as_bytes()).is_some(),
                    "round {round}: sent {l:?}"
                );
            }
            assert!(h.lines.pending() <= MAX_LINE);
            h.now += rng.below(1500) as u64;
            for l in h.wait(0) {
                assert!(Msg::parse(l.as_bytes()).is_some());
            }
            i = end;
        }
    }
}

#[test]
fn the_framer_alone_survives_random_bytes() {
    let mut rng = Rng(12345);
    let mut l = Lines::new();
    let mut out = Vec::new();
    for _ in 0..100_000 {
        let n = rng.below(64);
        let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        l.push(&bytes, &mut out);
        assert!(l.pending() <= MAX_LINE);
        for line in out.drain(..) {
            if let Line::Text(t) = line {
                assert!(!t.is_empty() && t.len() <= MAX_LINE && !t.contains(&b'\r'));
            }
        }
    }
}
