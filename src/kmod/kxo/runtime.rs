// SPDX-License-Identifier: GPL-2.0

//! The `/dev/kxo` AI-vs-AI machine: the hrtimer ([`Driver`]) fires every `kxo_period_ms`; in
//! its (hard-irq) callback it only queues the work item of every idle game ([`AiGame`]) on the
//! module's own workqueue. A slot's work plays one step of its [`Match`] (process context, no
//! lock held across the search but the slot's own) and publishes the record to the [`Hub`].
//! A per-slot `busy` flag keeps one move in flight per game. At load a [`TdTrainer`] work
//! item pre-trains the TD table in chunks (re-queueing itself between chunks); td joins the
//! pairings when it is done.
//!
//! Unload order ([`KxoRuntime::drop`]): set the stop flag (the callback then no longer
//! restarts itself, queued work returns at once, the trainer stops re-queueing), cancel the
//! timer (waits for a running callback), drain the TD queue, destroy the games' workqueue
//! (drains it), then drop the games and the hub.

use core::sync::atomic::{AtomicBool, Ordering};

use kernel::{
    impl_has_hr_timer, new_mutex,
    prelude::*,
    sync::{Arc, ArcBorrow, Mutex},
    time::{
        hrtimer::{
            ArcHrTimerHandle, HrTimer, HrTimerCallback, HrTimerCallbackContext, HrTimerPointer,
            HrTimerRestart, RelativeMode,
        },
        Delta, Instant, Monotonic,
    },
    workqueue::{impl_has_work, new_work, Work, WorkItem},
};

use super::hub::Hub;
use super::owned_queue::OwnedQueue;
use crate::common::budget::NeverInterrupt;
use crate::common::rng::Rng;
use crate::kmod::clock::KernelClock;
use crate::kxo::arena::{Match, Memory, Settings, Step};
use crate::kxo::mcts::{nodes_for, Node};
use crate::kxo::negamax::{TtEntry, TT_DEFAULT_LEN};
use crate::params::KxoConfig;
use crate::uapi::pairing::RANDOM;

/// Pre-training games per work-item run (the lock on the TD table is held for one chunk).
const TRAIN_CHUNK: u32 = 500;

/// What a slot's mutex protects: the match and its agents' preallocated memory.
struct AiGameState {
    game: Match,
    tt: KVec<TtEntry>,
    nodes: KVVec<Node>,
}

/// One AI-vs-AI game: its state, its work item and its in-flight flag.
#[pin_data]
pub(crate) struct AiGame {
    hub: Arc<Hub>,
    settings: Settings,
    /// A move of this game is queued or running.
    busy: AtomicBool,
    #[pin]
    game: Mutex<AiGameState>,
    #[pin]
    work: Work<AiGame>,
}

impl_has_work! {
    impl HasWork<Self> for AiGame { self.work }
}

impl WorkItem for AiGame {
    type Pointer = Arc<AiGame>;

    fn run(this: Arc<AiGame>) {
        let hub = &this.hub;
        if !hub.unloading() {
            let t0 = Instant::<Monotonic>::now();
            let step = {
                let mut g = this.game.lock();
                let AiGameState { game, tt, nodes } = &mut *g;
                let mut mem = Memory { tt, nodes };
                let mut clock = KernelClock::new();
                let mut never = NeverInterrupt;
                let mut td = hub.td.host();
                let pairing = hub.control.pairing(usize::from(game.record().game));
                game.step(
                    hub.control.generation(),
                    hub.td.agents(),
                    pairing,
                    &this.settings,
                    &mut mem,
                    &mut td,
                    &mut clock,
                    &mut never,
                )
            };
            match step {
                Step::Restarted(rec) => hub.records.publish(rec),
                Step::Moved(rec, kind) => {
                    let ns = u64::try_from(t0.elapsed().as_nanos()).unwrap_or(0);
                    hub.loads.account(kind, ns);
                    hub.records.publish(rec);
                }
                Step::Stalled => {}
            }
        }
        this.busy.store(false, Ordering::Release);
    }
}

/// The TD table's pre-training at load, in chunks of [`TRAIN_CHUNK`] games, on the hub's
/// high-priority TD queue.
#[pin_data]
pub(crate) struct TdTrainer {
    hub: Arc<Hub>,
    #[pin]
    left: Mutex<(u32, Rng)>,
    #[pin]
    work: Work<TdTrainer>,
}

impl_has_work! {
    impl HasWork<Self> for TdTrainer { self.work }
}

impl WorkItem for TdTrainer {
    type Pointer = Arc<TdTrainer>;

    fn run(this: Arc<TdTrainer>) {
        if this.hub.unloading() {
            return;
        }
        let more = {
            let mut left = this.left.lock();
            let (n, rng) = &mut *left;
            let chunk = (*n).min(TRAIN_CHUNK);
            this.hub.td.train(chunk, rng);
            *n -= chunk;
            *n > 0
        };
        if !more {
            this.hub.td.done();
            return;
        }
        let hub = this.hub.clone();
        // Not pending while running, so this cannot fail; if it did, td would stay out.
        let _ = hub.td.queue().queue().enqueue(this);
    }
}

/// The timer and the games it drives.
#[pin_data]
pub(crate) struct Driver {
    #[pin]
    timer: HrTimer<Driver>,
    slots: KVec<Arc<AiGame>>,
    queue: OwnedQueue,
    hub: Arc<Hub>,
    period: Delta,
}

impl_has_hr_timer! {
    impl HasHrTimer<Self> for Driver {
        mode: RelativeMode<Monotonic>, field: self.timer
    }
}

impl HrTimerCallback for Driver {
    type Pointer<'a> = Arc<Self>;

    fn run(this: ArcBorrow<'_, Self>, mut ctx: HrTimerCallbackContext<'_, Self>) -> HrTimerRestart {
        // Hard-irq context: atomics and queueing only.
        if this.hub.unloading() {
            return HrTimerRestart::NoRestart;
        }
        if this.hub.should_move() {
            for s in this.slots.iter() {
                if !s.busy.swap(true, Ordering::AcqRel)
                    && this.queue.queue().enqueue(s.clone()).is_err()
                {
                    s.busy.store(false, Ordering::Release);
                }
            }
        }
        ctx.forward_now(this.period);
        HrTimerRestart::Restart
    }
}

/// Everything `/dev/kxo` runs; dropping it stops cleanly (see the module documentation).
pub(crate) struct KxoRuntime {
    timer: Option<ArcHrTimerHandle<Driver>>,
    driver: Option<Arc<Driver>>,
    hub: Arc<Hub>,
}

impl KxoRuntime {
    /// Creates the games, starts the TD pre-training and the timer.
    pub(crate) fn start(cfg: KxoConfig) -> Result<Self> {
        let mut latest = KVec::with_capacity(cfg.games, GFP_KERNEL)?;
        let mut seeds = Rng::new(cfg.seed);
        let no_td = crate::kxo::arena::drawn_agents(false);
        let mut games = KVec::with_capacity(cfg.games, GFP_KERNEL)?;
        for id in 0..cfg.games {
            let id = u16::try_from(id).map_err(|_| EINVAL)?;
            let tt = KVec::from_elem(TtEntry::EMPTY, TT_DEFAULT_LEN, GFP_KERNEL)?;
            let pool = nodes_for(cfg.settings.mcts_iterations);
            let nodes = KVVec::from_elem(Node::EMPTY, pool, GFP_KERNEL)?;
            let pairing = cfg
                .pairings
                .get(usize::from(id))
                .copied()
                .unwrap_or([RANDOM; 2]);
            let game = Match::new(id, seeds.next_u64(), no_td, pairing);
            latest.push(game.record(), GFP_KERNEL)?;
            games.push(AiGameState { game, tt, nodes }, GFP_KERNEL)?;
        }
        let hub = Arc::pin_init(Hub::new(&cfg, latest)?, GFP_KERNEL)?;
        let mut slots = KVec::with_capacity(cfg.games, GFP_KERNEL)?;
        for g in games.into_iter() {
            let slot_hub = hub.clone();
            let slot = Arc::pin_init(
                pin_init!(AiGame {
                    hub: slot_hub,
                    settings: cfg.settings,
                    busy: AtomicBool::new(false),
                    game <- new_mutex!(g),
                    work <- new_work!("kxo::AiGame::work"),
                }),
                GFP_KERNEL,
            )?;
            slots.push(slot, GFP_KERNEL)?;
        }
        // One worker per game.
        let queue = OwnedQueue::new(c"kgames_kxo", cfg.games)?;
        let driver_hub = hub.clone();
        let driver = Arc::pin_init(
            pin_init!(Driver {
                timer <- HrTimer::new(),
                slots,
                queue,
                hub: driver_hub,
                period: Delta::from_millis(i64::from(cfg.period_ms)),
            }),
            GFP_KERNEL,
        )?;
        if cfg.td_games == 0 {
            hub.td.done();
        } else {
            let trainer_hub = hub.clone();
            let trainer = Arc::pin_init(
                pin_init!(TdTrainer {
                    hub: trainer_hub,
                    left <- new_mutex!((cfg.td_games, Rng::new(cfg.seed ^ 0x7D))),
                    work <- new_work!("kxo::TdTrainer::work"),
                }),
                GFP_KERNEL,
            )?;
            hub.td.queue().queue().enqueue(trainer).map_err(|_| EBUSY)?;
        }
        let timer = driver
            .clone()
            .start(Delta::from_millis(i64::from(cfg.period_ms)));
        Ok(KxoRuntime {
            timer: Some(timer),
            driver: Some(driver),
            hub,
        })
    }

    /// The hub, for files.
    pub(crate) fn hub(&self) -> Arc<Hub> {
        self.hub.clone()
    }
}

impl Drop for KxoRuntime {
    fn drop(&mut self) {
        // 1. The stop flag: the callback stops restarting itself, queued work returns at
        //    once, the trainer stops re-queueing; readers wake up.
        self.hub.shut_down();
        // 2. Cancel the timer; waits for a running callback.
        drop(self.timer.take());
        // 3. Drain the TD queue: the trainer sees the flag and drops its hub reference here,
        //    in process context (never the last one inside its own queue's work).
        self.hub.td.queue().drain();
        // 4. Destroy the games' workqueue (draining it): dropping the last `Arc<Driver>`.
        drop(self.driver.take());
        // 5. The games and the hub go with the remaining references.
    }
}
