// SPDX-License-Identifier: GPL-2.0

//! The parallel Monte Carlo player of the kxo human games: the free tiles are dealt over P
//! work items (the game's `workers`, 1-10; [`deal`]) on the N x N games' own workqueue, and the
//! writer sleeps on the run's condition variable until all of them are done. Unloading
//! destroys that queue (which waits for a work item still finishing), so no work outlives the
//! module. Every tile has its own generator ([`score_tiles`]), so the move is the same for any P.
//!
//! A signal to the writer ends its interruptible wait: it sets the cancel flag, which the work
//! items check at every meter check (1024 playout moves), waits (uninterruptibly, briefly)
//! until they are gone, and reports the interrupt: nothing is played.

use core::sync::atomic::{AtomicBool, Ordering};

use kernel::{
    new_condvar, new_mutex,
    prelude::*,
    sync::{Arc, CondVar, Mutex},
    workqueue::{impl_has_work, new_work, Work, WorkItem},
};

use super::clock::KernelClock;
use super::owned_queue::OwnedQueue;
use crate::common::budget::{Budget, Interrupt, Meter};
use crate::kxo::board::Side;
use crate::kxo::nxn::{deal, pick, score_tiles, BoardN, Split, MAX_TILES};
use crate::session::game::Thought;
use crate::session::nxn_game::McMove;

/// What the run's mutex protects.
struct McState {
    /// Work items not finished yet.
    remaining: usize,
    /// The score of every tile scored so far.
    scores: [Option<u32>; MAX_TILES],
}

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
    #[pin]
    state: Mutex<McState>,
    /// Signalled by each work item as it finishes.
    #[pin]
    done: CondVar,
}

impl McRun {
    /// One work item is finished (scored, cancelled or never queued).
    fn finish_one(&self, scored: &[Option<u32>; MAX_TILES]) {
        let mut st = self.state.lock();
        for (dst, src) in st.scores.iter_mut().zip(scored.iter()) {
            if src.is_some() {
                *dst = *src;
            }
        }
        st.remaining = st.remaining.saturating_sub(1);
        drop(st);
        self.done.notify_all();
    }
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
        score_tiles(
            &run.board,
            run.side,
            this.tiles,
            run.playouts,
            run.seed,
            &mut meter,
            &mut local,
        );
        run.finish_one(&local);
    }
}

/// The Monte Carlo move for the side to move of `board`, over `workers` work items on `queue`
/// (the N x N games' queue, which their table holds).
pub(crate) fn choose(
    queue: &OwnedQueue,
    board: &BoardN,
    playouts: u8,
    workers: u8,
    seed: u64,
    budget: Budget,
) -> Thought<McMove> {
    let legal = board.legal_moves();
    if legal == 0 {
        return Thought::Pass;
    }
    let groups = deal(legal, workers);
    let split = Split::of(&groups);
    let fallback = Thought::Move(McMove {
        tile: legal.trailing_zeros() as u8,
        split: Split::default(),
    });
    let run = match Arc::pin_init(
        pin_init!(McRun {
            board: *board,
            side: board.side_to_move(),
            playouts,
            seed,
            budget,
            cancel: AtomicBool::new(false),
            state <- new_mutex!(McState {
                remaining: usize::from(split.items),
                scores: [None; MAX_TILES],
            }),
            done <- new_condvar!(),
        }),
        // Made by a player's write: charged to the player's memory cgroup.
        GFP_KERNEL_ACCOUNT,
    ) {
        Ok(r) => r,
        // No memory for the parallel run: play the lowest free tile (always legal).
        Err(_) => return fallback,
    };
    let none = [None; MAX_TILES];
    for &tiles in groups.iter().filter(|g| **g != 0) {
        let job_run = run.clone();
        let job = Arc::pin_init(
            pin_init!(McJob {
                run: job_run,
                tiles,
                work <- new_work!("kxo::McJob::work"),
            }),
            GFP_KERNEL_ACCOUNT,
        );
        let queued = match job {
            Ok(job) => queue.queue().enqueue(job).is_ok(),
            Err(_) => false,
        };
        if !queued {
            // That group stays unscored.
            run.finish_one(&none);
        }
    }
    // Sleep until every work item is done; a signal cancels them.
    let mut st = run.state.lock();
    let mut interrupted = false;
    while st.remaining != 0 {
        if interrupted {
            run.done.wait(&mut st);
        } else if run.done.wait_interruptible(&mut st) {
            interrupted = true;
            run.cancel.store(true, Ordering::Relaxed);
        }
    }
    if interrupted {
        return Thought::Interrupted;
    }
    match pick(&st.scores[..]) {
        Some(tile) => Thought::Move(McMove { tile, split }),
        None => fallback,
    }
}
