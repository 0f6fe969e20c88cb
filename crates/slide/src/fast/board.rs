//! The board as the fast solver sees it: every tile named by its goal cell.
//!
//! Relabelling through [`crate::goal_cells`] turns every goal (row-major,
//! snake, spiral, missing-number, custom) into the same question — "bring
//! the tile named `c` to cell `c`". The board keeps each name as the goal
//! cell's coordinates, `y << 16 | x`: the routing asks for them on every
//! decision, and unpacking them is cheaper than dividing by the width.
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

#[derive(Clone)]
pub(crate) struct Board {
    width: usize,
    /// `tiles[cell]` = the goal cell of the tile on `cell` (the blank's
    /// entry is the blank's goal cell) as `y << 16 | x`, or `WATCHED | u`
    /// for the tile of line cell `u`.
    tiles: Vec<u32>,
    blank: usize,
    /// The line being solved, and where each of its tiles is.
    line: Option<Frame>,
    line_at: Vec<u32>,
}

impl Board {
    /// `tiles` as produced by `goal_cells`: a permutation of the cells.
    pub fn new(width: usize, mut tiles: Vec<u32>, blank: usize) -> Board {
        let divide = Divider::new(width as u64);
        for label in &mut tiles {
            let y = divide.quotient(u64::from(*label)) as u32;
            *label = pack(*label - y * width as u32, y);
        }
        Board {
            width,
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
                let (u, v) = frame.logical_xy(unpack(self.tiles[cell]));
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
                let (x, y) = frame.xy((u as i32, 0));
                self.tiles[cell as usize] = pack(x as u32, y as u32);
            }
        }
    }

    /// The cell holding the tile that belongs on `goal`, a cell of the
    /// watched line.
    pub fn at(&self, goal: usize) -> usize {
        let frame = self.line.expect("a watched line");
        self.line_at[frame.logical(goal).0 as usize] as usize
    }

    /// The goal cell of the tile on `cell`.
    #[inline]
    pub fn tile(&self, cell: usize) -> usize {
        let (x, y) = self.goal_xy(cell);
        y as usize * self.width + x as usize
    }

    /// The board coordinates of the goal cell of the tile on `cell`.
    #[inline]
    pub fn goal_xy(&self, cell: usize) -> (i32, i32) {
        match self.tiles[cell] {
            label if label & WATCHED != 0 => {
                let frame = self.line.expect("a watched line");
                frame.xy(((label & !WATCHED) as i32, 0))
            }
            label => unpack(label),
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

    /// The sum of the Manhattan distances of the tiles in `rect` to their
    /// goals, while no line is watched.
    pub fn distance(&self, rect: Rect) -> u64 {
        let mut total = 0;
        for y in rect.y0..rect.y1 {
            for x in rect.x0..rect.x1 {
                let cell = y * self.width + x;
                if cell != self.blank {
                    let (gx, gy) = unpack(self.tiles[cell]);
                    total += (gx as usize).abs_diff(x) + (gy as usize).abs_diff(y);
                }
            }
        }
        total as u64
    }

    pub fn is_solved(&self) -> bool {
        self.line.is_none() && (0..self.tiles.len()).all(|cell| self.tile(cell) == cell)
    }
}

/// A goal cell's coordinates as a label (both below 2¹⁵ on any board).
fn pack(x: u32, y: u32) -> u32 {
    (y << 16) | x
}

fn unpack(label: u32) -> (i32, i32) {
    ((label & 0xFFFF) as i32, (label >> 16) as i32)
}
