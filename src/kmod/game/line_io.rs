// SPDX-License-Identifier: GPL-2.0

//! A game file's input: one write is one command line (docs/protocol.md, "Framing and
//! errors"), copied from user space before any lock is taken. Shared by the game devices and
//! `/dev/kxo`'s files. (A read's copy out is
//! [`GameFile::read_reply`](super::file::GameFile::read_reply).)

use kernel::{iov::IovIterSource, prelude::*};

use crate::session::command::LINE_MAX;

/// Takes one write: the whole line into `buf` (at most [`LINE_MAX`] bytes), or, for a longer
/// write, consumes it whole and returns all of `buf` (`LINE_MAX + 1` bytes, which framing
/// answers with INVFMT). The caller returns the full length of the write.
pub(crate) fn take_line<'b>(
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
