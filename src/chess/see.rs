//! Static exchange evaluation: what a capture wins or loses once every piece that attacks
//! its square has joined in, least valuable first, each side free to stop.
//!
//! Values are [`VALUES`] (a pawn 100). Pins are ignored; x-ray attackers behind a piece
//! that captured join in (sliders re-scanned through the emptied square); the king only
//! captures last.

use super::attacks;
use super::bitboard::Bitboard;
use super::eval::VALUES;
use super::moves::{Move, MoveKind};
use super::position::Position;
use super::square::{Role, Square};

/// The exchange value of `role`.
#[inline]
fn value(role: Role) -> i32 {
    VALUES.get(role.index()).copied().unwrap_or(0)
}

/// True when the exchange started by `m` in `pos` gains at least `threshold` for the mover.
///
/// The swap algorithm on a bound (as in Stockfish's `see_ge`): each capture in turn asks
/// whether the side making it can push the balance back across the threshold, so no list of
/// gains is kept. Promotions, en passant and castling count as even.
pub(crate) fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    if m.promotion().is_some() || matches!(m.kind(), MoveKind::Castle | MoveKind::EnPassant) {
        return threshold <= 0;
    }
    let (from, to) = (m.from(), m.to());
    // The mover's gain over the threshold if the exchange stops after its capture.
    let mut swap = m.capture().map_or(0, value) - threshold;
    if swap < 0 {
        return false;
    }
    // What the opponent needs: the moved piece's value less that gain.
    swap = value(m.role()) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = pos.occupied().without(from).without(to);
    let queens = pos.by_role(Role::Queen);
    let diagonal = pos.by_role(Role::Bishop) | queens;
    let straight = pos.by_role(Role::Rook) | queens;
    let mut attackers = pos.all_attackers_to(to, occupied);
    let mut side = pos.turn();
    // The answer if the exchange stopped here: whether the mover keeps the threshold.
    let mut res = true;
    loop {
        side = side.other();
        attackers &= occupied;
        let ours = attackers & pos.by_color(side);
        let Some((role, sq)) = cheapest(pos, ours) else {
            break;
        };
        res = !res;
        if role == Role::King {
            // The king may only take last: with an attacker left it cannot.
            return if (attackers & !pos.by_color(side)).any() {
                !res
            } else {
                res
            };
        }
        swap = value(role) - swap;
        if swap < i32::from(res) {
            break;
        }
        occupied = occupied.without(sq);
        // Sliders behind the piece that captured now see the square.
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= attacks::bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= attacks::rook_attacks(to, occupied) & straight;
        }
    }
    res
}

/// The least valuable piece among `pieces` (all of one colour), with its square.
#[inline]
fn cheapest(pos: &Position, pieces: Bitboard) -> Option<(Role, Square)> {
    // `Role::ALL` runs from the least to the most valuable.
    Role::ALL
        .iter()
        .find_map(|&role| (pieces & pos.by_role(role)).first().map(|sq| (role, sq)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::notation::parse_uci;

    fn see_of(fen: &str, uci: &str) -> (Position, Move) {
        let pos = Position::from_fen(fen.as_bytes()).unwrap();
        let m = parse_uci(&pos, uci.as_bytes()).unwrap();
        (pos, m)
    }

    /// The exchange value, found as the threshold where `see_ge` turns false.
    fn exact(pos: &Position, m: Move) -> i32 {
        let mut t = -2000;
        while see_ge(pos, m, t + 1) {
            t += 1;
        }
        assert!(see_ge(pos, m, t));
        t
    }

    /// The swap-list reference: every capture on the square in turn by the least valuable
    /// attacker (x-rays included), then the gains minimaxed back, the side to move free to
    /// stop.
    fn reference(pos: &Position, m: Move) -> i32 {
        let to = m.to();
        let mut occupied = pos.occupied().without(m.from());
        let mut gains = [0i32; 40];
        gains[0] = m.capture().map_or(0, value);
        let mut on_square = value(m.role());
        let mut side = pos.turn().other();
        let mut d = 0;
        loop {
            let attackers = (pos.attackers_to(to, side, occupied) & occupied).without(to);
            let Some((role, sq)) = cheapest(pos, attackers) else {
                break;
            };
            if role == Role::King
                && (pos.attackers_to(to, side.other(), occupied.without(sq)) & occupied).any()
            {
                break;
            }
            d += 1;
            gains[d] = on_square - gains[d - 1];
            on_square = value(role);
            occupied = occupied.without(sq);
            side = side.other();
        }
        while d > 0 {
            gains[d - 1] = -(-gains[d - 1]).max(gains[d]);
            d -= 1;
        }
        gains[0]
    }

    #[test]
    fn textbook_exchanges() {
        // An undefended pawn.
        let (p, m) = see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5");
        assert_eq!(exact(&p, m), 100);
        // The chessprogramming wiki's knight takes pawn: -220 with these values.
        let (p, m) = see_of(
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
            "d3e5",
        );
        assert_eq!(exact(&p, m), -220);
        // A queen takes a pawn defended by a pawn.
        let (p, m) = see_of("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d1d5");
        assert_eq!(exact(&p, m), -800);
        // The rook behind joins in (x-ray): black cannot recapture profitably.
        let (p, m) = see_of("4k3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5");
        assert_eq!(exact(&p, m), 100);
        // The king recaptures only an undefended piece.
        let (p, m) = see_of("8/8/4k3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5");
        assert_eq!(exact(&p, m), -400);
        let (p, m) = see_of("8/8/4k3/3p4/2P5/8/8/3RK3 w - - 0 1", "d1d5");
        assert_eq!(exact(&p, m), 100);
        // A quiet move onto a square a pawn attacks loses the piece.
        let (p, m) = see_of("4k3/8/8/2p5/8/8/2N5/4K3 w - - 0 1", "c2d4");
        assert_eq!(exact(&p, m), -320);
        let (p, m) = see_of("4k3/8/8/2p5/8/8/2N5/4K3 w - - 0 1", "c2e3");
        assert_eq!(exact(&p, m), 0);
    }

    #[test]
    fn agrees_with_the_swap_list_on_every_move() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "2r2rk1/pp1bqppp/2n1pn2/3p4/2PP4/2NBPN2/PP1Q1PPP/2R2RK1 b - - 0 12",
            "4r1k1/5ppp/8/3Q4/3q4/8/5PPP/4R1K1 w - - 0 1",
        ];
        let mut checked = 0;
        for fen in fens {
            let pos = Position::from_fen(fen.as_bytes()).unwrap();
            let mut list = crate::chess::moves::MoveList::new();
            pos.legal_moves(&mut list);
            for &m in list.iter() {
                if m.promotion().is_some()
                    || matches!(m.kind(), MoveKind::Castle | MoveKind::EnPassant)
                {
                    continue;
                }
                assert_eq!(exact(&pos, m), reference(&pos, m), "{fen} {m:?}");
                checked += 1;
            }
        }
        assert!(checked > 150, "{checked}");
    }
}
