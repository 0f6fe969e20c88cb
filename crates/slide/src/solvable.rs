//! Solvability for any goal and any width × height.
//!
//! Every move swaps the blank with a neighbour: it flips the parity of the
//! permutation between position and goal, and moves the blank one step, so
//! flips the parity of the blank's taxicab distance to its goal cell. Their
//! agreement is therefore invariant, and on boards of at least 2 × 2 it is
//! also sufficient (exactly half of all arrangements are reachable). The
//! permutation's parity comes from counting its cycles, O(n), rather than
//! the O(n²) inversion count.

use crate::{Position, Size};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
/// Whether a count is even or odd.
pub enum Parity {
    /// Divisible by two.
    Even,
    /// Not divisible by two.
    Odd,
}

impl Parity {
    /// The parity of `n`.
    pub fn of(n: usize) -> Parity {
        if n.is_multiple_of(2) {
            Parity::Even
        } else {
            Parity::Odd
        }
    }
}

impl fmt::Display for Parity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Parity::Even => "even",
            Parity::Odd => "odd",
        })
    }
}

/// Why a position is or is not solvable: the two parities that must agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solvability {
    /// Parity of the permutation (blank included) taking the goal to the position.
    pub permutation_parity: Parity,
    /// Taxicab distance between the blank's cell and its cell in the goal.
    pub blank_distance: usize,
}

impl Solvability {
    /// Whether the two parities agree, which is exactly when the goal can be reached.
    pub fn is_solvable(&self) -> bool {
        self.permutation_parity == Parity::of(self.blank_distance)
    }
}

/// A position and a goal that cannot be compared.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[allow(missing_docs)] // each variant's message names its fields
pub enum MismatchError {
    #[error("the position is {position} but the goal is {goal}")]
    Size { position: Size, goal: Size },
    #[error(
        "the position has tile {extra} but the goal has no such tile (it has {missing} instead)"
    )]
    Labels { extra: u32, missing: u32 },
}

/// Relates a position to a goal: for each cell, the goal cell of its tile.
/// Fails when the two hold different sizes or labels.
pub fn goal_cells(position: &Position, goal: &Position) -> Result<Vec<u32>, MismatchError> {
    if position.size() != goal.size() {
        return Err(MismatchError::Size {
            position: position.size(),
            goal: goal.size(),
        });
    }
    let mut cell_of = vec![u32::MAX; goal.tiles().len() + 1];
    for (cell, &tile) in goal.tiles().iter().enumerate() {
        cell_of[tile as usize] = cell as u32;
    }
    position
        .tiles()
        .iter()
        .map(|&tile| match cell_of[tile as usize] {
            u32::MAX => Err(MismatchError::Labels {
                extra: tile,
                missing: goal.missing_label_against(position),
            }),
            cell => Ok(cell),
        })
        .collect()
}

impl Position {
    /// The two parities that decide whether `self` can reach `goal`.
    pub fn solvability(&self, goal: &Position) -> Result<Solvability, MismatchError> {
        let target = goal_cells(self, goal)?;
        Ok(Solvability {
            permutation_parity: permutation_parity(&target),
            blank_distance: self.size().distance(self.blank(), goal.blank()),
        })
    }

    /// Whether this position can reach `goal` (of the same size and tiles).
    pub fn is_solvable(&self, goal: &Position) -> Result<bool, MismatchError> {
        Ok(self.solvability(goal)?.is_solvable())
    }

    /// A label this position holds that `other` lacks (for error messages).
    fn missing_label_against(&self, other: &Position) -> u32 {
        let mut present = vec![false; self.tiles().len() + 1];
        other
            .tiles()
            .iter()
            .for_each(|&t| present[t as usize] = true);
        self.tiles()
            .iter()
            .copied()
            .find(|&t| !present[t as usize])
            .unwrap_or(0)
    }
}

/// Parity of a permutation of 0..n given as `p[i]`: n minus its number of
/// cycles, modulo 2.
pub fn permutation_parity(p: &[u32]) -> Parity {
    let mut seen = vec![false; p.len()];
    let mut cycles = 0;
    for start in 0..p.len() {
        if seen[start] {
            continue;
        }
        cycles += 1;
        let mut i = start;
        while !seen[i] {
            seen[i] = true;
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
    fn classic_examples() {
        let goal = Goal::RowMajor.position("4x4".parse().unwrap()).unwrap();
        let swapped: Position = "1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0".parse().unwrap();
        assert!(!swapped.is_solvable(&goal).unwrap());
        let shifted: Position = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15".parse().unwrap();
        let why = shifted.solvability(&goal).unwrap();
        assert_eq!(
            why,
            Solvability {
                permutation_parity: Parity::Odd,
                blank_distance: 1
            }
        );
        assert!(why.is_solvable());
    }

    #[test]
    fn mismatched_labels_are_named() {
        let goal = Goal::Missing(5).position("3x3".parse().unwrap()).unwrap();
        let position: Position = "1 2 3/4 5 6/7 8 0".parse().unwrap();
        assert_eq!(
            position.is_solvable(&goal),
            Err(MismatchError::Labels {
                extra: 5,
                missing: 9
            })
        );
    }
}
