//! The engines' position setup and move application, below the session layer.
//!
//! Reversi: the first 66 bytes are a `10` argument; if it parses, writing it back gives the
//! same bytes, and each further byte plays the (byte mod n)-th legal move (or passes), checking
//! disc counts and that occupied squares are never legal. Chess: the first line is a FEN; if it
//! parses, its written FEN parses to the same position, and each further byte plays the
//! (byte mod n)-th legal move, checking the incremental hash against a full recomputation and
//! writing the FEN of each position reached (at most 128 bytes).

use kgames_chess::chess::moves::MoveList;
use kgames_chess::chess::position::Position as ChessPosition;
use kgames_reversi::reversi::bitboard::Squares;
use kgames_reversi::reversi::notation::SETUP_LEN;
use kgames_reversi::reversi::position::Position as ReversiPosition;
use kgames_session::common::text::BufWriter;

/// The reversi target.
pub fn reversi(data: &[u8]) {
    let (arg, moves) = data.split_at(data.len().min(SETUP_LEN));
    let Some(mut pos) = ReversiPosition::parse_setup(arg) else {
        return;
    };
    assert_eq!(&pos.setup()[..], arg, "setup does not round-trip");
    for &b in moves {
        let occupied = pos.count_x() + pos.count_o();
        assert!(occupied <= 64);
        let legal = pos.legal_moves();
        assert_eq!(legal & !pos.empties(), 0, "an occupied square is legal");
        if legal == 0 {
            match pos.pass() {
                Some(next) => pos = next,
                None => {
                    assert!(pos.is_over());
                    return;
                }
            }
            continue;
        }
        let n = legal.count_ones() as usize;
        let Some(sq) = Squares(legal).nth(usize::from(b) % n) else {
            panic!("fewer squares than count_ones");
        };
        let next = pos.play(sq).expect("a legal move was refused");
        assert!(
            next.count_x() + next.count_o() == occupied + 1,
            "not one disc added"
        );
        let again = ReversiPosition::parse_setup(&next.setup()).expect("own setup refused");
        assert_eq!(again.setup(), next.setup());
        pos = next;
    }
}

/// Writes the FEN of `pos` into `buf` and returns its length.
fn write_fen(pos: &ChessPosition, buf: &mut [u8; 128]) -> usize {
    let mut w = BufWriter::new(buf);
    pos.write_fen(&mut w).expect("a FEN longer than 128 bytes");
    w.len()
}

/// The FEN of `pos`.
pub(crate) fn fen_of(pos: &ChessPosition) -> Vec<u8> {
    let mut buf = [0u8; 128];
    let n = write_fen(pos, &mut buf);
    buf[..n].to_vec()
}

/// The chess target.
pub fn chess(data: &[u8]) {
    let mut parts = data.splitn(2, |&b| b == b'\n');
    let fen = parts.next().unwrap_or(&[]);
    let moves = parts.next().unwrap_or(&[]);
    let mut pos = match ChessPosition::from_fen(fen) {
        Ok(p) => p,
        Err(_) => return,
    };
    let written = fen_of(&pos);
    let back = ChessPosition::from_fen(&written).expect("own FEN refused");
    assert_eq!(fen_of(&back), written, "FEN does not round-trip");
    let mut list = MoveList::new();
    let mut buf = [0u8; 128];
    for &b in moves {
        assert_eq!(pos.hash(), pos.compute_hash(), "incremental hash");
        list.clear();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            return;
        }
        let m = list
            .get(usize::from(b) % list.len())
            .expect("index in range");
        pos.play(m);
        write_fen(&pos, &mut buf);
    }
}
