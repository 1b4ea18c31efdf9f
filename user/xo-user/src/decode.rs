//! Checking and decoding the bytes of the stream (from the device or a recorded file).
//!
//! The layouts are `kgames_uapi`'s; a record of another version or size is an error that
//! names both layouts, never a guess.

use kgames_uapi::agent::AgentKind;
use kgames_uapi::load::KxoLoads;
use kgames_uapi::record::Record;

/// Bytes of one [`KxoLoads`] (`u64` figures, native endianness).
pub const LOADS_SIZE: usize = AgentKind::COUNT * 3 * 8;

/// The `u16` at `at` (native endianness), 0 past the end.
fn u16_at(b: &[u8], at: usize) -> u16 {
    b.get(at..at + 2)
        .and_then(|s| s.try_into().ok())
        .map_or(0, u16::from_ne_bytes)
}

/// Why a record does not decode: its version and size fields against this program's.
pub fn layout_error(bytes: &[u8]) -> String {
    let (v, s) = (u16_at(bytes, 0), u16_at(bytes, 2));
    if v != Record::VERSION || usize::from(s) != Record::SIZE {
        format!(
            "record version {v}, size {s}; xo-user reads version {}, size {}",
            Record::VERSION,
            Record::SIZE
        )
    } else {
        "record with non-zero reserved bytes".to_string()
    }
}

/// Decodes a buffer of whole records. An error if the length is not a multiple of the record
/// size or a record is of another layout.
pub fn records(buf: &[u8]) -> Result<Vec<Record>, String> {
    if !buf.len().is_multiple_of(Record::SIZE) {
        // The first record's own header says best what went wrong when it is another layout.
        if buf.len() >= 4 && (u16_at(buf, 0) != Record::VERSION) {
            return Err(layout_error(buf));
        }
        return Err(format!(
            "{} bytes is not a whole number of {}-byte records",
            buf.len(),
            Record::SIZE
        ));
    }
    buf.chunks(Record::SIZE)
        .map(|c| Record::from_bytes(c).ok_or_else(|| layout_error(c)))
        .collect()
}

/// Decodes [`LOADS_SIZE`] bytes of load figures.
pub fn loads(buf: &[u8]) -> Option<KxoLoads> {
    if buf.len() != LOADS_SIZE {
        return None;
    }
    let mut l: KxoLoads = Default::default();
    for (i, c) in buf.chunks_exact(8).enumerate() {
        let v = u64::from_ne_bytes(c.try_into().ok()?);
        *l.get_mut(i / 3)?.get_mut(i % 3)? = v;
    }
    Some(l)
}

/// The bytes of load figures (what [`loads`] decodes).
pub fn loads_bytes(l: &KxoLoads) -> Vec<u8> {
    l.iter().flatten().flat_map(|v| v.to_ne_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_and_their_errors() {
        let r = Record::start(3, 1, AgentKind::Mcts, AgentKind::MonteCarlo);
        let mut buf = r.to_bytes().to_vec();
        buf.extend_from_slice(&r.to_bytes());
        assert_eq!(records(&buf), Ok(vec![r, r]));
        let e = records(&buf[..47]).unwrap_err();
        assert!(e.contains("47 bytes"), "{e}");
        let mut v1 = buf.clone();
        v1[0..2].copy_from_slice(&1u16.to_ne_bytes());
        let e = records(&v1).unwrap_err();
        assert!(e.contains("record version 1, size 48"), "{e}");
        let mut big = buf.clone();
        big[2..4].copy_from_slice(&64u16.to_ne_bytes());
        assert!(records(&big).unwrap_err().contains("size 64"));
    }

    #[test]
    fn loads_round_trip() {
        let mut l: KxoLoads = Default::default();
        l[4][2] = 12345;
        l[0][0] = 1;
        let b = loads_bytes(&l);
        assert_eq!(b.len(), LOADS_SIZE);
        assert_eq!(loads(&b), Some(l));
        assert_eq!(loads(&b[1..]), None);
    }
}
