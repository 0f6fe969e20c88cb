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
    /// `k` random moves of the blank, never undoing the previous one (a
    /// count of 64 bits: [`MAX_WALK`] is past a 32-bit `usize`).
    Walk(u64),
}

/// The most moves a `walk:K` scramble takes (2³²): past it the walk
/// would take hours, and a uniform scramble is what it approaches anyway.
pub const MAX_WALK: u64 = 1 << 32;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
/// Why a scramble cannot be made (the message says why).
pub enum ScrambleError {
    /// Neither `uniform` nor `walk:K`.
    #[error("unknown scramble {0:?}: use uniform or walk:K (K random moves)")]
    Unknown(String),
    /// A walk of more than [`MAX_WALK`] moves.
    #[error("scramble {0:?} is too long: a walk takes at most {MAX_WALK} moves; use uniform for a fully random position")]
    TooLong(String),
}

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

fn walk(goal: &Position, k: u64, rng: &mut Rng) -> Position {
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
        let k = name
            .strip_prefix("walk:")
            .map(str::trim)
            .filter(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| ScrambleError::Unknown(s.to_string()))?;
        // All digits: a number too large for u64 is too long as well.
        match k.parse() {
            Ok(k) if k <= MAX_WALK => Ok(Scramble::Walk(k)),
            _ => Err(ScrambleError::TooLong(s.to_string())),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_walk_too_long_is_told_apart_from_an_unknown_scramble() {
        assert_eq!("walk:40".parse(), Ok(Scramble::Walk(40)));
        assert_eq!("walk:4294967296".parse(), Ok(Scramble::Walk(MAX_WALK)));
        for long in ["walk:4294967297", "walk:99999999999999999999999999"] {
            let error = long.parse::<Scramble>().unwrap_err();
            assert!(matches!(error, ScrambleError::TooLong(_)), "{long}");
            assert!(error.to_string().contains("too long"), "{error}");
        }
        for unknown in ["shuffle", "walk:", "walk:-3", "walk:1e9"] {
            let error = unknown.parse::<Scramble>().unwrap_err();
            assert!(matches!(error, ScrambleError::Unknown(_)), "{unknown}");
        }
    }
}
