// SPDX-License-Identifier: GPL-2.0

//! `/dev/kxo`. Until the kxo games land, every command is answered `UNKCMD\n` (framing as
//! on every device: an over-long write is consumed whole).

use kernel::{
    fs::{File, Kiocb},
    iov::{IovIterDest, IovIterSource},
    miscdevice::{MiscDevice, MiscDeviceRegistration},
    new_mutex,
    prelude::*,
    sync::Mutex,
};

use super::game_device::{give_reply, take_line};
use crate::session::{command::LINE_MAX, cursor::FileReply, reply::Word};

/// The reply of one file and its read cursor.
struct KxoInner {
    reply: FileReply,
}

/// An open file of `/dev/kxo`.
#[pin_data]
pub(crate) struct KxoFile {
    #[pin]
    inner: Mutex<KxoInner>,
}

#[vtable]
impl MiscDevice for KxoFile {
    type Ptr = Pin<KBox<Self>>;

    fn open(_file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result<Pin<KBox<Self>>> {
        KBox::try_pin_init(
            try_pin_init!(Self {
                inner <- new_mutex!(KxoInner { reply: FileReply::new() }),
            }),
            GFP_KERNEL,
        )
    }

    fn write_iter(kiocb: Kiocb<'_, Self::Ptr>, iov: &mut IovIterSource<'_>) -> Result<usize> {
        let len = iov.len();
        if len == 0 {
            return Ok(0);
        }
        let mut buf = [0u8; LINE_MAX + 1];
        take_line(iov, &mut buf)?;
        let me = kiocb.file();
        let mut inner = me.inner.lock();
        inner.reply.out().set_word(Word::UnkCmd);
        inner.reply.commit();
        Ok(len)
    }

    fn read_iter(kiocb: Kiocb<'_, Self::Ptr>, iov: &mut IovIterDest<'_>) -> Result<usize> {
        let me = kiocb.file();
        let mut inner = me.inner.lock();
        give_reply(&mut inner.reply, iov)
    }
}
