//! The games there are: the sliding puzzle and Shisen-Sho, by the names
//! every front end and the store file them under.

use std::fmt;
use std::str::FromStr;

/// A game tessera plays.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    /// The sliding puzzle.
    Slide,
    /// Shisen-Sho.
    Shisen,
}

/// Text that names no game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a game: expected slide or shisen")]
pub struct GameKindError(pub String);

impl GameKind {
    /// Every game.
    pub const ALL: [GameKind; 2] = [GameKind::Slide, GameKind::Shisen];

    /// The game's name: `slide` or `shisen`.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Slide => "slide",
            GameKind::Shisen => "shisen",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = GameKindError;

    /// The game named exactly so (`slide`, `shisen`).
    fn from_str(text: &str) -> Result<GameKind, GameKindError> {
        GameKind::ALL
            .into_iter()
            .find(|g| g.name() == text)
            .ok_or_else(|| GameKindError(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_reads_back_from_its_name_and_nothing_else_does() {
        for game in GameKind::ALL {
            assert_eq!(game.name().parse(), Ok(game));
            assert_eq!(game.to_string(), game.name());
        }
        for text in ["", "Slide", "shisen-sho", " slide"] {
            assert!(text.parse::<GameKind>().is_err(), "{text:?}");
        }
    }
}
