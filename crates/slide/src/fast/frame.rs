//! A logical view of one side of the unsolved rectangle.
//!
//! Every reduction step fills "row 0" of a frame: the top or bottom row, or
//! the left or right column, read in either direction. Writing the routing
//! once in logical coordinates `(u, v)` — `u` along the line being filled,
//! `v` away from it into the unsolved part — keeps one copy of the geometry
//! for all eight orientations.

use super::divide::Divider;

/// Logical coordinates inside a frame: `u` along the line, `v` into the board.
pub(crate) type Cell = (i32, i32);

/// The unsolved rectangle `[x0, x1) × [y0, y1)` in board coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rect {
    pub x0: usize,
    pub y0: usize,
    pub x1: usize,
    pub y1: usize,
}

impl Rect {
    pub fn width(self) -> usize {
        self.x1 - self.x0
    }

    pub fn height(self) -> usize {
        self.y1 - self.y0
    }

    /// The rectangle left once `side` is solved.
    pub fn without(self, side: Side) -> Rect {
        let mut rest = self;
        match side {
            Side::Top => rest.y0 += 1,
            Side::Bottom => rest.y1 -= 1,
            Side::Left => rest.x0 += 1,
            Side::Right => rest.x1 -= 1,
        }
        rest
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    Top,
    Bottom,
    Left,
    Right,
}

/// Maps logical `(u, v)` to board cells: an origin and two unit axes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    board_width: i32,
    divide: Divider,
    origin: (i32, i32),
    axis_u: (i32, i32),
    axis_v: (i32, i32),
    /// The board cell of `(0, 0)` and the steps in board cells of one unit
    /// along `u` and along `v`: a cell index in two multiplications.
    origin_cell: i32,
    step_u: i32,
    step_v: i32,
    /// Logical extent along `u` (the length of the line being filled).
    pub width: i32,
    /// Logical extent along `v` (the depth of the unsolved rectangle).
    pub height: i32,
}

impl Frame {
    /// The frame whose row 0 is `side` of `rect`; `reversed` fills that
    /// line from its other end.
    pub fn new(board_width: usize, rect: Rect, side: Side, reversed: bool) -> Frame {
        let (x0, y0, x1, y1) = (
            rect.x0 as i32,
            rect.y0 as i32,
            rect.x1 as i32 - 1,
            rect.y1 as i32 - 1,
        );
        let (origin, axis_u, axis_v, along_x) = match (side, reversed) {
            (Side::Top, false) => ((x0, y0), (1, 0), (0, 1), true),
            (Side::Top, true) => ((x1, y0), (-1, 0), (0, 1), true),
            (Side::Bottom, false) => ((x0, y1), (1, 0), (0, -1), true),
            (Side::Bottom, true) => ((x1, y1), (-1, 0), (0, -1), true),
            (Side::Left, false) => ((x0, y0), (0, 1), (1, 0), false),
            (Side::Left, true) => ((x0, y1), (0, -1), (1, 0), false),
            (Side::Right, false) => ((x1, y0), (0, 1), (-1, 0), false),
            (Side::Right, true) => ((x1, y1), (0, -1), (-1, 0), false),
        };
        let (width, height) = if along_x {
            (rect.width(), rect.height())
        } else {
            (rect.height(), rect.width())
        };
        let w = board_width as i32;
        Frame {
            board_width: w,
            divide: Divider::new(board_width as u64),
            origin,
            axis_u,
            axis_v,
            origin_cell: origin.1 * w + origin.0,
            step_u: axis_u.1 * w + axis_u.0,
            step_v: axis_v.1 * w + axis_v.0,
            width: width as i32,
            height: height as i32,
        }
    }

    #[inline]
    pub fn contains(&self, (u, v): Cell) -> bool {
        u >= 0 && v >= 0 && u < self.width && v < self.height
    }

    /// The board cell at logical `(u, v)`.
    #[inline]
    pub fn cell(&self, (u, v): Cell) -> usize {
        (self.origin_cell + u * self.step_u + v * self.step_v) as usize
    }

    /// The board coordinates `(x, y)` of logical `(u, v)`.
    #[inline]
    pub fn xy(&self, (u, v): Cell) -> (i32, i32) {
        (
            self.origin.0 + u * self.axis_u.0 + v * self.axis_v.0,
            self.origin.1 + u * self.axis_u.1 + v * self.axis_v.1,
        )
    }

    /// The logical coordinates of board cell `cell`.
    #[inline]
    pub fn logical(&self, cell: usize) -> Cell {
        let row = self.divide.quotient(cell as u64) as i32;
        self.logical_xy((cell as i32 - row * self.board_width, row))
    }

    /// The logical coordinates of the board cell at `(x, y)`.
    #[inline]
    pub fn logical_xy(&self, (x, y): (i32, i32)) -> Cell {
        let (x, y) = (x - self.origin.0, y - self.origin.1);
        (
            x * self.axis_u.0 + y * self.axis_u.1,
            x * self.axis_v.0 + y * self.axis_v.1,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_orientation_round_trips_and_covers_the_rectangle() {
        let rect = Rect {
            x0: 1,
            y0: 2,
            x1: 5,
            y1: 5,
        };
        for side in [Side::Top, Side::Bottom, Side::Left, Side::Right] {
            for reversed in [false, true] {
                let frame = Frame::new(7, rect, side, reversed);
                let mut seen = Vec::new();
                for u in 0..frame.width {
                    for v in 0..frame.height {
                        let cell = frame.cell((u, v));
                        assert_eq!(frame.logical(cell), (u, v));
                        let (x, y) = (cell % 7, cell / 7);
                        assert!((1..5).contains(&x) && (2..5).contains(&y));
                        seen.push(cell);
                    }
                }
                seen.sort_unstable();
                seen.dedup();
                assert_eq!(seen.len(), 12);
                let line: Vec<usize> = (0..frame.width).map(|u| frame.cell((u, 0))).collect();
                let expected: Vec<usize> = match side {
                    Side::Top => (1..5).map(|x| 2 * 7 + x).collect(),
                    Side::Bottom => (1..5).map(|x| 4 * 7 + x).collect(),
                    Side::Left => (2..5).map(|y| y * 7 + 1).collect(),
                    Side::Right => (2..5).map(|y| y * 7 + 4).collect(),
                };
                let mut sorted = line.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, expected);
            }
        }
    }
}
