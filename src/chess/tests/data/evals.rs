//! The built-in network's evaluations of a fixed set of positions (centipawns, side to move),
//! as the host computes them. Included by path (`#[path]`) by the host test `tests/nnue.rs` and
//! by kgames.ko's KUnit suite `kgames_chess` (src/ktest/kunit.rs): the same network built by the
//! kernel's compiler for the kernel's target gives the same numbers. A new network changes them:
//! `cargo test -p kgames-chess --test nnue tabled` prints the new values.

/// (FEN, evaluation).
pub const NETWORK_EVALS: &[(&str, i32)] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        45,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        -112,
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 11),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        -2,
    ),
    (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        -20,
    ),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        25,
    ),
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 370),
    ("6k1/5ppp/8/8/8/8/5PPP/3Q2K1 b - - 0 1", -2522),
];
