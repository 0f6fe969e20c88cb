//! One canonical goal for every goal layout.
//!
//! A position is rewritten so that each tile is named by the cell it must
//! reach (the blank by the goal's blank cell). The goal then becomes the
//! identity arrangement, whatever layout it had: row-major, snake, spiral,
//! custom or missing-number goals all use the same tables and searches.

use super::SolveError;
use crate::{goal_cells, Position, Size};

/// A position relative to its goal: `cells[c]` is the goal cell of the
/// tile standing on cell `c`. Solved when `cells[c] == c` everywhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Canonical {
    pub size: Size,
    pub cells: Vec<u8>,
    pub blank: usize,
    pub goal_blank: usize,
}

impl Canonical {
    /// Relates `position` to `goal`; refuses mismatched boards and
    /// positions that cannot reach the goal.
    pub fn new(position: &Position, goal: &Position) -> Result<Canonical, SolveError> {
        if position.size().cells() > 256 {
            return Err(SolveError::TooLarge {
                size: position.size(),
            });
        }
        let targets = goal_cells(position, goal)?;
        if !position.is_solvable(goal)? {
            return Err(SolveError::Unsolvable);
        }
        Ok(Canonical {
            size: position.size(),
            cells: targets.iter().map(|&t| t as u8).collect(),
            blank: position.blank(),
            goal_blank: goal.blank(),
        })
    }

    #[cfg(test)]
    pub fn is_solved(&self) -> bool {
        self.cells.iter().enumerate().all(|(c, &t)| c == t as usize)
    }

    /// `positions[t]`: the cell where the tile with goal cell `t` stands.
    pub fn positions(&self) -> Vec<u8> {
        let mut positions = vec![0; self.cells.len()];
        for (cell, &tile) in self.cells.iter().enumerate() {
            positions[tile as usize] = cell as u8;
        }
        positions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Goal;

    #[test]
    fn every_goal_becomes_the_identity() {
        let size = "3x3".parse().unwrap();
        for goal in [Goal::RowMajor, Goal::Spiral, Goal::Snake, Goal::Missing(4)] {
            let goal = goal.position(size).unwrap();
            let canonical = Canonical::new(&goal, &goal).unwrap();
            assert!(canonical.is_solved());
            assert_eq!(canonical.goal_blank, goal.blank());
        }
    }

    #[test]
    fn unsolvable_and_mismatched_are_refused() {
        let goal = Goal::RowMajor.position("3x3".parse().unwrap()).unwrap();
        let swapped: Position = "2 1 3/4 5 6/7 8 0".parse().unwrap();
        assert_eq!(Canonical::new(&swapped, &goal), Err(SolveError::Unsolvable));
        let other = Goal::Missing(2).position("3x3".parse().unwrap()).unwrap();
        assert!(matches!(
            Canonical::new(&other, &goal),
            Err(SolveError::Mismatch(_))
        ));
    }
}
