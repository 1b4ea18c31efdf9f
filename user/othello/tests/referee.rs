//! The referee between two links running their real main loop in threads, each over the
//! session layer (host): full games with both colours, results, transcripts, and the clock.

use std::io::{self, Write};
use std::sync::mpsc::{self, Sender};
use std::thread;
use std::time::{Duration, Instant};

use kgames_client::in_process::TT_ENTRIES;
use kgames_client::InProcess;
use kgames_common::budget::Budget;
use kgames_reversi::position::Position;
use kgames_session::reversi_game::Reversi;
use othello::engine::ClassicEngine;
use othello::lines::{Line, Lines};
use othello::link::{Config, Link};
use othello::referee::{play_game, End, Peer, Settings};
use othello::runner::{self, Quiet};
use othello::serial::{Event, LineWriter};

/// A writer that delivers each write as an [`Event::Data`].
struct Chan(Sender<Event>);

impl Write for Chan {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.0
            .send(Event::Data(b.to_vec(), Instant::now()))
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))?;
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A link in a thread; returns the referee's peer for it.
fn spawn_link(name: &str, cfg: Config) -> (Peer, thread::JoinHandle<()>) {
    let (to_link, link_rx) = mpsc::channel();
    let (to_ref, ref_rx) = mpsc::channel();
    let h = thread::spawn(move || {
        let mut link = Link::new(
            ClassicEngine {
                t: InProcess::<Reversi>::new(TT_ENTRIES),
            },
            cfg,
        );
        let mut w = LineWriter::new(Box::new(Chan(to_ref)), false);
        runner::run(&mut link, &link_rx, &mut w, &mut Quiet).expect("link runs");
    });
    let peer = Peer::new(
        name,
        false,
        ref_rx,
        LineWriter::new(Box::new(Chan(to_link)), false),
    );
    (peer, h)
}

/// A scripted participant in a thread: `answer` gets each line it receives and may write
/// replies; returning false ends it.
fn scripted(
    name: &str,
    mut answer: impl FnMut(&str, &mut Chan) -> bool + Send + 'static,
) -> (Peer, thread::JoinHandle<()>) {
    let (to_b, b_rx) = mpsc::channel::<Event>();
    let (to_ref, ref_rx) = mpsc::channel();
    let h = thread::spawn(move || {
        let mut w = Chan(to_ref);
        let (mut lines, mut out) = (Lines::new(), Vec::new());
        while let Ok(Event::Data(d, _)) = b_rx.recv() {
            lines.push(&d, &mut out);
            for l in out.drain(..) {
                let text = match l {
                    Line::Text(t) => String::from_utf8_lossy(&t).into_owned(),
                    Line::TooLong => String::new(),
                };
                if !answer(&text, &mut w) {
                    return;
                }
            }
        }
    });
    let peer = Peer::new(
        name,
        false,
        ref_rx,
        LineWriter::new(Box::new(Chan(to_b)), false),
    );
    (peer, h)
}

/// Closes both lines and waits for both participants.
fn close(peers: [Peer; 2], threads: [thread::JoinHandle<()>; 2]) {
    drop(peers);
    for t in threads {
        t.join().unwrap();
    }
}

fn nodes(n: u64) -> Config {
    Config {
        budget: Some(Budget::Nodes(n)),
        ..Config::default()
    }
}

#[test]
fn two_links_play_full_games_with_both_colours() {
    let (a, ha) = spawn_link("A", nodes(3000));
    let (b, hb) = spawn_link("B", nodes(300));
    let mut peers = [a, b];
    let s = Settings::default();
    for black in [0, 1] {
        let r = play_game(&mut peers, black, &s, &mut |_| {});
        assert_eq!(r.end, End::Finished, "{r:?}");
        assert!(r.pos.is_over());
        // The transcript replays to the same final position (passes are implied).
        let mut p = Position::start();
        for c in r.transcript().as_bytes().chunks(2) {
            if p.legal_moves() == 0 {
                p = p.pass().unwrap();
            }
            let sq = kgames_reversi::notation::parse_square(c).unwrap();
            p = p.play(sq).unwrap();
        }
        assert_eq!(p.x() | p.o(), r.pos.x() | r.pos.o());
        assert_eq!(p.count_x(), r.pos.count_x());
    }
    close(peers, [ha, hb]);
}

#[test]
fn passes_and_the_end_from_a_position() {
    // X (black) has no move: it must pass; O takes c1 and wins.
    let cells = format!("OX{}", "-".repeat(62));
    let start = Position::parse_setup(format!("{cells} X").as_bytes()).unwrap();
    let cfg = Config {
        position: Some(start),
        ..nodes(500)
    };
    let (a, ha) = spawn_link("A", cfg.clone());
    let (b, hb) = spawn_link("B", cfg);
    let mut peers = [a, b];
    let s = Settings {
        position: Some(start),
        ..Settings::default()
    };
    let mut lines = Vec::new();
    let r = play_game(&mut peers, 0, &s, &mut |l| lines.push(l.to_string()));
    assert_eq!(r.end, End::Finished, "{lines:?}");
    assert_eq!(r.moves, [None, Some(2)]);
    assert_eq!(r.winner(), Some(1));
    for want in [
        "<- A: MP",
        "-> B: PS",
        "<- B: MM C1",
        "-> A: MV C1",
        "<- A: LS",
        "<- B: WN",
    ] {
        assert!(
            lines.iter().any(|l| l == want),
            "{want} missing from {lines:?}"
        );
    }
    close(peers, [ha, hb]);
}

#[test]
fn a_garbage_participant_is_a_violation_reported_with_its_line() {
    let (a, ha) = spawn_link("A", nodes(300));
    let (b, hb) = scripted("B", |_, w| w.write(b"HELLO\r").is_ok());
    let mut peers = [a, b];
    let s = Settings {
        reply_ms: 500,
        ..Settings::default()
    };
    let t = Instant::now();
    let r = play_game(&mut peers, 0, &s, &mut |_| {});
    assert!(t.elapsed() < Duration::from_secs(5));
    match r.end {
        End::Violation { by, line, why } => {
            assert_eq!(by, 1);
            assert_eq!(line, "HELLO");
            assert!(why.contains("OK to RST"), "{why}");
        }
        e => panic!("{e:?}"),
    }
    close(peers, [ha, hb]);
}

#[test]
fn the_referee_says_it_to_a_late_mover() {
    // A real link as black against a scripted white that moves too slowly.
    let (a, ha) = spawn_link("A", nodes(300));
    let mut pos = Position::start();
    let (b, hb) = scripted("B", move |l, w| {
        if let Some(sq) = l.strip_prefix("MV ") {
            pos = pos
                .play(othello::wire::parse_square(sq.as_bytes()).unwrap())
                .unwrap();
            let reply = othello::wire::square_text(pos.legal_moves().trailing_zeros() as u8);
            let _ = w.write(b"OK\r");
            // Too slow: 1 s move time + 100 ms grace.
            thread::sleep(Duration::from_millis(1300));
            let _ = w.write(format!("MM {reply}\r").as_bytes());
        } else if l == "IT" {
            let _ = w.write(b"PL\r");
            return false;
        } else {
            let _ = w.write(b"OK\r");
        }
        true
    });
    let mut peers = [a, b];
    let s = Settings {
        move_time: 1,
        grace_ms: 100,
        reply_ms: 1000,
        ..Settings::default()
    };
    let mut lines = Vec::new();
    let r = play_game(&mut peers, 0, &s, &mut |l| lines.push(l.to_string()));
    // The referee's own clock answers: the late move is not forwarded to A.
    let late = lines
        .iter()
        .position(|l| l.starts_with("<- B: MM"))
        .unwrap();
    assert_eq!(lines[late + 1], "-> B: IT", "{lines:?}");
    assert!(matches!(r.end, End::Violation { by: 1, .. }), "{r:?}");
    close(peers, [ha, hb]);
}

#[test]
fn the_other_sides_it_is_relayed_and_the_mover_plays_again() {
    // A real link as black; white answers IT to the first MV, then stops at the second.
    let (a, ha) = spawn_link("A", nodes(300));
    let mut said_it = false;
    let (b, hb) = scripted("B", move |l, w| {
        if l.starts_with("MV") && said_it {
            return false;
        }
        let reply: &[u8] = if l.starts_with("MV") {
            b"IT\r"
        } else {
            b"OK\r"
        };
        said_it |= l.starts_with("MV");
        w.write(reply).is_ok()
    });
    let mut peers = [a, b];
    let s = Settings {
        reply_ms: 500,
        ..Settings::default()
    };
    let mut lines = Vec::new();
    let _ = play_game(&mut peers, 0, &s, &mut |l| lines.push(l.to_string()));
    let i = lines.iter().position(|l| l == "<- B: IT").expect("B's IT");
    assert_eq!(lines[i + 1], "-> A: IT", "{lines:?}");
    assert_eq!(lines[i + 2], "<- A: PL", "{lines:?}");
    assert!(lines[i + 3].starts_with("<- A: MM "), "{lines:?}");
    close(peers, [ha, hb]);
}
