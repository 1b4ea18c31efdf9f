//! Writing replies into fixed buffers without allocation.

use core::fmt;

/// Appends bytes to a borrowed buffer; writes past its end fail and leave it unchanged.
pub struct BufWriter<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> BufWriter<'a> {
    /// An empty writer over `buf`.
    pub fn new(buf: &'a mut [u8]) -> Self {
        BufWriter { buf, len: 0 }
    }

    /// Appends `bytes` whole, or fails without writing anything.
    pub fn push(&mut self, bytes: &[u8]) -> Result<(), fmt::Error> {
        let end = self.len.checked_add(bytes.len()).ok_or(fmt::Error)?;
        let dst = self.buf.get_mut(self.len..end).ok_or(fmt::Error)?;
        dst.copy_from_slice(bytes);
        self.len = end;
        Ok(())
    }

    /// Appends one byte.
    pub fn push_byte(&mut self, b: u8) -> Result<(), fmt::Error> {
        self.push(&[b])
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when nothing has been written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The written bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }
}

impl fmt::Write for BufWriter<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push(s.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::fmt::Write;

    #[test]
    fn writes_and_refuses_overflow() {
        let mut b = [0u8; 8];
        let mut w = BufWriter::new(&mut b);
        write!(w, "ab{}", 12).unwrap();
        assert_eq!(w.as_bytes(), b"ab12");
        assert!(w.push(b"12345").is_err());
        assert_eq!(w.as_bytes(), b"ab12");
        w.push(b"5678").unwrap();
        assert_eq!(w.len(), 8);
    }
}
