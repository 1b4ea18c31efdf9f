//! Reply ownership of one open file (docs/protocol.md, "Framing and errors").
//!
//! A reply belongs to the file that wrote the command and is read from that file's cursor. A
//! file that has never written reads its game's latest reply, from the start, once per open
//! (the `cat` after an `echo`). A new command replaces the file's unread reply; a consumed
//! reply reads as end of file until the next command.

use super::reply::Reply;

/// The reply side of one open file.
///
/// Invariant: `pos <= reply.len()`; `generation` changes whenever `reply` may.
pub struct FileReply {
    wrote: bool,
    took_latest: bool,
    reply: Reply,
    pos: usize,
    generation: u64,
}

/// Where a read left a reply ([`FileReply::read_into`]), to give back what its copy to user
/// space did not take ([`FileReply::give_back`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadMark {
    generation: u64,
    pos: usize,
}

impl Default for FileReply {
    fn default() -> Self {
        Self::new()
    }
}

impl FileReply {
    /// A freshly opened file.
    pub const fn new() -> Self {
        FileReply {
            wrote: false,
            took_latest: false,
            reply: Reply::new(),
            pos: 0,
            generation: 0,
        }
    }

    /// The buffer a command writes its reply into.
    pub fn out(&mut self) -> &mut Reply {
        self.generation = self.generation.wrapping_add(1);
        &mut self.reply
    }

    /// The command's reply is complete: it is now this file's unread reply.
    pub fn commit(&mut self) {
        self.wrote = true;
        self.pos = 0;
    }

    /// True if the next read must first take the game's latest reply.
    pub fn needs_latest(&self) -> bool {
        !self.wrote && !self.took_latest
    }

    /// Takes the game's latest reply (none if the file has no game yet), once per open.
    pub fn take_latest(&mut self, latest: Option<&Reply>) {
        self.took_latest = true;
        self.generation = self.generation.wrapping_add(1);
        match latest {
            Some(r) => self.reply.copy_from(r),
            None => self.reply.clear(),
        }
        self.pos = 0;
    }

    /// The file left its game for a private one: nothing to read until its first command.
    pub fn detach(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        self.wrote = false;
        self.took_latest = true;
        self.reply.clear();
        self.pos = 0;
    }

    /// The unread bytes.
    pub fn unread(&self) -> &[u8] {
        self.reply.from(self.pos)
    }

    /// Marks `n` bytes as read.
    pub fn consume(&mut self, n: usize) {
        self.pos = self.pos.saturating_add(n).min(self.reply.len());
    }

    /// Copies the unread bytes that fit into `out` and marks them read: how many, and where
    /// this read left the reply. The caller copies them to user space with no lock held.
    pub fn read_into(&mut self, out: &mut [u8]) -> (usize, ReadMark) {
        let rest = self.unread();
        let n = rest.len().min(out.len());
        if let (Some(dst), Some(src)) = (out.get_mut(..n), rest.get(..n)) {
            dst.copy_from_slice(src);
        }
        self.consume(n);
        let mark = ReadMark {
            generation: self.generation,
            pos: self.pos,
        };
        (n, mark)
    }

    /// The last `n` bytes of the read that left `mark` did not reach user space: they are
    /// unread again, unless the reply changed or was read further meanwhile (then they are
    /// lost to that read, as they would be to a read racing a new command anyway).
    pub fn give_back(&mut self, mark: ReadMark, n: usize) {
        if self.generation == mark.generation && self.pos == mark.pos {
            self.pos = self.pos.saturating_sub(n);
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use super::super::reversi_game::Reversi;
    use super::super::state::{CommandContext, Session};
    use super::*;

    /// One user's shared game and the files open on it.
    struct Game {
        s: Session<Reversi>,
        latest: Reply,
    }

    impl Game {
        fn write(&mut self, f: &mut FileReply, raw: &[u8]) {
            let _ = self.s.execute(raw, &CommandContext::default(), f.out());
            self.latest.copy_from(f.out());
            f.commit();
        }

        fn read(&self, f: &mut FileReply, max: usize) -> Vec<u8> {
            if f.needs_latest() {
                f.take_latest(Some(&self.latest));
            }
            let n = f.unread().len().min(max);
            let v = f.unread()[..n].to_vec();
            f.consume(n);
            v
        }
    }

    fn game() -> Game {
        Game {
            s: Session::new(),
            latest: Reply::new(),
        }
    }

    #[test]
    fn each_file_reads_its_own_reply() {
        let mut g = game();
        let (mut a, mut b) = (FileReply::new(), FileReply::new());
        g.write(&mut a, b"01");
        g.write(&mut b, b"00 X");
        assert_eq!(g.read(&mut b, 1024), b"OK\n");
        assert_eq!(g.read(&mut a, 1024).len(), 67);
        assert_eq!(g.read(&mut a, 1024), b"");
        assert_eq!(g.read(&mut b, 1024), b"");
        // A new command replaces the unread reply.
        g.write(&mut a, b"01");
        g.write(&mut a, b"99 x");
        assert_eq!(g.read(&mut a, 1024), b"INVFMT\n");
    }

    #[test]
    fn a_file_that_never_wrote_reads_the_latest_reply_once() {
        let mut g = game();
        let mut echo = FileReply::new();
        g.write(&mut echo, b"00 X");
        let mut cat = FileReply::new();
        assert_eq!(g.read(&mut cat, 1024), b"OK\n");
        assert_eq!(g.read(&mut cat, 1024), b"");
        g.write(&mut echo, b"01");
        // The same open does not take the latest again.
        assert_eq!(g.read(&mut cat, 1024), b"");
        // A new open does.
        let mut cat2 = FileReply::new();
        assert_eq!(g.read(&mut cat2, 1024).len(), 67);
    }

    #[test]
    fn short_reads_continue_where_they_stopped() {
        let mut g = game();
        let mut f = FileReply::new();
        g.write(&mut f, b"01");
        let mut all = Vec::new();
        loop {
            let b = g.read(&mut f, 1);
            if b.is_empty() {
                break;
            }
            all.extend(b);
        }
        assert_eq!(all.len(), 67);
        assert_eq!(&all[64..], b"\tX\n");
    }

    #[test]
    fn bytes_a_copy_did_not_take_are_given_back_unless_the_reply_changed() {
        let mut g = game();
        let mut f = FileReply::new();
        g.write(&mut f, b"01");
        let mut buf = [0u8; 40];
        let (n, mark) = f.read_into(&mut buf);
        assert_eq!(n, 40);
        // The copy to user space took 30 of the 40: the other 10 are read next.
        f.give_back(mark, 10);
        assert_eq!(f.unread().len(), 67 - 30);
        let (n, mark) = f.read_into(&mut buf);
        assert_eq!(n, 37);
        assert_eq!(&buf[34..37], b"\tX\n");
        f.give_back(mark, 0);
        assert!(f.unread().is_empty());
        // A command between the read and the give-back: nothing is given back.
        g.write(&mut f, b"01");
        let (_, mark) = f.read_into(&mut buf);
        g.write(&mut f, b"99 x");
        f.give_back(mark, 40);
        assert_eq!(f.unread(), b"INVFMT\n");
        // Another read between them (a second thread): nothing is given back either.
        g.write(&mut f, b"01");
        let (_, first) = f.read_into(&mut buf);
        let _ = f.read_into(&mut buf);
        f.give_back(first, 40);
        assert!(f.unread().is_empty());
    }

    #[test]
    fn a_detached_file_reads_nothing_until_it_writes() {
        let mut g = game();
        let mut f = FileReply::new();
        g.write(&mut f, b"00 X");
        f.detach();
        assert_eq!(g.read(&mut f, 1024), b"");
    }
}
