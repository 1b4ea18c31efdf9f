//! The table of live games of one device: ownership, caps and idle eviction
//! (docs/protocol.md, "Framing and errors").
//!
//! The storage is a caller-owned slice of slots (the kernel allocates it once at load, sized
//! by the `max_games` parameter), so this code allocates nothing and is tested on the host
//! with a fake clock. The payload `T` is whatever the caller keeps per game (in the kernel a
//! reference-counted game cell).

/// Who a game belongs to: a user's shared game (`private == 0`) or one file's private game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Owner {
    /// The effective uid of the opener.
    pub uid: u32,
    /// 0 for the user's shared game, else a unique id of the private file.
    pub private: u64,
}

impl Owner {
    /// The shared game of `uid`.
    pub const fn shared(uid: u32) -> Self {
        Owner { uid, private: 0 }
    }
}

/// A game older than this without any command may be evicted when the table is full (the
/// default of [`Limits::idle_evict_ms`]).
pub const IDLE_EVICT_MS: u64 = 10 * 60 * 1000;

/// One live game.
pub struct Slot<T> {
    /// Its owner.
    pub owner: Owner,
    /// When it last ran a command (milliseconds of a monotonic clock).
    pub last_used_ms: u64,
    /// The caller's data.
    pub payload: T,
}

/// The caps of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most live games per user (shared and private together).
    pub max_user_games: usize,
    /// A game idle for longer than this (milliseconds) may be evicted.
    pub idle_evict_ms: u64,
}

impl Limits {
    /// `max_user_games` games per user, evicted after [`IDLE_EVICT_MS`].
    pub const fn per_user(max_user_games: usize) -> Self {
        Limits {
            max_user_games,
            idle_evict_ms: IDLE_EVICT_MS,
        }
    }
}

/// The table is full and nothing could be evicted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Full;

/// Finds the slot of `owner`.
pub fn find<T>(slots: &mut [Option<Slot<T>>], owner: Owner) -> Option<&mut Slot<T>> {
    slots.iter_mut().flatten().find(|s| s.owner == owner)
}

/// Number of live games, and of those of `uid`.
pub fn count<T>(slots: &[Option<Slot<T>>], uid: u32) -> (usize, usize) {
    let live = slots.iter().flatten();
    let all = live.clone().count();
    let user = live.filter(|s| s.owner.uid == uid).count();
    (all, user)
}

/// The index of the oldest slot idle for more than `idle_ms` at `now_ms` among those `pick`
/// accepts.
fn oldest_idle<T>(
    slots: &[Option<Slot<T>>],
    now_ms: u64,
    idle_ms: u64,
    pick: impl Fn(&Slot<T>) -> bool,
) -> Option<usize> {
    slots
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.as_ref().map(|s| (i, s)))
        .filter(|(_, s)| pick(s) && now_ms.saturating_sub(s.last_used_ms) > idle_ms)
        .min_by_key(|(i, s)| (s.last_used_ms, *i))
        .map(|(i, _)| i)
}

/// The slot a game of `owner` (not in the table yet) would take at `now_ms`: over the user's
/// cap, the user's oldest idle game; else a free slot; else the oldest idle game of anyone;
/// [`Full`] when there is none.
fn victim<T>(
    slots: &[Option<Slot<T>>],
    limits: Limits,
    owner: Owner,
    now_ms: u64,
) -> Result<usize, Full> {
    let (_, user) = count(slots, owner.uid);
    let found = if user >= limits.max_user_games {
        oldest_idle(slots, now_ms, limits.idle_evict_ms, |s| {
            s.owner.uid == owner.uid
        })
    } else if let Some(i) = slots.iter().position(Option::is_none) {
        Some(i)
    } else {
        oldest_idle(slots, now_ms, limits.idle_evict_ms, |_| true)
    };
    found.ok_or(Full)
}

/// True if [`insert`] would take a game of `owner` at `now_ms` (the kernel asks before it
/// allocates the game, outside the table's lock).
pub fn has_room<T>(slots: &[Option<Slot<T>>], limits: Limits, owner: Owner, now_ms: u64) -> bool {
    victim(slots, limits, owner, now_ms).is_ok()
}

/// Inserts a game for `owner` (which must not be in the table yet).
///
/// Over the user's cap, the user's oldest idle game is evicted, or [`Full`]; with no free
/// slot, the oldest idle game of anyone is evicted, or [`Full`]. On success returns the
/// evicted payload (to be dropped by the caller); on failure gives `payload` back.
pub fn insert<T>(
    slots: &mut [Option<Slot<T>>],
    limits: Limits,
    owner: Owner,
    now_ms: u64,
    payload: T,
) -> Result<Option<T>, (Full, T)> {
    let Ok(i) = victim(slots, limits, owner, now_ms) else {
        return Err((Full, payload));
    };
    let Some(slot) = slots.get_mut(i) else {
        return Err((Full, payload));
    };
    let old = slot.replace(Slot {
        owner,
        last_used_ms: now_ms,
        payload,
    });
    Ok(old.map(|s| s.payload))
}

/// Removes the game of `owner`, returning its payload.
pub fn remove<T>(slots: &mut [Option<Slot<T>>], owner: Owner) -> Option<T> {
    let slot = slots
        .iter_mut()
        .find(|s| s.as_ref().is_some_and(|s| s.owner == owner))?;
    slot.take().map(|s| s.payload)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits::per_user(2);

    fn table(n: usize) -> [Option<Slot<u32>>; 4] {
        assert!(n == 4);
        [None, None, None, None]
    }

    #[test]
    fn per_user_cap_and_isolation() {
        let mut t = table(4);
        assert_eq!(
            insert(&mut t, LIMITS, Owner::shared(1), 0, 10).ok(),
            Some(None)
        );
        let p = Owner { uid: 1, private: 7 };
        assert_eq!(insert(&mut t, LIMITS, p, 1, 11).ok(), Some(None));
        // Third game of uid 1: nothing idle long enough.
        let q = Owner { uid: 1, private: 8 };
        assert!(!has_room(&t, LIMITS, q, 2));
        assert_eq!(insert(&mut t, LIMITS, q, 2, 12).err(), Some((Full, 12)));
        // Another user is not affected by uid 1's cap.
        assert_eq!(
            insert(&mut t, LIMITS, Owner::shared(2), 3, 20).ok(),
            Some(None)
        );
        assert_eq!(find(&mut t, Owner::shared(2)).map(|s| s.payload), Some(20));
        assert_eq!(find(&mut t, Owner::shared(3)).map(|s| s.payload), None);
        assert_eq!(count(&t, 1), (3, 2));
        // After the idle time, uid 1's oldest game (its shared one) makes room.
        let later = IDLE_EVICT_MS + 1;
        assert!(has_room(&t, LIMITS, q, later));
        assert_eq!(insert(&mut t, LIMITS, q, later, 12).ok(), Some(Some(10)));
        assert!(find(&mut t, Owner::shared(1)).is_none());
        assert_eq!(count(&t, 1), (3, 2));
    }

    #[test]
    fn global_cap_evicts_oldest_idle_only() {
        let mut t = table(4);
        let big = Limits::per_user(10);
        for uid in 0..4u32 {
            let now = u64::from(uid) * 1000;
            assert!(insert(&mut t, big, Owner::shared(uid), now, uid).is_ok());
        }
        // Full, nobody idle for 10 minutes yet: refused, table unchanged.
        assert_eq!(
            insert(&mut t, big, Owner::shared(9), 5000, 9).err(),
            Some((Full, 9))
        );
        assert_eq!(count(&t, 0), (4, 1));
        // Touch uid 0 so that uid 1 becomes the oldest.
        if let Some(s) = find(&mut t, Owner::shared(0)) {
            s.last_used_ms = 4000;
        }
        let now = 1000 + IDLE_EVICT_MS + 1;
        assert_eq!(
            insert(&mut t, big, Owner::shared(9), now, 9).ok(),
            Some(Some(1))
        );
        assert!(find(&mut t, Owner::shared(1)).is_none());
        assert!(find(&mut t, Owner::shared(0)).is_some());
        // Exactly IDLE_EVICT_MS is not "more than" ten minutes.
        let mut t = table(4);
        for uid in 0..4u32 {
            assert!(insert(&mut t, big, Owner::shared(uid), 0, uid).is_ok());
        }
        assert!(insert(&mut t, big, Owner::shared(8), IDLE_EVICT_MS, 8).is_err());
        assert!(insert(&mut t, big, Owner::shared(8), IDLE_EVICT_MS + 1, 8).is_ok());
    }

    #[test]
    fn remove_frees_the_slot() {
        let mut t = table(4);
        let p = Owner { uid: 5, private: 1 };
        assert!(insert(&mut t, LIMITS, p, 0, 1).is_ok());
        assert_eq!(remove(&mut t, p), Some(1));
        assert_eq!(remove(&mut t, p), None);
        assert_eq!(count(&t, 5), (0, 0));
    }
}
