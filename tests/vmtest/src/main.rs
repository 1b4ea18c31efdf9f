//! `kgames-vmtest [SUITE...]`: the in-VM tests of kgames.ko (suites `base`, `reversi`,
//! `chess`, `kxo`, `othello`, `stress`, `fairness`, `hostile`; none = all; `stress64`,
//! `faults`, `faults_trace`, `chess_classic`, `chess_plain`, `open_race`, `sysfuzz`,
//! `ring_size` and `limits` only when named). Runs as root in the guest with the module loaded; every test
//! runs in a forked child, which switches to its own uid before opening a device (so the
//! tests also prove non-root access, and no two tests share a user's game), under a 90 s
//! alarm.
//! Prints kselftest TAP; exits 1 if any test failed.

mod bounds;
mod chess;
mod dev;
mod fairness;
mod faults;
mod hostile;
mod kxo;
mod kxo_agents;
mod kxo_pairing;
mod kxo_poll;
mod othello;
mod procs;
mod reversi;
mod rules;
mod stress;
mod stress64;
mod sysfuzz;
mod uci;

use std::io::Write;

/// The module under test: `$KGAMES_KO` (set by scripts/vm-run.sh; the debug kernel's build
/// lives elsewhere), else the repository's kgames.ko.
pub fn module_path() -> String {
    std::env::var("KGAMES_KO")
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../../kgames.ko").to_string())
}

/// A program installed next to this one (`make tools` builds them into target/release; the
/// kselftest target copies them next to it).
pub fn sibling(name: &str) -> std::path::PathBuf {
    std::env::current_exe()
        .map(|p| p.with_file_name(name))
        .unwrap_or_else(|_| name.into())
}

/// New device nodes are 0600: the runner makes them 0666 after a load (scripts/vm-run.sh).
pub const NODES_0666: &str = "for d in reversi chess kxo; do for _ in $(seq 50); do \
    [ -c /dev/$d ] && break; sleep 0.1; done; chmod 0666 /dev/$d; done";

/// A test's verdict: `Err` carries the diagnostic.
pub type Outcome = Result<(), String>;

/// A named test.
pub struct Test {
    /// Its suite.
    pub suite: &'static str,
    /// Its name.
    pub name: &'static str,
    /// The uid it runs as (0: root).
    pub uid: u32,
    /// The body.
    pub run: fn(u32) -> Outcome,
}

/// Fails with a message when `cond` is false.
#[macro_export]
macro_rules! ensure {
    ($cond:expr, $($arg:tt)*) => {
        if !$cond {
            return Err(format!($($arg)*));
        }
    };
}

/// Fails unless `got == want`, showing both escaped.
pub fn same(what: &str, got: &[u8], want: &[u8]) -> Outcome {
    if got == want {
        Ok(())
    } else {
        Err(format!(
            "{what}: got {:?}, want {:?}",
            String::from_utf8_lossy(got),
            String::from_utf8_lossy(want)
        ))
    }
}

/// Runs `f` in a child process as `uid`.
pub fn as_uid(uid: u32, f: fn() -> Outcome) -> Outcome {
    procs::spawn_as(uid, f).and_then(procs::wait_ok)
}

fn run_one(t: &Test) -> Outcome {
    let _ = std::io::stdout().flush();
    // SAFETY: the child only runs the test body and exits; the parent waits for it.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err("fork failed".into());
    }
    if pid == 0 {
        // SAFETY: plain libc calls in the child of a fork.
        unsafe {
            libc::alarm(90);
            if t.uid != 0 && (libc::setgid(t.uid) != 0 || libc::setuid(t.uid) != 0) {
                println!("# setuid({}) failed", t.uid);
                libc::_exit(1);
            }
        }
        let code = match (t.run)(t.uid) {
            Ok(()) => 0,
            Err(e) => {
                for line in e.lines() {
                    println!("# {line}");
                }
                1
            }
        };
        let _ = std::io::stdout().flush();
        // SAFETY: ends the child without running the parent's destructors.
        unsafe { libc::_exit(code) };
    }
    let mut status = 0;
    // SAFETY: waits for the child just forked.
    unsafe { libc::waitpid(pid, &mut status, 0) };
    if libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0 {
        Ok(())
    } else if libc::WIFSIGNALED(status) {
        Err(format!(
            "killed by signal {} (timeout?)",
            libc::WTERMSIG(status)
        ))
    } else {
        Err(String::new())
    }
}

fn main() {
    let wanted: Vec<String> = std::env::args().skip(1).collect();
    let mut tests = Vec::new();
    tests.extend(reversi::base_tests());
    tests.extend(reversi::tests());
    tests.extend(chess::tests());
    tests.extend(kxo::tests());
    tests.extend(kxo_poll::tests());
    tests.extend(kxo_pairing::tests());
    tests.extend(kxo_agents::tests());
    tests.extend(othello::tests());
    tests.extend(stress::tests());
    tests.extend(fairness::tests());
    tests.extend(stress64::tests());
    tests.extend(faults::tests());
    tests.extend(hostile::tests());
    tests.extend(bounds::tests());
    tests.extend(sysfuzz::tests());
    // Suites that run only when named: minutes long (`make stress`), for the debug kernel
    // only (`make check-debug`), or with other module parameters (chess_classic:
    // chess_eval=0, chess_plain: chess_simd=0, loaded so by tests/selftests/kgames/module.sh;
    // limits: max_user_games=2
    // test_idle_evict_ms=5000 test_alloc_delay_ms=1000, loaded so by module.sh too;
    // open_race and sysfuzz: loads of their own).
    const ON_REQUEST: [&str; 9] = [
        "stress64",
        "faults",
        "faults_trace",
        "chess_classic",
        "chess_plain",
        "open_race",
        "sysfuzz",
        "ring_size",
        "limits",
    ];
    tests.retain(|t| {
        if wanted.is_empty() {
            !ON_REQUEST.contains(&t.suite)
        } else {
            wanted.iter().any(|w| w == t.suite)
        }
    });
    // KGAMES_TEST_MATCH=text: only the tests whose name contains `text` (for a quick rerun).
    if let Ok(m) = std::env::var("KGAMES_TEST_MATCH") {
        tests.retain(|t| t.name.contains(m.as_str()));
    }
    println!("TAP version 13");
    println!("1..{}", tests.len());
    let mut failed = 0;
    for (i, t) in tests.iter().enumerate() {
        match run_one(t) {
            Ok(()) => println!("ok {} - {}: {}", i + 1, t.suite, t.name),
            Err(e) => {
                failed += 1;
                if !e.is_empty() {
                    println!("# {e}");
                }
                println!("not ok {} - {}: {}", i + 1, t.suite, t.name);
            }
        }
    }
    println!("# {} passed, {} failed", tests.len() - failed, failed);
    std::process::exit(i32::from(failed > 0));
}
