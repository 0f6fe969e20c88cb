//! The incremental lower bound IDA* updates one moved tile at a time, and
//! the Manhattan distance.

use super::*;

/// Up to this many patterns per partition.
pub(crate) const MAX_GROUPS: usize = 8;

/// Incremental heuristic state carried down the search.
#[derive(Clone, Copy)]
pub(crate) struct Memo {
    pub(super) values: [[u8; MAX_GROUPS]; 2],
    pub(super) sums: [u32; 2],
}

/// A lower bound IDA* can update one moved tile at a time.
pub(crate) trait Estimate {
    type Memo: Copy;
    /// The bound for `positions` (cell of each tile) and its memo.
    fn initial(&self, positions: &[u8]) -> (u32, Self::Memo);
    /// The bound after `tile` moved from cell `from` (positions updated).
    /// Once the bound is known to exceed `cutoff` the caller prunes the
    /// node, so the rest (and the memo) may be left unfinished.
    fn update(
        &self,
        memo: &Self::Memo,
        positions: &[u8],
        tile: u8,
        from: u8,
        cutoff: u32,
    ) -> (u32, Self::Memo);
    /// A second bound from the dual position (see [`Dual`]), checked only
    /// where the first did not already prune: `cells[c]` is the tile on
    /// cell `c`, the blank is on `blank`. The caller takes the larger.
    #[inline]
    fn dual(&self, _cells: &[u8], _blank: usize, _cutoff: u32) -> u32 {
        0
    }
    /// Whether [`dual`](Self::dual) can give anything but 0: the search
    /// asks once, not on every node.
    fn has_dual(&self) -> bool {
        false
    }
}

/// Sum of taxicab distances of the tiles (not the blank).
pub(crate) struct Manhattan {
    /// `distance[tile * n + cell]`.
    pub(super) distance: Vec<u8>,
    pub(super) n: usize,
    pub(super) goal_blank: usize,
}

impl Manhattan {
    pub fn new(grid: &Grid, goal_blank: usize) -> Manhattan {
        let n = grid.cells;
        let mut distance = vec![0u8; n * n];
        for tile in 0..n {
            for cell in 0..n {
                if tile != goal_blank {
                    distance[tile * n + cell] = grid.distance(tile, cell) as u8;
                }
            }
        }
        Manhattan {
            distance,
            n,
            goal_blank,
        }
    }
}

impl Estimate for Manhattan {
    type Memo = u32;

    fn initial(&self, positions: &[u8]) -> (u32, u32) {
        let h = (0..self.n)
            .filter(|&t| t != self.goal_blank)
            .map(|t| self.distance[t * self.n + positions[t] as usize] as u32)
            .sum();
        (h, h)
    }

    #[inline]
    fn update(&self, memo: &u32, positions: &[u8], tile: u8, from: u8, _: u32) -> (u32, u32) {
        let row = tile as usize * self.n;
        let h = memo + self.distance[row + positions[tile as usize] as usize] as u32
            - self.distance[row + from as usize] as u32;
        (h, h)
    }
}
