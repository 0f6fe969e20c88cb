//! Seeded generation of puzzles.

use crate::{Direction, Position};
use common::Rng;
use std::fmt;
use std::str::FromStr;

/// How a puzzle is scrambled from its goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scramble {
    /// Uniformly random among the positions that can reach the goal.
    Uniform,
    /// `k` random moves of the blank, never undoing the previous one.
    Walk(usize),
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown scramble {0:?}: use uniform or walk:K (K random moves)")]
/// Why a scramble cannot be made (the message says why).
pub struct ScrambleError(String);

impl Scramble {
    /// A puzzle for `goal`, fixed by `seed`.
    pub fn generate(self, goal: &Position, seed: u64) -> Position {
        let mut rng = Rng::new(seed);
        match self {
            Scramble::Uniform => uniform(goal, &mut rng),
            Scramble::Walk(k) => walk(goal, k, &mut rng),
        }
    }
}

/// Shuffle every label, then, if the result cannot reach the goal, swap the
/// first two non-blank cells. That swap is its own inverse and keeps the
/// blank where it is, so it pairs each unsolvable arrangement with exactly
/// one solvable one: the result is uniform over the solvable positions.
fn uniform(goal: &Position, rng: &mut Rng) -> Position {
    let mut tiles = goal.tiles().to_vec();
    rng.shuffle(&mut tiles);
    let mut position = Position::from_valid(goal.size(), tiles);
    if !position.is_solvable(goal).expect("same labels as the goal") {
        position = position.with_first_tiles_swapped();
    }
    position
}

fn walk(goal: &Position, k: usize, rng: &mut Rng) -> Position {
    let mut position = goal.clone();
    let mut previous: Option<Direction> = None;
    for _ in 0..k {
        let mut options = [Direction::Up; 4];
        let mut count = 0;
        for d in position.legal_moves() {
            if Some(d.inverse()) != previous {
                options[count] = d;
                count += 1;
            }
        }
        let d = options[rng.below(count as u64) as usize];
        position.apply(d).expect("a legal move");
        previous = Some(d);
    }
    position
}

impl Position {
    /// The same position with the first two non-blank cells exchanged:
    /// always flips solvability.
    pub fn with_first_tiles_swapped(&self) -> Position {
        let mut tiles = self.tiles().to_vec();
        let mut cells = (0..tiles.len()).filter(|&c| c != self.blank());
        let (a, b) = (
            cells.next().expect("≥ 4 cells"),
            cells.next().expect("≥ 4 cells"),
        );
        tiles.swap(a, b);
        Position::from_valid(self.size(), tiles)
    }
}

impl FromStr for Scramble {
    type Err = ScrambleError;

    fn from_str(s: &str) -> Result<Scramble, ScrambleError> {
        let name = s.trim().to_ascii_lowercase();
        if name == "uniform" || name == "random" {
            return Ok(Scramble::Uniform);
        }
        name.strip_prefix("walk:")
            .and_then(|k| k.trim().parse().ok())
            .filter(|&k: &usize| k <= 1 << 32)
            .map(Scramble::Walk)
            .ok_or_else(|| ScrambleError(s.to_string()))
    }
}

impl fmt::Display for Scramble {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scramble::Uniform => f.write_str("uniform"),
            Scramble::Walk(k) => write!(f, "walk:{k}"),
        }
    }
}
