//! `chess-ladder`: plays our UCI engine against Stockfish at a list of `Skill Level`s, a
//! fixed time per move, from fixed varied openings (or seeded random plies) with colours
//! alternated, adjudicating by the rules of chess (mate, stalemate, insufficient material,
//! fifty moves, threefold repetition) and, when asked, a draw at a ply limit, and prints
//! per level wins, draws, losses, the score and the Elo difference with its 95% margin.
//! See docs/tools/uci.md.

mod depths;

mod openings;

mod speed;

use chess_lab::bench::FENS;
use chess_lab::stockfish::find_stockfish;
use clap::{Parser, ValueEnum};
use depths::Depths;
use kgames_chess::game::{Game, Outcome};
use kgames_chess::notation::parse_uci;
use kgames_chess::square::Color;
use kgames_lab_stats::Tally;
use kgames_test_support::uci::{last_depth, Client};
use std::path::Path;
use std::time::Duration;

/// Plays kgames-uci against Stockfish's skill levels (or another UCI engine) and prints the
/// wins, draws, losses and Elo difference per level.
#[derive(Parser, Debug)]
#[command(name = "chess-ladder", version)]
struct Args {
    /// Our engine's command line (default: `kgames-uci --host` of `--build`; `kgames-uci`
    /// alone plays through /dev/chess).
    #[arg(long)]
    engine: Option<String>,
    /// The build of our default engine: `host` (the program next to this one, else the
    /// product's `target/release/kgames-uci`, else on PATH) or `kernel-like` (built with the
    /// kernel's codegen flags by lab/scripts/kernel-like.sh: the speed /dev/chess plays at);
    /// with `kernel-like` the speed line also gives the host build's and the factor.
    #[arg(long, value_enum, default_value_t = Build::Host)]
    build: Build,
    /// Our engine's table in MiB (UCI `Hash`, also given to `--opponent`; default 1 with
    /// `--build kernel-like`, the size of /dev/chess's table with the default `tt_entries`,
    /// else 16, Stockfish's).
    #[arg(long)]
    hash: Option<u32>,
    /// Nodes per position of the speed measurement before the games (0: none).
    #[arg(long, default_value_t = speed::NODES)]
    speed_nodes: u64,
    /// The Stockfish program (default: `stockfish` on PATH, else /usr/games/stockfish).
    #[arg(long)]
    stockfish: Option<String>,
    /// Stockfish `Skill Level`s, comma-separated (0-20).
    #[arg(long, value_delimiter = ',', default_value = "0,3,5,10")]
    levels: Vec<u32>,
    /// Games per level (colours alternate; pairs share an opening).
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// Milliseconds per move for both engines.
    #[arg(long, default_value_t = 100)]
    movetime: u64,
    /// Our engine searches this many nodes per move instead of `movetime` (0: off).
    #[arg(long, default_value_t = 0)]
    nodes: u64,
    /// Play against this UCI engine command instead of Stockfish (self-play: the previous
    /// version), once, with `--nodes` for both when given; prints the SPRT(0, 10) status.
    #[arg(long)]
    opponent: Option<String>,
    /// The first opening used (to continue a ladder with other openings).
    #[arg(long, default_value_t = 0)]
    first_opening: usize,
    /// Openings of this many random legal plies from the start position (opening k seeded
    /// by k) instead of the named openings (0: the named ones).
    #[arg(long, default_value_t = 0)]
    random_plies: u32,
    /// Adjudicates a draw once a game has this many plies, the opening's included (0: only
    /// the rules end a game).
    #[arg(long, default_value_t = 0)]
    max_plies: usize,
    /// Print every game's moves.
    #[arg(long)]
    verbose: bool,
}

/// The table of a /dev/chess search context with the module's default `tt_entries` (65536
/// entries of 16 bytes), in MiB: what `--build kernel-like` plays with.
const KERNEL_TABLE_MIB: u32 = 1;

/// Which build of `kgames-uci` plays when `--engine` is not given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Build {
    /// The host's codegen (SSE2, vectorised loops).
    Host,
    /// The kernel's codegen flags: no SSE or AVX, soft-float.
    KernelLike,
}

/// How one game ended, from our side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Result3 {
    Win,
    Draw,
    Loss,
}

/// `kgames-uci --host` of `build`.
fn default_engine(build: Build) -> Result<String, String> {
    // The lab's folder in this checkout.
    let lab = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    if build == Build::KernelLike {
        let program = lab.join("lab/target/kernel-like/release/kgames-uci");
        if !program.is_file() {
            return Err(format!(
                "no kernel-like build at {} (bash lab/scripts/kernel-like.sh builds it)",
                program.display()
            ));
        }
        return Ok(format!("{} --host", program.display()));
    }
    let exe = std::env::current_exe().unwrap_or_default();
    let sibling = exe.with_file_name("kgames-uci");
    let product = lab.join("target/release/kgames-uci");
    let program = [sibling, product]
        .into_iter()
        .find(|p| p.is_file())
        .map_or_else(
            || "kgames-uci".to_string(),
            |p| p.to_string_lossy().into_owned(),
        );
    Ok(format!("{program} --host"))
}

/// The speed line: our engine's nodes a second through UCI and, for the kernel-like build,
/// the host build's measured the same way and the factor between them.
fn speed_line(ours: &mut Client, args: &Args) -> Result<String, String> {
    let k = |nps: f64| format!("{:.0} k nodes/s", nps / 1000.0);
    let nps = speed::nodes_per_second(ours, args.speed_nodes)?;
    let build = match (&args.engine, args.build) {
        (Some(_), _) => "--engine",
        (None, Build::Host) => "host build",
        (None, Build::KernelLike) => "kernel-like build",
    };
    let mut line = format!("speed: ours {} ({build})", k(nps));
    if args.build == Build::KernelLike {
        let mut host = Client::start(&default_engine(Build::Host)?, &[])?;
        let host_nps = speed::nodes_per_second(&mut host, args.speed_nodes)?;
        line += &format!(
            ", host build {}: factor {:.2}",
            k(host_nps),
            nps / host_nps.max(1.0)
        );
    }
    Ok(line + &format!(" ({} positions x {} nodes)", FENS.len(), args.speed_nodes))
}

/// Plays one game; `ours_white` decides the colours. Returns the result, why, and the moves;
/// the depth of each move of the opponent (its last `info depth`) goes into `depths`.
fn play_game(
    ours: &mut Client,
    theirs: &mut Client,
    opening: &str,
    ours_white: bool,
    args: &Args,
    depths: &mut Depths,
) -> Result<(Result3, String, Vec<String>), String> {
    let mut game = Game::new();
    let mut moves: Vec<String> = Vec::new();
    for m in opening.split_whitespace() {
        let mv = parse_uci(game.position(), m.as_bytes())
            .map_err(|_| format!("bad opening move {m}"))?;
        game.play(mv);
        moves.push(m.to_string());
    }
    ours.send("ucinewgame")?;
    theirs.send("ucinewgame")?;
    ours.ready()?;
    theirs.ready()?;
    let ours_go = if args.nodes > 0 {
        format!("nodes {}", args.nodes)
    } else {
        format!("movetime {}", args.movetime)
    };
    let theirs_go = if args.opponent.is_some() {
        ours_go.clone()
    } else {
        format!("movetime {}", args.movetime)
    };
    // Generous: a slow emulated CPU, a loaded machine. Beyond it the silent side forfeits.
    let patience = Duration::from_millis(args.movetime * 20 + 30_000);
    while !game.is_over() {
        if args.max_plies > 0 && moves.len() >= args.max_plies {
            return Ok((Result3::Draw, "ply limit".to_string(), moves));
        }
        let white_to_move = game.position().turn() == Color::White;
        let ours_to_move = white_to_move == ours_white;
        let (client, go) = if ours_to_move {
            (&mut *ours, &ours_go)
        } else {
            (&mut *theirs, &theirs_go)
        };
        let answer = client
            .best_move_lines(&moves, go, patience)
            .map(|(mv, lines)| {
                if !ours_to_move {
                    depths.add(last_depth(&lines));
                }
                mv
            });
        let legal = answer
            .as_ref()
            .ok()
            .and_then(|text| parse_uci(game.position(), text.as_bytes()).ok());
        let Some(mv) = legal else {
            let why = match answer {
                Ok(text) => format!("{} played an illegal move {text}", client.name()),
                Err(e) => e,
            };
            let result = if ours_to_move {
                Result3::Loss
            } else {
                Result3::Win
            };
            return Ok((result, why, moves));
        };
        moves.push(answer.unwrap_or_default());
        game.play(mv);
    }
    let (result, why) = match game.outcome() {
        Some(Outcome::Checkmate { winner }) => {
            let ours_won = (winner == Color::White) == ours_white;
            let r = if ours_won {
                Result3::Win
            } else {
                Result3::Loss
            };
            (r, "checkmate".to_string())
        }
        Some(Outcome::Draw(reason)) => (Result3::Draw, format!("{reason:?}")),
        Some(Outcome::Resignation { .. }) | None => (Result3::Draw, "no result".to_string()),
    };
    Ok((result, why, moves))
}

fn run() -> Result<(), String> {
    let args = Args::parse();
    let stockfish = match &args.opponent {
        Some(cmd) => cmd.clone(),
        None => find_stockfish(args.stockfish.clone()).ok_or(
            "stockfish not found (scripts/setup-toolchain.sh installs it); use --stockfish",
        )?,
    };
    let levels = if args.opponent.is_some() {
        vec![0]
    } else {
        args.levels.clone()
    };
    let engine = match &args.engine {
        Some(cmd) => cmd.clone(),
        None => default_engine(args.build)?,
    };
    let hash = args.hash.unwrap_or(match args.build {
        Build::KernelLike => KERNEL_TABLE_MIB,
        Build::Host => 16,
    });
    let ours_options = [("Hash".to_string(), hash.to_string())];
    let mut ours = Client::start(&engine, &ours_options)?;
    let budget = if args.nodes > 0 && args.opponent.is_some() {
        format!("{} nodes (both)", args.nodes)
    } else if args.nodes > 0 {
        format!(
            "{} nodes (ours) / {} ms (Stockfish)",
            args.nodes, args.movetime
        )
    } else {
        format!("{} ms", args.movetime)
    };
    println!(
        "{} vs {stockfish}: {} games per level, {budget} per move, our table {hash} MiB",
        ours.name(),
        args.games
    );
    if args.speed_nodes > 0 {
        println!("{}", speed_line(&mut ours, &args)?);
    }
    let mut table = Vec::new();
    for &level in &levels {
        let options = [
            ("Threads".to_string(), "1".to_string()),
            ("Hash".to_string(), "16".to_string()),
            ("Skill Level".to_string(), level.min(20).to_string()),
        ];
        let mut theirs = match &args.opponent {
            Some(cmd) => Client::start(cmd, &ours_options)?,
            None => Client::start(&stockfish, &options)?,
        };
        let mut tally = Tally::default();
        // Stockfish's Skill Level L picks its move when the iteration of depth L + 1 ends:
        // a shallower search plays a weaker level than its number.
        let mut depths = Depths::default();
        let needed = (args.opponent.is_none() && level < 20).then_some(level + 1);
        for g in 0..args.games {
            let k = args.first_opening + g as usize / 2;
            let (name, opening) = if args.random_plies > 0 {
                openings::random(k, args.random_plies)
            } else {
                openings::opening(k)
            };
            let ours_white = g % 2 == 0;
            let before = depths;
            let (result, why, moves) = play_game(
                &mut ours,
                &mut theirs,
                &opening,
                ours_white,
                &args,
                &mut depths,
            )?;
            match result {
                Result3::Win => tally.wins += 1,
                Result3::Draw => tally.draws += 1,
                Result3::Loss => tally.losses += 1,
            }
            println!(
                "level {level:>2} game {:>3} {:<24} ours {} {:?} ({why}, {} plies, their depth {})",
                g + 1,
                name,
                if ours_white { "white" } else { "black" },
                result,
                moves.len(),
                depths.since(&before).mean_text()
            );
            if args.verbose {
                println!("  {}", moves.join(" "));
            }
        }
        println!("level {level:>2}: {}", depths.summary(needed));
        if let Some(warning) = needed.and_then(|d| depths.warning(d)) {
            println!("warning: {warning}");
        }
        table.push((level, tally));
    }
    println!();
    if args.opponent.is_some() {
        if let Some((_, t)) = table.first() {
            let llr = t.llr(0.0, 10.0);
            let verdict = if llr >= kgames_lab_stats::SPRT_BOUNDS.1 {
                "H1 accepted (at least +10 Elo)"
            } else if llr <= kgames_lab_stats::SPRT_BOUNDS.0 {
                "H0 accepted (not better)"
            } else {
                "undecided"
            };
            println!(
                "SPRT(0, 10): LLR {llr:.2} in ({:.2}, {:.2}): {verdict}",
                kgames_lab_stats::SPRT_BOUNDS.0,
                kgames_lab_stats::SPRT_BOUNDS.1
            );
        }
    }
    println!("| Skill Level | games | wins | draws | losses | score | Elo diff |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for (level, t) in &table {
        let elo = match t.elo() {
            Some((e, m)) if e.is_finite() => format!("{e:+.0} +- {m:.0}"),
            Some((e, _)) => format!("{}inf", if e > 0.0 { "+" } else { "-" }),
            None => "-".to_string(),
        };
        println!(
            "| {level} | {} | {} | {} | {} | {:.1}% | {elo} |",
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            t.percent()
        );
    }
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("chess-ladder: {e}");
        std::process::exit(1);
    }
}
