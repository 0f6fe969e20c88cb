//! Complete distance tables for small boards (at most
//! [`FULL_TABLE_MAX_CELLS`] cells): the optimal length of every position,
//! found by one breadth-first search back from the goal. Solving is then a
//! walk down the table: from any position, some neighbour is one move
//! closer.
//!
//! A table depends only on the board's shape and on the goal's blank cell
//! (tiles are relabelled by their goal cells, see the `relabel` module), so
//! one table serves every goal with that blank cell. Tables are built once
//! per process on first use and shared (the memo below); building the
//! largest, 2 × 5 (3.6 M entries), takes well under a second.

use super::grid::Grid;
use super::relabel::Canonical;
use crate::{Direction, Moves, Size};
use std::sync::OnceLock;

/// Boards up to this many cells get a complete table: 10! bytes = 3.6 MB.
/// The 12-cell boards would need 12! = 479 M entries per goal blank cell,
/// so they are solved by IDA* with pattern databases instead, in
/// milliseconds.
pub const FULL_TABLE_MAX_CELLS: usize = 10;

/// Marks an arrangement of the other parity, which the goal cannot reach.
const UNREACHABLE: u8 = u8::MAX;
/// An entry is the distance (low 6 bits; the 2 × 5 board's diameter is
/// 55) and, in the top 2 bits, the first move of an optimal solution
/// (index into [`Direction::ALL`]), so the walk reads its way down instead
/// of testing every neighbour.
const DISTANCE: u8 = 0x3F;

/// Optimal distance to the goal of every arrangement of one board shape.
pub struct DistanceTable {
    grid: Grid,
    goal_blank: usize,
    /// Indexed by [`rank`] of the canonical cells: distance and first move.
    distances: Vec<u8>,
}

/// The memo of built tables, one `OnceLock` per shape and goal blank
/// cell: a process-wide cache of pure results (a table is a function of
/// its shape and goal blank cell), each built at most once. Shapes with at
/// most 10 cells have sides 2 to 5.
const SIDES: usize = 4;
static TABLES: [OnceLock<DistanceTable>; SIDES * SIDES * FULL_TABLE_MAX_CELLS] =
    [const { OnceLock::new() }; SIDES * SIDES * FULL_TABLE_MAX_CELLS];

impl DistanceTable {
    /// The table for `size` and a goal whose blank stands on `goal_blank`,
    /// built on first use. `size` must have at most
    /// [`FULL_TABLE_MAX_CELLS`] cells.
    pub fn get(size: Size, goal_blank: usize) -> &'static DistanceTable {
        assert!(size.cells() <= FULL_TABLE_MAX_CELLS && goal_blank < size.cells());
        let shape = (size.width() - 2) * SIDES + (size.height() - 2);
        TABLES[shape * FULL_TABLE_MAX_CELLS + goal_blank]
            .get_or_init(|| DistanceTable::build(size, goal_blank))
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
                for &(c, d) in &grid.neighbours[blank as usize] {
                    cells.swap(blank as usize, c as usize);
                    let r = rank(&cells);
                    if distances[r] == UNREACHABLE {
                        assert!(depth + 1 < DISTANCE, "distances fit in 6 bits");
                        // Back towards the goal, the same tile moves the other way.
                        distances[r] = (depth + 1) | (direction_index(d.inverse()) << 6);
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

    /// The board size the table is for.
    pub fn size(&self) -> Size {
        self.grid.size
    }

    /// Bytes held in memory.
    pub fn memory(&self) -> usize {
        self.distances.len()
    }

    /// The goal cell of the blank the table is for.
    pub fn goal_blank(&self) -> usize {
        self.goal_blank
    }

    /// Optimal number of moves from a canonical arrangement (None if the
    /// goal cannot be reached from it).
    pub(crate) fn distance(&self, cells: &[u8]) -> Option<u32> {
        match self.distances[rank(cells)] {
            UNREACHABLE => None,
            d => Some((d & DISTANCE) as u32),
        }
    }

    /// An optimal solution, read move by move from the table.
    pub(crate) fn solve(&self, start: &Canonical) -> Moves {
        let mut cells = [0u8; FULL_TABLE_MAX_CELLS];
        let n = start.cells.len();
        cells[..n].copy_from_slice(&start.cells);
        let cells = &mut cells[..n];
        let w = self.grid.size.width() as isize;
        // Where the moving tile stands relative to the blank, per direction.
        let offsets = Direction::ALL.map(|d| match d {
            Direction::Up => w,
            Direction::Down => -w,
            Direction::Left => 1,
            Direction::Right => -1,
        });
        let mut blank = start.blank;
        let mut entry = self.distances[rank(cells)];
        debug_assert_ne!(entry, UNREACHABLE);
        let mut moves = Vec::with_capacity((entry & DISTANCE) as usize);
        while entry & DISTANCE != 0 {
            let k = (entry >> 6) as usize;
            let c = blank.wrapping_add_signed(offsets[k]);
            cells.swap(blank, c);
            blank = c;
            moves.push(Direction::ALL[k]);
            entry = self.distances[rank(cells)];
        }
        Moves(moves)
    }

    /// How many arrangements lie at each distance (index = distance).
    pub fn histogram(&self) -> Vec<u64> {
        let mut counts = Vec::new();
        for &d in &self.distances {
            if d != UNREACHABLE {
                let d = d & DISTANCE;
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
            let hit = d != UNREACHABLE && lengths.contains(&((d & DISTANCE) as u32));
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

/// Lexicographic rank of a permutation of `0..n` (n ≤ 10): its Lehmer code
/// read in mixed radix, O(n) with bit counting.
pub(crate) fn rank(cells: &[u8]) -> usize {
    let n = cells.len();
    let mut used = 0u32;
    let mut r = 0usize;
    // Digits weighted by factorials: the products are independent, so the
    // loop is not one long chain of multiplications.
    for (i, &c) in cells.iter().enumerate() {
        let below = BITS[(used & ((1u32 << c) - 1)) as usize] as usize;
        r += (c as usize - below) * FACTORIALS[n - 1 - i];
        used |= 1 << c;
    }
    r
}

/// Bits set in each 10-bit mask: a 1 KB table stays in the L1 cache and is
/// faster than `count_ones` without the POPCNT instruction (not in the
/// baseline x86-64 target).
const BITS: [u8; 1 << FULL_TABLE_MAX_CELLS] = {
    let mut bits = [0u8; 1 << FULL_TABLE_MAX_CELLS];
    let mut i = 1;
    while i < bits.len() {
        bits[i] = bits[i >> 1] + (i & 1) as u8;
        i += 1;
    }
    bits
};

/// 0! to 10!: the ranks of permutations of up to
/// [`FULL_TABLE_MAX_CELLS`] cells, below 10! = 3 628 800, fit any `usize`
/// (a 32-bit one too; 13! would not).
const FACTORIALS: [usize; FULL_TABLE_MAX_CELLS + 1] = {
    let mut f = [1usize; FULL_TABLE_MAX_CELLS + 1];
    let mut i = 1;
    while i <= FULL_TABLE_MAX_CELLS {
        f[i] = f[i - 1] * i;
        i += 1;
    }
    f
};

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

fn direction_index(d: Direction) -> u8 {
    Direction::ALL
        .iter()
        .position(|&a| a == d)
        .expect("one of four") as u8
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
        // The largest rank, of the largest table: 10! - 1, within any
        // usize (the factorials stop at 10! for 32-bit targets).
        let last: Vec<u8> = (0..FULL_TABLE_MAX_CELLS as u8).rev().collect();
        assert_eq!(rank(&last) as u64, (1..=10u64).product::<u64>() - 1);
        assert_eq!(unrank(rank(&last), FULL_TABLE_MAX_CELLS), last);
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
