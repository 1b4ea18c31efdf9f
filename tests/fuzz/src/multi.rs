//! Several files of several users on one device (reversi), as the kernel module drives the
//! session layer: the game table with its caps ([`table`]), shared and private games, each
//! file's reply cursor ([`FileReply`]), reads that take the game's latest reply, closes and
//! idle eviction.
//!
//! The input is a stream of operations: `open uid`, `close file`, `write file line`,
//! `read file n`, `private file`, `wait seconds`. Invariants: those of [`crate::session`] for
//! every write; a write changes no other owner's game (`01`, `11`, `06`, `07` unchanged); the
//! table never holds an owner twice nor more than `max_user_games` games of one uid; a read
//! returns a suffix of a valid reply.
//!
//! Each game keeps the view of its current state ([`Seen`]): the view another game had before
//! a write is the kept one when no write changed that game since; its view after the write is
//! observed afresh every time.

use std::cell::RefCell;
use std::rc::Rc;

use kgames_session::session::cursor::FileReply;
use kgames_session::session::reply::Reply;
use kgames_session::session::reversi_game::Reversi;
use kgames_session::session::state::{CommandContext, Session};
use kgames_session::session::table::{self, Limits, Owner, Slot, IDLE_EVICT_MS};

use crate::replies;
use crate::session::{self, Scratch, Seen};

const SLOTS: usize = 6;
const FILES: usize = 8;
const UIDS: u8 = 4;
const LIMITS: Limits = Limits::per_user(3);

/// One game and its latest reply (the kernel's game cell).
struct GameCell {
    session: Session<Reversi>,
    last: Reply,
    seen: Seen,
}

type CellRef = Rc<RefCell<GameCell>>;

struct File {
    owner: Owner,
    private: Option<CellRef>,
    reply: FileReply,
}

struct Device {
    slots: Vec<Option<Slot<CellRef>>>,
    files: Vec<Option<File>>,
    now_ms: u64,
    next_private: u64,
    scratch: Scratch<Reversi>,
}

impl Device {
    fn env(&self) -> CommandContext {
        CommandContext {
            games: table::count(&self.slots, 0).0,
            max_games: SLOTS,
            ..CommandContext::default()
        }
    }

    /// The game of `owner`, created subject to the caps when `create` (None: ENOSPC or none).
    fn get(&mut self, owner: Owner, create: bool) -> Option<CellRef> {
        if let Some(slot) = table::find(&mut self.slots, owner) {
            slot.last_used_ms = self.now_ms;
            return Some(slot.payload.clone());
        }
        if !create {
            return None;
        }
        let cell = Rc::new(RefCell::new(GameCell {
            session: Session::new(),
            last: Reply::new(),
            seen: Seen::default(),
        }));
        match table::insert(&mut self.slots, LIMITS, owner, self.now_ms, cell.clone()) {
            Ok(_evicted) => Some(cell),
            Err((_, back)) => {
                assert!(Rc::ptr_eq(&back, &cell), "insert gave back another payload");
                None
            }
        }
    }

    /// The game of file `f` (its private game stays with it even once evicted).
    fn cell(&mut self, f: usize, create: bool) -> Option<CellRef> {
        let file = self.files.get(f)?.as_ref()?;
        let owner = file.owner;
        if let Some(c) = &file.private {
            let c = c.clone();
            if let Some(slot) = table::find(&mut self.slots, owner) {
                slot.last_used_ms = self.now_ms;
            }
            return Some(c);
        }
        let c = self.get(owner, create);
        if owner.private != 0 {
            if let Some(file) = self.files.get_mut(f).and_then(Option::as_mut) {
                file.private = c.clone();
            }
        }
        c
    }

    fn write(&mut self, f: usize, raw: &[u8]) {
        let env = self.env();
        let Some(cell) = self.cell(f, true) else {
            return; // ENOSPC: the table is unchanged (checked by `check_table`).
        };
        let others: Vec<(CellRef, Vec<Vec<u8>>)> = self
            .slots
            .iter()
            .flatten()
            .filter(|s| !Rc::ptr_eq(&s.payload, &cell))
            .map(|s| {
                let c = &mut *s.payload.borrow_mut();
                let seen = c.seen.take(&c.session, &env, false);
                (s.payload.clone(), seen)
            })
            .collect();
        let Some(file) = self.files.get_mut(f).and_then(Option::as_mut) else {
            return;
        };
        {
            let mut c = cell.borrow_mut();
            let GameCell {
                session: s,
                last,
                seen,
            } = &mut *c;
            session::write(s, seen, file.reply.out(), &mut self.scratch, raw, &env);
            if !file.reply.out().is_empty() {
                last.copy_from(file.reply.out());
                file.reply.commit();
            }
        }
        for (other, seen) in others {
            let c = &mut *other.borrow_mut();
            let now = session::observe(&c.session, &env, false);
            assert_eq!(seen, now, "a write changed another owner's game");
            c.seen.keep(&env, now);
        }
    }

    fn read(&mut self, f: usize, n: usize) {
        let needs = match self.files.get(f).and_then(Option::as_ref) {
            Some(file) => file.reply.needs_latest(),
            None => return,
        };
        let latest = if needs { self.cell(f, false) } else { None };
        let Some(file) = self.files.get_mut(f).and_then(Option::as_mut) else {
            return;
        };
        if needs {
            match &latest {
                Some(c) => file.reply.take_latest(Some(&c.borrow().last)),
                None => file.reply.take_latest(None),
            }
            let whole = file.reply.unread();
            if !whole.is_empty() {
                assert_eq!(whole.last(), Some(&b'\n'), "a latest reply without newline");
            }
        }
        let unread = file.reply.unread().len();
        file.reply.consume(n.min(unread));
    }

    fn make_private(&mut self, f: usize) {
        let id = self.next_private;
        let Some(file) = self.files.get_mut(f).and_then(Option::as_mut) else {
            return;
        };
        self.next_private += 1;
        let old = file.owner;
        file.owner = Owner {
            uid: old.uid,
            private: id,
        };
        file.private = None;
        file.reply.detach();
        if old.private != 0 {
            table::remove(&mut self.slots, old);
        }
    }

    fn close(&mut self, f: usize) {
        if let Some(file) = self.files.get_mut(f).and_then(Option::take) {
            if file.owner.private != 0 {
                table::remove(&mut self.slots, file.owner);
            }
        }
    }

    fn check_table(&self) {
        let live: Vec<Owner> = self.slots.iter().flatten().map(|s| s.owner).collect();
        for (i, a) in live.iter().enumerate() {
            assert!(!live[i + 1..].contains(a), "owner {a:?} twice in the table");
        }
        for uid in 0..u32::from(UIDS) {
            assert!(table::count(&self.slots, uid).1 <= LIMITS.max_user_games);
        }
    }
}

/// The target.
pub fn run(data: &[u8]) {
    let mut d = Device {
        slots: (0..SLOTS).map(|_| None).collect(),
        files: (0..FILES).map(|_| None).collect(),
        now_ms: 0,
        next_private: 1,
        scratch: Scratch::new(session::SEARCH_NODES, session::MAX_SEARCH_NODES),
    };
    let mut it = data.iter().copied();
    while let Some(op) = it.next() {
        let arg = usize::from(it.next().unwrap_or(0));
        let f = arg % FILES;
        match op % 6 {
            0 => {
                if let Some(slot) = d.files.iter_mut().find(|s| s.is_none()) {
                    *slot = Some(File {
                        owner: Owner::shared(u32::from(op / 6 % UIDS)),
                        private: None,
                        reply: FileReply::new(),
                    });
                }
            }
            1 => d.close(f),
            2 => {
                let mut raw: Vec<u8> = it.by_ref().take_while(|&b| b != b'\n').collect();
                raw.push(b'\n');
                d.write(f, &raw);
            }
            3 => d.read(f, arg / FILES + 1),
            4 => d.make_private(f),
            _ => d.now_ms += arg as u64 * IDLE_EVICT_MS / 64,
        }
        d.check_table();
    }
    // Every game left shows a valid board.
    let env = d.env();
    for s in d.slots.iter().flatten() {
        replies::check::<Reversi>(
            b"01",
            &session::peek(&s.payload.borrow().session, b"01", &env),
        );
    }
}
