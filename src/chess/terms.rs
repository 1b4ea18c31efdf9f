//! The evaluation's terms: the features of a position [`super::eval`] counts for each side,
//! laid out as indices into one table of weights ([`super::weights::WEIGHTS`], a middle-game
//! and an endgame weight per term, in centipawns). The layout is shared by the evaluation and
//! by the tuner (`chess-tune`), which writes the weights; a change here changes both.

/// Material, by role index (pawn, knight, bishop, rook, queen, king; the king's is unused).
pub const MATERIAL: usize = 0;
/// Piece-square tables: `PST + role * 64 + square`, the square as the board is drawn from
/// white's side (0 = a8 for white; black's squares are mirrored).
pub const PST: usize = MATERIAL + 6;
/// A passed pawn, by its rank seen from its own side (0 = 1st rank).
pub const PASSED: usize = PST + 6 * 64;
/// A pawn beyond the first on its file.
pub const DOUBLED: usize = PASSED + 8;
/// A pawn with no own pawn on a neighbouring file.
pub const ISOLATED: usize = DOUBLED + 1;
/// Two or more bishops.
pub const BISHOP_PAIR: usize = ISOLATED + 1;
/// Mobility tables, by role: `MOBILITY[role] + n` for a piece reaching `n` squares that hold
/// no own piece and no enemy pawn attacks (capped at the table's last entry).
pub const MOBILITY: [usize; 6] = [
    0,
    BISHOP_PAIR + 1,
    BISHOP_PAIR + 1 + 9,
    BISHOP_PAIR + 1 + 9 + 14,
    BISHOP_PAIR + 1 + 9 + 14 + 15,
    0,
];
/// The length of each role's mobility table (0: none).
pub const MOBILITY_LEN: [usize; 6] = [0, 9, 14, 15, 28, 0];
/// A rook on a file without pawns.
pub const ROOK_OPEN_FILE: usize = MOBILITY[4] + 28;
/// A rook on a file without own pawns but with an enemy pawn.
pub const ROOK_HALF_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
/// An attack on the enemy king's zone (its square and neighbours), counted for the attacker:
/// `KING_ATTACK + units`, the units summed over the pieces reaching the zone (knight and
/// bishop 2, rook 3, queen 5), capped at [`KING_ATTACK_LEN`] - 1.
pub const KING_ATTACK: usize = ROOK_HALF_OPEN_FILE + 1;
/// The length of the king attack table.
pub const KING_ATTACK_LEN: usize = 16;
/// The pawn shield: `KING_SHIELD + n` for `n` own pawns (capped at 3) on the king's file and
/// its neighbours, one and two ranks in front of it.
pub const KING_SHIELD: usize = KING_ATTACK + KING_ATTACK_LEN;
/// A piece attacked by an enemy pawn, counted for its side by its role (knight, bishop, rook,
/// queen: `THREAT_BY_PAWN + role - 1`).
pub const THREAT_BY_PAWN: usize = KING_SHIELD + 4;
/// A rook (`+ 0`) or queen (`+ 1`) attacked by an enemy knight or bishop.
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 4;
/// A queen attacked by an enemy rook.
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 2;
/// A knight, bishop, rook or queen attacked by an enemy piece or pawn and not defended.
pub const HANGING: usize = THREAT_BY_ROOK + 1;
/// A pawn attacked by an enemy piece and not defended.
pub const HANGING_PAWN: usize = HANGING + 1;
/// The side to move.
pub const TEMPO: usize = HANGING_PAWN + 1;
/// The number of terms.
pub const TERMS: usize = TEMPO + 1;

/// The attack units of a piece of each role reaching the enemy king's zone.
pub const KING_ATTACK_UNITS: [u32; 6] = [0, 2, 2, 3, 5, 0];

/// The table's sections in order: a name and the first term (each runs to the next one's
/// start, the last to [`TERMS`]); `chess-tune` writes the weights file by them.
pub const SECTIONS: [(&str, usize); 25] = [
    (
        "material: pawn, knight, bishop, rook, queen, king",
        MATERIAL,
    ),
    (
        "piece-square table: pawn (a8..h8, ..., a1..h1 from white's side)",
        PST,
    ),
    (
        "piece-square table: knight (a8..h8, ..., a1..h1 from white's side)",
        PST + 64,
    ),
    (
        "piece-square table: bishop (a8..h8, ..., a1..h1 from white's side)",
        PST + 128,
    ),
    (
        "piece-square table: rook (a8..h8, ..., a1..h1 from white's side)",
        PST + 192,
    ),
    (
        "piece-square table: queen (a8..h8, ..., a1..h1 from white's side)",
        PST + 256,
    ),
    (
        "piece-square table: king (a8..h8, ..., a1..h1 from white's side)",
        PST + 320,
    ),
    ("passed pawn by relative rank", PASSED),
    ("doubled pawn", DOUBLED),
    ("isolated pawn", ISOLATED),
    ("bishop pair", BISHOP_PAIR),
    ("mobility: knight by squares reached", MOBILITY[1]),
    ("mobility: bishop by squares reached", MOBILITY[2]),
    ("mobility: rook by squares reached", MOBILITY[3]),
    ("mobility: queen by squares reached", MOBILITY[4]),
    ("rook on an open file", ROOK_OPEN_FILE),
    ("rook on a half-open file", ROOK_HALF_OPEN_FILE),
    ("king attack by units", KING_ATTACK),
    ("king shield by pawns", KING_SHIELD),
    (
        "attacked by a pawn: knight, bishop, rook, queen",
        THREAT_BY_PAWN,
    ),
    (
        "attacked by a knight or bishop: rook, queen",
        THREAT_BY_MINOR,
    ),
    ("queen attacked by a rook", THREAT_BY_ROOK),
    ("hanging piece", HANGING),
    ("hanging pawn", HANGING_PAWN),
    ("side to move", TEMPO),
];
