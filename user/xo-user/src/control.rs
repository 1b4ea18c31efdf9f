//! The keys and the pause/quit state machine.
//!
//! | key | effect |
//! | --- | --- |
//! | Ctrl-P | root on a device: pause or resume the module's publishing (every watcher); otherwise (any other user, or a replay): freeze or unfreeze this display while the stream is still drained |
//! | Ctrl-Q, `q`, Ctrl-C | quit (root with `--stop-on-quit`: stop the games first) |
//! | Tab, Shift-Tab, `1` `2` `3` | next tab, previous tab, Games, Records, Load |
//! | Up/Down (`k`/`j`), PgUp/PgDn, Home/End | scroll the tab |
//! | Left/Right (`h`/`l`) | select the previous/next game (its title is highlighted) |
//! | `a`, `A` | the selected game's pairing policy: the next choice for O, for X (root) |
//! | `R` | restart the games, e.g. after a stop (root) |
//! | `?` | help on or off (Esc closes it) |
//!
//! The pairing choices cycle through [`POLICY_CYCLE`]: `random` (drawn each round), then the
//! agents `nega`, `rand`, `mcts`, `td`, `mc`.

use kgames_term::crossterm::event::{KeyCode, KeyEvent};
use kgames_term::keys::{ctrl, plain};
use kgames_uapi::agent::AgentKind;
use kgames_uapi::pairing::RANDOM;

/// The order `a` and `A` step a side's policy through: drawn each round, then each agent.
pub const POLICY_CYCLE: [u8; 6] = [
    RANDOM,
    AgentKind::Negamax.id(),
    AgentKind::Random.id(),
    AgentKind::Mcts.id(),
    AgentKind::TdLearning.id(),
    AgentKind::MonteCarlo.id(),
];

/// The policy after `side` in [`POLICY_CYCLE`] (`random` after an unknown one).
pub fn next_policy(side: u8) -> u8 {
    match POLICY_CYCLE.iter().position(|&p| p == side) {
        Some(i) => POLICY_CYCLE[(i + 1) % POLICY_CYCLE.len()],
        None => RANDOM,
    }
}

/// A side of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// O, who moves first.
    O,
    /// X.
    X,
}

/// The tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    /// The grid of boards.
    Games,
    /// Moves per game and results per pairing.
    Records,
    /// Per-agent load figures.
    Load,
}

impl Tab {
    /// Every tab, in order.
    pub const ALL: [Tab; 3] = [Tab::Games, Tab::Records, Tab::Load];

    /// The tab's position in [`Tab::ALL`].
    pub fn index(self) -> usize {
        match self {
            Tab::Games => 0,
            Tab::Records => 1,
            Tab::Load => 2,
        }
    }

    /// The title.
    pub fn title(self) -> &'static str {
        match self {
            Tab::Games => "Games",
            Tab::Records => "Records",
            Tab::Load => "Load",
        }
    }
}

/// Who is watching: decides what Ctrl-P and quitting do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Effective uid 0 on the device: the control ioctls are allowed.
    Root,
    /// Anyone else on the device.
    User,
    /// A replayed file (no device).
    Replay,
}

/// What the program must do after a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// `KXO_IOC_PAUSE`.
    ModulePause,
    /// `KXO_IOC_RESUME`.
    ModuleResume,
    /// `KXO_IOC_STOP`.
    StopGames,
    /// `KXO_IOC_RESTART`.
    Restart,
    /// `KXO_IOC_SET_PAIRING` for the selected game: this side's next policy.
    CyclePairing(Side),
    /// Keep showing what is on screen now (the stream is still read).
    Freeze,
    /// Show the live state again.
    Unfreeze,
    /// Leave (after the effects before it).
    Quit,
}

/// The viewer's interactive state.
#[derive(Clone, Debug)]
pub struct Control {
    /// Who is watching.
    pub role: Role,
    /// Root's `--stop-on-quit`.
    pub stop_on_quit: bool,
    /// The tab shown.
    pub tab: Tab,
    /// The help is shown.
    pub help: bool,
    /// This display is frozen (Ctrl-P by a non-root user or in a replay).
    pub frozen: bool,
    /// The module's publishing is paused (the state ioctl, or root's own Ctrl-P).
    pub module_paused: bool,
    /// Scroll offset per tab (board rows on Games, lines elsewhere).
    pub scroll: [usize; 3],
    /// Rows per page and the largest offset of the current tab (set after each draw).
    pub page: usize,
    /// The largest scroll offset of the current tab.
    pub max_scroll: usize,
    /// The selected game: its position among the games shown (in game order).
    pub selected: usize,
    /// Boards per row on the Games tab and games shown (set after each draw).
    pub cols: usize,
    /// See [`Control::cols`].
    pub games: usize,
}

impl Control {
    /// The start state: the Games tab, live.
    pub fn new(role: Role, stop_on_quit: bool) -> Control {
        Control {
            role,
            stop_on_quit,
            tab: Tab::Games,
            help: false,
            frozen: false,
            module_paused: false,
            scroll: [0; 3],
            page: 1,
            max_scroll: 0,
            selected: 0,
            cols: 1,
            games: 0,
        }
    }

    /// True while the display does not follow the stream (frozen, or the module paused).
    pub fn paused(&self) -> bool {
        self.frozen || self.module_paused
    }

    /// The scroll offset of the tab shown.
    pub fn scroll(&self) -> usize {
        self.scroll[self.tab.index()]
    }

    /// After a draw: the page size and the largest offset; the offset is clamped.
    pub fn fit(&mut self, page: usize, max_scroll: usize) {
        self.page = page.max(1);
        self.max_scroll = max_scroll;
        let s = &mut self.scroll[self.tab.index()];
        *s = (*s).min(max_scroll);
    }

    /// After a draw of the Games tab: boards per row and games shown; the selection is
    /// clamped.
    pub fn grid(&mut self, cols: usize, games: usize) {
        self.cols = cols.max(1);
        self.games = games;
        self.selected = self.selected.min(games.saturating_sub(1));
    }

    /// Moves the selection by `delta` games; on the Games tab the board rows scroll to show it.
    fn select_by(&mut self, delta: isize) {
        let last = self.games.saturating_sub(1);
        self.selected = self.selected.saturating_add_signed(delta).min(last);
        if self.tab == Tab::Games {
            let row = self.selected / self.cols;
            let s = &mut self.scroll[Tab::Games.index()];
            if row < *s {
                *s = row;
            } else if row >= *s + self.page {
                *s = row + 1 - self.page;
            }
        }
    }

    fn scroll_by(&mut self, delta: isize) {
        let max = self.max_scroll;
        let s = &mut self.scroll[self.tab.index()];
        *s = s.saturating_add_signed(delta).min(max);
    }

    fn quit(&self) -> Vec<Effect> {
        if self.role == Role::Root && self.stop_on_quit {
            vec![Effect::StopGames, Effect::Quit]
        } else {
            vec![Effect::Quit]
        }
    }

    fn toggle_pause(&mut self) -> Vec<Effect> {
        if self.role == Role::Root {
            self.module_paused = !self.module_paused;
            vec![if self.module_paused {
                Effect::ModulePause
            } else {
                Effect::ModuleResume
            }]
        } else {
            self.frozen = !self.frozen;
            vec![if self.frozen {
                Effect::Freeze
            } else {
                Effect::Unfreeze
            }]
        }
    }

    /// Handles one key press.
    pub fn key(&mut self, k: &KeyEvent) -> Vec<Effect> {
        let page = isize::try_from(self.page).unwrap_or(1);
        if ctrl(k, 'q') || ctrl(k, 'c') || plain(k, 'q') {
            return self.quit();
        }
        if ctrl(k, 'p') {
            return self.toggle_pause();
        }
        if plain(k, '?') {
            self.help = !self.help;
            return vec![];
        }
        if plain(k, 'R') {
            return vec![Effect::Restart];
        }
        if plain(k, 'a') {
            return vec![Effect::CyclePairing(Side::O)];
        }
        if plain(k, 'A') {
            return vec![Effect::CyclePairing(Side::X)];
        }
        match k.code {
            KeyCode::Esc => self.help = false,
            KeyCode::Tab => self.tab = Tab::ALL[(self.tab.index() + 1) % 3],
            KeyCode::BackTab => self.tab = Tab::ALL[(self.tab.index() + 2) % 3],
            KeyCode::Char('1') => self.tab = Tab::Games,
            KeyCode::Char('2') => self.tab = Tab::Records,
            KeyCode::Char('3') => self.tab = Tab::Load,
            KeyCode::Up | KeyCode::Char('k') => self.scroll_by(-1),
            KeyCode::Down | KeyCode::Char('j') => self.scroll_by(1),
            KeyCode::Left | KeyCode::Char('h') => self.select_by(-1),
            KeyCode::Right | KeyCode::Char('l') => self.select_by(1),
            KeyCode::PageUp => self.scroll_by(-page),
            KeyCode::PageDown => self.scroll_by(page),
            KeyCode::Home => self.scroll[self.tab.index()] = 0,
            KeyCode::End => self.scroll[self.tab.index()] = self.max_scroll,
            _ => {}
        }
        vec![]
    }

    /// A state sample from the device: the module's paused flag.
    pub fn module_state(&mut self, paused: bool) {
        self.module_paused = paused;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kgames_term::crossterm::event::KeyModifiers;

    fn key(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
    }
    fn ctl(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
    }
    fn code(c: KeyCode) -> KeyEvent {
        KeyEvent::new(c, KeyModifiers::NONE)
    }

    #[test]
    fn root_pauses_and_resumes_the_module() {
        let mut c = Control::new(Role::Root, false);
        assert_eq!(c.key(&ctl('p')), [Effect::ModulePause]);
        assert!(c.paused() && c.module_paused && !c.frozen);
        assert_eq!(c.key(&ctl('p')), [Effect::ModuleResume]);
        assert!(!c.paused());
        // Someone else paused the module: the next Ctrl-P resumes it.
        c.module_state(true);
        assert_eq!(c.key(&ctl('p')), [Effect::ModuleResume]);
    }

    #[test]
    fn a_user_or_a_replay_freezes_only_its_display() {
        for role in [Role::User, Role::Replay] {
            let mut c = Control::new(role, true);
            assert_eq!(c.key(&ctl('p')), [Effect::Freeze]);
            assert!(c.frozen && c.paused() && !c.module_paused);
            assert_eq!(c.key(&ctl('p')), [Effect::Unfreeze]);
            assert!(!c.paused());
            // --stop-on-quit does nothing without root.
            assert_eq!(c.key(&ctl('q')), [Effect::Quit]);
        }
    }

    #[test]
    fn quit_keys() {
        let mut c = Control::new(Role::Root, false);
        for k in [ctl('q'), key('q'), ctl('c')] {
            assert_eq!(c.key(&k), [Effect::Quit]);
        }
        let mut c = Control::new(Role::Root, true);
        assert_eq!(c.key(&ctl('q')), [Effect::StopGames, Effect::Quit]);
        assert_eq!(c.key(&key('q')), [Effect::StopGames, Effect::Quit]);
        // Ctrl-S (flow control's stop) is just an ignored key, and so is a plain p.
        assert!(c.key(&ctl('s')).is_empty());
        assert!(c.key(&key('p')).is_empty());
    }

    #[test]
    fn restart_and_pairing_keys_are_effects_for_anyone() {
        // The kernel says who may (EPERM for others); the loop shows its answer.
        for role in [Role::Root, Role::User, Role::Replay] {
            let mut c = Control::new(role, false);
            let shift = |ch| KeyEvent::new(KeyCode::Char(ch), KeyModifiers::SHIFT);
            assert_eq!(c.key(&shift('R')), [Effect::Restart]);
            assert_eq!(c.key(&key('a')), [Effect::CyclePairing(Side::O)]);
            assert_eq!(c.key(&shift('A')), [Effect::CyclePairing(Side::X)]);
            assert!(c.key(&key('r')).is_empty(), "a lower-case r does nothing");
        }
    }

    #[test]
    fn policies_cycle_through_random_and_every_agent() {
        let names: Vec<&str> = POLICY_CYCLE
            .iter()
            .map(|&p| kgames_uapi::pairing::side_name(p))
            .collect();
        assert_eq!(names, ["random", "nega", "rand", "mcts", "td", "mc"]);
        let mut p = RANDOM;
        for want in POLICY_CYCLE.iter().cycle().skip(1).take(7) {
            p = next_policy(p);
            assert_eq!(p, *want);
        }
        assert_eq!(next_policy(42), RANDOM);
    }

    #[test]
    fn the_selection_moves_and_the_grid_follows() {
        let mut c = Control::new(Role::Root, false);
        c.fit(2, 3); // two rows of boards on screen, five rows in all
        c.grid(2, 9);
        c.key(&code(KeyCode::Left));
        assert_eq!(c.selected, 0, "clamped at the first game");
        for _ in 0..4 {
            c.key(&code(KeyCode::Right));
        }
        assert_eq!(c.selected, 4);
        assert_eq!(c.scroll(), 1, "row 2 shown: rows 1-2 on screen");
        c.key(&key('l'));
        c.key(&key('l'));
        c.key(&key('l'));
        c.key(&key('l'));
        c.key(&key('l'));
        assert_eq!(c.selected, 8, "clamped at the last game");
        assert_eq!(c.scroll(), 3);
        c.key(&key('h'));
        c.key(&code(KeyCode::Home));
        assert_eq!(c.scroll(), 0);
        c.key(&key('h'));
        assert_eq!((c.selected, c.scroll()), (6, 2));
        c.grid(2, 3); // fewer games now
        assert_eq!(c.selected, 2);
    }

    #[test]
    fn tabs_help_and_scrolling() {
        let mut c = Control::new(Role::User, false);
        c.key(&code(KeyCode::Tab));
        assert_eq!(c.tab, Tab::Records);
        c.key(&code(KeyCode::Tab));
        c.key(&code(KeyCode::Tab));
        assert_eq!(c.tab, Tab::Games);
        c.key(&code(KeyCode::BackTab));
        assert_eq!(c.tab, Tab::Load);
        c.key(&key('2'));
        assert_eq!(c.tab, Tab::Records);
        c.key(&key('1'));
        c.fit(3, 5);
        c.key(&code(KeyCode::Down));
        assert_eq!(c.scroll(), 1);
        c.key(&code(KeyCode::PageDown));
        assert_eq!(c.scroll(), 4);
        c.key(&code(KeyCode::PageDown));
        assert_eq!(c.scroll(), 5, "clamped");
        c.key(&code(KeyCode::Up));
        c.key(&code(KeyCode::PageUp));
        c.key(&code(KeyCode::PageUp));
        assert_eq!(c.scroll(), 0);
        c.key(&code(KeyCode::End));
        assert_eq!(c.scroll(), 5);
        c.fit(3, 2); // the terminal grew
        assert_eq!(c.scroll(), 2);
        c.key(&key('3'));
        assert_eq!(c.scroll(), 0, "each tab scrolls on its own");
        c.key(&KeyEvent::new(KeyCode::Char('?'), KeyModifiers::SHIFT));
        assert!(c.help);
        c.key(&code(KeyCode::Esc));
        assert!(!c.help);
    }
}
