//! The device's replies in words: every reply is shown, never hidden, and one that is not a
//! known word is shown raw.

use crate::game::Mover;
use crate::kind::Kind;

/// The words of the reply `raw` (with its newline): `ILLMOVE\n` is "illegal move (ILLMOVE)".
pub fn describe(raw: &str) -> String {
    let w = raw.strip_suffix('\n').unwrap_or(raw);
    let text = match w {
        "OK" => "ok",
        "UNKCMD" => "the device does not know this command (UNKCMD)",
        "INVFMT" => "malformed command (INVFMT)",
        "NOGAME" => "no game in progress (NOGAME)",
        "OOT" => "not your turn (OOT)",
        "ILLMOVE" => "illegal move (ILLMOVE)",
        "WIN" => "you win (WIN)",
        "LOSE" => "you lose (LOSE)",
        "TIE" => "a draw (TIE)",
        "CHECK" => "check (CHECK)",
        "MATE" => "checkmate (MATE)",
        _ => return format!("the device answered something unexpected: {raw:?}"),
    };
    text.to_string()
}

/// True for the replies of a move that was played.
pub fn accepted(raw: &str) -> bool {
    matches!(
        raw,
        "OK\n" | "WIN\n" | "LOSE\n" | "TIE\n" | "CHECK\n" | "MATE\n"
    )
}

/// The result in words when `word` (without newline) after `who`'s move ends the game.
pub fn result(word: &str, who: Mover, kind: Kind) -> Option<&'static str> {
    Some(match (word, who) {
        ("WIN", _) => "You win",
        ("LOSE", _) => "The CPU wins",
        ("TIE", _) if kind == Kind::Chess => "A draw (stalemate, material, 50 moves or repetition)",
        ("TIE", _) => "A draw",
        ("MATE", Mover::Human) => "Checkmate: you win",
        ("MATE", Mover::Cpu) => "Checkmate: the CPU wins",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_in_words_and_the_unexpected_raw() {
        assert_eq!(describe("ILLMOVE\n"), "illegal move (ILLMOVE)");
        assert_eq!(describe("OOT\n"), "not your turn (OOT)");
        assert!(describe("INVFMT\n").contains("malformed"));
        assert_eq!(
            describe("BOGUS\n"),
            "the device answered something unexpected: \"BOGUS\\n\""
        );
        assert!(accepted("CHECK\n") && !accepted("ILLMOVE\n") && !accepted("OK"));
        assert_eq!(
            result("MATE", Mover::Cpu, Kind::Chess),
            Some("Checkmate: the CPU wins")
        );
        assert_eq!(result("OK", Mover::Cpu, Kind::Chess), None);
        assert_eq!(result("WIN", Mover::Cpu, Kind::Reversi), Some("You win"));
    }
}
