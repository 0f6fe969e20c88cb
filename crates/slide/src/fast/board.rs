//! The board as the fast solver sees it: every tile named by its goal cell.
//!
//! Relabelling through [`crate::goal_cells`] turns every goal (row-major,
//! snake, spiral, missing-number, custom) into the same question — "bring
//! the tile named `c` to cell `c`".
//!
//! Finding tiles: only the tiles of the line being solved are ever looked
//! up, so only they are tracked. While a line is *watched*, its tiles carry
//! a mark in their label and their cells are kept in a short array; a move
//! then touches the two cells it changes and, for a marked tile, one entry
//! of that array. A full inverse index would cost a random memory write
//! per move on a 1000 × 1000 board — most of the run time.

use super::divide::Divider;
use super::frame::{Frame, Rect};
use crate::Direction;

/// Label bit of a watched tile; the rest of the label is its index in the
/// line.
const WATCHED: u32 = 1 << 31;

pub(crate) struct Board {
    width: usize,
    /// `width` as a multiply-and-shift, for the goal coordinates asked on
    /// every routing decision (a hardware division is several times slower).
    divide: Divider,
    /// `tiles[cell]` = the goal cell of the tile on `cell` (the blank's
    /// entry is the blank's goal cell), or `WATCHED | u` for the tile of
    /// line cell `u`.
    tiles: Vec<u32>,
    blank: usize,
    /// The line being solved, and where each of its tiles is.
    line: Option<Frame>,
    line_at: Vec<u32>,
}

impl Board {
    /// `tiles` as produced by `goal_cells`: a permutation of the cells.
    pub fn new(width: usize, tiles: Vec<u32>, blank: usize) -> Board {
        Board {
            width,
            divide: Divider::new(width as u64),
            tiles,
            blank,
            line: None,
            line_at: Vec::new(),
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn blank(&self) -> usize {
        self.blank
    }

    /// Starts tracking the tiles of row 0 of `frame`, all somewhere in the
    /// unsolved `rect` (one pass over it).
    pub fn watch(&mut self, frame: Frame, rect: Rect) {
        self.unwatch();
        self.line_at.clear();
        self.line_at.resize(frame.width as usize, u32::MAX);
        for y in rect.y0..rect.y1 {
            for cell in y * self.width + rect.x0..y * self.width + rect.x1 {
                let goal = self.tiles[cell] as usize;
                let (u, v) = frame.logical(goal);
                if v == 0 && frame.contains((u, v)) && cell != self.blank {
                    self.line_at[u as usize] = cell as u32;
                    self.tiles[cell] = WATCHED | u as u32;
                }
            }
        }
        debug_assert!(self.line_at.iter().all(|&c| c != u32::MAX));
        self.line = Some(frame);
    }

    /// Stops tracking: the watched tiles get their plain labels back.
    pub fn unwatch(&mut self) {
        if let Some(frame) = self.line.take() {
            for (u, &cell) in self.line_at.iter().enumerate() {
                self.tiles[cell as usize] = frame.cell((u as i32, 0)) as u32;
            }
        }
    }

    /// The cell holding the tile that belongs on `goal`, a cell of the
    /// watched line.
    pub fn at(&self, goal: usize) -> usize {
        let frame = self.line.expect("a watched line");
        self.line_at[frame.logical(goal).0 as usize] as usize
    }

    /// The board coordinates of cell `cell`.
    #[inline]
    pub fn xy(&self, cell: usize) -> (i32, i32) {
        let y = self.divide.quotient(cell as u64) as usize;
        ((cell - y * self.width) as i32, y as i32)
    }

    /// The goal cell of the tile on `cell`.
    #[inline]
    pub fn tile(&self, cell: usize) -> usize {
        match self.tiles[cell] {
            label if label & WATCHED != 0 => {
                let frame = self.line.expect("a watched line");
                frame.cell(((label & !WATCHED) as i32, 0))
            }
            label => label as usize,
        }
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
        let moved = self.tiles[to];
        self.tiles.swap(from, to);
        if moved & WATCHED != 0 {
            self.line_at[(moved & !WATCHED) as usize] = from as u32;
        }
        self.blank = to;
        direction
    }

    pub fn is_solved(&self) -> bool {
        self.line.is_none()
            && self
                .tiles
                .iter()
                .enumerate()
                .all(|(cell, &goal)| goal as usize == cell)
    }
}
