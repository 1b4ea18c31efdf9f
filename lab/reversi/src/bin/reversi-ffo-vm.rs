//! `reversi-ffo-vm [--device] [NODES | <MS>ms] [TT_ENTRIES]`: FFO #40 and #41 played by the CPU
//! through the session layer with a node budget (`10` setup, `05 N<NODES>`, `03`) or a time
//! budget (`05 <MS>`, on the real clock on both sides), printing per
//! position the move (`06`), the `score=` of `09` (marked `!` when exact), and the time of the
//! `03`. Without `--device` the session runs in this process (the host side of the bench);
//! with it, on a private game of `/dev/reversi` (the VM side). Under a node budget the search
//! is deterministic, so both sides must print the same moves and scores when the table sizes
//! match (TT_ENTRIES, default 65536, is the module's `tt_entries`). lab/scripts/reversi-vm-bench.sh
//! runs both and prints the time ratio.

#[path = "../../../../src/reversi/tests/data/ffo.rs"]
#[allow(dead_code)]
mod ffo_data;

use std::time::{Duration, Instant};

use kgames_client::{Budget, Device, InProcess, Request, Response, Sharing, Transport, Word};
use kgames_session::session::reversi_game::Reversi;

/// One request and its reply, with the time it took.
fn send(side: &dyn Transport, r: Request<'_>) -> Result<(Response, Duration), String> {
    let t0 = Instant::now();
    let reply = side
        .send(r)
        .map_err(|e| format!("{}: {e}", kgames_client::protocol::encode(&r)))?;
    Ok((reply, t0.elapsed()))
}

fn run() -> Result<(), String> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let device = args.first().is_some_and(|a| a == "--device");
    if device {
        args.remove(0);
    }
    let budget = match args.first() {
        Some(a) => match a.strip_suffix("ms") {
            Some(ms) => Budget::parse(ms.as_bytes()),
            None => Budget::parse(format!("N{a}").as_bytes()),
        }
        .ok_or(format!(
            "{a}: a node count, or milliseconds with ms (1000ms)"
        ))?,
        None => Budget::Nodes(200_000_000),
    };
    let entries: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(65_536);
    let where_ = if device { "device" } else { "host" };
    for case in &ffo_data::FFO_40_44[..2] {
        let side: Box<dyn Transport> = if device {
            Box::new(Device::open("/dev/reversi", Sharing::Private).map_err(|e| e.to_string())?)
        } else {
            Box::new(InProcess::<Reversi>::new(entries))
        };
        // The side to move is the CPU: the human takes the other colour.
        let cpu = case.setup[65];
        let human = if cpu == b'X' { "O" } else { "X" };
        let setup = String::from_utf8_lossy(case.setup);
        for r in [
            Request::New(human),
            Request::Setup(&setup),
            Request::Budget(budget),
        ] {
            let (reply, _) = send(&*side, r)?;
            reply.expect(r, &[Word::Ok]).map_err(|e| e.to_string())?;
        }
        let (r, took) = send(&*side, Request::CpuMove)?;
        if r.word() != Some(Word::Ok) {
            return Err(format!("03 -> {:?}", r.text()));
        }
        let (mv, _) = send(&*side, Request::LastMove)?;
        let (status, _) = send(&*side, Request::Status)?;
        let score = status.status().get("score").unwrap_or("?").to_string();
        let mv = mv.line();
        println!(
            "{where_} ffo {} ({}): move {mv} score={score} in {} ms (exact: {:+} {})",
            case.name,
            kgames_client::protocol::budget_arg(budget),
            took.as_millis(),
            case.score,
            String::from_utf8_lossy(case.best[0]),
        );
    }
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("reversi-ffo-vm: {e}");
        std::process::exit(1);
    }
}
