//! Connections between two cells: at most three straight segments through
//! empty cells, the ring around the board included.
//!
//! The search works on occupancy bitboards (one `u128` per row and per
//! column, bit `i + 1` for cell `i`, the ring at bits 0 and `len + 1`):
//!
//! * the cells a tile can reach along its row or column are one
//!   trailing-zeros / leading-zeros scan each (its *ray extents*);
//! * a straight connection is a mask test, an L connection two bit tests;
//! * a three-segment connection running horizontal–vertical–horizontal goes
//!   through a column `x` that both tiles reach along their rows and whose
//!   cells between the two rows are empty: the set of such columns is
//!   `reach_a & reach_b & !(OR of the rows in between)`, and the shortest
//!   is the set bit nearest to the span between the two tiles. The same
//!   with rows and columns swapped gives vertical–horizontal–vertical.
//!
//! Every straight or L connection has the Manhattan length, the least any
//! connection can have, so they come first; among three-segment ones the
//! nearest column or row gives the fewest cells. Ties between equally short
//! connections are broken by fewest turns, then horizontal-first before
//! vertical-first, then the smaller coordinate.

use crate::board::Board;
use crate::point::Point;

/// A connection, as its corner points: the two end cells and up to two
/// turns between them. Corners may lie on the ring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Path {
    points: [Point; 4],
    len: u8,
}

impl Path {
    fn new(points: &[Point]) -> Path {
        let mut all = [points[0]; 4];
        all[..points.len()].copy_from_slice(points);
        Path {
            points: all,
            len: points.len() as u8,
        }
    }

    /// The end cells and the corners between them, in order.
    pub fn points(&self) -> &[Point] {
        &self.points[..usize::from(self.len)]
    }

    /// The number of 90° turns (0, 1 or 2).
    pub fn turns(&self) -> usize {
        usize::from(self.len) - 2
    }

    /// The number of unit steps from one end to the other.
    pub fn length(&self) -> usize {
        self.points()
            .windows(2)
            .map(|w| (w[0].x.abs_diff(w[1].x) + w[0].y.abs_diff(w[1].y)) as usize)
            .sum()
    }
}

/// Bits strictly between `lo` and `hi` (`lo < hi`).
#[inline]
fn between(lo: usize, hi: usize) -> u128 {
    ((1u128 << hi) - 1) & !((2u128 << lo) - 1)
}

/// The bits a ray from bit `at` reaches through clear bits in `line`, both
/// ways, excluding `at` itself. Walls above the ring keep it in range.
#[inline]
pub(crate) fn reach(line: u128, at: usize) -> u128 {
    let up = (line >> (at + 1)).trailing_zeros() as usize;
    let up = ((1u128 << up) - 1) << (at + 1);
    let below = line & ((1u128 << at) - 1);
    let down = if below == 0 {
        (1u128 << at) - 1
    } else {
        let top = 127 - below.leading_zeros() as usize;
        ((1u128 << at) - 1) & !((2u128 << top) - 1)
    };
    up | down
}

/// The best three-segment middle line among `candidates` (bit `i + 1` for
/// line `i`) for ends at lines `a` and `b`: the one adding the fewest steps
/// beyond the span between them. Returns (line, extra steps).
#[inline]
fn nearest(candidates: u128, a: usize, b: usize) -> Option<(i32, usize)> {
    if candidates == 0 {
        return None;
    }
    let (lo, hi) = (a.min(b) + 1, a.max(b) + 1);
    let inside = candidates & between(lo, hi);
    if inside != 0 {
        return Some((inside.trailing_zeros() as i32 - 1, 0));
    }
    let below = candidates & ((1u128 << lo) - 1);
    let above = candidates >> (hi + 1);
    let down = (below != 0).then(|| {
        let bit = 127 - below.leading_zeros() as usize;
        (bit as i32 - 1, 2 * (lo - bit))
    });
    let up = (above != 0).then(|| {
        let bit = hi + 1 + above.trailing_zeros() as usize;
        (bit as i32 - 1, 2 * (bit - hi))
    });
    match (down, up) {
        (Some(d), Some(u)) => Some(if u.1 < d.1 { u } else { d }),
        (d, u) => d.or(u),
    }
}

/// A tile's ray extents: the cells it reaches along its row and column.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rays {
    pub(crate) at: Point,
    /// Bit `x + 1`: columns reached along row `at.y`.
    pub(crate) row: u128,
    /// Bit `y + 1`: rows reached along column `at.x`.
    pub(crate) col: u128,
}

impl Board {
    pub(crate) fn rays(&self, at: Point) -> Rays {
        let (x, y) = (at.x as usize, at.y as usize);
        Rays {
            at,
            row: reach(self.row_bits(y), x + 1),
            col: reach(self.col_bits(x), y + 1),
        }
    }

    /// The shortest connection between the cells `a` and `b`: fewest cells,
    /// then fewest turns. `None` when there is none, when `a == b`, or when
    /// either lies off the interior. The end cells themselves need not be
    /// empty; only the cells between them must.
    pub fn path(&self, a: Point, b: Point) -> Option<Path> {
        if a == b || !self.contains(a) || !self.contains(b) {
            return None;
        }
        self.connect(&self.rays(a), &self.rays(b))
    }

    /// Whether `a` and `b` connect (same conditions as [`Board::path`]).
    pub fn connects(&self, a: Point, b: Point) -> bool {
        self.path(a, b).is_some()
    }

    /// The shortest connection between two tiles given their rays.
    pub(crate) fn connect(&self, a: &Rays, b: &Rays) -> Option<Path> {
        let (pa, pb) = (a.at, b.at);
        let (ax, ay, bx, by) = (pa.x as usize, pa.y as usize, pb.x as usize, pb.y as usize);
        if ay == by {
            let (lo, hi) = (ax.min(bx) + 1, ax.max(bx) + 1);
            if self.row_bits(ay) & between(lo, hi) == 0 {
                return Some(Path::new(&[pa, pb]));
            }
            return self.via_row(a, b);
        }
        if ax == bx {
            let (lo, hi) = (ay.min(by) + 1, ay.max(by) + 1);
            if self.col_bits(ax) & between(lo, hi) == 0 {
                return Some(Path::new(&[pa, pb]));
            }
            return self.via_col(a, b);
        }
        // L: horizontal from a to (bx, ay), then vertical to b; or the other way.
        if a.row & (1 << (bx + 1)) != 0 && b.col & (1 << (ay + 1)) != 0 {
            return Some(Path::new(&[pa, Point::new(pb.x, pa.y), pb]));
        }
        if a.col & (1 << (by + 1)) != 0 && b.row & (1 << (ax + 1)) != 0 {
            return Some(Path::new(&[pa, Point::new(pa.x, pb.y), pb]));
        }
        let h = self.best_col(a, b);
        let v = self.best_row(a, b);
        match (h, v) {
            (Some(h), Some(v)) => Some(if v.1 < h.1 {
                self.vhv(a, b, v.0)
            } else {
                self.hvh(a, b, h.0)
            }),
            (Some(h), None) => Some(self.hvh(a, b, h.0)),
            (None, Some(v)) => Some(self.vhv(a, b, v.0)),
            (None, None) => None,
        }
    }

    /// Three segments horizontal–vertical–horizontal through the best column.
    fn via_col(&self, a: &Rays, b: &Rays) -> Option<Path> {
        self.best_col(a, b).map(|(x, _)| self.hvh(a, b, x))
    }

    /// Three segments vertical–horizontal–vertical through the best row.
    fn via_row(&self, a: &Rays, b: &Rays) -> Option<Path> {
        self.best_row(a, b).map(|(y, _)| self.vhv(a, b, y))
    }

    fn hvh(&self, a: &Rays, b: &Rays, x: i32) -> Path {
        Path::new(&[a.at, Point::new(x, a.at.y), Point::new(x, b.at.y), b.at])
    }

    fn vhv(&self, a: &Rays, b: &Rays, y: i32) -> Path {
        Path::new(&[a.at, Point::new(a.at.x, y), Point::new(b.at.x, y), b.at])
    }

    /// The column of the shortest horizontal–vertical–horizontal connection
    /// and its extra steps.
    fn best_col(&self, a: &Rays, b: &Rays) -> Option<(i32, usize)> {
        let (ay, by) = (a.at.y as usize, b.at.y as usize);
        let shared = a.row & b.row;
        if shared == 0 || ay == by {
            return None;
        }
        let blocked = (ay.min(by) + 1..ay.max(by)).fold(0, |acc, y| acc | self.row_bits(y));
        nearest(shared & !blocked, a.at.x as usize, b.at.x as usize)
    }

    /// The row of the shortest vertical–horizontal–vertical connection and
    /// its extra steps.
    fn best_row(&self, a: &Rays, b: &Rays) -> Option<(i32, usize)> {
        let (ax, bx) = (a.at.x as usize, b.at.x as usize);
        let shared = a.col & b.col;
        if shared == 0 || ax == bx {
            return None;
        }
        let blocked = (ax.min(bx) + 1..ax.max(bx)).fold(0, |acc, x| acc | self.col_bits(x));
        nearest(shared & !blocked, a.at.y as usize, b.at.y as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reach_stops_at_tiles_and_walls() {
        // Interior of 5: cells 0..5 at bits 1..=5, ring at 0 and 6, wall above.
        let line = crate::board::wall(5) | 1 << 2 | 1 << 5; // tiles at x = 1 and 4
        assert_eq!(reach(line, 3), 1 << 4); // from x = 2: only x = 3
        assert_eq!(reach(line, 5), 1 << 6 | 1 << 4 | 1 << 3); // from x = 4
        assert_eq!(reach(line, 2), 1 << 0 | 1 << 1 | 1 << 3 | 1 << 4); // from x = 1
    }

    #[test]
    fn between_is_exclusive() {
        assert_eq!(between(2, 3), 0);
        assert_eq!(between(2, 5), 0b11000);
    }
}
