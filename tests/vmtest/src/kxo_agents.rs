//! The `kxo` suite, part 2: the machine's state ioctl, the five agents' load figures, and the
//! N x N player files (private games, per-game settings, a signal during a Monte Carlo move).

use std::fs::File;
use std::io::{ErrorKind, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use kgames_uapi::agent::AgentKind;
use kgames_uapi::load::KxoLoads;
use kgames_uapi::record::Record;
use kgames_uapi::state::KxoState;
use kgames_uapi::user::{kxo_loads, kxo_state};

use crate::dev::Dev;
use crate::{ensure, Outcome, Test};

const K: &str = "/dev/kxo";

/// The tests.
pub fn tests() -> Vec<Test> {
    vec![
        Test {
            suite: "kxo",
            name: "the state ioctl (any user): games, period, agents",
            uid: 2320,
            run: state,
        },
        Test {
            suite: "kxo",
            name: "the load figures of negamax and mcts rise while they play, mc's is above 0",
            uid: 2321,
            run: loads_rise,
        },
        Test {
            suite: "kxo",
            name: "a private N x N game on a kxo player file leaves the shared game alone",
            uid: 2322,
            run: private_game,
        },
        Test {
            suite: "kxo",
            name:
                "00 X|O N T P sets the size, playouts and work items per game; 09 reports the split",
            uid: 2323,
            run: new_game_args,
        },
        Test {
            suite: "kxo",
            name: "a signal during a Monte Carlo move returns EINTR and leaves the game unchanged",
            uid: 2324,
            run: signal_during_mc,
        },
    ]
}

fn state_of(f: &File) -> Result<KxoState, String> {
    kxo_state(f).map_err(|e| format!("state ioctl: {e}"))
}

fn loads_of(f: &File) -> Result<KxoLoads, String> {
    kxo_loads(f).map_err(|e| format!("loads ioctl: {e}"))
}

fn state(_: u32) -> Outcome {
    let f = File::open(K).map_err(|e| e.to_string())?;
    let s = state_of(&f)?;
    ensure!(s.games == 9 && s.period_ms == 100, "{s:?}");
    ensure!(s.paused == 0 && s.stopped == 0 && s.always == 0, "{s:?}");
    let always_in = [
        AgentKind::Negamax,
        AgentKind::Random,
        AgentKind::Mcts,
        AgentKind::MonteCarlo,
    ];
    for k in always_in {
        ensure!(
            s.agents & (1 << k.id()) != 0,
            "{} not in the pairings: {s:?}",
            k.name()
        );
    }
    ensure!(s.reserved == [0; 8], "{s:?}");
    Ok(())
}

fn loads_rise(_: u32) -> Outcome {
    let f = File::open(K).map_err(|e| e.to_string())?;
    let before = loads_of(&f)?;
    // A watcher keeps the games running for 12 s (two or three 5 s samples).
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let reader = std::thread::spawn(move || -> Result<(), String> {
        let mut w = File::open(K).map_err(|e| e.to_string())?;
        let mut buf = vec![0u8; 16 * Record::SIZE];
        while !flag.load(Ordering::Relaxed) {
            w.read(&mut buf).map_err(|e| e.to_string())?;
        }
        Ok(())
    });
    std::thread::sleep(Duration::from_secs(12));
    stop.store(true, Ordering::Relaxed);
    let after = loads_of(&f)?;
    reader.join().map_err(|_| "reader")??;
    let mut report = String::new();
    for k in AgentKind::ALL {
        let (b, a) = (before[usize::from(k.id())], after[usize::from(k.id())]);
        report += &format!(" {}: {:?} -> {:?}", k.name(), b, a);
    }
    println!("# loads (1/5/15 min, 2048 = one CPU):{report}");
    for k in [AgentKind::Negamax, AgentKind::Mcts] {
        let i = usize::from(k.id());
        ensure!(
            after[i][0] > before[i][0],
            "{} did not rise:{report}",
            k.name()
        );
    }
    // mc uses about 0.3% of a CPU on a stock kernel (a 1-minute figure of 7 of 2048): after
    // the earlier tests its average already sits at that level, and `calc_load` keeps it
    // there while the share stays the same, so it need not rise. It must not be 0: any share
    // of at least 1/2048 in a 5 s period rounds the average up to at least 1.
    let mc = usize::from(AgentKind::MonteCarlo.id());
    ensure!(after[mc][0] > 0, "mc has no load:{report}");
    Ok(())
}

fn private_game(_: u32) -> Outcome {
    let mut shared = Dev::open(K)?;
    shared.expect("00 O", b"OK\n")?;
    shared.expect("02 1 1", b"OK\n")?;
    let board = shared.cmd("01")?;
    let mut p = Dev::open(K)?;
    p.make_private()?;
    p.expect("01", b"NOGAME\n")?;
    p.expect("00 X 3", b"OK\n")?;
    p.expect("03", b"OK\n")?;
    let status = String::from_utf8_lossy(&p.cmd("09")?).into_owned();
    ensure!(
        status.contains(" n=3 ") && status.contains(" plies=1"),
        "{status}"
    );
    // The shared game is untouched; a second private ioctl starts over.
    crate::same("the shared game", &shared.cmd("01")?, &board)?;
    p.make_private()?;
    p.expect("01", b"NOGAME\n")?;
    crate::same("the shared game", &shared.cmd("01")?, &board)
}

fn new_game_args(_: u32) -> Outcome {
    let mut d = Dev::open(K)?;
    for bad in [
        "00 X 7",
        "00 X 2",
        "00 X 4 0",
        "00 X 4 101",
        "00 X 4 30 0",
        "00 X 4 30 11",
        "00 X 4 30 2 1",
        "00 X 04",
    ] {
        d.expect(bad, b"INVFMT\n")?;
    }
    d.expect("01", b"NOGAME\n")?;
    d.expect("00 X 5 7 3", b"OK\n")?;
    let s = String::from_utf8_lossy(&d.cmd("09")?).into_owned();
    ensure!(
        s.contains(" n=5 playouts=7 workers=3 plies=0") && !s.contains("last_items"),
        "{s}"
    );
    d.expect("03", b"OK\n")?;
    let s = String::from_utf8_lossy(&d.cmd("09")?).into_owned();
    // 25 free tiles dealt round-robin to 3 work items.
    ensure!(s.contains(" plies=1 last_items=3 last_split=9,8,8"), "{s}");
    let help = String::from_utf8_lossy(&d.cmd("99")?).into_owned();
    ensure!(help.contains("00 X|O [N [T [P]]]"), "{help}");
    Ok(())
}

extern "C" fn on_usr1(_: libc::c_int) {}

fn signal_during_mc(_: u32) -> Outcome {
    // SAFETY: installs a handler that does nothing, without SA_RESTART.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_usr1 as *const () as usize;
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(libc::SIGUSR1, &sa, std::ptr::null_mut());
    }
    // A long move: 6 x 6, 100 playouts per tile, one work item. Signals every millisecond
    // until the write returns; a write that still completed is retried with a new game.
    for attempt in 0..5 {
        let mut d = Dev::open(K)?;
        d.expect("00 X 6 100 1", b"OK\n")?;
        let before = d.cmd("01")?;
        let (tx, rx) = mpsc::channel();
        let t = std::thread::spawn(move || {
            // SAFETY: this thread's id, for pthread_kill.
            let _ = tx.send(unsafe { libc::pthread_self() });
            let t0 = Instant::now();
            let r = d.write_raw(b"03\n").map_err(|e| e.kind());
            (r, t0.elapsed(), d)
        });
        let tid = rx.recv().map_err(|e| e.to_string())?;
        while !t.is_finished() {
            // SAFETY: the thread is alive until it is joined below.
            unsafe { libc::pthread_kill(tid, libc::SIGUSR1) };
            std::thread::sleep(Duration::from_millis(1));
        }
        let (r, took, mut d) = t.join().map_err(|_| "thread")?;
        match r {
            Err(ErrorKind::Interrupted) => {
                crate::same("01 after the interrupted 03", &d.cmd("01")?, &before)?;
                let s = String::from_utf8_lossy(&d.cmd("09")?).into_owned();
                ensure!(s.contains(" plies=0") && !s.contains("last_items"), "{s}");
                println!("# interrupted after {took:?} (attempt {attempt})");
                // The game still works.
                return d.expect("03", b"OK\n");
            }
            Ok(_) => continue,
            Err(e) => return Err(format!("03 failed with {e:?}")),
        }
    }
    Err("five 03 writes were never interrupted".into())
}
