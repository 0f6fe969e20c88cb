//! A race's outcomes as games: each pair of racers is one game, and each
//! racer's games make their rating period.
//!
//! - The faster ranked solve wins; equal times draw.
//! - A solve that is not ranked (help asked, or times outside the bounds
//!   of human play) counts as no solve: it loses to every ranked solve,
//!   and draws with those who did not finish.
//! - Two who did not finish draw.
//! - A racer who left the race before finishing loses to everyone who
//!   stayed, as lichess counts an abandoned game; two who left draw.

use std::cmp::Ordering;

use super::{Game, Params, Rating};

/// How a racer's race ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Solved, ranked, this many milliseconds from the start.
    Solved {
        /// Milliseconds from the start to the solving move.
        millis: i64,
    },
    /// Solved, but the solve is not ranked.
    Unranked,
    /// Stayed to the end without solving (or was stuck for good).
    Unfinished,
    /// Left (or lost the connection for good) before solving.
    Left,
}

impl Outcome {
    /// Where the outcome stands, best last: left, no ranked solve, a
    /// ranked solve; among solves the faster is better.
    fn rank(self) -> (u8, i64) {
        match self {
            Outcome::Left => (0, 0),
            Outcome::Unranked | Outcome::Unfinished => (1, 0),
            Outcome::Solved { millis } => (2, -millis),
        }
    }

    /// The score of this outcome against `other`: 1 for a win, ½ for a
    /// draw, 0 for a loss.
    pub fn score_against(self, other: Outcome) -> f64 {
        match self.rank().cmp(&other.rank()) {
            Ordering::Greater => 1.0,
            Ordering::Equal => 0.5,
            Ordering::Less => 0.0,
        }
    }
}

/// The games racer `index` played in a race of `racers` (each one's
/// rating before the race and outcome): one against each other racer.
pub fn games_of(racers: &[(Rating, Outcome)], index: usize) -> Vec<Game> {
    let (_, mine) = racers[index];
    racers
        .iter()
        .enumerate()
        .filter(|(other, _)| *other != index)
        .map(|(_, &(opponent, theirs))| Game {
            opponent,
            score: mine.score_against(theirs),
        })
        .collect()
}

/// Every racer's rating after the race, in the order given: each updated
/// from the ratings everyone had before it, so the order of the racers
/// changes nothing.
pub fn settle(racers: &[(Rating, Outcome)], params: &Params) -> Vec<Rating> {
    (0..racers.len())
        .map(|index| racers[index].0.update(&games_of(racers, index), params))
        .collect()
}
