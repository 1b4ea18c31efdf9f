//! A panic inside the full screen restores the terminal (the panic hook; no destructor runs,
//! as in the release profile's `panic = "abort"`). The test runs this test binary again, in
//! tmux, as the child that panics.

use std::time::Duration;

use kgames_term::screen::Screen;
use kgames_test_support::tmux::Tmux;

const CHILD: &str = "KGAMES_TERM_PANIC_CHILD";

#[test]
fn child_panics_in_the_screen() {
    if std::env::var_os(CHILD).is_none() {
        return; // only as the child below
    }
    let screen = Screen::enter().unwrap();
    std::mem::forget(screen); // no destructor: only the panic hook can restore
    panic!("a deliberate panic in the full screen");
}

#[test]
fn a_panic_restores_the_terminal() {
    if !Tmux::available() {
        eprintln!("skipped: tmux is not installed");
        return;
    }
    let exe = std::env::current_exe().unwrap();
    let argv: Vec<String> = vec![
        "env".into(),
        format!("{CHILD}=1"),
        "RUST_BACKTRACE=0".into(),
        exe.to_string_lossy().into(),
        "--exact".into(),
        "child_panics_in_the_screen".into(),
        "--nocapture".into(),
    ];
    let dir = std::env::temp_dir().join(format!("kgames-term-panic-{}", std::process::id()));
    let t = Tmux::start_watched(&dir, 100, 20, &argv).unwrap();
    let o = t.wait_outcome(Duration::from_secs(20)).unwrap();
    let screen = t.capture().unwrap();
    assert_ne!(o.status, 0, "{screen}");
    assert!(o.restored(), "{o:?}\n{screen}");
    assert!(
        screen.contains("a deliberate panic in the full screen"),
        "{screen}"
    );
    drop(t);
    let _ = std::fs::remove_dir_all(&dir);
}
