//! A cheap lower bound on any solution's length.

use crate::{goal_cells, Direction, IllegalMove, MismatchError, Position, Size};

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

/// Manhattan distance plus linear conflicts, kept up to date move by move:
/// the lower bound of boards too large for pattern databases, cheap enough
/// to take after every move of a long replay.
///
/// Two tiles in their goal line but in the wrong order there cost two moves
/// more than their Manhattan distances: one must leave the line to let the
/// other pass. Per line that is twice the tiles outside a longest run
/// already in goal order. A move changes the Manhattan distance of one
/// tile and the two lines across it (a tile moving along a row leaves one
/// column for another; its row's order is unchanged), so each move costs
/// O(side · log side), not O(cells).
#[derive(Clone, Debug)]
pub struct LowerBound {
    size: Size,
    position: Position,
    /// For each cell, the goal cell of the tile on it.
    home: Vec<u32>,
    manhattan: u64,
    rows: Vec<u32>,
    columns: Vec<u32>,
    conflicts: u64,
}

impl LowerBound {
    /// The bound of `position` towards `goal`.
    pub fn new(position: &Position, goal: &Position) -> Result<LowerBound, MismatchError> {
        let size = position.size();
        let mut bound = LowerBound {
            size,
            home: goal_cells(position, goal)?,
            manhattan: position.manhattan(goal)?,
            position: position.clone(),
            rows: Vec::new(),
            columns: Vec::new(),
            conflicts: 0,
        };
        bound.rows = (0..size.height()).map(|y| bound.row_conflicts(y)).collect();
        bound.columns = (0..size.width())
            .map(|x| bound.column_conflicts(x))
            .collect();
        bound.conflicts = bound
            .rows
            .iter()
            .chain(&bound.columns)
            .map(|&c| c as u64)
            .sum();
        Ok(bound)
    }

    /// No solution from the current position is shorter (single-tile moves).
    pub fn value(&self) -> u64 {
        self.manhattan + self.conflicts
    }

    /// The same bound in the multi-tile metric: one move slides at most a
    /// whole line less the blank, so it covers at most that many
    /// single-tile moves.
    pub fn mtm_value(&self) -> u64 {
        let run = (self.size.width().max(self.size.height()) - 1).max(1) as u64;
        self.value().div_ceil(run)
    }

    /// The position the bound is of.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Makes one move and updates the bound.
    pub fn apply(&mut self, direction: Direction) -> Result<(), IllegalMove> {
        let from = self
            .position
            .source(direction)
            .ok_or(IllegalMove { direction })?;
        let to = self.position.blank();
        self.position.apply(direction)?;
        let home = self.home[from] as usize;
        self.manhattan = self.manhattan + self.size.distance(to, home) as u64
            - self.size.distance(from, home) as u64;
        self.home.swap(from, to);
        let w = self.size.width();
        if from / w == to / w {
            self.refresh_column(from % w);
            self.refresh_column(to % w);
        } else {
            self.refresh_row(from / w);
            self.refresh_row(to / w);
        }
        Ok(())
    }

    fn refresh_row(&mut self, y: usize) {
        let fresh = self.row_conflicts(y);
        self.conflicts = self.conflicts + fresh as u64 - self.rows[y] as u64;
        self.rows[y] = fresh;
    }

    fn refresh_column(&mut self, x: usize) {
        let fresh = self.column_conflicts(x);
        self.conflicts = self.conflicts + fresh as u64 - self.columns[x] as u64;
        self.columns[x] = fresh;
    }

    fn row_conflicts(&self, y: usize) -> u32 {
        let w = self.size.width();
        let blank = self.position.blank();
        let keys = (y * w..y * w + w)
            .filter(|&cell| cell != blank && self.home[cell] as usize / w == y)
            .map(|cell| self.home[cell] as usize % w);
        line_conflicts(keys, &mut vec![0; w])
    }

    fn column_conflicts(&self, x: usize) -> u32 {
        let w = self.size.width();
        let blank = self.position.blank();
        let keys = (x..self.home.len())
            .step_by(w)
            .filter(|&cell| cell != blank && self.home[cell] as usize % w == x)
            .map(|cell| self.home[cell] as usize / w);
        line_conflicts(keys, &mut vec![0; self.size.height()])
    }
}

/// Twice the number of keys outside a longest strictly increasing run: the
/// tiles of a line that must leave it to let the others pass. `tails` is
/// scratch room for at least as many keys as the line holds, so the beam
/// search's many small lines need no allocation.
pub(crate) fn line_conflicts(keys: impl Iterator<Item = usize>, tails: &mut [usize]) -> u32 {
    let (mut len, mut count) = (0, 0);
    for key in keys {
        count += 1;
        let i = tails[..len].partition_point(|&t| t < key);
        tails[i] = key;
        len = len.max(i + 1);
    }
    2 * (count - len) as u32
}

#[cfg(test)]
mod tests {
    use super::LowerBound;
    use crate::solver::{solve_optimal, SolveOptions};
    use crate::{Direction, Goal, Position, Rng, Scramble, Size};

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

    /// Every tile pair counted by hand: the independent reference.
    fn by_pairs(position: &Position, goal: &Position) -> u64 {
        let size = position.size();
        let home = crate::goal_cells(position, goal).unwrap();
        let w = size.width();
        let tiles: Vec<usize> = (0..home.len()).filter(|&c| c != position.blank()).collect();
        let mut lines = 0;
        // Per line, the tiles that belong in it; the minimum number to take
        // out so the rest are in order, by trying every subset (lines here
        // hold at most five tiles).
        for (along, across) in [(true, false), (false, true)] {
            let count = if along { size.height() } else { w };
            for line in 0..count {
                let keys: Vec<usize> = tiles
                    .iter()
                    .filter(|&&c| if along { c / w == line } else { c % w == line })
                    .filter(|&&c| {
                        let h = home[c] as usize;
                        if across {
                            h % w == line
                        } else {
                            h / w == line
                        }
                    })
                    .map(|&c| {
                        if along {
                            home[c] as usize % w
                        } else {
                            home[c] as usize / w
                        }
                    })
                    .collect();
                let best = (0u32..1 << keys.len())
                    .filter(|m| {
                        let kept: Vec<usize> = (0..keys.len())
                            .filter(|i| m >> i & 1 == 1)
                            .map(|i| keys[i])
                            .collect();
                        kept.windows(2).all(|p| p[0] < p[1])
                    })
                    .map(u32::count_ones)
                    .max()
                    .unwrap_or(0);
                lines += 2 * (keys.len() as u64 - best as u64);
            }
        }
        position.manhattan(goal).unwrap() + lines
    }

    #[test]
    fn the_bound_kept_move_by_move_equals_one_counted_afresh() {
        let mut rng = Rng::new(5);
        for (w, h, goal) in [
            (5, 5, Goal::RowMajor),
            (4, 5, Goal::Snake),
            (5, 3, Goal::Spiral),
        ] {
            let goal = goal.position(Size::new(w, h).unwrap()).unwrap();
            let start = Scramble::Uniform.generate(&goal, w as u64 * 10 + h as u64);
            let mut bound = LowerBound::new(&start, &goal).unwrap();
            for _ in 0..400 {
                let legal: Vec<Direction> = bound.position().legal_moves().collect();
                let d = legal[rng.below(legal.len() as u64) as usize];
                bound.apply(d).unwrap();
                let at = bound.position().clone();
                assert_eq!(bound.value(), by_pairs(&at, &goal), "{at}");
                assert_eq!(bound.value(), LowerBound::new(&at, &goal).unwrap().value());
            }
        }
    }

    #[test]
    fn the_bound_never_exceeds_the_distance_on_2000_random_3x3_positions() {
        let size = Size::new(3, 3).unwrap();
        let goal = Goal::RowMajor.position(size).unwrap();
        for seed in 0..2000 {
            let p = Scramble::Uniform.generate(&goal, seed);
            let bound = LowerBound::new(&p, &goal).unwrap();
            let exact = solve_optimal(&p, &goal, &SolveOptions::default())
                .unwrap()
                .stm() as u64;
            assert!(bound.value() <= exact, "{p}: {} > {exact}", bound.value());
            assert!(bound.mtm_value() <= bound.value());
        }
    }
}
