//! Complete distance tables for small boards (at most
//! [`FULL_TABLE_MAX_CELLS`] cells): the optimal length of every position,
//! found by one breadth-first search back from the goal. Solving is then a
//! walk down the table: from any position, some neighbour is one move
//! closer.
//!
//! A table depends only on the board's shape and on the goal's blank cell
//! (tiles are relabelled by their goal cells, see [`super::relabel`]), so
//! one table serves every goal with that blank cell. Tables are built once
//! per process on first use and shared (the memo below); building the
//! largest, 2 × 5 (3.6 M entries), takes well under a second.

use super::grid::Grid;
use super::relabel::Canonical;
use crate::{Direction, Moves, Size};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Boards up to this many cells get a complete table: 10! bytes = 3.6 MB.
/// The 12-cell boards would need 12! = 479 M entries per goal blank cell,
/// so they are solved by IDA* with pattern databases instead, in
/// milliseconds.
pub const FULL_TABLE_MAX_CELLS: usize = 10;

/// Marks an arrangement of the other parity, which the goal cannot reach.
const UNREACHABLE: u8 = u8::MAX;

/// Optimal distance to the goal of every arrangement of one board shape.
pub struct DistanceTable {
    grid: Grid,
    goal_blank: usize,
    /// Indexed by [`rank`] of the canonical cells.
    distances: Vec<u8>,
}

/// The memo of built tables: a process-wide cache of pure results (a
/// table is a function of its shape and goal blank cell), built once each.
type Memo = Mutex<HashMap<(Size, usize), Arc<OnceLock<Arc<DistanceTable>>>>>;
static TABLES: OnceLock<Memo> = OnceLock::new();

impl DistanceTable {
    /// The table for `size` and a goal whose blank stands on `goal_blank`,
    /// built on first use. `size` must have at most
    /// [`FULL_TABLE_MAX_CELLS`] cells.
    pub fn get(size: Size, goal_blank: usize) -> Arc<DistanceTable> {
        assert!(size.cells() <= FULL_TABLE_MAX_CELLS && goal_blank < size.cells());
        let slot = {
            let mut memo = TABLES
                .get_or_init(Default::default)
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            memo.entry((size, goal_blank)).or_default().clone()
        };
        slot.get_or_init(|| Arc::new(DistanceTable::build(size, goal_blank)))
            .clone()
    }

    /// Breadth-first search from the goal over whole arrangements.
    pub fn build(size: Size, goal_blank: usize) -> DistanceTable {
        let grid = Grid::new(size);
        let n = grid.cells;
        let mut distances = vec![UNREACHABLE; factorial(n)];
        let goal: Vec<u8> = (0..n as u8).collect();
        distances[rank(&goal)] = 0;
        let mut frontier = vec![(pack(&goal), goal_blank as u8)];
        let mut depth = 0u8;
        let mut cells = vec![0u8; n];
        while !frontier.is_empty() {
            let mut next = Vec::with_capacity(frontier.len() * 2);
            for &(packed, blank) in &frontier {
                unpack(packed, &mut cells);
                for &(c, _) in &grid.neighbours[blank as usize] {
                    cells.swap(blank as usize, c as usize);
                    let r = rank(&cells);
                    if distances[r] == UNREACHABLE {
                        distances[r] = depth + 1;
                        next.push((pack(&cells), c));
                    }
                    cells.swap(blank as usize, c as usize);
                }
            }
            frontier = next;
            depth += 1;
        }
        DistanceTable {
            grid,
            goal_blank,
            distances,
        }
    }

    pub fn size(&self) -> Size {
        self.grid.size
    }

    pub fn goal_blank(&self) -> usize {
        self.goal_blank
    }

    /// Optimal number of moves from a canonical arrangement (None if the
    /// goal cannot be reached from it).
    pub(crate) fn distance(&self, cells: &[u8]) -> Option<u32> {
        match self.distances[rank(cells)] {
            UNREACHABLE => None,
            d => Some(d as u32),
        }
    }

    /// An optimal solution: at each step, the first neighbour (in U D L R
    /// order) one move closer to the goal.
    pub(crate) fn solve(&self, start: &Canonical) -> Moves {
        let mut cells = start.cells.clone();
        let mut blank = start.blank;
        let mut left = self.distances[rank(&cells)];
        debug_assert_ne!(left, UNREACHABLE);
        let mut moves = Vec::with_capacity(left as usize);
        while left > 0 {
            let (c, d) = self.step(&mut cells, blank, left);
            moves.push(d);
            blank = c;
            left -= 1;
        }
        Moves(moves)
    }

    /// Makes the move from `cells` (at distance `left`) to a neighbour at
    /// distance `left - 1`: its cell and direction.
    fn step(&self, cells: &mut [u8], blank: usize, left: u8) -> (usize, Direction) {
        for &(c, d) in &self.grid.neighbours[blank] {
            cells.swap(blank, c as usize);
            if self.distances[rank(cells)] == left - 1 {
                return (c as usize, d);
            }
            cells.swap(blank, c as usize);
        }
        unreachable!("a breadth-first table always has a closer neighbour")
    }

    /// How many arrangements lie at each distance (index = distance).
    pub fn histogram(&self) -> Vec<u64> {
        let mut counts = Vec::new();
        for &d in &self.distances {
            if d != UNREACHABLE {
                if counts.len() <= d as usize {
                    counts.resize(d as usize + 1, 0);
                }
                counts[d as usize] += 1;
            }
        }
        counts
    }

    /// The `index`-th arrangement (in rank order) at a distance within
    /// `lengths`, as canonical cells; `None` past the last one.
    pub(crate) fn nth_with_distance(
        &self,
        lengths: std::ops::RangeInclusive<u32>,
        mut index: u64,
    ) -> Option<Vec<u8>> {
        let r = self.distances.iter().position(|&d| {
            let hit = d != UNREACHABLE && lengths.contains(&(d as u32));
            if hit {
                if index == 0 {
                    return true;
                }
                index -= 1;
            }
            false
        })?;
        Some(unrank(r, self.grid.cells))
    }
}

/// Lexicographic rank of a permutation of `0..n` (n ≤ 16): its Lehmer code
/// read in mixed radix, O(n) with bit counting.
pub(crate) fn rank(cells: &[u8]) -> usize {
    let n = cells.len();
    let mut used = 0u32;
    let mut r = 0usize;
    for (i, &c) in cells.iter().enumerate() {
        let below = (used & ((1u32 << c) - 1)).count_ones() as usize;
        r = r * (n - i) + (c as usize - below);
        used |= 1 << c;
    }
    r
}

/// Inverse of [`rank`].
pub(crate) fn unrank(mut r: usize, n: usize) -> Vec<u8> {
    let mut digits = vec![0usize; n];
    for i in (0..n).rev() {
        let radix = n - i;
        digits[i] = r % radix;
        r /= radix;
    }
    let mut free: Vec<u8> = (0..n as u8).collect();
    digits.iter().map(|&d| free.remove(d)).collect()
}

pub(crate) fn factorial(n: usize) -> usize {
    (1..=n).product()
}

fn pack(cells: &[u8]) -> u64 {
    cells
        .iter()
        .enumerate()
        .fold(0, |acc, (i, &c)| acc | (c as u64) << (4 * i))
}

fn unpack(packed: u64, cells: &mut [u8]) {
    for (i, c) in cells.iter_mut().enumerate() {
        *c = (packed >> (4 * i) & 0xF) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_unrank_are_inverse() {
        for r in [0, 1, 5, 719, 362_879] {
            let n = if r < 720 { 6 } else { 9 };
            assert_eq!(rank(&unrank(r, n)), r);
        }
        assert_eq!(rank(&[0, 1, 2, 3]), 0);
        assert_eq!(rank(&[3, 2, 1, 0]), 23);
    }

    #[test]
    fn three_by_three_has_the_known_distribution() {
        let table = DistanceTable::get("3x3".parse().unwrap(), 8);
        let histogram = table.histogram();
        // Half of 9! is reachable; the farthest positions need 31 moves, and
        // there are exactly two of them (Reinefeld 1993).
        assert_eq!(histogram.iter().sum::<u64>(), 181_440);
        assert_eq!(histogram.len(), 32);
        assert_eq!(histogram[31], 2);
    }
}
