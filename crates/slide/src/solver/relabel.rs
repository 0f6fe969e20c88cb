//! One canonical goal for every goal layout.
//!
//! A position is rewritten so that each tile is named by the cell it must
//! reach (the blank by the goal's blank cell). The goal then becomes the
//! identity arrangement, whatever layout it had: row-major, snake, spiral,
//! custom or missing-number goals all use the same tables and searches.

use super::SolveError;
use crate::{goal_cells, Parity, Position, Size, Solvability};

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
    /// positions that cannot reach the goal. Allocates only the result:
    /// the 3 × 3 table walk is fast enough for this to matter.
    pub fn new(position: &Position, goal: &Position) -> Result<Canonical, SolveError> {
        let size = position.size();
        let n = size.cells();
        if n > super::BOUNDED_MAX_CELLS {
            return Err(SolveError::TooLarge { size });
        }
        if goal.size() != size {
            return Err(goal_cells(position, goal).expect_err("sizes differ").into());
        }
        let mut cell_of = [u8::MAX; super::BOUNDED_MAX_CELLS + 1];
        for (cell, &tile) in goal.tiles().iter().enumerate() {
            cell_of[tile as usize] = cell as u8;
        }
        let mut cells = Vec::with_capacity(n);
        for &tile in position.tiles() {
            match cell_of[tile as usize] {
                u8::MAX => {
                    return Err(goal_cells(position, goal)
                        .expect_err("labels differ")
                        .into())
                }
                cell => cells.push(cell),
            }
        }
        let solvability = Solvability {
            permutation_parity: parity(&cells),
            blank_distance: size.distance(position.blank(), goal.blank()),
        };
        if !solvability.is_solvable() {
            return Err(SolveError::Unsolvable);
        }
        Ok(Canonical {
            size,
            cells,
            blank: position.blank(),
            goal_blank: goal.blank(),
        })
    }

    /// Whether the position is the goal.
    pub fn is_solved(&self) -> bool {
        self.cells.iter().enumerate().all(|(c, &t)| c == t as usize)
    }

    /// The position and its goal as plain positions, each tile numbered
    /// by its goal cell (the blank 0): for the solvers that take positions.
    pub fn to_positions(&self) -> (Position, Position) {
        let label = |t: u8| match (t as usize).cmp(&self.goal_blank) {
            std::cmp::Ordering::Less => t as u32 + 1,
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Greater => t as u32,
        };
        let build = |tiles: Vec<u32>| Position::new(self.size, tiles).expect("a permutation");
        let goal = (0..self.cells.len() as u8).map(label).collect();
        let position = self.cells.iter().map(|&t| label(t)).collect();
        (build(position), build(goal))
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

/// Parity of a permutation of at most 32 elements: n minus its cycles.
fn parity(p: &[u8]) -> Parity {
    let mut seen = 0u32;
    let mut cycles = 0;
    for start in 0..p.len() {
        if seen >> start & 1 == 1 {
            continue;
        }
        cycles += 1;
        let mut i = start;
        while seen >> i & 1 == 0 {
            seen |= 1 << i;
            i = p[i] as usize;
        }
    }
    Parity::of(p.len() - cycles)
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
