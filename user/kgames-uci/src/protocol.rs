//! Parsing UCI command lines into [`Command`]s (no engine state here).

/// The limits of one `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// White's and black's remaining time in ms.
    pub wtime: Option<u64>,
    /// Black's remaining time in ms.
    pub btime: Option<u64>,
    /// White's increment per move in ms.
    pub winc: Option<u64>,
    /// Black's increment per move in ms.
    pub binc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u64>,
    /// Exactly this many ms for this move.
    pub movetime: Option<u64>,
    /// At most this many nodes.
    pub nodes: Option<u64>,
    /// At most this many plies of iterative deepening.
    pub depth: Option<u64>,
    /// Search until `stop` (also `ponder`: treated alike).
    pub infinite: bool,
}

/// One line from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`
    Uci,
    /// `isready`
    IsReady,
    /// `ucinewgame`
    NewGame,
    /// `position startpos|fen <6 fields> [moves ...]`: `fen` is `None` for the start position.
    Position {
        /// The FEN's fields joined by spaces.
        fen: Option<String>,
        /// The moves in UCI notation.
        moves: Vec<String>,
    },
    /// `go ...`
    Go(Go),
    /// `stop`
    Stop,
    /// `ponderhit`: ignored (`go ponder` searches like `go infinite` until `stop`).
    PonderHit,
    /// `quit`
    Quit,
    /// `setoption name <name> [value <value>]`
    SetOption {
        /// The option's name (case kept, compared case-insensitively).
        name: String,
        /// Its value, if given.
        value: Option<String>,
    },
    /// `debug on|off`, `register ...`: accepted and ignored.
    Ignored,
    /// An empty line.
    Empty,
}

/// Parses one line; `Err` carries the message for `info string`.
pub fn parse(line: &str) -> Result<Command, String> {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Ok(Command::Empty);
    };
    let rest: Vec<&str> = words.collect();
    match first {
        "uci" => Ok(Command::Uci),
        "isready" => Ok(Command::IsReady),
        "ucinewgame" => Ok(Command::NewGame),
        "position" => parse_position(&rest),
        "go" => parse_go(&rest).map(Command::Go),
        "stop" => Ok(Command::Stop),
        "ponderhit" => Ok(Command::PonderHit),
        "quit" => Ok(Command::Quit),
        "setoption" => parse_setoption(&rest),
        "debug" | "register" => Ok(Command::Ignored),
        other => Err(format!("unknown command: {}", clip(other))),
    }
}

/// At most 40 characters of `s`, for messages about bad input.
pub fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

fn parse_position(rest: &[&str]) -> Result<Command, String> {
    let (fen, after) = match rest.split_first() {
        Some((&"startpos", after)) => (None, after),
        Some((&"fen", after)) => {
            let end = after
                .iter()
                .position(|&w| w == "moves")
                .unwrap_or(after.len());
            let (fields, tail) = after.split_at(end);
            if fields.is_empty() {
                return Err("position fen: missing FEN".into());
            }
            (Some(fields.join(" ")), tail)
        }
        _ => return Err("position: expected startpos or fen".into()),
    };
    let moves = match after.split_first() {
        None => Vec::new(),
        Some((&"moves", list)) => list.iter().map(|m| m.to_string()).collect(),
        Some((w, _)) => return Err(format!("position: unexpected {}", clip(w))),
    };
    Ok(Command::Position { fen, moves })
}

fn parse_go(rest: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut words = rest.iter();
    while let Some(&w) = words.next() {
        let slot = match w {
            "wtime" => &mut go.wtime,
            "btime" => &mut go.btime,
            "winc" => &mut go.winc,
            "binc" => &mut go.binc,
            "movestogo" => &mut go.movestogo,
            "movetime" => &mut go.movetime,
            "nodes" => &mut go.nodes,
            "depth" => &mut go.depth,
            "infinite" | "ponder" => {
                go.infinite = true;
                continue;
            }
            "mate" | "searchmoves" => return Err(format!("go: {w} is not supported")),
            other => return Err(format!("go: unknown parameter {}", clip(other))),
        };
        let Some(value) = words.next() else {
            return Err(format!("go: {w} needs a number"));
        };
        // Clocks may go negative in some GUIs: read them as 0.
        let n = match value.parse::<i64>() {
            Ok(n) => n.max(0) as u64,
            Err(_) => return Err(format!("go: {w} needs a number, not {}", clip(value))),
        };
        *slot = Some(n);
    }
    Ok(go)
}

fn parse_setoption(rest: &[&str]) -> Result<Command, String> {
    let Some((&"name", after)) = rest.split_first() else {
        return Err("setoption: expected name".into());
    };
    let split = after.iter().position(|&w| w == "value");
    let (name, value) = match split {
        Some(i) => (&after[..i], Some(after[i + 1..].join(" "))),
        None => (after, None),
    };
    if name.is_empty() {
        return Err("setoption: empty name".into());
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands() {
        assert_eq!(parse("uci"), Ok(Command::Uci));
        assert_eq!(parse("  "), Ok(Command::Empty));
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Ok(Command::Position {
                fen: None,
                moves: vec!["e2e4".into(), "e7e5".into()]
            })
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1"),
            Ok(Command::Position {
                fen: Some("8/8/8/8/8/8/8/K1k5 w - - 0 1".into()),
                moves: vec![]
            })
        );
        assert_eq!(
            parse("go wtime 1000 btime 900 winc 10 binc 10 movestogo 5"),
            Ok(Command::Go(Go {
                wtime: Some(1000),
                btime: Some(900),
                winc: Some(10),
                binc: Some(10),
                movestogo: Some(5),
                ..Go::default()
            }))
        );
        assert_eq!(
            parse("go infinite"),
            Ok(Command::Go(Go {
                infinite: true,
                ..Go::default()
            }))
        );
        assert_eq!(
            parse("setoption name Hash value 32"),
            Ok(Command::SetOption {
                name: "Hash".into(),
                value: Some("32".into())
            })
        );
    }

    #[test]
    fn rejects_bad_lines() {
        for bad in [
            "xyzzy",
            "position",
            "position foo",
            "position fen",
            "position startpos e2e4",
            "go depth",
            "go depth x",
            "go sideways 3",
            "setoption",
            "setoption name",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse("go wtime -5"),
            Ok(Command::Go(Go {
                wtime: Some(0),
                ..Go::default()
            }))
        );
    }
}
