//! The FFO endgame test positions #40-#49 (public test suite by the French Othello
//! Federation; X is black), with the exact score for the side to move (empties to the winner)
//! and the best moves. Test data, not part of the engine: included by path (`#[path]`) by the
//! tests (`tests/search.rs`), the tools `reversi_ffo` and `reversi_endgame` (`bin/`), the
//! example `reversi_bench` and the vmtest tool `reversi-ffo-vm`.

/// One FFO test position.
pub struct FfoCase {
    /// The suite's number, e.g. `#40`.
    pub name: &'static str,
    /// The position in the `10` setup form.
    pub setup: &'static [u8; 66],
    /// The exact score for the side to move.
    pub score: i32,
    /// The best moves (all moves reaching the score).
    pub best: &'static [&'static [u8; 2]],
}

/// FFO #40-#44 (20-22 empties).
pub const FFO_40_44: [FfoCase; 5] = [
    FfoCase {
        name: "#40",
        setup: b"O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
        score: 38,
        best: &[b"a2"],
    },
    FfoCase {
        name: "#41",
        setup: b"-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X",
        score: 0,
        best: &[b"h4"],
    },
    FfoCase {
        name: "#42",
        setup: b"--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO-- X",
        score: 6,
        best: &[b"g2"],
    },
    FfoCase {
        name: "#43",
        setup: b"--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O",
        score: -12,
        best: &[b"g3", b"c7"],
    },
    FfoCase {
        name: "#44",
        setup: b"--O-X-O---O-XO-O-OOXXXOOOOOOXXXOOOOOXX--XXOOXO----XXXX-----XXX-- O",
        score: -14,
        best: &[b"d2", b"b8"],
    },
];

/// FFO #45-#49 (22-24 empties: each takes seconds to minutes; benchmarks and ignored tests).
#[allow(dead_code)]
pub const FFO_45_49: [FfoCase; 5] = [
    FfoCase {
        name: "#45",
        setup: b"---XXXX-X-XXXO--XXOXOO--XXXOXO--XXOXXO---OXXXOO-O-OOOO------OO-- X",
        score: 6,
        best: &[b"b2"],
    },
    FfoCase {
        name: "#46",
        setup: b"---XXX----OOOX----OOOXX--OOOOXXX--OOOOXX--OXOXXX--XXOO---XXXX-O- X",
        score: -8,
        best: &[b"b3"],
    },
    FfoCase {
        name: "#47",
        setup: b"-OOOOO----OOOO---OOOOX--XXXXXX---OXOOX--OOOXOX----OOXX----XXXX-- O",
        score: 4,
        best: &[b"g2"],
    },
    FfoCase {
        name: "#48",
        setup: b"-----X--X-XXX---XXXXOO--XOXOOXX-XOOXXX--XOOXX-----OOOX---XXXXXX- O",
        score: 28,
        best: &[b"f6"],
    },
    FfoCase {
        name: "#49",
        setup: b"--OX-O----XXOO--OOOOOXX-OOOOOX--OOOXOXX-OOOOXX-----OOX----X-O--- X",
        score: 16,
        best: &[b"e1"],
    },
];
