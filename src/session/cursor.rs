//! Reply ownership of one open file (docs/protocol.md, "Framing and errors").
//!
//! A reply belongs to the file that wrote the command and is read from that file's cursor. A
//! file that has never written reads its game's latest reply, from the start, once per open
//! (the `cat` after an `echo`). A new command replaces the file's unread reply; a consumed
//! reply reads as end of file until the next command.

use super::reply::Reply;

/// The reply side of one open file.
///
/// Invariant: `pos <= reply.len()`.
pub struct FileReply {
    wrote: bool,
    took_latest: bool,
    reply: Reply,
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
        }
    }

    /// The buffer a command writes its reply into.
    pub fn out(&mut self) -> &mut Reply {
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
        match latest {
            Some(r) => self.reply.copy_from(r),
            None => self.reply.clear(),
        }
        self.pos = 0;
    }

    /// The file left its game for a private one: nothing to read until its first command.
    pub fn detach(&mut self) {
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
    fn a_detached_file_reads_nothing_until_it_writes() {
        let mut g = game();
        let mut f = FileReply::new();
        g.write(&mut f, b"00 X");
        f.detach();
        assert_eq!(g.read(&mut f, 1024), b"");
    }
}
