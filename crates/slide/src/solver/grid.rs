//! Cell adjacency of a board, precomputed for the searches.
//!
//! The solvers work on canonical states (see the `relabel` module): arrays of
//! small integers indexed by cell. They move the blank by table lookups
//! instead of recomputing coordinates at every node.

use crate::{Direction, Size};

/// The board's cells and, for each cell, the neighbours the blank can move
/// to together with the tile move that this is.
#[derive(Clone, Debug)]
pub(crate) struct Grid {
    pub size: Size,
    pub cells: usize,
    /// `neighbours[b]`: `(c, d)` = the tile on cell `c` slides into the
    /// blank on `b` by moving `d`. Ordered U, D, L, R.
    pub neighbours: Vec<Vec<(u8, Direction)>>,
}

impl Grid {
    pub fn new(size: Size) -> Grid {
        let cells = size.cells();
        let neighbours = (0..cells)
            .map(|blank| {
                let (x, y) = size.coords(blank);
                Direction::ALL
                    .into_iter()
                    .filter_map(|d| {
                        let (dx, dy) = d.blank_step();
                        let nx = x.checked_add_signed(dx)?;
                        let ny = y.checked_add_signed(dy)?;
                        (nx < size.width() && ny < size.height())
                            .then(|| (size.cell(nx, ny) as u8, d))
                    })
                    .collect()
            })
            .collect();
        Grid {
            size,
            cells,
            neighbours,
        }
    }

    /// Taxicab distance between two cells.
    pub fn distance(&self, a: usize, b: usize) -> u32 {
        self.size.distance(a, b) as u32
    }
}
