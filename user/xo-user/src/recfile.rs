//! The recording format of `xo-user --record FILE` and `--replay FILE`.
//!
//! All integers are in the byte order of the machine that recorded (records are stored exactly
//! as the device gave them, and the device's byte order is the machine's); the header's
//! byte-order mark lets a reader of the other order refuse the file.
//!
//! ```text
//! header, 16 bytes:
//!   0  8  magic "KXOREC1\n"
//!   8  4  byte-order mark 0x0A0B0C0D (u32)
//!  12  2  record layout version (u16, kgames_uapi Record::VERSION)
//!  14  2  record size in bytes (u16, Record::SIZE)
//! then entries, each a 16-byte head and its payload:
//!   0  1  kind: 1 records, 2 loads, 3 state
//!   1  3  zero
//!   4  4  payload length in bytes (u32)
//!   8  8  arrival time in microseconds since the recording started (u64, non-decreasing)
//!  16  -  payload:
//!         kind 1: 1 to 16 records of one read(2), record size bytes each, as read
//!         kind 2: the KXO_IOC_LOADS figures, 5 agents x 3 windows x u64 (120 bytes)
//!         kind 3: the KXO_IOC_STATE struct (96 bytes; 32 in recordings made before the
//!                 per-slot pairings, read as every slot random:random, which that module did)
//! ```
//!
//! A file ends after a whole entry. A reader reports a bad magic, the other byte order, another
//! record layout, an unknown kind, a wrong length, time going backwards or a truncated entry
//! with its byte offset.

use std::io::{self, Read, Write};
use std::time::Duration;

use kgames_uapi::pairing::RANDOM;
use kgames_uapi::record::Record;
use kgames_uapi::state::KxoState;

use crate::decode;
use crate::msg::Msg;

/// The file's first 8 bytes.
pub const MAGIC: &[u8; 8] = b"KXOREC1\n";
/// The byte-order mark.
pub const BOM: u32 = 0x0A0B_0C0D;
/// Bytes of the header and of an entry head.
pub const HEAD: usize = 16;
/// Entry kinds.
pub const KIND_RECORDS: u8 = 1;
/// Entry kind of load figures.
pub const KIND_LOADS: u8 = 2;
/// Entry kind of a state sample.
pub const KIND_STATE: u8 = 3;
/// Most records in one entry (one read returns at most 16).
pub const MAX_RECORDS: usize = 16;
/// The size of a state entry before `KxoState` grew its per-slot `pairings`.
pub const OLD_STATE_SIZE: usize = 32;

/// Decodes a state entry of either size. The old one has no pairings: the module of then
/// drew both sides of every game at random each round, so its slots read as
/// `pairing::RANDOM` on both sides.
pub fn state_entry(payload: &[u8]) -> Option<KxoState> {
    if payload.len() == OLD_STATE_SIZE {
        let mut b = [0u8; KxoState::SIZE];
        b[..OLD_STATE_SIZE].copy_from_slice(payload);
        let mut s = KxoState::from_bytes(&b)?;
        let games = usize::try_from(s.games).unwrap_or(usize::MAX);
        for p in s.pairings.iter_mut().take(games) {
            *p = [RANDOM, RANDOM];
        }
        Some(s)
    } else {
        KxoState::from_bytes(payload)
    }
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

/// Writes a recording.
#[derive(Debug)]
pub struct Writer<W: Write> {
    out: W,
    last: u64,
}

impl<W: Write> Writer<W> {
    /// Writes the header.
    pub fn new(mut out: W) -> io::Result<Writer<W>> {
        let mut h = Vec::with_capacity(HEAD);
        h.extend_from_slice(MAGIC);
        h.extend_from_slice(&BOM.to_ne_bytes());
        h.extend_from_slice(&Record::VERSION.to_ne_bytes());
        h.extend_from_slice(&(Record::SIZE as u16).to_ne_bytes());
        out.write_all(&h)?;
        Ok(Writer { out, last: 0 })
    }

    fn entry(&mut self, kind: u8, at: Duration, payload: &[u8]) -> io::Result<()> {
        let len = u32::try_from(payload.len()).map_err(io::Error::other)?;
        let mut h = [0u8; HEAD];
        h[0] = kind;
        h[4..8].copy_from_slice(&len.to_ne_bytes());
        // The file's times never go back, whatever order the caller stamps its messages in.
        self.last = self.last.max(micros(at));
        h[8..16].copy_from_slice(&self.last.to_ne_bytes());
        self.out.write_all(&h)?;
        self.out.write_all(payload)
    }

    /// Appends one message (records in entries of at most [`MAX_RECORDS`]; the end of a
    /// replay is not stored).
    pub fn write(&mut self, msg: &Msg) -> io::Result<()> {
        match msg {
            Msg::Records { at, records } => {
                for chunk in records.chunks(MAX_RECORDS) {
                    let bytes: Vec<u8> = chunk.iter().flat_map(|r| r.to_bytes()).collect();
                    self.entry(KIND_RECORDS, *at, &bytes)?;
                }
                Ok(())
            }
            Msg::Loads { at, loads } => self.entry(KIND_LOADS, *at, &decode::loads_bytes(loads)),
            Msg::State { at, state } => self.entry(KIND_STATE, *at, &state.to_bytes()),
            Msg::ReplayEnd => Ok(()),
        }
    }

    /// Flushes what is buffered.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// The output (flushed).
    pub fn into_inner(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Reads a recording, one message per entry.
#[derive(Debug)]
pub struct Reader<R: Read> {
    input: R,
    offset: u64,
    last_at: u64,
}

/// Reads until `buf` is full or the input ends; how many bytes were read.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

impl<R: Read> Reader<R> {
    /// Reads and checks the header.
    pub fn new(mut input: R) -> Result<Reader<R>, String> {
        let mut h = [0u8; HEAD];
        let n = read_full(&mut input, &mut h).map_err(|e| e.to_string())?;
        if n < HEAD || &h[..8] != MAGIC {
            return Err("not an xo-user recording (no KXOREC1 header)".into());
        }
        let bom = u32::from_ne_bytes([h[8], h[9], h[10], h[11]]);
        if bom != BOM {
            return Err(format!(
                "recorded on a machine of the other byte order (mark {bom:#010x})"
            ));
        }
        let version = u16::from_ne_bytes([h[12], h[13]]);
        let size = u16::from_ne_bytes([h[14], h[15]]);
        if version != Record::VERSION || usize::from(size) != Record::SIZE {
            return Err(format!(
                "recorded with record version {version}, size {size}; xo-user reads version {}, size {}",
                Record::VERSION,
                Record::SIZE
            ));
        }
        Ok(Reader {
            input,
            offset: HEAD as u64,
            last_at: 0,
        })
    }

    /// The next message, `None` at a clean end of file.
    pub fn next_msg(&mut self) -> Result<Option<Msg>, String> {
        let start = self.offset;
        let mut h = [0u8; HEAD];
        let n = read_full(&mut self.input, &mut h).map_err(|e| e.to_string())?;
        if n == 0 {
            return Ok(None);
        }
        if n < HEAD {
            return Err(format!(
                "truncated: the entry at byte {start} has {n} of its {HEAD} head bytes"
            ));
        }
        let kind = h[0];
        let len = u32::from_ne_bytes([h[4], h[5], h[6], h[7]]) as usize;
        let t = u64::from_ne_bytes(h[8..16].try_into().unwrap_or_default());
        let want = match kind {
            KIND_RECORDS
                if len > 0
                    && len.is_multiple_of(Record::SIZE)
                    && len <= MAX_RECORDS * Record::SIZE =>
            {
                len
            }
            KIND_LOADS if len == decode::LOADS_SIZE => len,
            KIND_STATE if len == KxoState::SIZE || len == OLD_STATE_SIZE => len,
            KIND_RECORDS | KIND_LOADS | KIND_STATE => {
                return Err(format!(
                    "the entry at byte {start} (kind {kind}) has a bad length {len}"
                ))
            }
            _ => return Err(format!("the entry at byte {start} has unknown kind {kind}")),
        };
        if h[1..4] != [0, 0, 0] {
            return Err(format!("the entry at byte {start} has non-zero padding"));
        }
        if t < self.last_at {
            return Err(format!("the entry at byte {start} goes back in time"));
        }
        let mut payload = vec![0u8; want];
        let got = read_full(&mut self.input, &mut payload).map_err(|e| e.to_string())?;
        if got < want {
            return Err(format!(
                "truncated: the entry at byte {start} has {got} of its {want} payload bytes"
            ));
        }
        self.offset += (HEAD + want) as u64;
        self.last_at = t;
        let at = Duration::from_micros(t);
        let msg = match kind {
            KIND_RECORDS => Msg::Records {
                at,
                records: decode::records(&payload)
                    .map_err(|e| format!("the entry at byte {start}: {e}"))?,
            },
            KIND_LOADS => Msg::Loads {
                at,
                loads: decode::loads(&payload).ok_or("bad loads")?,
            },
            _ => Msg::State {
                at,
                state: state_entry(&payload).ok_or("bad state")?,
            },
        };
        Ok(Some(msg))
    }
}

/// Reads a whole recording into memory (the replay checks the whole file before it starts).
pub fn read_all(input: impl Read) -> Result<Vec<Msg>, String> {
    let mut r = Reader::new(input)?;
    let mut out = Vec::new();
    while let Some(m) = r.next_msg()? {
        out.push(m);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kgames_uapi::agent::AgentKind;
    use kgames_uapi::load::KxoLoads;

    fn sample() -> (Vec<Msg>, Vec<u8>) {
        let r = Record::start(1, 2, AgentKind::Negamax, AgentKind::Mcts);
        let mut loads: KxoLoads = Default::default();
        loads[2] = [2048, 1024, 7];
        let msgs = vec![
            Msg::State {
                at: Duration::from_micros(5),
                state: KxoState {
                    games: 9,
                    period_ms: 100,
                    ..Default::default()
                },
            },
            Msg::Records {
                at: Duration::from_millis(10),
                records: vec![r, r],
            },
            Msg::Loads {
                at: Duration::from_millis(20),
                loads,
            },
        ];
        let mut w = Writer::new(Vec::new()).unwrap();
        for m in &msgs {
            w.write(m).unwrap();
        }
        (msgs, w.out)
    }

    #[test]
    fn round_trip() {
        let (msgs, bytes) = sample();
        assert_eq!(
            bytes.len(),
            16 + (16 + KxoState::SIZE) + (16 + 96) + (16 + 120)
        );
        assert_eq!(&bytes[..8], MAGIC);
        assert_eq!(read_all(&bytes[..]), Ok(msgs));
    }

    #[test]
    fn times_written_never_go_back() {
        let (mut msgs, _) = sample();
        msgs.swap(0, 2); // loads at 20 ms written before records at 10 ms
        let mut w = Writer::new(Vec::new()).unwrap();
        for m in &msgs {
            w.write(m).unwrap();
        }
        let back = read_all(&w.into_inner().unwrap()[..]).unwrap();
        let at = |m: &Msg| match m {
            Msg::Records { at, .. } | Msg::Loads { at, .. } | Msg::State { at, .. } => *at,
            _ => Duration::ZERO,
        };
        let times: Vec<Duration> = back.iter().map(at).collect();
        assert_eq!(times, [20, 20, 20].map(Duration::from_millis));
    }

    #[test]
    fn an_old_state_entry_reads_as_random_pairings() {
        let mut bytes = Writer::new(Vec::new()).unwrap().into_inner().unwrap();
        let state = KxoState {
            games: 3,
            period_ms: 100,
            ..Default::default()
        };
        let mut head = [0u8; HEAD];
        head[0] = KIND_STATE;
        head[4..8].copy_from_slice(&(OLD_STATE_SIZE as u32).to_ne_bytes());
        bytes.extend_from_slice(&head);
        bytes.extend_from_slice(&state.to_bytes()[..OLD_STATE_SIZE]);
        let msgs = read_all(&bytes[..]).unwrap();
        let Msg::State { state: got, .. } = &msgs[0] else {
            panic!("{msgs:?}")
        };
        assert_eq!(got.games, 3);
        assert_eq!(
            got.pairings[..4],
            [[RANDOM; 2], [RANDOM; 2], [RANDOM; 2], [0, 0]]
        );
    }

    #[test]
    fn bad_files_are_reported() {
        let (_, bytes) = sample();
        let err = |b: &[u8]| read_all(b).unwrap_err();
        assert!(err(b"hello").contains("not an xo-user recording"));
        // Truncated anywhere inside an entry (not at an entry boundary).
        for cut in [20, 16 + 16 + KxoState::SIZE - 1, bytes.len() - 1] {
            let e = err(&bytes[..cut]);
            assert!(e.starts_with("truncated"), "cut {cut}: {e}");
        }
        let mut v1 = bytes.clone();
        v1[12..14].copy_from_slice(&1u16.to_ne_bytes());
        assert!(err(&v1).contains("record version 1"));
        let mut bom = bytes.clone();
        bom[8..12].copy_from_slice(&BOM.swap_bytes().to_ne_bytes());
        assert!(err(&bom).contains("other byte order"));
        let mut kind = bytes.clone();
        kind[16] = 9;
        assert!(err(&kind).contains("unknown kind 9"));
        // A record of another layout inside the file.
        let rec_at = 16 + 16 + KxoState::SIZE + 16;
        let mut inner = bytes.clone();
        inner[rec_at..rec_at + 2].copy_from_slice(&3u16.to_ne_bytes());
        assert!(err(&inner).contains("record version 3"), "{}", err(&inner));
        let mut back = bytes.clone();
        let second = 16 + 16 + KxoState::SIZE;
        back[second + 8..second + 16].copy_from_slice(&0u64.to_ne_bytes());
        back[16 + 8..16 + 16].copy_from_slice(&99u64.to_ne_bytes());
        assert!(err(&back).contains("back in time"));
    }
}
