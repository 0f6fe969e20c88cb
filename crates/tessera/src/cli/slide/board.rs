//! The board and goal options of the sliding-puzzle commands, and reading
//! a position with its goal laid out on its size.

use super::input::Item;
use crate::cli::Failure;
use clap::Args;
use play::slide_game::{GoalChoice, SlideSpec};
use slide::{Goal, Position, Size};

/// Board and goal options shared by the subcommands.
#[derive(Args, Clone)]
pub struct Board {
    /// Board size WxH. Needed for a flat list of numbers that is not n×n;
    /// otherwise taken from the position.
    #[arg(long, value_parser = parse_size)]
    size: Option<Size>,
    /// Goal: row-major, blank-first, snake, spiral, missing:K, or a
    /// position; for new puzzles also `missing` (the seed picks K).
    #[arg(long, default_value = "row-major", value_parser = parse_goal)]
    goal: GoalChoice,
}

fn parse_size(s: &str) -> Result<Size, String> {
    s.parse().map_err(|e: slide::SizeError| e.to_string())
}

/// A scramble flag: `uniform` or `walk:K`.
pub fn parse_scramble(s: &str) -> Result<slide::Scramble, String> {
    s.parse().map_err(|e: slide::ScrambleError| e.to_string())
}

fn parse_goal(s: &str) -> Result<GoalChoice, String> {
    s.parse().map_err(|e: slide::GoalError| e.to_string())
}

impl Board {
    /// The puzzles to generate: `--size` (else a custom goal's, else 4×4)
    /// and `--goal`.
    pub fn spec(&self) -> Result<SlideSpec, Failure> {
        SlideSpec::sized(self.size, self.goal.clone()).map_err(Failure::input)
    }

    /// The goal positions are read against: a drawn missing number has no
    /// meaning for a given position.
    fn fixed_goal(&self) -> Result<&Goal, String> {
        match &self.goal {
            GoalChoice::Goal(goal) => Ok(goal),
            GoalChoice::Missing => Err(
                "--goal missing draws the number for new puzzles; for a given position say missing:K (`slide new --goal missing` prints the goal it drew on stderr, as `goal: missing:K`)"
                    .to_string(),
            ),
        }
    }

    /// Parses one input into a position and its goal laid out on its size.
    pub fn read(
        &self,
        item: &Item,
        goals: &mut GoalCache,
    ) -> Result<(Position, Position), Failure> {
        let goal = self.fixed_goal().map_err(Failure::input)?;
        let position =
            Position::parse(&item.text, self.size).map_err(|e| item.failure(line_hint(item, e)))?;
        let goal = goals
            .get(goal, position.size())
            .map_err(|e| item.failure(e))?;
        Ok((position, goal))
    }
}

/// The parse error of `item`, told how stdin and files are read when the
/// line holds part of a position: a board written a row a line (as it is
/// laid out on screen) arrives one row at a time, and "give the size"
/// would be the wrong fix.
fn line_hint(item: &Item, error: slide::ParseError) -> String {
    use slide::{ParseError, PositionError};
    let part = match &error {
        ParseError::NeedSize { count } => Some(*count),
        ParseError::Position(PositionError::WrongCount {
            expected, found, ..
        }) if found < expected => Some(*found),
        _ => None,
    };
    match part {
        Some(count) if item.line.is_some() => format!(
            "{count} numbers, not a whole position: each line of the input is one position, so write its rows on one line split by '/' (1 2 3/4 5 6/7 8 0), or as a flat list with --size WxH"
        ),
        _ => error.to_string(),
    }
}

/// Goals laid out per size, so a stream of positions lays each out once.
#[derive(Default)]
pub struct GoalCache(Option<(Size, Position)>);

impl GoalCache {
    pub fn get(&mut self, goal: &Goal, size: Size) -> Result<Position, slide::GoalError> {
        match &self.0 {
            Some((cached, position)) if *cached == size => Ok(position.clone()),
            _ => {
                let position = goal.position(size)?;
                self.0 = Some((size, position.clone()));
                Ok(position)
            }
        }
    }
}
