// SPDX-License-Identifier: GPL-2.0

//! A game file's text I/O: one write is one command line, one read takes the unread part of the
//! file's reply (docs/protocol.md, "Framing and errors"). Shared by the game devices and the
//! player files of `/dev/kxo`.

use kernel::{
    iov::{IovIterDest, IovIterSource},
    prelude::*,
};

use crate::session::{command::LINE_MAX, cursor::FileReply};

/// Takes one write: the whole line into `buf` (at most [`LINE_MAX`] bytes), or, for a longer
/// write, consumes it whole and returns all of `buf` (`LINE_MAX + 1` bytes, which framing
/// answers with INVFMT). The caller returns the full length of the write.
pub(super) fn take_line<'b>(
    iov: &mut IovIterSource<'_>,
    buf: &'b mut [u8; LINE_MAX + 1],
) -> Result<&'b [u8]> {
    let len = iov.len();
    if len > LINE_MAX {
        iov.advance(len);
        return Ok(buf);
    }
    let dst = buf.get_mut(..len).ok_or(EINVAL)?;
    if iov.copy_from_iter(dst) != len {
        return Err(EFAULT);
    }
    Ok(dst)
}

/// Copies the unread part of a file's reply and advances its cursor; 0 at the end (EOF) and
/// for a zero-length read.
pub(super) fn give_reply(reply: &mut FileReply, iov: &mut IovIterDest<'_>) -> Result<usize> {
    let rest = reply.unread();
    // A zero-length read returns 0 and leaves the reply unread (read(2) with count 0).
    if rest.is_empty() || iov.is_empty() {
        return Ok(0);
    }
    let n = iov.copy_to_iter(rest);
    if n == 0 {
        return Err(EFAULT);
    }
    reply.consume(n);
    Ok(n)
}
