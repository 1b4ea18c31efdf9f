//! The device's replies in words: every reply is shown, never hidden, and one that is not a
//! known word is shown raw.

use kgames_client::protocol::word_name;
use kgames_client::{Response, Word};

use crate::game::Mover;
use crate::kind::Kind;

/// A reply word in words: `ILLMOVE` is "illegal move (ILLMOVE)".
pub fn word(w: Word) -> String {
    let text = match w {
        Word::Ok => return "ok".into(),
        Word::UnkCmd => "the device does not know this command",
        Word::InvFmt => "malformed command",
        Word::NoGame => "no game in progress",
        Word::Oot => "not your turn",
        Word::IllMove => "illegal move",
        Word::Win => "you win",
        Word::Lose => "you lose",
        Word::Tie => "a draw",
        Word::Check => "check",
        Word::Mate => "checkmate",
    };
    format!("{text} ({})", word_name(w))
}

/// The words of a reply: its word in words, or the unexpected reply raw.
pub fn describe(r: &Response) -> String {
    match r.word() {
        Some(w) => word(w),
        None => format!("the device answered something unexpected: {:?}", r.text()),
    }
}

/// The result in words when `w` after `who`'s move ends the game.
pub fn result(w: Word, who: Mover, kind: Kind) -> Option<&'static str> {
    Some(match (w, who) {
        (Word::Win, _) => "You win",
        (Word::Lose, _) => "The CPU wins",
        (Word::Tie, _) if kind == Kind::Chess => {
            "A draw (stalemate, material, 50 moves or repetition)"
        }
        (Word::Tie, _) => "A draw",
        (Word::Mate, Mover::Human) => "Checkmate: you win",
        (Word::Mate, Mover::Cpu) => "Checkmate: the CPU wins",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(s: &str) -> Response {
        Response::new(s.into())
    }

    #[test]
    fn every_word_in_words_and_the_unexpected_raw() {
        assert_eq!(describe(&reply("ILLMOVE\n")), "illegal move (ILLMOVE)");
        assert_eq!(describe(&reply("OOT\n")), "not your turn (OOT)");
        assert!(describe(&reply("INVFMT\n")).contains("malformed"));
        assert_eq!(
            describe(&reply("BOGUS\n")),
            "the device answered something unexpected: \"BOGUS\\n\""
        );
        for w in kgames_client::protocol::WORDS {
            assert!(word(w) == "ok" || word(w).ends_with(&format!("({})", word_name(w))));
        }
    }

    #[test]
    fn results() {
        assert_eq!(
            result(Word::Mate, Mover::Cpu, Kind::Chess),
            Some("Checkmate: the CPU wins")
        );
        assert_eq!(result(Word::Ok, Mover::Cpu, Kind::Chess), None);
        assert_eq!(
            result(Word::Win, Mover::Cpu, Kind::Reversi),
            Some("You win")
        );
    }
}
