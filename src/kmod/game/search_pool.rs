// SPDX-License-Identifier: GPL-2.0

//! The preallocated search contexts of one device ([`ContextPool`]), handed out in fair turns
//! ([`Turns`]: round robin over the waiting uids, one search per uid), and the kernel's
//! allocator for the engines' search memory ([`KernelAlloc`]).

use kernel::{
    new_condvar, new_mutex,
    prelude::*,
    sync::{Arc, CondVar, Mutex},
};

use crate::session::{
    game::Game,
    scratch::Alloc,
    turns::{Turns, Waiter},
};

/// The preallocated search contexts of one device, with their own lock and a condition
/// variable, so a writer waiting for a context sleeps until one is given back (the device
/// table's global lock cannot be waited on).
#[pin_data]
pub(crate) struct ContextPool<G: Game> {
    #[pin]
    state: Mutex<PoolState<G>>,
    /// Signalled whenever a context is given back.
    #[pin]
    freed: CondVar,
}

/// What the pool's mutex protects.
///
/// Invariant: `free.len()` plus the uids searching in `turns` is the number of contexts made
/// at load, and `free` keeps the capacity reserved then (pushing never allocates); `free` is
/// in the order the contexts were given back, oldest first.
struct PoolState<G: Game> {
    /// The contexts not in use.
    free: KVec<Scratch<G>>,
    /// Whose turn it is: round robin over the waiting uids, at most one search per uid.
    turns: Turns<KVec<Option<Waiter>>, KVec<Option<u32>>>,
}

/// `n` empty slots.
fn nones<T: Copy>(n: usize) -> Result<KVec<Option<T>>> {
    Ok(KVec::from_elem(None, n, GFP_KERNEL)?)
}

impl<G: Game> ContextPool<G> {
    /// `contexts` contexts of `tt_entries` table entries each, for up to `uids` waiting uids
    /// with a queue entry (more wait unregistered, behind them).
    pub(super) fn new_arc(
        contexts: usize,
        tt_entries: usize,
        uids: usize,
        config: &G::Config,
    ) -> Result<Arc<Self>> {
        let mut free = KVec::with_capacity(contexts, GFP_KERNEL)?;
        for _ in 0..contexts {
            free.push(
                G::new_scratch::<KernelAlloc>(tt_entries, config).ok_or(ENOMEM)?,
                GFP_KERNEL,
            )?;
        }
        let turns = Turns::new(nones(uids)?, nones(contexts)?);
        Arc::pin_init(
            pin_init!(Self {
                state <- new_mutex!(PoolState { free, turns }),
                freed <- new_condvar!(),
            }),
            GFP_KERNEL,
        )
    }

    /// Waits (interruptibly: `ERESTARTSYS` on a signal) until it is `uid`'s turn (see
    /// [`Turns`]: no other search of `uid` in flight, and no uid waiting longer), and takes a
    /// context: the one that holds `game`'s memory ([`Game::owns`]) if it is free, else the
    /// one given back longest ago (the least likely to be wanted back by its game).
    pub(super) fn take(&self, uid: u32, game: &G) -> Result<Scratch<G>> {
        let mut st = self.state.lock();
        let mut registered = false;
        loop {
            let free = !st.free.is_empty();
            if st.turns.try_take(uid, registered, free) {
                // At most `search_contexts` entries to look at, under a leaf lock.
                let i = st.free.iter().position(|s| game.owns(s)).unwrap_or(0);
                // Moves that context to the end, where `pop` takes it; the others keep their
                // order (oldest first).
                if let Some(tail) = st.free.get_mut(i..) {
                    if !tail.is_empty() {
                        tail.rotate_left(1);
                    }
                }
                if let Some(s) = st.free.pop() {
                    return Ok(s);
                }
            }
            if !registered && st.turns.enter(uid) {
                registered = true;
                continue;
            }
            if self.freed.wait_interruptible(&mut st) {
                if registered {
                    st.turns.leave(uid);
                }
                drop(st);
                // This task may have been first in the queue: the next one gets its turn.
                self.freed.notify_all();
                return Err(ERESTARTSYS);
            }
        }
    }

    /// Gives back a context taken by `uid` and wakes the waiters.
    pub(super) fn give(&self, uid: u32, s: Scratch<G>) {
        let mut st = self.state.lock();
        st.turns.done(uid);
        // `free` keeps its capacity from load: no allocation, cannot fail.
        let _ = st.free.push(s, GFP_KERNEL);
        drop(st);
        self.freed.notify_all();
    }
}

/// The kernel's [`Alloc`]: search memory in `KVVec`s (large tables may be vmalloc'ed) and
/// `KBox`es.
pub(crate) struct KernelAlloc;

impl Alloc for KernelAlloc {
    type Slice<T: Clone + Send> = KVVec<T>;
    type Boxed<T: Send> = KBox<T>;

    fn slice<T: Clone + Send>(n: usize, fill: T) -> Option<KVVec<T>> {
        KVVec::from_elem(fill, n, GFP_KERNEL).ok()
    }

    fn boxed<T: Send>(value: T) -> Option<KBox<T>> {
        KBox::new(value, GFP_KERNEL).ok()
    }
}

/// The preallocated memory of one CPU search: the game's own scratch, made with the
/// kernel's allocator.
pub(crate) type Scratch<G> = <G as Game>::Scratch<KernelAlloc>;
