//! A UCI engine as a child process, as a GUI drives it: start it, send lines, read its
//! answers with a timeout (the ladder, the protocol tests and the in-VM tests use it).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A running UCI engine.
pub struct Client {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Client {
    /// Starts `program` with `args` without any handshake (its standard error is
    /// inherited).
    pub fn spawn(program: &str, args: &[&str]) -> Result<Client, String> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Client {
            name: program.to_string(),
            child,
            stdin,
            lines,
        })
    }

    /// Starts `command` (split on whitespace: the program, then its arguments) and runs the
    /// `uci` handshake, then sets `options` (`name`, `value`) and waits for `readyok`.
    pub fn start(command: &str, options: &[(String, String)]) -> Result<Client, String> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or("empty engine command")?;
        let args: Vec<&str> = words.collect();
        let mut client = Client::spawn(program, &args)?;
        client.send("uci")?;
        let handshake = client.until("uciok", Duration::from_secs(30))?;
        if let Some(id) = handshake.iter().find_map(|l| l.strip_prefix("id name ")) {
            client.name = id.to_string();
        }
        for (name, value) in options {
            client.send(&format!("setoption name {name} value {value}"))?;
        }
        client.ready()?;
        Ok(client)
    }

    /// The engine's `id name`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("{}: {e}", self.name))
    }

    /// `isready` until `readyok`.
    pub fn ready(&mut self) -> Result<(), String> {
        self.send("isready")?;
        self.until("readyok", Duration::from_secs(30)).map(drop)
    }

    /// Reads lines until one starts with `prefix`; returns them, that one last.
    pub fn until(&mut self, prefix: &str, patience: Duration) -> Result<Vec<String>, String> {
        let deadline = Instant::now() + patience;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .map_err(|e| format!("{}: no {prefix} ({e})", self.name))?;
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return Ok(seen);
            }
        }
    }

    /// Fails if a line starting with `prefix` arrives within `wait` (or the engine ends).
    pub fn none_within(&mut self, prefix: &str, wait: Duration) -> Result<(), String> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => {
                    return Err(format!("{}: unexpected {line:?}", self.name))
                }
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Ok(()),
                Err(e) => return Err(format!("{}: gone ({e})", self.name)),
            }
        }
    }

    /// Reads until `bestmove`; returns its move and every line read.
    pub fn bestmove(&mut self, patience: Duration) -> Result<(String, Vec<String>), String> {
        let lines = self.until("bestmove", patience)?;
        let last = lines.last().map(String::as_str).unwrap_or("");
        let mv = last
            .split_whitespace()
            .nth(1)
            .map(str::to_string)
            .ok_or_else(|| format!("{}: malformed {last:?}", self.name))?;
        Ok((mv, lines))
    }

    /// Sends `quit` and waits (at most `patience`) for the program to exit; its status.
    pub fn quit(&mut self, patience: Duration) -> Result<std::process::ExitStatus, String> {
        self.send("quit")?;
        let deadline = Instant::now() + patience;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Ok(status);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Err(format!("{}: did not quit", self.name))
    }

    /// Asks for a move in the position `startpos moves <moves>` with `go <go>`; returns the
    /// move text of `bestmove`.
    pub fn best_move(
        &mut self,
        moves: &[String],
        go: &str,
        patience: Duration,
    ) -> Result<String, String> {
        self.best_move_lines(moves, go, patience).map(|(mv, _)| mv)
    }

    /// [`Client::best_move`], with every line the engine printed for it (its `info` lines).
    pub fn best_move_lines(
        &mut self,
        moves: &[String],
        go: &str,
        patience: Duration,
    ) -> Result<(String, Vec<String>), String> {
        let mut position = String::from("position startpos");
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        self.send(&position)?;
        self.send(&format!("go {go}"))?;
        self.bestmove(patience)
    }
}

/// The depth of the last `info depth N` line among `lines` (the deepest iteration the engine
/// finished or started for its move); `None` when it printed none.
pub fn last_depth(lines: &[String]) -> Option<u32> {
    lines.iter().rev().find_map(|l| {
        let mut words = l.split_whitespace();
        (words.next() == Some("info") && words.next() == Some("depth"))
            .then(|| words.next()?.parse().ok())
            .flatten()
    })
}

impl Drop for Client {
    /// Asks the engine to quit, and kills it if it does not within 2 s (a failed test or
    /// match never leaves a searching engine behind).
    fn drop(&mut self) {
        if self.quit(Duration::from_secs(2)).is_err() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::last_depth;

    #[test]
    fn the_last_info_depth_counts() {
        let lines: Vec<String> = [
            "info depth 9 seldepth 12 multipv 1 score cp 31 nodes 9000 pv e2e4",
            "info depth 10 seldepth 14 multipv 1 score cp 28 nodes 21000 pv e2e4",
            "info depth 10 currmove d2d4 currmovenumber 2",
            "info string skill pick",
            "bestmove e2e4",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(last_depth(&lines), Some(10));
        assert_eq!(last_depth(&lines[3..]), None);
    }
}
