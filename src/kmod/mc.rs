// SPDX-License-Identifier: GPL-2.0

//! The parallel Monte Carlo player of the kxo human games: the free tiles are spread over P
//! work items (`kxo_workers`, 1-10) on the kxo hub's own workqueue; the writer waits for all
//! of them before it returns, and unloading destroys that queue (which waits for a work item
//! still finishing), so no work outlives the module. Every tile has its own generator ([`tile_rng`]), so the move is the same
//! for any P. A signal to the writer sets a cancel flag the work items check at every meter
//! check (1024 playout moves); the writer still waits for them, then reports the interrupt.

use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use kernel::{
    new_mutex,
    prelude::*,
    sync::{Arc, Mutex},
    time::{delay::fsleep, Delta},
    workqueue::{impl_has_work, new_work, Work, WorkItem},
};

use super::clock::KernelClock;
use crate::common::budget::{Budget, Interrupt, Meter};
use crate::kxo::board::Side;
use crate::kxo::nxn::{pick, score_tile, tile_rng, BoardN, MAX_TILES};
use crate::session::game::Thought;

/// Work items per Monte Carlo move (set at load from `kxo_workers`).
pub(crate) static WORKERS: AtomicUsize = AtomicUsize::new(4);

/// What every work item of one move shares.
#[pin_data]
struct McRun {
    board: BoardN,
    side: Side,
    playouts: u8,
    seed: u64,
    budget: Budget,
    /// Set by the writer on a signal: the work items stop at their next check.
    cancel: AtomicBool,
    /// Work items not finished yet.
    remaining: AtomicUsize,
    #[pin]
    scores: Mutex<[Option<u32>; MAX_TILES]>,
}

/// One work item: a set of tiles to score.
#[pin_data]
struct McJob {
    run: Arc<McRun>,
    tiles: u64,
    #[pin]
    work: Work<McJob>,
}

impl_has_work! {
    impl HasWork<Self> for McJob { self.work }
}

/// The cancel flag as the meter's interrupt.
struct Cancel<'a>(&'a AtomicBool);

impl Interrupt for Cancel<'_> {
    fn pending(&mut self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

impl WorkItem for McJob {
    type Pointer = Arc<McJob>;

    fn run(this: Arc<McJob>) {
        let run = &this.run;
        let mut local = [None; MAX_TILES];
        let mut clock = KernelClock::new();
        let mut cancel = Cancel(&run.cancel);
        let mut meter = Meter::new(run.budget, &mut clock, &mut cancel);
        let mut m = this.tiles;
        while m != 0 {
            let tile = m.trailing_zeros() as u8;
            m &= m - 1;
            let mut rng = tile_rng(run.seed, tile);
            let s = score_tile(
                &run.board,
                run.side,
                tile,
                run.playouts,
                &mut rng,
                &mut meter,
            );
            if let Some(slot) = local.get_mut(usize::from(tile)) {
                *slot = s;
            }
            if meter.stopped().is_some() {
                break;
            }
        }
        {
            let mut scores = run.scores.lock();
            for (dst, src) in scores.iter_mut().zip(local.iter()) {
                if src.is_some() {
                    *dst = *src;
                }
            }
        }
        run.remaining.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The Monte Carlo move for the side to move of `board`, over P work items.
pub(crate) fn choose(board: &BoardN, playouts: u8, seed: u64, budget: Budget) -> Thought<u8> {
    let legal = board.legal_moves();
    if legal == 0 {
        return Thought::Pass;
    }
    let workers = WORKERS.load(Ordering::Relaxed).clamp(1, 10);
    // Deal the free tiles round-robin.
    let mut groups = [0u64; 10];
    let mut m = legal;
    let mut k = 0;
    while m != 0 {
        let bit = m & m.wrapping_neg();
        m &= m - 1;
        if let Some(g) = groups.get_mut(k % workers) {
            *g |= bit;
        }
        k += 1;
    }
    let jobs = groups.iter().filter(|g| **g != 0).count();
    let Some(hub) = super::kxo::KXO_HUB.lock().clone() else {
        return Thought::Move(legal.trailing_zeros() as u8);
    };
    let run = match Arc::pin_init(
        pin_init!(McRun {
            board: *board,
            side: board.side_to_move(),
            playouts,
            seed,
            budget,
            cancel: AtomicBool::new(false),
            remaining: AtomicUsize::new(jobs),
            scores <- new_mutex!([None; MAX_TILES]),
        }),
        GFP_KERNEL,
    ) {
        Ok(r) => r,
        // No memory for the parallel run: play the lowest free tile (always legal).
        Err(_) => return Thought::Move(legal.trailing_zeros() as u8),
    };
    for &tiles in groups.iter().filter(|g| **g != 0) {
        let job_run = run.clone();
        let job = Arc::pin_init(
            pin_init!(McJob {
                run: job_run,
                tiles,
                work <- new_work!("kxo::McJob::work"),
            }),
            GFP_KERNEL,
        );
        let queued = match job {
            Ok(job) => hub.mc_queue.queue().enqueue(job).is_ok(),
            Err(_) => false,
        };
        if !queued {
            // That group stays unscored.
            run.remaining.fetch_sub(1, Ordering::AcqRel);
        }
    }
    // Wait for every work item; a signal cancels them (they stop at their next check).
    let mut interrupted = false;
    while run.remaining.load(Ordering::Acquire) != 0 {
        if !interrupted && kernel::current!().signal_pending() {
            interrupted = true;
            run.cancel.store(true, Ordering::Relaxed);
        }
        fsleep(Delta::from_millis(1));
    }
    if interrupted {
        return Thought::Interrupted;
    }
    let scores = run.scores.lock();
    match pick(&scores[..]) {
        Some(t) => Thought::Move(t),
        None => Thought::Move(legal.trailing_zeros() as u8),
    }
}
