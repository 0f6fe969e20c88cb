//! The board as the fast solver sees it: every tile named by its goal cell.
//!
//! Relabelling through [`crate::goal_cells`] turns every goal (row-major,
//! snake, spiral, missing-number, custom) into the same question — "bring
//! the tile named `c` to cell `c`" — and keeps an inverse index so finding
//! a tile is O(1) even on a 1000 × 1000 board.

use crate::Direction;

pub(crate) struct Board {
    width: usize,
    /// `tiles[cell]` = the goal cell of the tile on `cell` (the blank's
    /// entry is the blank's goal cell).
    tiles: Vec<u32>,
    /// `at[goal]` = the cell currently holding the tile whose goal is `goal`.
    at: Vec<u32>,
    blank: usize,
}

impl Board {
    /// `tiles` as produced by `goal_cells`: a permutation of the cells.
    pub fn new(width: usize, tiles: Vec<u32>, blank: usize) -> Board {
        let mut at = vec![0; tiles.len()];
        for (cell, &goal) in tiles.iter().enumerate() {
            at[goal as usize] = cell as u32;
        }
        Board {
            width,
            tiles,
            at,
            blank,
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn blank(&self) -> usize {
        self.blank
    }

    /// The cell holding the tile that belongs on `goal`.
    pub fn at(&self, goal: usize) -> usize {
        self.at[goal] as usize
    }

    /// The goal cell of the tile on `cell`.
    pub fn tile(&self, cell: usize) -> usize {
        self.tiles[cell] as usize
    }

    /// Moves the blank to the adjacent cell `to`; returns the move, named as
    /// always by the direction the tile travels.
    #[inline]
    pub fn slide(&mut self, to: usize) -> Direction {
        let from = self.blank;
        let direction = if to == from + 1 {
            Direction::Left
        } else if to + 1 == from {
            Direction::Right
        } else if to == from + self.width {
            Direction::Up
        } else {
            debug_assert_eq!(to + self.width, from, "blank moves to a neighbour");
            Direction::Down
        };
        let (moved, blank) = (self.tiles[to], self.tiles[from]);
        self.tiles[from] = moved;
        self.at[moved as usize] = from as u32;
        self.tiles[to] = blank;
        self.at[blank as usize] = to as u32;
        self.blank = to;
        direction
    }

    pub fn is_solved(&self) -> bool {
        self.tiles
            .iter()
            .enumerate()
            .all(|(cell, &goal)| goal as usize == cell)
    }
}
