//! What a game was dealt, in the games' own types. A row keeps it as text
//! in three columns (`setup`, `goal`, `rules`) under the game's name
//! (`game`); this is the one place that writes them and reads them back,
//! so a column that does not read is an error naming it, met when the row
//! is read rather than wherever a handler first parses it.

use play::slide_game::GoalChoice;
use play::GameKind;
use shisen::{parse_board, Board, Rules};
use slide::Position;
use sqlx::any::AnyRow;

use super::columns::{kept_at, Kept};
use super::{bad_column, column, parsed};

/// What a game was dealt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dealt {
    /// A sliding puzzle: its (first) start and goal, and the goal as
    /// chosen. A format of several puzzles is dealt again from the seed
    /// and the goal as chosen (`missing` draws a number for each puzzle);
    /// one puzzle keeps its goal as drawn (`missing:7`).
    Slide {
        /// The (first) puzzle's start.
        start: Position,
        /// Its goal, laid out.
        goal: Position,
        /// The goal as chosen.
        chosen: GoalChoice,
    },
    /// A Shisen-Sho deal and the rules it is played under.
    Shisen {
        /// The board dealt.
        board: Board,
        /// Gravity, and which tiles match.
        rules: Rules,
    },
}

/// The texts a deal is kept as: `game`, `setup`, `goal` and `rules`.
pub(crate) struct Columns {
    pub game: String,
    pub setup: String,
    pub goal: String,
    pub rules: String,
}

impl Dealt {
    /// The game dealt.
    pub fn game(&self) -> GameKind {
        match self {
            Dealt::Slide { .. } => GameKind::Slide,
            Dealt::Shisen { .. } => GameKind::Shisen,
        }
    }

    /// What play starts from, as text: the position or the board.
    pub fn setup(&self) -> String {
        match self {
            Dealt::Slide { start, .. } => start.to_string(),
            Dealt::Shisen { board, .. } => board.to_string(),
        }
    }

    /// The rules as text: the goal as chosen, or Shisen-Sho's rules.
    pub fn rules(&self) -> String {
        match self {
            Dealt::Slide { chosen, .. } => chosen.to_string(),
            Dealt::Shisen { rules, .. } => rules.to_string(),
        }
    }

    /// The deal as the row keeps it.
    pub(crate) fn columns(&self) -> Columns {
        let goal = match self {
            Dealt::Slide { goal, .. } => goal.to_string(),
            Dealt::Shisen { .. } => String::new(),
        };
        Columns {
            game: self.game().kept(),
            setup: self.setup(),
            goal,
            rules: self.rules(),
        }
    }

    /// The deal of a row whose columns are named `{prefix}game`,
    /// `{prefix}setup`, `{prefix}goal` and `{prefix}rules`.
    pub(crate) fn read(r: &AnyRow, prefix: &str) -> Result<Dealt, sqlx::Error> {
        let name = |column: &str| format!("{prefix}{column}");
        match kept_at(r, &name("game"))? {
            GameKind::Slide => Ok(Dealt::Slide {
                start: parsed(r, &name("setup"), "position")?,
                goal: parsed(r, &name("goal"), "position")?,
                chosen: parsed(r, &name("rules"), "goal")?,
            }),
            GameKind::Shisen => {
                let rules: Rules = parsed(r, &name("rules"), "rules")?;
                let setup = name("setup");
                let text: String = column(r, &setup)?;
                let board = parse_board(&text, rules.matching)
                    .map_err(|e| bad_column(&setup, format!("board {text:?}: {e}")))?;
                Ok(Dealt::Shisen { board, rules })
            }
        }
    }
}
