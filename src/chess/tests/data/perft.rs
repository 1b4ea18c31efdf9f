//! Perft cases as data: exact leaf counts of the legal move tree, from the chessprogramming
//! wiki's "Perft Results" page (positions 1-6) and Martin Sedlak's TalkChess collection of
//! special cases. Included by path (`#[path]`) by the host test `tests/perft.rs` and by
//! kgames.ko's KUnit suite `kgames_chess` (src/ktest/kunit.rs), which runs the small ones.

/// (FEN, depth, expected leaf count).
pub type Case = (&'static str, u32, u64);

pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
pub const POSITION3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
pub const POSITION4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
pub const POSITION5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
pub const POSITION6: &str =
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

/// Shallow depths of every wiki position (fast).
pub const SHALLOW: &[Case] = &[
    (START, 1, 20),
    (START, 2, 400),
    (START, 3, 8_902),
    (START, 4, 197_281),
    (START, 5, 4_865_609),
    (KIWIPETE, 1, 48),
    (KIWIPETE, 2, 2_039),
    (KIWIPETE, 3, 97_862),
    (KIWIPETE, 4, 4_085_603),
    (POSITION3, 1, 14),
    (POSITION3, 2, 191),
    (POSITION3, 3, 2_812),
    (POSITION3, 4, 43_238),
    (POSITION3, 5, 674_624),
    (POSITION4, 1, 6),
    (POSITION4, 2, 264),
    (POSITION4, 3, 9_467),
    (POSITION4, 4, 422_333),
    (POSITION5, 1, 44),
    (POSITION5, 2, 1_486),
    (POSITION5, 3, 62_379),
    (POSITION5, 4, 2_103_487),
    (POSITION6, 1, 46),
    (POSITION6, 2, 2_079),
    (POSITION6, 3, 89_890),
    (POSITION6, 4, 3_894_594),
];

/// Special cases (en passant pins and checks, castling, promotions), Martin Sedlak's list.
pub const SPECIAL: &[Case] = &[
    ("3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 6, 1_134_888), // illegal ep move #1
    ("8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", 6, 1_015_133), // illegal ep move #2
    ("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 6, 1_440_467), // ep capture checks opponent
    ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", 6, 661_072),      // short castling gives check
    ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", 6, 803_711),      // long castling gives check
    ("r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", 4, 1_274_206), // castle rights
    ("r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", 4, 1_720_476), // castling prevented
    ("2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", 6, 3_821_001), // promote out of check
    ("8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1", 5, 1_004_658), // discovered check
    ("4k3/1P6/8/8/8/8/K7/8 w - - 0 1", 6, 217_342),      // promote to give check
    ("8/P1k5/K7/8/8/8/8/8 w - - 0 1", 6, 92_683),        // under-promote to give check
    ("K1k5/8/P7/8/8/8/8/8 w - - 0 1", 6, 2_217),         // self stalemate
    ("8/k1P5/8/1K6/8/8/8/8 w - - 0 1", 7, 567_584),      // stalemate and checkmate
    ("8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", 4, 23_527),    // stalemate and checkmate
];

/// The deep counts: 582 million leaves in all.
pub const DEEP: &[Case] = &[
    (START, 6, 119_060_324),
    (KIWIPETE, 5, 193_690_690),
    (POSITION4, 5, 15_833_292),
    (POSITION5, 5, 89_941_194),
    (POSITION6, 5, 164_075_551),
];
