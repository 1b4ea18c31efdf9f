//! Child processes running as another uid, for the suites that need many users at once.

use crate::{ensure, Outcome};

/// Forks a child that switches to `uid` (and gid) and runs `f`; returns its pid. The child
/// prints `f`'s error as a TAP comment and exits 1 on failure.
pub fn spawn_as(uid: u32, f: impl FnOnce() -> Outcome) -> Result<libc::pid_t, String> {
    // SAFETY: the child runs `f` and exits without returning.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err("fork failed".into());
    }
    if pid == 0 {
        // SAFETY: plain libc calls in the child.
        let ok = unsafe { libc::setgid(uid) == 0 && libc::setuid(uid) == 0 };
        let r = if ok {
            f()
        } else {
            Err(format!("setuid({uid})"))
        };
        if let Err(e) = &r {
            println!("# uid {uid}: {e}");
        }
        // SAFETY: ends the child.
        unsafe { libc::_exit(i32::from(r.is_err())) };
    }
    Ok(pid)
}

/// Waits for `pid`; `Ok` if it exited with status 0.
pub fn wait_ok(pid: libc::pid_t) -> Outcome {
    let mut st = 0;
    // SAFETY: waits for a child of this process.
    unsafe { libc::waitpid(pid, &mut st, 0) };
    ensure!(
        libc::WIFEXITED(st) && libc::WEXITSTATUS(st) == 0,
        "child {pid} failed (status {st:#x})"
    );
    Ok(())
}

/// Kills `pid` with SIGKILL and reaps it.
pub fn kill(pid: libc::pid_t) {
    // SAFETY: signals and reaps a child of this process.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
        libc::waitpid(pid, std::ptr::null_mut(), 0);
    }
}

/// A pipe: `[read end, write end]`.
pub fn pipe() -> Result<[libc::c_int; 2], String> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors.
    ensure!(unsafe { libc::pipe(fds.as_mut_ptr()) } == 0, "pipe failed");
    Ok(fds)
}
