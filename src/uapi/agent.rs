//! The agents of the `/dev/kxo` AI-vs-AI games: the ids a [`super::record::Record`] carries,
//! in the order of the load figures, and their names.

/// Which algorithm plays a side. The `u8` id is what a record stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum AgentKind {
    /// Principal variation search with a transposition table (id 0).
    Negamax = 0,
    /// Uniformly random legal moves (id 1).
    Random = 1,
    /// Monte Carlo tree search with UCT (id 2).
    Mcts = 2,
    /// A TD(0) state-value learner (id 3).
    TdLearning = 3,
    /// Flat Monte Carlo: 2 * wins + draws over random playouts per free cell (id 4).
    MonteCarlo = 4,
}

impl AgentKind {
    /// Number of ids (ids are `0..COUNT`).
    pub const COUNT: usize = 5;
    /// Every kind, in id order.
    pub const ALL: [AgentKind; AgentKind::COUNT] = [
        AgentKind::Negamax,
        AgentKind::Random,
        AgentKind::Mcts,
        AgentKind::TdLearning,
        AgentKind::MonteCarlo,
    ];

    /// The wire id.
    pub const fn id(self) -> u8 {
        self as u8
    }

    /// The kind with wire id `id`.
    pub const fn from_id(id: u8) -> Option<AgentKind> {
        match id {
            0 => Some(AgentKind::Negamax),
            1 => Some(AgentKind::Random),
            2 => Some(AgentKind::Mcts),
            3 => Some(AgentKind::TdLearning),
            4 => Some(AgentKind::MonteCarlo),
            _ => None,
        }
    }

    /// The lower-case name (`negamax`, `random`, `mcts`, `td`, `mc`).
    pub const fn name(self) -> &'static str {
        match self {
            AgentKind::Negamax => "negamax",
            AgentKind::Random => "random",
            AgentKind::Mcts => "mcts",
            AgentKind::TdLearning => "td",
            AgentKind::MonteCarlo => "mc",
        }
    }

    /// A four-letter upper-case tag for tight displays (`NEGA`, `RAND`, `MCTS`, `TD`, `MC`).
    pub const fn tag(self) -> &'static str {
        match self {
            AgentKind::Negamax => "NEGA",
            AgentKind::Random => "RAND",
            AgentKind::Mcts => "MCTS",
            AgentKind::TdLearning => "TD",
            AgentKind::MonteCarlo => "MC",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip() {
        for (i, k) in AgentKind::ALL.iter().enumerate() {
            assert_eq!(usize::from(k.id()), i);
            assert_eq!(AgentKind::from_id(k.id()), Some(*k));
            assert_eq!(AgentKind::from_name(k.name()), Some(*k));
        }
        assert_eq!(AgentKind::from_id(5), None);
        assert_eq!(AgentKind::from_name("alphazero"), None);
        assert_eq!(
            [0, 1, 2, 3, 4],
            AgentKind::ALL.map(|k| k.id()),
            "ids are wire format"
        );
    }
}
