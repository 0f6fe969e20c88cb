//! What a sliding puzzle is: a size and a goal, and the puzzle a seed
//! issues for it.

use std::fmt;
use std::str::FromStr;

use slide::{Goal, GoalError, Position, Scramble, Size};

/// A goal as a player picks it: a fixed goal, or a missing-number goal
/// whose left-out number the seed draws.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GoalChoice {
    /// This goal.
    Goal(Goal),
    /// `missing:K` with K drawn from the puzzle's seed.
    Missing,
}

/// A kind of puzzle: as text `SIZE-GOAL`, e.g. `4x4-row-major`,
/// `5x3-spiral`, `4x4-missing` (the seed picks the number) or
/// `4x4-missing:7`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SlideSpec {
    /// The board's size.
    pub size: Size,
    /// The goal.
    pub goal: GoalChoice,
}

/// A puzzle as issued from a spec and a seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The seed it came from.
    pub seed: u64,
    /// The goal, resolved (a drawn missing number is filled in).
    pub goal: Goal,
    /// The goal laid out on the board.
    pub goal_position: Position,
    /// The starting position: uniformly random among those that can reach
    /// the goal.
    pub start: Position,
}

/// Text that names no puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// No `-` between the size and the goal.
    #[error("{0:?} is not a puzzle: expected SIZE-GOAL, e.g. 4x4-row-major")]
    Syntax(String),
    /// The size.
    #[error(transparent)]
    Size(#[from] slide::SizeError),
    /// The goal, or a goal that does not fit the size.
    #[error(transparent)]
    Goal(#[from] GoalError),
}

impl GoalChoice {
    /// The name records group puzzles by: a goal's name, `missing` for any
    /// missing number, `custom` for a goal given as a position.
    pub fn name(&self) -> &'static str {
        match self {
            GoalChoice::Missing | GoalChoice::Goal(Goal::Missing(_)) => "missing",
            GoalChoice::Goal(Goal::RowMajor) => "row-major",
            GoalChoice::Goal(Goal::BlankFirst) => "blank-first",
            GoalChoice::Goal(Goal::Snake) => "snake",
            GoalChoice::Goal(Goal::Spiral) => "spiral",
            GoalChoice::Goal(Goal::Custom(_)) => "custom",
        }
    }

    /// The goal of the puzzle dealt from `seed` on `size`.
    pub fn resolve(&self, size: Size, seed: u64) -> Goal {
        match self {
            GoalChoice::Goal(goal) => goal.clone(),
            GoalChoice::Missing => {
                // A stream of its own (the seed's is the scramble's), so the
                // missing number and the position are independent draws.
                let label = common::Rng::new(seed ^ 0x6d69_7373).below(size.cells() as u64) + 1;
                Goal::Missing(label as u32)
            }
        }
    }
}

impl fmt::Display for GoalChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoalChoice::Goal(goal) => write!(f, "{goal}"),
            GoalChoice::Missing => f.write_str("missing"),
        }
    }
}

impl FromStr for GoalChoice {
    type Err = GoalError;

    /// A goal (`row-major`, `snake`, `missing:7`, a position, …) or
    /// `missing` alone for a drawn missing number.
    fn from_str(s: &str) -> Result<GoalChoice, GoalError> {
        if s.trim().eq_ignore_ascii_case("missing") {
            return Ok(GoalChoice::Missing);
        }
        s.parse().map(GoalChoice::Goal)
    }
}

impl SlideSpec {
    /// A spec whose goal fits its size (a custom goal fixes the size).
    pub fn new(size: Size, goal: GoalChoice) -> Result<SlideSpec, GoalError> {
        let spec = SlideSpec { size, goal };
        spec.goal.resolve(size, 0).position(size)?;
        Ok(spec)
    }

    /// A spec from what a user may leave out: the size given, else a
    /// custom goal's, else 4×4.
    pub fn sized(size: Option<Size>, goal: GoalChoice) -> Result<SlideSpec, GoalError> {
        let custom = match &goal {
            GoalChoice::Goal(goal) => goal.size(),
            GoalChoice::Missing => None,
        };
        let size = size
            .or(custom)
            .unwrap_or_else(|| Size::square(4).expect("4x4 is a size"));
        SlideSpec::new(size, goal)
    }

    /// The name records are grouped under, e.g. `4x4-row-major`.
    pub fn variant(&self) -> String {
        format!("{}-{}", self.size, self.goal.name())
    }

    /// The puzzle `seed` issues: the goal (with its drawn number) and a
    /// start drawn uniformly among the positions that can reach it.
    pub fn issue(&self, seed: u64) -> Result<Puzzle, GoalError> {
        let goal = self.goal.resolve(self.size, seed);
        let goal_position = goal.position(self.size)?;
        let start = Scramble::Uniform.generate(&goal_position, seed);
        Ok(Puzzle {
            seed,
            goal,
            goal_position,
            start,
        })
    }
}

impl fmt::Display for SlideSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.size, self.goal)
    }
}

impl FromStr for SlideSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<SlideSpec, SpecError> {
        let (size, goal) = s
            .split_once('-')
            .ok_or_else(|| SpecError::Syntax(s.to_string()))?;
        Ok(SlideSpec::new(size.parse()?, goal.parse()?)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_print_and_parse_back() {
        for text in [
            "4x4-row-major",
            "3x5-spiral",
            "4x4-missing",
            "4x4-missing:16",
            "2x2-1 2/3 0",
        ] {
            let spec: SlideSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
        }
        assert_eq!(
            "4x4-classic".parse::<SlideSpec>().unwrap().to_string(),
            "4x4-row-major"
        );
        for bad in [
            "4x4",
            "4x4-",
            "4x4-zigzag",
            "4x4-missing:17",
            "3x3-1 2/3 0",
            "1x4-snake",
        ] {
            assert!(bad.parse::<SlideSpec>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn sizes_left_out_come_from_the_goal_or_are_4x4() {
        let goal: GoalChoice = "1 2/3 0".parse().unwrap();
        assert_eq!(
            SlideSpec::sized(None, goal.clone())
                .unwrap()
                .size
                .to_string(),
            "2x2"
        );
        assert!(SlideSpec::sized(Some(Size::square(3).unwrap()), goal).is_err());
        let spec = SlideSpec::sized(None, GoalChoice::Missing).unwrap();
        assert_eq!(spec.size.to_string(), "4x4");
    }

    #[test]
    fn variants_group_missing_numbers() {
        let spec = |t: &str| t.parse::<SlideSpec>().unwrap();
        assert_eq!(spec("4x4-missing:3").variant(), "4x4-missing");
        assert_eq!(spec("4x4-missing").variant(), "4x4-missing");
        assert_eq!(spec("5x3-blank-first").variant(), "5x3-blank-first");
    }

    #[test]
    fn a_seed_issues_one_puzzle() {
        let spec: SlideSpec = "4x4-missing".parse().unwrap();
        let a = spec.issue(42).unwrap();
        assert_eq!(a, spec.issue(42).unwrap());
        assert_ne!(a.start, spec.issue(43).unwrap().start);
        assert!(a.start.is_solvable(&a.goal_position).unwrap());
        assert!(matches!(a.goal, Goal::Missing(1..=16)));
        // The drawn numbers cover the board over many seeds.
        let labels: std::collections::BTreeSet<u32> = (0..400)
            .filter_map(|seed| match spec.issue(seed).unwrap().goal {
                Goal::Missing(k) => Some(k),
                _ => None,
            })
            .collect();
        assert_eq!(labels.len(), 16);
    }
}
