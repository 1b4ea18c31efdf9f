//! The board logic of a `/dev/kxo` [`Record`] (the layout itself is `crate::uapi::record`):
//! decoding the board and state and playing a move onto a record ([`RecordBoard`]); on the
//! host, checking that a record a watcher read is a real game ([`RecordCheck::is_consistent`])
//! and that one follows another ([`is_successor`]).

pub use crate::uapi::record::Record;

use super::board::{Board4, GameState, Side, CELLS};

/// The board logic of a [`Record`].
pub trait RecordBoard: Sized {
    /// The decoded board (`None` if a cell holds `11`).
    fn board4(&self) -> Option<Board4>;
    /// The decoded game state.
    fn game_state(&self) -> Option<GameState>;
    /// The side to move next (O after an even number of plies).
    fn side_to_move(&self) -> Side;
    /// The record after the side to move plays `cell`: board, move count, moves and state
    /// updated; every other field (ids, round, `seq`, `lost`, `flags`) copied. `None` if the
    /// move is illegal, the game is over, or the record does not decode.
    fn played(&self, cell: u8) -> Option<Self>;
}

impl RecordBoard for Record {
    fn board4(&self) -> Option<Board4> {
        Board4::from_packed(self.board)
    }

    fn game_state(&self) -> Option<GameState> {
        GameState::from_u8(self.state)
    }

    fn side_to_move(&self) -> Side {
        Side::of_ply(self.move_count)
    }

    fn played(&self, cell: u8) -> Option<Record> {
        if self.game_state()? != GameState::Running || self.move_count >= CELLS {
            return None;
        }
        let board = self.board4()?.with(cell, self.side_to_move())?;
        let mut next = *self;
        next.board = board.packed();
        next.moves |= u64::from(cell & 0xF) << (4 * u32::from(self.move_count));
        next.move_count += 1;
        next.state = board.state().to_u8();
        Some(next)
    }
}

// What a watcher checks of the records it reads (host only).
#[cfg(not(MODULE))]
pub use super::host::{is_successor, RecordCheck};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::budget::{Budget, Meter, NeverInterrupt, NodeClock};
    use crate::kxo::agent::{Agent, RandomAgent};
    use crate::uapi::agent::AgentKind;

    fn sample() -> Record {
        let mut r = Record::start(0x0203, 0x0405_0607, AgentKind::Negamax, AgentKind::Random);
        r = r.played(5).unwrap().played(0).unwrap().played(10).unwrap();
        r.seq = 0x1112_1314_1516_1718;
        r.lost = 0x2122_2324_2526_2728;
        r
    }

    #[test]
    fn consistency_replays_the_moves() {
        let r = sample();
        assert!(r.is_consistent());
        assert_eq!(r.move_at(0), Some(5));
        assert_eq!(r.move_at(2), Some(10));
        assert_eq!(r.move_at(3), None);
        let mut bad = r;
        bad.board ^= 0b11 << 30; // cell 15 becomes 11
        assert!(!bad.is_consistent());
        let mut bad = r;
        bad.moves |= 7 << 12; // a 4th ply that move_count does not cover
        assert!(!bad.is_consistent());
        let mut bad = r;
        bad.state = GameState::OWon.to_u8();
        assert!(!bad.is_consistent());
        let mut bad = r;
        bad.x_agent = 9;
        assert!(!bad.is_consistent());
        // A repeated cell in the history is no game.
        let mut bad = r;
        bad.moves = 0x505;
        assert!(!bad.is_consistent());
    }

    #[test]
    fn successors_follow_the_rules() {
        let r = sample();
        let next = r.played(3).unwrap(); // X (ply 3) on 3
        assert!(is_successor(&r, &next));
        assert!(!is_successor(&next, &r));
        assert!(!is_successor(&r, &r));
        // Wrong side moved: O's stone on cell 3.
        let mut wrong = next;
        wrong.board = r.board | 0b01 << 6;
        assert!(!is_successor(&r, &wrong));
        // The cell was already taken.
        let mut taken = r;
        taken.move_count += 1;
        taken.moves |= 5 << 12;
        assert!(!is_successor(&r, &taken));
        // History rewritten.
        let mut rewritten = next;
        rewritten.moves ^= 1;
        assert!(!is_successor(&r, &rewritten));
        // Another game, round or pairing.
        for f in [
            |n: &mut Record| n.game += 1,
            |n: &mut Record| n.round += 1,
            |n: &mut Record| n.o_agent = 1,
        ] {
            let mut other = next;
            f(&mut other);
            assert!(!is_successor(&r, &other));
        }
        // Two stones at once.
        let mut two = next;
        two.board |= 0b10 << 28;
        assert!(!is_successor(&r, &two));
        // A wrong state.
        let mut state = next;
        state.state = GameState::Draw.to_u8();
        assert!(!is_successor(&r, &state));
    }

    #[test]
    fn random_games_decode_as_chains_of_successors() {
        let (mut c, mut i) = (NodeClock { ns_per_node: 1 }, NeverInterrupt);
        let mut meter = Meter::new(Budget::Nodes(1 << 40), &mut c, &mut i);
        let mut endings = [0u32; 4];
        for seed in 0..300u64 {
            let mut agent = RandomAgent::new(seed);
            let mut r = Record::start(7, seed as u32, AgentKind::Random, AgentKind::Random);
            r.seq = seed * 100;
            assert!(r.is_consistent());
            let mut prev = Record::from_bytes(&r.to_bytes()).unwrap();
            while let Some(cell) = agent.choose(&r.board4().unwrap(), r.side_to_move(), &mut meter)
            {
                r = r.played(cell).unwrap();
                r.seq += 1;
                let decoded = Record::from_bytes(&r.to_bytes()).unwrap();
                assert_eq!(decoded, r);
                assert!(decoded.is_consistent());
                assert!(is_successor(&prev, &decoded));
                prev = decoded;
            }
            assert!(r.game_state().unwrap().is_over());
            assert_eq!(r.played(0), None);
            endings[usize::from(r.state)] += 1;
        }
        // Random play produces wins for both sides and some draws.
        assert_eq!(endings[0], 0);
        assert!(endings[1] > 0 && endings[2] > 0, "{endings:?}");
    }
}
