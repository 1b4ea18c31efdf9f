//! The TAP lines of the tmux test programs (`ok - NAME`, `not ok - NAME` and the detail as
//! `# ` comments), which tests/selftests/kgames/terminal.sh folds into its TAP.

use std::io::Write;

/// Counts failed checks while printing each one.
#[derive(Debug, Default)]
pub struct Tap {
    /// Checks that failed so far.
    pub failed: usize,
}

impl Tap {
    /// Prints one check; on failure also `detail`, one `# ` line per line. Returns `ok`.
    pub fn check(&mut self, ok: bool, name: &str, detail: &str) -> bool {
        if ok {
            println!("ok - {name}");
        } else {
            self.failed += 1;
            println!("not ok - {name}");
            for l in detail.lines() {
                println!("# {l}");
            }
        }
        let _ = std::io::stdout().flush();
        ok
    }
}
