//! How a board may look on this terminal: Unicode glyphs or ASCII, colours or none, and how
//! many, decided once at start from the command line and the environment.
//!
//! - Glyphs (figurines, discs, box lines) need a UTF-8 locale: the first non-empty of
//!   `LC_ALL`, `LC_CTYPE`, `LANG` names `UTF-8` (or `utf8`). No locale at all is `C`: ASCII.
//! - Colours are off when `NO_COLOR` is set and not empty (no-color.org); bold, underline and
//!   reverse video stay, as the convention allows.
//! - 256 colours when `COLORTERM` is `truecolor` or `24bit`, or `TERM` names `256color` or
//!   `direct`; otherwise the 16 colours of the terminal's own palette.
//! - `--ascii` (the caller's flag) turns the glyphs off; `NO_COLOR` still decides the colours.

use ratatui::style::Color;

/// The colour of a tic-tac-toe O (xo-user's boards, play's N x N grid).
pub const O_COLOR: Color = Color::Cyan;
/// The colour of a tic-tac-toe X.
pub const X_COLOR: Color = Color::LightRed;

/// How many colours a board may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colors {
    /// None: `NO_COLOR` or `--ascii`.
    None,
    /// The 16 colours of the terminal's palette (indexes 0-15).
    Ansi16,
    /// The xterm 256-colour palette.
    Ansi256,
}

/// What the terminal and the person allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    /// Unicode glyphs may be drawn (a UTF-8 locale).
    pub unicode: bool,
    /// The colours.
    pub colors: Colors,
}

impl Look {
    /// The plain look: ASCII, no colour.
    pub const PLAIN: Look = Look {
        unicode: false,
        colors: Colors::None,
    };

    /// The look of this process's environment; `ascii` is the program's `--ascii` flag.
    pub fn detect(ascii: bool) -> Look {
        Look::from_env(ascii, |k| std::env::var(k).ok())
    }

    /// The look of an environment read through `var` (tests pass a table).
    pub fn from_env(ascii: bool, var: impl Fn(&str) -> Option<String>) -> Look {
        let set = |k: &str| var(k).filter(|v| !v.is_empty());
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"]
            .iter()
            .find_map(|k| set(k))
            .unwrap_or_default()
            .to_ascii_lowercase();
        let unicode = !ascii && (locale.contains("utf-8") || locale.contains("utf8"));
        let colors = if set("NO_COLOR").is_some() {
            Colors::None
        } else if set("COLORTERM").is_some_and(|c| c == "truecolor" || c == "24bit")
            || set("TERM").is_some_and(|t| t.contains("256color") || t.contains("direct"))
        {
            Colors::Ansi256
        } else {
            Colors::Ansi16
        };
        Look { unicode, colors }
    }

    /// Glyphs and colours both: a board drawn as a picture.
    pub fn picture(&self) -> bool {
        self.unicode && self.colors != Colors::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn look(vars: &[(&str, &str)]) -> Look {
        Look::from_env(false, |k| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn locale_decides_the_glyphs() {
        assert!(look(&[("LANG", "en_US.UTF-8")]).unicode);
        assert!(look(&[("LANG", "C.utf8")]).unicode);
        assert!(!look(&[]).unicode, "no locale is C");
        assert!(!look(&[("LANG", "en_US.UTF-8"), ("LC_ALL", "C")]).unicode);
        assert!(look(&[("LANG", "C"), ("LC_CTYPE", "C.UTF-8")]).unicode);
        assert!(look(&[("LC_ALL", ""), ("LANG", "C.UTF-8")]).unicode);
    }

    #[test]
    fn colours_from_no_color_colorterm_and_term() {
        let u = ("LANG", "C.UTF-8");
        assert_eq!(look(&[u]).colors, Colors::Ansi16);
        assert_eq!(look(&[u, ("TERM", "xterm")]).colors, Colors::Ansi16);
        assert_eq!(
            look(&[u, ("TERM", "tmux-256color")]).colors,
            Colors::Ansi256
        );
        assert_eq!(
            look(&[u, ("TERM", "xterm"), ("COLORTERM", "truecolor")]).colors,
            Colors::Ansi256
        );
        assert_eq!(
            look(&[u, ("TERM", "xterm-256color"), ("NO_COLOR", "1")]).colors,
            Colors::None
        );
        assert_eq!(
            look(&[u, ("NO_COLOR", "")]).colors,
            Colors::Ansi16,
            "an empty NO_COLOR is unset"
        );
        assert!(look(&[u, ("TERM", "xterm-256color")]).picture());
        assert!(!look(&[u, ("NO_COLOR", "x")]).picture());
        assert!(!look(&[("TERM", "xterm-256color")]).picture());
    }

    #[test]
    fn ascii_flag_drops_the_glyphs_not_the_colours() {
        let l = Look::from_env(true, |k| (k == "LANG").then(|| "C.UTF-8".into()));
        assert_eq!(
            l,
            Look {
                unicode: false,
                colors: Colors::Ansi16
            }
        );
        assert!(!l.picture());
    }
}
