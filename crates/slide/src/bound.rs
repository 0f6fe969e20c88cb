//! A cheap lower bound on any solution's length.

use crate::{goal_cells, MismatchError, Position};

impl Position {
    /// The sum over tiles (not the blank) of the taxicab distance to their
    /// goal cells: every move shifts one tile one step, so no solution is
    /// shorter. O(n); works for any board size and goal.
    pub fn manhattan(&self, goal: &Position) -> Result<u64, MismatchError> {
        let target = goal_cells(self, goal)?;
        let size = self.size();
        Ok(target
            .iter()
            .enumerate()
            .filter(|&(cell, _)| cell != self.blank())
            .map(|(cell, &to)| size.distance(cell, to as usize) as u64)
            .sum())
    }
}

#[cfg(test)]
mod tests {
    use crate::{Goal, Position};

    #[test]
    fn counts_tile_steps_only() {
        let goal = Goal::RowMajor.position("3x3".parse().unwrap()).unwrap();
        let position: Position = "1 2 3/4 5 6/0 7 8".parse().unwrap();
        assert_eq!(position.manhattan(&goal), Ok(2));
        assert_eq!(goal.manhattan(&goal), Ok(0));
        // tiles 8, 7, 2 and 1 are three steps from home, the other four one.
        let far: Position = "8 7 6/5 4 3/2 1 0".parse().unwrap();
        assert_eq!(far.manhattan(&goal), Ok(16));
    }
}
