//! Puzzles of a chosen difficulty: uniformly random positions whose
//! optimal solution length lies in a given range.
//!
//! On boards with a complete distance table the positions in range are
//! counted and one is drawn uniformly — exact, and an empty range is known
//! at once. On larger boards uniform positions are drawn and solved until
//! one falls in range (rejection sampling keeps the choice uniform); ranges
//! too rare to meet within [`MAX_ATTEMPTS`] draws are refused.

use super::{
    lower_bound, solve_optimal, Canonical, DistanceTable, Metric, Solution, SolveError,
    SolveOptions,
};
use super::{FULL_TABLE_MAX_CELLS, OPTIMAL_MAX_CELLS};
use crate::{Position, Scramble};
use common::Rng;
use std::fmt;
use std::str::FromStr;

/// Draws made before a range is declared too rare.
pub const MAX_ATTEMPTS: u32 = 2_000;

/// An inclusive range of solution lengths, written `A..B` (or `N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LengthRange {
    /// Shortest length accepted, in moves.
    pub min: u32,
    /// Longest length accepted, in moves.
    pub max: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
/// Why a puzzle of a chosen optimal length cannot be made.
#[allow(missing_docs)] // each variant's message names its fields
pub enum DifficultyError {
    #[error("length range {0:?} is not of the form A..B (e.g. 20..25) or N")]
    /// The range does not parse (`N` or `MIN-MAX`).
    Syntax(String),
    #[error("length range {min}..{max} is empty")]
    Empty { min: u32, max: u32 },
    #[error(
        "no {size} position needs {range} moves (the longest optimal solutions need {longest})"
    )]
    /// No position of this size is that far from the goal.
    Unreachable {
        /// The board size.
        size: crate::Size,
        /// The range asked for.
        range: LengthRange,
        /// The longest optimal length of the size.
        longest: u32,
    },
    #[error("none of {attempts} uniform {size} positions needs {range} moves: that range is too rare to sample (try one nearer the typical length, {typical})")]
    /// Random positions in the range are too rare to find by sampling.
    TooRare {
        /// The board size.
        size: crate::Size,
        /// The range asked for.
        range: LengthRange,
        /// Positions drawn before giving up.
        attempts: u32,
        /// The lengths the draws had, to choose a better range.
        typical: String,
    },
    #[error(
        "puzzles of a chosen length need a board of at most {OPTIMAL_MAX_CELLS} cells, not {0}"
    )]
    /// A board too large to solve optimally.
    TooLarge(crate::Size),
    #[error("no {size} position needing {range} moves was found within the time limit ({attempts} drawn)")]
    /// The caller's budget (`stop` or `node_limit`) ran out first.
    OutOfTime {
        /// The board size.
        size: crate::Size,
        /// The range asked for.
        range: LengthRange,
        /// Positions drawn before the budget ran out.
        attempts: u32,
    },
    #[error(transparent)]
    /// The solver failed.
    Solve(#[from] SolveError),
}

impl FromStr for LengthRange {
    type Err = DifficultyError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let syntax = || DifficultyError::Syntax(s.to_string());
        let number = |t: &str| t.trim().parse::<u32>().map_err(|_| syntax());
        let (min, max) = match s.split_once("..") {
            Some((a, b)) => (number(a)?, number(b.trim_start_matches('='))?),
            None => (number(s)?, number(s)?),
        };
        if min > max {
            return Err(DifficultyError::Empty { min, max });
        }
        Ok(LengthRange { min, max })
    }
}

impl fmt::Display for LengthRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.min == self.max {
            write!(f, "exactly {}", self.min)
        } else {
            write!(f, "{}..{}", self.min, self.max)
        }
    }
}

/// A position, uniformly random among those whose optimal solution to
/// `goal` has a length in `range`, fixed by `seed`; with its solution.
pub fn with_optimal_length(
    goal: &Position,
    range: LengthRange,
    seed: u64,
    options: &SolveOptions,
) -> Result<(Position, Solution), DifficultyError> {
    let size = goal.size();
    if size.cells() > OPTIMAL_MAX_CELLS {
        return Err(DifficultyError::TooLarge(size));
    }
    let mut rng = Rng::new(seed);
    if size.cells() <= FULL_TABLE_MAX_CELLS {
        let table = DistanceTable::get(size, goal.blank());
        let histogram = table.histogram();
        let count: u64 = histogram
            .iter()
            .enumerate()
            .filter(|&(d, _)| (range.min..=range.max).contains(&(d as u32)))
            .map(|(_, &c)| c)
            .sum();
        if count == 0 {
            return Err(DifficultyError::Unreachable {
                size,
                range,
                longest: histogram.len() as u32 - 1,
            });
        }
        let cells = table
            .nth_with_distance(range.min..=range.max, rng.below(count))
            .expect("fewer than count positions in range");
        let tiles = cells.iter().map(|&g| goal.tiles()[g as usize]).collect();
        let position = Position::from_valid(size, tiles);
        let solution = solve_optimal(&position, goal, &options.in_metric(Metric::Stm))?;
        return Ok((position, solution));
    }
    if size.width() == 4 && size.height() == 4 && range.min > 80 {
        // The 15 puzzle's diameter is 80 (Brüngger et al. 1999; Korf 2008).
        return Err(DifficultyError::Unreachable {
            size,
            range,
            longest: 80,
        });
    }
    let out_of_time = |attempts| DifficultyError::OutOfTime {
        size,
        range,
        attempts,
    };
    for attempt in 0..MAX_ATTEMPTS {
        if options.stop.is_some_and(|stop| stop()) {
            return Err(out_of_time(attempt));
        }
        let position = Scramble::Uniform.generate(goal, rng.next_u64());
        if lower_bound(&Canonical::new(&position, goal)?, options) > range.max {
            continue;
        }
        let solution = solve_optimal(&position, goal, &options.in_metric(Metric::Stm))?;
        // A stopped solve says nothing sure of the length: the budget is
        // spent, and drawing on would bias the choice.
        if !solution.optimal {
            return Err(out_of_time(attempt + 1));
        }
        if (range.min..=range.max).contains(&(solution.moves.len() as u32)) {
            return Ok((position, solution));
        }
    }
    Err(DifficultyError::TooRare {
        size,
        range,
        attempts: MAX_ATTEMPTS,
        typical: if size.cells() == 16 {
            "about 53; most lie in 45..60".to_string()
        } else {
            "see tessera slide bench".to_string()
        },
    })
}
