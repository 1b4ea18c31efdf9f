//! Host mode: the engine crate in-process, searching in a thread with a stop flag.

use crate::engine::{
    any_legal_move, bestmove_line, search_over, send, uci, Engine, Info, SearchRequest, Setup,
};
use crate::timeman::Limit;
use kgames_chess::common::budget::{Budget, Meter, NeverInterrupt};
use kgames_chess::continuation::CONTINUATION_ENTRIES;
use kgames_chess::correction::CORRECTION_ENTRIES;
use kgames_chess::game::Game;
use kgames_chess::moves::Move;
use kgames_chess::nnue::{Accumulator, Network};
use kgames_chess::search::{
    best_move_observed, History, Observer, Ply, SearchContext, SearchInfo, SearchResult, TtEntry,
    MAX_PLY,
};
use kgames_client::WallClock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The search memory one game owns: the table and the history (kept between the moves of a
/// game when `keep_table` is on, cleared by `ucinewgame`) and the per-ply storage.
struct Memory {
    tt: Vec<TtEntry>,
    plies: Vec<Ply>,
    history: Box<History>,
    accs: Vec<Accumulator>,
    /// The correction history's table (kept and cleared with the history).
    correction: Vec<i16>,
    /// The continuation history's table (kept and cleared with the history).
    continuation: Vec<i16>,
}

/// The in-process engine.
pub struct Host {
    memory: Option<Memory>,
    worker: Option<JoinHandle<Memory>>,
    stop: Arc<AtomicBool>,
    /// Set by the search thread just before it prints `bestmove`: from then on the search is
    /// over for the GUI, even while the thread is still handing its memory back.
    answered: Arc<AtomicBool>,
    tt_entries: usize,
    keep_table: bool,
    net: Option<Network<'static>>,
}

impl Host {
    /// An engine with a `hash_mb` MiB table; `keep_table` keeps it between moves of a game;
    /// `net` evaluates instead of the classic evaluation when given.
    pub fn new(hash_mb: u64, keep_table: bool, net: Option<Network<'static>>) -> Host {
        let mut host = Host {
            memory: None,
            worker: None,
            stop: Arc::new(AtomicBool::new(false)),
            answered: Arc::new(AtomicBool::new(false)),
            tt_entries: 0,
            keep_table,
            net,
        };
        host.tt_entries = entries_for(hash_mb);
        host
    }

    fn memory(&mut self) -> Memory {
        match self.memory.take() {
            Some(m) if m.tt.len() == self.tt_entries => m,
            _ => Memory {
                tt: vec![TtEntry::EMPTY; self.tt_entries],
                plies: vec![Ply::EMPTY; MAX_PLY],
                history: Box::new(History::EMPTY),
                accs: vec![Accumulator::EMPTY; MAX_PLY],
                correction: vec![0; CORRECTION_ENTRIES],
                continuation: vec![0; CONTINUATION_ENTRIES],
            },
        }
    }
}

fn entries_for(mb: u64) -> usize {
    let bytes = mb.clamp(1, 4096) << 20;
    (bytes / std::mem::size_of::<TtEntry>() as u64) as usize
}

/// Prints an `info` line per finished iteration.
struct Printer {
    start: Instant,
    last: Option<Info>,
}

impl Observer for Printer {
    fn iteration(&mut self, info: &SearchInfo, pv: &[Move]) {
        let line = Info {
            depth: info.depth,
            seldepth: info.seldepth,
            score: info.score,
            nodes: info.nodes,
            time_ms: self.start.elapsed().as_millis() as u64,
            pv: pv.iter().map(|&m| uci(m)).collect(),
        };
        send(&line.line());
        self.last = Some(line);
    }
}

fn search(
    game: Game,
    request: SearchRequest,
    mut memory: Memory,
    keep: bool,
    net: Option<Network<'static>>,
    stop: Arc<AtomicBool>,
    answered: Arc<AtomicBool>,
) -> Memory {
    let start = Instant::now();
    let budget = match request.limit {
        Limit::Millis(ms) => Budget::TimeMs(ms.min(u64::from(u32::MAX)) as u32),
        Limit::Nodes(n) => Budget::Nodes(n.min(Budget::MAX_NODES)),
        Limit::Infinite => Budget::Nodes(Budget::MAX_NODES),
    };
    let mut printer = Printer { start, last: None };
    let result = {
        let mut ctx = SearchContext::new(&mut memory.tt, &mut memory.plies, &mut memory.history);
        if let Some(net) = net {
            ctx.set_nnue(net, &mut memory.accs);
        }
        ctx.set_keep_table(keep);
        ctx.set_correction(&mut memory.correction);
        ctx.set_continuation(&mut memory.continuation);
        if let Some(d) = request.depth {
            ctx.set_max_depth(d);
        }
        // Once `stop` is set the clock reads "the deadline has passed": the meter ends the
        // search as if the budget were spent, so the best move so far is played.
        let mut clock = WallClock::stoppable(&stop);
        let mut never = NeverInterrupt;
        let mut meter = Meter::new(budget, &mut clock, &mut never);
        let result = best_move_observed(&game, &mut ctx, &mut meter, &mut printer);
        let info = ctx.info();
        // The final figures (also when the last iteration did not finish).
        let final_info = Info {
            depth: info.depth,
            seldepth: info.seldepth,
            score: info.score,
            nodes: meter.nodes(),
            time_ms: start.elapsed().as_millis() as u64,
            pv: Vec::new(),
        };
        if printer.last.as_ref().map(|l| l.nodes) != Some(final_info.nodes) {
            let mut line = final_info;
            if let SearchResult::Move(m) = result {
                line.pv = vec![uci(m)];
            }
            send(&line.line());
        }
        result
    };
    while request.wait_for_stop && !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(1));
    }
    let m = match result {
        SearchResult::Move(m) => Some(m),
        SearchResult::NoMove | SearchResult::Interrupted => any_legal_move(&game),
    };
    // Before `bestmove`: a command read after it must find the search over (only this print
    // and the return are left, which joining the thread waits for).
    answered.store(true, Ordering::Release);
    send(&bestmove_line(m));
    memory
}

impl Engine for Host {
    fn name(&self) -> String {
        "kgames (host)".to_string()
    }

    fn new_game(&mut self) -> Result<(), String> {
        self.wait();
        if let Some(m) = self.memory.as_mut() {
            m.tt.fill(TtEntry::EMPTY);
            *m.history = History::EMPTY;
            m.correction.fill(0);
            m.continuation.fill(0);
        }
        Ok(())
    }

    fn set_hash_mb(&mut self, mb: u64) -> Result<(), String> {
        if !(1..=4096).contains(&mb) {
            return Err(format!("Hash must be 1-4096 MiB, not {mb}"));
        }
        self.wait();
        self.tt_entries = entries_for(mb);
        Ok(())
    }

    fn go(&mut self, setup: &Setup, request: SearchRequest) -> Result<(), String> {
        self.wait();
        let memory = self.memory();
        self.stop.store(false, Ordering::Relaxed);
        self.answered.store(false, Ordering::Relaxed);
        let (game, keep, stop) = (setup.game.clone(), self.keep_table, Arc::clone(&self.stop));
        let answered = Arc::clone(&self.answered);
        let net = self.net;
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || search(game, request, memory, keep, net, stop, answered))
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.worker = Some(handle);
        Ok(())
    }

    fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.wait();
    }

    fn wait(&mut self) {
        if let Some(handle) = self.worker.take() {
            match handle.join() {
                Ok(memory) => self.memory = Some(memory),
                Err(_) => send("info string the search thread failed"),
            }
        }
    }

    fn finished(&self) -> Option<bool> {
        search_over(self.worker.as_ref(), &self.answered)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search that has printed `bestmove` is over for the GUI while its thread still
    /// returns: the next command neither waits with a notice nor sees a search running.
    #[test]
    fn a_search_that_answered_is_finished() {
        let mut host = Host::new(1, true, None);
        let memory = host.memory();
        let (release, held) = std::sync::mpsc::channel::<()>();
        host.worker = Some(std::thread::spawn(move || {
            let _ = held.recv();
            memory
        }));
        assert_eq!(
            host.finished(),
            Some(false),
            "the thread has not answered yet"
        );
        host.answered.store(true, Ordering::Release);
        assert_eq!(host.finished(), Some(true));
        release.send(()).ok();
        assert!(!host.searching());
        assert!(host.memory.is_some(), "the finished search was joined");
    }
}
