//! Small helpers to match keys.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// True for Ctrl + `c` (`c` lower case), e.g. `ctrl(&k, 'q')` for Ctrl-Q.
pub fn ctrl(key: &KeyEvent, c: char) -> bool {
    key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char(c)
}

/// True for the plain key `c` (no Ctrl or Alt; Shift allowed, as for `?`).
pub fn plain(key: &KeyEvent, c: char) -> bool {
    !key.modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        && key.code == KeyCode::Char(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ctrl_and_plain_keys() {
        let cq = KeyEvent::new(KeyCode::Char('q'), KeyModifiers::CONTROL);
        let q = KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE);
        let help = KeyEvent::new(KeyCode::Char('?'), KeyModifiers::SHIFT);
        assert!(ctrl(&cq, 'q') && !plain(&cq, 'q'));
        assert!(plain(&q, 'q') && !ctrl(&q, 'q'));
        assert!(plain(&help, '?'));
    }
}
