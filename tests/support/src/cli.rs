//! For the tools' own tests: every program in `user/` answers `--help` and `--version` with
//! its own text and refuses an unknown option with its usage and exit status 2.

use std::process::{Command, Output};

fn run(exe: &str, arg: &str) -> (Output, String, String) {
    let o = Command::new(exe)
        .arg(arg)
        .output()
        .unwrap_or_else(|e| panic!("{exe} {arg}: {e}"));
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    );
    (o, out, err)
}

/// Runs `exe` with `--help` (status 0, `Usage:` and `name` on standard output, plus each of
/// `about_words`), `--version` (status 0, `name` and a version number) and `--bogus`
/// (status 2, the usage on standard error, nothing on standard output). Panics with what was
/// seen otherwise.
pub fn check_standard_options(exe: &str, name: &str, about_words: &[&str]) {
    let (o, out, err) = run(exe, "--help");
    assert_eq!(o.status.code(), Some(0), "{name} --help: {err}");
    assert!(out.contains("Usage:"), "{name} --help:\n{out}");
    assert!(
        out.contains(name),
        "{name} --help names the program:\n{out}"
    );
    for w in about_words {
        assert!(out.contains(w), "{name} --help says {w:?}:\n{out}");
    }
    let (o, out, err) = run(exe, "--version");
    assert_eq!(o.status.code(), Some(0), "{name} --version: {err}");
    let version = out
        .trim_end()
        .strip_prefix(name)
        .and_then(|v| v.strip_prefix(' '));
    assert!(
        version.is_some_and(
            |v| v.split('.').count() == 3 && v.split('.').all(|n| n.parse::<u32>().is_ok())
        ),
        "{name} --version: `{name} X.Y.Z`:\n{out}"
    );
    let (o, out, err) = run(exe, "--bogus");
    assert_eq!(o.status.code(), Some(2), "{name} --bogus: {out}{err}");
    assert!(
        out.is_empty(),
        "{name} --bogus printed on standard output:\n{out}"
    );
    assert!(
        err.contains("--bogus") && err.contains("Usage:") && err.contains(name),
        "{name} --bogus: the usage on standard error:\n{err}"
    );
}
