// SPDX-License-Identifier: GPL-2.0

//! The engines' KUnit suites: the engines and the session layer as the kernel's compiler builds
//! them for the kernel's target (soft float, no SSE, the kernel's flags) give the host's
//! results. Compiled only when the kernel has `CONFIG_KUNIT=y` (Debian's stock kernels do not;
//! the test kernel does: scripts/kernel.config); KUnit runs them at insmod and writes their
//! KTAP to the kernel log (`make check` counts it: docs/testing.md, "KUnit").
//!
//! The expected values are the host tests' data files, included by path, so host and kernel
//! check the same numbers. Each case runs in KUnit's own kernel thread: large memory comes from
//! the heap, not its stack.

// The data files hold more cases than the suites run (the host runs them all).
#[allow(dead_code, unreachable_pub)]
#[path = "../chess/tests/data/evals.rs"]
mod chess_evals;
#[allow(dead_code, unreachable_pub)]
#[path = "../chess/tests/data/perft.rs"]
mod chess_perft;
#[allow(dead_code, unreachable_pub)]
#[path = "../kxo/tests/data/solved.rs"]
mod kxo_solved;
#[allow(dead_code, unreachable_pub)]
#[path = "../reversi/tests/data/ffo.rs"]
mod reversi_ffo;
#[allow(dead_code, unreachable_pub)]
#[path = "../reversi/tests/data/perft.rs"]
mod reversi_perft;
#[allow(dead_code, unreachable_pub)]
#[path = "../session/tests/data/replies.rs"]
mod session_replies;

use kernel::prelude::*;

use crate::common::budget::{Budget, Meter, NeverInterrupt};
use crate::kmod::clock::KernelClock;

/// Runs `f` with a meter of `budget` nodes that no signal stops.
fn with_meter<R>(budget: u64, f: impl FnOnce(&mut Meter<'_>) -> R) -> R {
    let (mut clock, mut never) = (KernelClock::new(), NeverInterrupt);
    let mut meter = Meter::new(Budget::Nodes(budget), &mut clock, &mut never);
    f(&mut meter)
}

#[kunit_tests(kgames_reversi)]
mod reversi {
    use super::{reversi_ffo::FFO_40_44, reversi_perft::START_PERFT, with_meter};
    use crate::common::budget::Budget;
    use crate::reversi::{
        notation::square_name,
        perft::{perft, perft_metered},
        position::Position,
        search::{best_move, Outcome, SearchContext, LARGE_BUDGET_NODES},
        tt::TtEntry,
    };
    use kernel::prelude::*;

    /// Perft from the start position to depth 7 (55,092 leaves), plain and metered.
    #[test]
    fn perft_from_the_start() {
        let start = Position::start();
        for (depth, &want) in (1u32..=7).zip(START_PERFT.iter()) {
            assert_eq!(perft(&start, depth), want);
            let metered = with_meter(Budget::MAX_NODES, |m| perft_metered(&start, depth, m));
            assert_eq!(metered, Ok(want));
        }
    }

    /// The CPU player, given a large budget, solves FFO #40 after its best move (19 empties)
    /// exactly: the side to move then has the negation of #40's score, and its move is legal.
    /// (The host tests solve #40 itself, with its best moves.)
    #[test]
    fn ffo_40_after_its_best_move_solved_exactly() -> Result {
        let case = &FFO_40_44[0];
        let first = (0u8..64)
            .find(|&sq| square_name(sq) == *case.best[0])
            .ok_or(EINVAL)?;
        let pos = Position::parse_setup(case.setup)
            .and_then(|p| p.play(first))
            .ok_or(EINVAL)?;
        let mut tt = KVVec::from_elem(TtEntry::EMPTY, 1 << 16, GFP_KERNEL)?;
        let mut ctx = SearchContext::new(&mut tt);
        let found = with_meter(LARGE_BUDGET_NODES * 10, |m| best_move(&pos, &mut ctx, m));
        assert!(found.exact);
        assert_eq!(found.score, -case.score);
        let Outcome::Move(sq) = found.outcome else {
            return Err(EINVAL);
        };
        assert!(pos.play(sq).is_some());
        Ok(())
    }
}

#[kunit_tests(kgames_chess)]
mod chess {
    use super::{chess_evals::NETWORK_EVALS, chess_perft::SHALLOW};
    use crate::chess::{
        movegen::perft, moves::MoveList, nnue::Accumulator, nnue::Network, position::Position,
    };
    use kernel::prelude::*;

    /// Perft of the wiki's positions (the start, Kiwipete, 3-6) to the depths with at most
    /// 10,000 leaves.
    #[test]
    fn perft_of_the_wiki_positions() -> Result {
        let mut run = 0;
        for &(fen, depth, want) in SHALLOW.iter().filter(|c| c.2 <= 10_000) {
            let pos = Position::from_fen(fen.as_bytes()).map_err(|_| EINVAL)?;
            assert_eq!(perft(&pos, depth), want);
            run += 1;
        }
        assert!(run >= 10);
        Ok(())
    }

    /// The built-in network evaluates the fixed positions exactly as the host does.
    #[test]
    fn network_evaluations_as_on_the_host() -> Result {
        let net = Network::embedded().ok_or(EINVAL)?;
        let mut acc = KBox::new(Accumulator::EMPTY, GFP_KERNEL)?;
        for &(fen, want) in NETWORK_EVALS {
            let pos = Position::from_fen(fen.as_bytes()).map_err(|_| EINVAL)?;
            net.refresh(&pos, &mut acc);
            assert_eq!(net.evaluate(&acc, &pos), want);
        }
        Ok(())
    }

    /// Where the CPU has AVX2, the network's AVX2 loops inside the kernel's FPU sections
    /// (src/kmod/fpu.rs) give the plain loops' accumulators and evaluations, bit for bit:
    /// every legal move of the fixed positions, updated from the position's accumulator.
    #[test]
    fn network_avx2_equals_the_plain_loops() -> Result {
        let plain = Network::embedded().ok_or(EINVAL)?.scalar();
        let Some(avx2) = crate::kmod::fpu::avx2() else {
            pr_info!("kgames: no AVX2 on this CPU: only the plain loops run\n");
            return Ok(());
        };
        let vector = plain.with_avx2(avx2);
        assert!(vector.uses_avx2());
        let mut accs = KVVec::from_elem(Accumulator::EMPTY, 3, GFP_KERNEL)?;
        let mut list = KBox::new(MoveList::new(), GFP_KERNEL)?;
        let mut moves = 0;
        for &(fen, want) in NETWORK_EVALS {
            let pos = Position::from_fen(fen.as_bytes()).map_err(|_| EINVAL)?;
            let [root, a, b] = &mut accs[..] else {
                return Err(EINVAL);
            };
            plain.refresh(&pos, root);
            assert_eq!(vector.evaluate(root, &pos), want);
            pos.legal_moves(&mut list);
            for &m in list.iter() {
                let mut after = pos;
                after.play(m);
                plain.update(root, &pos, &after, a);
                vector.update(root, &pos, &after, b);
                assert!(*a == *b);
                assert_eq!(vector.evaluate(b, &after), plain.evaluate(a, &after));
                moves += 1;
            }
        }
        assert!(moves > 100);
        Ok(())
    }
}

#[kunit_tests(kgames_kxo)]
mod kxo {
    use super::{kxo_solved::EMPTY_BOARD, with_meter};
    use crate::common::budget::Budget;
    use crate::kxo::{
        board::{Board4, Side},
        negamax::{search, History, TtEntry, TT_DEFAULT_LEN},
    };
    use kernel::prelude::*;

    /// Negamax solves the empty 4 x 4 board: O wins, in the host's number of plies, with the
    /// host's move.
    #[test]
    fn negamax_solves_the_empty_board() -> Result {
        let mut tt = KVVec::from_elem(TtEntry::EMPTY, TT_DEFAULT_LEN, GFP_KERNEL)?;
        let mut history = KBox::new(History::EMPTY, GFP_KERNEL)?;
        let found = with_meter(Budget::MAX_NODES, |m| {
            search(&Board4::EMPTY, Side::O, &mut tt, &mut history, m)
        });
        let found = found.ok_or(EINVAL)?;
        assert!(found.solved);
        assert_eq!((found.score, found.cell), EMPTY_BOARD);
        Ok(())
    }
}

#[kunit_tests(kgames_session)]
mod session {
    use super::session_replies::REVERSI_REPLIES;
    use crate::session::{
        reply::Reply,
        reversi_game::Reversi,
        state::{Action, CommandContext, Session},
    };
    use kernel::prelude::*;

    /// A reversi session parses and answers a fixed sequence of commands (rejections, a new
    /// game, a budget, a move, the board) exactly as on the host.
    #[test]
    fn reversi_replies_as_on_the_host() -> Result {
        let mut session = KBox::new(Session::<Reversi>::new(), GFP_KERNEL)?;
        let mut out = KBox::new(Reply::new(), GFP_KERNEL)?;
        let context = CommandContext {
            games: 1,
            max_games: 4,
            ..CommandContext::default()
        };
        for &(command, want) in REVERSI_REPLIES {
            let action = session.execute(command, &context, &mut out);
            assert!(matches!(action, Action::Done));
            assert_eq!(out.as_bytes(), want);
        }
        Ok(())
    }
}
