//! Whose turn it is to take a search context: round robin over users.
//!
//! A device has a few preallocated search contexts and lets each uid run at most one search
//! at a time. When more uids wait than contexts are free, a freed context goes to the waiting
//! uid that has waited longest *as a uid*: a uid enters the queue when its first task starts
//! waiting, and each time one of its searches ends while it still has tasks waiting, it goes
//! back to the tail. So a user with many games cannot keep the contexts to itself: a new
//! user's move gets the next context freed by anybody else, and more generally a waiting uid is
//! served after at most one grant to each uid ahead of it (no starvation, whatever the number of
//! files or games of the others).
//!
//! The storage is the caller's (the kernel allocates it at load), so this code allocates
//! nothing: `waiting` holds one entry per waiting uid (a full table makes a new uid wait
//! without an entry, behind every registered uid, until an entry is free), `searching` one slot
//! per context.

use core::ops::DerefMut;

/// A uid with tasks waiting for a context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiter {
    /// The user.
    pub uid: u32,
    /// Its tasks waiting (at least 1 while the entry exists).
    pub tasks: u32,
    /// Its place in the queue (smaller is earlier).
    pub since: u64,
}

/// The queue of waiting uids and the uids searching.
///
/// Invariants: at most one entry per uid in `waiting` and in `searching`; an entry's `tasks`
/// is at least 1.
pub struct Turns<W, S> {
    waiting: W,
    searching: S,
    next: u64,
}

impl<W, S> Turns<W, S>
where
    W: DerefMut<Target = [Option<Waiter>]>,
    S: DerefMut<Target = [Option<u32>]>,
{
    /// A queue over the caller's storage (all `None`): `searching` has one slot per context.
    pub fn new(waiting: W, searching: S) -> Self {
        Turns {
            waiting,
            searching,
            next: 0,
        }
    }

    /// Whether `uid` has a search in flight.
    pub fn is_searching(&self, uid: u32) -> bool {
        self.searching.contains(&Some(uid))
    }

    fn entry(&mut self, uid: u32) -> Option<&mut Waiter> {
        self.waiting.iter_mut().flatten().find(|w| w.uid == uid)
    }

    /// The uid whose turn it is: the earliest waiting uid without a search in flight.
    pub fn head(&self) -> Option<u32> {
        self.waiting
            .iter()
            .flatten()
            .filter(|w| !self.is_searching(w.uid))
            .min_by_key(|w| w.since)
            .map(|w| w.uid)
    }

    fn ticket(&mut self) -> u64 {
        let t = self.next;
        self.next = self.next.wrapping_add(1);
        t
    }

    /// A task of `uid` starts waiting. False when the table is full: the task then waits
    /// unregistered (behind every registered uid) and tries again when woken.
    pub fn enter(&mut self, uid: u32) -> bool {
        if let Some(w) = self.entry(uid) {
            w.tasks = w.tasks.saturating_add(1);
            return true;
        }
        let since = self.ticket();
        match self.waiting.iter_mut().find(|w| w.is_none()) {
            Some(slot) => {
                *slot = Some(Waiter {
                    uid,
                    tasks: 1,
                    since,
                });
                true
            }
            None => false,
        }
    }

    /// A registered task of `uid` stops waiting (interrupted, or served).
    pub fn leave(&mut self, uid: u32) {
        for slot in self.waiting.iter_mut() {
            if let Some(w) = slot {
                if w.uid == uid {
                    w.tasks = w.tasks.saturating_sub(1);
                    if w.tasks == 0 {
                        *slot = None;
                    }
                    return;
                }
            }
        }
    }

    /// A task of `uid` (`registered` by [`Turns::enter`] or not) asks for a context while
    /// `free` contexts are available: true when it is its turn, and then `uid` is searching
    /// (and the task no longer waiting). An unregistered task only gets a context nobody
    /// registered is eligible for.
    pub fn try_take(&mut self, uid: u32, registered: bool, free: bool) -> bool {
        if !free || self.is_searching(uid) {
            return false;
        }
        let turn = match self.head() {
            Some(h) => registered && h == uid,
            None => !registered,
        };
        if !turn {
            return false;
        }
        let Some(slot) = self.searching.iter_mut().find(|s| s.is_none()) else {
            return false;
        };
        *slot = Some(uid);
        if registered {
            self.leave(uid);
        }
        true
    }

    /// The search of `uid` ended (its context is given back): if it still has tasks waiting,
    /// it goes to the tail of the queue.
    pub fn done(&mut self, uid: u32) {
        if let Some(s) = self.searching.iter_mut().find(|s| **s == Some(uid)) {
            *s = None;
        }
        let since = self.ticket();
        if let Some(w) = self.entry(uid) {
            w.since = since;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;
    use std::vec::Vec;

    type T = Turns<Vec<Option<Waiter>>, Vec<Option<u32>>>;

    fn turns(entries: usize, contexts: usize) -> T {
        Turns::new(vec![None; entries], vec![None; contexts])
    }

    /// 4 contexts held by 4 hogs with 7 more tasks waiting each: a new uid gets the first
    /// context given back, ahead of the hog that gave it.
    #[test]
    fn a_new_uid_gets_the_next_context_freed() {
        let mut t = turns(16, 4);
        for hog in 1..=4 {
            assert!(t.try_take(hog, false, true));
            for _ in 0..7 {
                assert!(t.enter(hog));
            }
        }
        // No context free: nobody takes.
        assert!(!t.try_take(9, false, false));
        assert!(t.enter(9));
        assert_eq!(t.head(), Some(9), "hogs are searching, so uid 9 is first");
        t.done(2);
        // Hog 2's waiting tasks are behind uid 9 now.
        assert!(!t.try_take(2, true, true));
        assert!(t.try_take(9, true, true));
        assert_eq!(t.head(), Some(2));
        t.done(9);
        assert!(t.try_take(2, true, true));
    }

    /// The old policy (any waiter may take) is what this guards against: without the queue the
    /// hog's own task could take the context it just gave back.
    #[test]
    fn an_unregistered_task_never_overtakes_a_registered_one() {
        let mut t = turns(4, 1);
        assert!(t.try_take(1, false, true));
        assert!(t.enter(2));
        t.done(1);
        assert!(!t.try_take(1, false, true));
        assert!(!t.try_take(3, false, true));
        assert!(t.try_take(2, true, true));
    }

    #[test]
    fn one_search_per_uid_and_interrupted_waiters_leave() {
        let mut t = turns(4, 2);
        assert!(t.try_take(1, false, true));
        assert!(!t.try_take(1, false, true), "uid 1 already searches");
        assert!(t.enter(1));
        assert!(t.enter(2));
        assert_eq!(t.head(), Some(2), "uid 1 is searching, so not eligible");
        t.leave(2);
        assert_eq!(t.head(), None);
        assert!(t.try_take(3, false, true));
        t.done(1);
        assert_eq!(t.head(), Some(1));
        t.leave(1);
        assert_eq!(t.head(), None);
        assert!(t.waiting.iter().all(|w| w.is_none()));
    }

    #[test]
    fn a_full_table_makes_new_uids_wait_behind_registered_ones() {
        let mut t = turns(1, 1);
        assert!(t.try_take(1, false, true));
        assert!(t.enter(2));
        assert!(!t.enter(3), "the table holds one uid");
        t.done(1);
        assert!(!t.try_take(3, false, true));
        assert!(t.try_take(2, true, true));
        t.done(2);
        assert!(t.try_take(3, false, true));
    }

    /// A simulation: 6 uids with 1 to 8 tasks each share 4 contexts, searches end in a
    /// pseudo-random order and each task asks again at once. Every waiting uid is served
    /// within one grant per other uid (5 grants) of the moment it becomes eligible.
    #[test]
    fn no_uid_waits_more_than_one_grant_per_other_uid() {
        let tasks = [8u32, 1, 3, 8, 2, 5];
        let mut t = turns(8, 4);
        let mut waiting: Vec<u32> = Vec::new();
        for (uid, &n) in tasks.iter().enumerate() {
            for _ in 0..n {
                assert!(t.enter(uid as u32));
                waiting.push(uid as u32);
            }
        }
        let mut searching: Vec<u32> = Vec::new();
        // Grants seen by each uid since it last became eligible while waiting.
        let mut passed_over = [0u32; 6];
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut grants = [0u32; 6];
        for _ in 0..20_000 {
            // Serve while contexts are free.
            while searching.len() < 4 {
                let Some(h) = t.head() else { break };
                let i = waiting.iter().position(|&u| u == h).unwrap();
                assert!(t.try_take(h, true, true));
                waiting.swap_remove(i);
                searching.push(h);
                grants[h as usize] += 1;
                for u in 0..6u32 {
                    if u != h
                        && t.waiting.iter().flatten().any(|w| w.uid == u)
                        && !t.is_searching(u)
                    {
                        passed_over[u as usize] += 1;
                        assert!(passed_over[u as usize] <= 5, "uid {u} passed over 6 times");
                    }
                }
                passed_over[h as usize] = 0;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let k = (rng % searching.len() as u64) as usize;
            let u = searching.swap_remove(k);
            t.done(u);
            passed_over[u as usize] = 0;
            assert!(t.enter(u));
            waiting.push(u);
        }
        assert!(
            grants.iter().all(|&g| g > 2000),
            "grants per uid: {grants:?}"
        );
    }
}
