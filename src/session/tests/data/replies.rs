//! A reversi session's replies to a fixed sequence of commands, none of which asks the CPU to
//! search: rejections (each leaves the game as it was), a new game, a budget, a move, the
//! board and the position. Included by path (`#[path]`) by the host tests (`tests.rs`) and by
//! kgames.ko's KUnit suite `kgames_session` (src/ktest/kunit.rs).

/// (command, the whole reply), in order, on a new session.
pub const REVERSI_REPLIES: &[(&[u8], &[u8])] = &[
    (b"42", b"UNKCMD\n"),
    (b"1", b"UNKCMD\n"),
    (b"01 x", b"INVFMT\n"),
    (b"00 Q", b"INVFMT\n"),
    (b"00 X", b"OK\n"),
    (b"05 abc", b"INVFMT\n"),
    (b"05 N1000", b"OK\n"),
    (b"02 9 9", b"INVFMT\n"),
    (b"02 3 2", b"OK\n"),
    (b"02 3 2", b"OOT\n"),
    (
        b"01",
        b"-------------------X-------XX------XO---------------------------\tO\n",
    ),
    (
        b"11",
        b"-------------------X-------XX------XO--------------------------- O\n",
    ),
    (b"06", b"d3\n"),
];
