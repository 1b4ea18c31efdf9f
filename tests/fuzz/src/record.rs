//! The kxo record layout and its board logic: decode, encode, consistency and succession.
//!
//! The first 48 bytes are decoded as a record: if they decode, encoding gives them back and
//! decoding that gives the same record; `is_consistent` and the board accessors never panic.
//! The following bytes are cells played onto a fresh record (agents from the first two
//! bytes): every accepted move keeps the record consistent, is its predecessor's successor,
//! and survives an encode/decode round trip; a refused move is illegal on the board.

use kgames_kxo::kxo::agent::AgentKind;
use kgames_kxo::kxo::board::GameState;
use kgames_kxo::kxo::record::{is_successor, Record, RecordBoard, RecordCheck};

/// The target.
pub fn run(data: &[u8]) {
    if let Some(r) = Record::from_bytes(data) {
        assert_eq!(&r.to_bytes()[..], &data[..Record::SIZE], "decode/encode");
        assert_eq!(Record::from_bytes(&r.to_bytes()), Some(r));
        let consistent = r.is_consistent();
        let _ = (
            r.board4(),
            r.game_state(),
            r.side_to_move(),
            r.agents(),
            r.is_snapshot(),
        );
        for ply in 0..=Record::MAX_PLIES {
            let _ = r.move_at(ply);
        }
        if consistent {
            for cell in 0..16 {
                if let Some(next) = r.played(cell) {
                    assert!(next.is_consistent() && is_successor(&r, &next));
                }
            }
        }
    }
    let agent = |b: Option<&u8>| AgentKind::from_id(b.copied().unwrap_or(0) % 5);
    let (Some(o), Some(x)) = (agent(data.first()), agent(data.get(1))) else {
        panic!("agent ids 0-4 are known");
    };
    let mut r = Record::start(0, 0, o, x);
    assert!(r.is_consistent(), "the start record");
    for &cell in data.iter().skip(2) {
        match r.played(cell % 16) {
            Some(next) => {
                assert!(next.is_consistent(), "a played record is inconsistent");
                assert!(is_successor(&r, &next), "a played record is no successor");
                assert_eq!(Record::from_bytes(&next.to_bytes()), Some(next));
                r = next;
            }
            None => {
                let free = r.board4().map_or(0, |b| b.empty());
                let running = r.game_state() == Some(GameState::Running);
                assert!(
                    !running || free & (1 << (cell % 16)) == 0,
                    "a legal move refused"
                );
            }
        }
    }
}
