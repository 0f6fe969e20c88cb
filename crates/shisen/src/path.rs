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
use crate::line::{between, reach, Line, NARROW_MAX};
use crate::point::Point;

/// A connection, as its corner points: the two end cells and up to two
/// turns between them. Corners may lie on the ring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Path {
    points: [Point; 4],
    len: u8,
}

impl Path {
    #[inline]
    fn new(points: &[Point]) -> Path {
        let mut all = [points[0]; 4];
        all[..points.len()].copy_from_slice(points);
        Path {
            points: all,
            len: points.len() as u8,
        }
    }

    /// The end cells and the corners between them, in order.
    #[inline]
    pub fn points(&self) -> &[Point] {
        &self.points[..usize::from(self.len)]
    }

    /// The number of 90° turns (0, 1 or 2).
    #[inline]
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

/// The best three-segment middle line among `candidates` (bit `i + 1` for
/// line `i`) for ends at lines `a` and `b`: the one adding the fewest steps
/// beyond the span between them. Returns (line, extra steps).
#[inline]
fn nearest<L: Line>(candidates: L, a: usize, b: usize) -> Option<(i32, usize)> {
    if candidates == L::ZERO {
        return None;
    }
    let (lo, hi) = (a.min(b) + 1, a.max(b) + 1);
    let inside = candidates & between::<L>(lo, hi);
    if inside != L::ZERO {
        return Some((inside.trailing_zeros() as i32 - 1, 0));
    }
    let below = candidates & L::below(lo);
    let above = candidates >> (hi as u32 + 1);
    let top = L::ZERO.leading_zeros() as usize - 1;
    let down = (below != L::ZERO).then(|| {
        let bit = top - below.leading_zeros() as usize;
        (bit as i32 - 1, 2 * (lo - bit))
    });
    let up = (above != L::ZERO).then(|| {
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
pub(crate) struct Rays<L> {
    pub(crate) at: Point,
    /// Bit `x + 1`: columns reached along row `at.y`.
    pub(crate) row: L,
    /// Bit `y + 1`: rows reached along column `at.x`.
    pub(crate) col: L,
}

impl<L: Line> Rays<L> {
    /// Whether the tile has no empty neighbour.
    #[inline]
    pub(crate) fn is_enclosed(&self) -> bool {
        self.row | self.col == L::ZERO
    }
}

/// The occupancy lines of a board (see [`Board::row_bits`]): all that the
/// yes-or-no connection tests read, so that a move count can run on lines
/// read straight from text (`crate::batch`) as well as on a [`Board`].
#[derive(Clone, Copy)]
pub(crate) struct Occupancy<'a> {
    /// One line per row: its length is the board's height.
    pub(crate) rows: &'a [u128],
    /// One line per column: its length is the board's width.
    pub(crate) cols: &'a [u128],
}

impl Occupancy<'_> {
    #[inline]
    fn row<L: Line>(&self, y: usize) -> L {
        L::narrow(self.rows[y])
    }

    #[inline]
    fn col<L: Line>(&self, x: usize) -> L {
        L::narrow(self.cols[x])
    }

    #[inline]
    pub(crate) fn rays<L: Line>(&self, at: Point) -> Rays<L> {
        let (x, y) = (at.x as usize, at.y as usize);
        Rays {
            at,
            row: reach(self.row::<L>(y), x + 1),
            col: reach(self.col::<L>(x), y + 1),
        }
    }

    /// Whether two tiles given their rays connect: [`Board::connect`]
    /// without choosing the shortest connection, for move scans.
    #[inline]
    pub(crate) fn joins<L: Line>(&self, a: &Rays<L>, b: &Rays<L>) -> bool {
        self.straight(a, b)
            || corner(a, b).is_some()
            || self.through_col(a, b)
            || self.through_row(a, b)
    }

    /// Whether a horizontal–vertical–horizontal connection exists (the
    /// yes-or-no of [`Board::open_col`]).
    #[inline]
    fn through_col<L: Line>(&self, a: &Rays<L>, b: &Rays<L>) -> bool {
        let ends = (a.at.y as usize, b.at.y as usize);
        through(a.row & b.row, ends, self.cols.len(), |x| self.col::<L>(x))
    }

    /// Whether a vertical–horizontal–vertical connection exists.
    #[inline]
    fn through_row<L: Line>(&self, a: &Rays<L>, b: &Rays<L>) -> bool {
        let ends = (a.at.x as usize, b.at.x as usize);
        through(a.col & b.col, ends, self.rows.len(), |y| self.row::<L>(y))
    }

    /// Whether the tiles share a row or a column with only empty cells
    /// between them.
    #[inline]
    fn straight<L: Line>(&self, a: &Rays<L>, b: &Rays<L>) -> bool {
        let (ax, ay, bx, by) = (
            a.at.x as usize,
            a.at.y as usize,
            b.at.x as usize,
            b.at.y as usize,
        );
        if ay == by {
            self.row::<L>(ay) & between::<L>(ax.min(bx) + 1, ax.max(bx) + 1) == L::ZERO
        } else if ax == bx {
            self.col::<L>(ax) & between::<L>(ay.min(by) + 1, ay.max(by) + 1) == L::ZERO
        } else {
            false
        }
    }
}

impl Board {
    /// The occupancy lines, as the connection tests read them.
    #[inline]
    pub(crate) fn occupancy(&self) -> Occupancy<'_> {
        let (rows, cols) = self.lines();
        Occupancy { rows, cols }
    }

    /// Whether rows and columns fit a `u64` with their ring.
    #[inline]
    pub(crate) fn is_narrow(&self) -> bool {
        self.width() <= NARROW_MAX && self.height() <= NARROW_MAX
    }

    #[inline]
    fn row<L: Line>(&self, y: usize) -> L {
        L::narrow(self.row_bits(y))
    }

    #[inline]
    fn col<L: Line>(&self, x: usize) -> L {
        L::narrow(self.col_bits(x))
    }

    #[inline]
    pub(crate) fn rays<L: Line>(&self, at: Point) -> Rays<L> {
        self.occupancy().rays(at)
    }

    /// The shortest connection between the cells `a` and `b`: fewest cells,
    /// then fewest turns. `None` when there is none, when `a == b`, or when
    /// either lies off the interior. The end cells themselves need not be
    /// empty; only the cells between them must.
    #[inline]
    pub fn path(&self, a: Point, b: Point) -> Option<Path> {
        if a == b || !self.contains(a) || !self.contains(b) {
            return None;
        }
        if self.is_narrow() {
            self.path_in::<u64>(a, b)
        } else {
            self.path_in::<u128>(a, b)
        }
    }

    #[inline]
    fn path_in<L: Line>(&self, a: Point, b: Point) -> Option<Path> {
        // A tile walled in on all four sides reaches only its neighbours.
        let adjacent = a.x.abs_diff(b.x) + a.y.abs_diff(b.y) == 1;
        let ra = self.rays::<L>(a);
        if ra.is_enclosed() && !adjacent {
            return None;
        }
        let rb = self.rays::<L>(b);
        if rb.is_enclosed() && !adjacent {
            return None;
        }
        self.connect(&ra, &rb)
    }

    /// Whether the cell `a` connects to any of the cells `others` (a
    /// solver's relaxation: `a`'s rays are computed once).
    pub(crate) fn connects_any(&self, a: Point, others: impl Iterator<Item = Point>) -> bool {
        if self.is_narrow() {
            self.connects_any_in::<u64>(a, others)
        } else {
            self.connects_any_in::<u128>(a, others)
        }
    }

    fn connects_any_in<L: Line>(&self, a: Point, mut others: impl Iterator<Item = Point>) -> bool {
        let ra = self.rays::<L>(a);
        others.any(|b| {
            let adjacent = a.x.abs_diff(b.x) + a.y.abs_diff(b.y) == 1;
            if ra.is_enclosed() && !adjacent || b == a {
                return adjacent;
            }
            let rb = self.rays::<L>(b);
            (adjacent || !rb.is_enclosed()) && self.connect(&ra, &rb).is_some()
        })
    }

    /// Whether `a` and `b` connect (same conditions as [`Board::path`]).
    #[inline]
    pub fn connects(&self, a: Point, b: Point) -> bool {
        self.path(a, b).is_some()
    }

    /// The shortest connection between two tiles given their rays.
    #[inline]
    pub(crate) fn connect<L: Line>(&self, a: &Rays<L>, b: &Rays<L>) -> Option<Path> {
        let (pa, pb) = (a.at, b.at);
        if self.straight(a, b) {
            return Some(Path::new(&[pa, pb]));
        }
        if pa.y == pb.y {
            return self.best_row(a, b).map(|(y, _)| vhv(a, b, y));
        }
        if pa.x == pb.x {
            return self.best_col(a, b).map(|(x, _)| hvh(a, b, x));
        }
        if let Some(corner) = corner(a, b) {
            return Some(Path::new(&[pa, corner, pb]));
        }
        match (self.best_col(a, b), self.best_row(a, b)) {
            (Some(h), Some(v)) if v.1 < h.1 => Some(vhv(a, b, v.0)),
            (Some(h), _) => Some(hvh(a, b, h.0)),
            (None, Some(v)) => Some(vhv(a, b, v.0)),
            (None, None) => None,
        }
    }

    #[inline]
    fn straight<L: Line>(&self, a: &Rays<L>, b: &Rays<L>) -> bool {
        self.occupancy().straight(a, b)
    }

    /// The columns through which a horizontal–vertical–horizontal
    /// connection runs (bit `x + 1`).
    #[inline]
    fn open_col<L: Line>(&self, a: &Rays<L>, b: &Rays<L>) -> L {
        let (ay, by) = (a.at.y as usize, b.at.y as usize);
        let shared = a.row & b.row;
        if shared == L::ZERO || ay == by {
            return L::ZERO;
        }
        let blocked = (ay.min(by) + 1..ay.max(by)).fold(L::ZERO, |acc, y| acc | self.row::<L>(y));
        shared & !blocked
    }

    /// The rows through which a vertical–horizontal–vertical connection
    /// runs (bit `y + 1`).
    #[inline]
    fn open_row<L: Line>(&self, a: &Rays<L>, b: &Rays<L>) -> L {
        let (ax, bx) = (a.at.x as usize, b.at.x as usize);
        let shared = a.col & b.col;
        if shared == L::ZERO || ax == bx {
            return L::ZERO;
        }
        let blocked = (ax.min(bx) + 1..ax.max(bx)).fold(L::ZERO, |acc, x| acc | self.col::<L>(x));
        shared & !blocked
    }

    /// The column of the shortest horizontal–vertical–horizontal connection
    /// and its extra steps.
    #[inline]
    fn best_col<L: Line>(&self, a: &Rays<L>, b: &Rays<L>) -> Option<(i32, usize)> {
        nearest(self.open_col(a, b), a.at.x as usize, b.at.x as usize)
    }

    /// The row of the shortest vertical–horizontal–vertical connection and
    /// its extra steps.
    #[inline]
    fn best_row<L: Line>(&self, a: &Rays<L>, b: &Rays<L>) -> Option<(i32, usize)> {
        nearest(self.open_row(a, b), a.at.y as usize, b.at.y as usize)
    }
}

/// The turn of an open L connection between tiles in different rows and
/// columns: horizontal from `a` to (bx, ay) then vertical to `b` first, or
/// the other way.
#[inline]
fn corner<L: Line>(a: &Rays<L>, b: &Rays<L>) -> Option<Point> {
    let (pa, pb) = (a.at, b.at);
    let (ax, ay, bx, by) = (pa.x as usize, pa.y as usize, pb.x as usize, pb.y as usize);
    if ax == bx || ay == by {
        None
    } else if a.row.has(bx + 1) && b.col.has(ay + 1) {
        Some(Point::new(pb.x, pa.y))
    } else if a.col.has(by + 1) && b.row.has(ax + 1) {
        Some(Point::new(pa.x, pb.y))
    } else {
        None
    }
}

/// Whether a three-segment connection runs through one of the `shared`
/// middle lines (bit `i + 1` for line `i`; the ring lines at bit 0 and
/// `len + 1`) between tiles on lines `ends` across them, given each middle
/// line's occupancy by `line`. The shared lines are tested one by one: rays
/// are short in a played board, so there are fewer of them than lines
/// between the tiles to combine, and a ring line (always empty) settles it
/// at once.
#[inline]
fn through<L: Line>(
    mut shared: L,
    (a, b): (usize, usize),
    len: usize,
    line: impl Fn(usize) -> L,
) -> bool {
    if shared == L::ZERO || a == b {
        return false;
    }
    if shared & (L::ONE | L::bit(len + 1)) != L::ZERO {
        return true;
    }
    let span = between::<L>(a.min(b) + 1, a.max(b) + 1);
    while shared != L::ZERO {
        if line(shared.trailing_zeros() as usize - 1) & span == L::ZERO {
            return true;
        }
        shared = shared & shared.wrapping_sub(L::ONE);
    }
    false
}

fn hvh<L>(a: &Rays<L>, b: &Rays<L>, x: i32) -> Path {
    Path::new(&[a.at, Point::new(x, a.at.y), Point::new(x, b.at.y), b.at])
}

fn vhv<L>(a: &Rays<L>, b: &Rays<L>, y: i32) -> Path {
    Path::new(&[a.at, Point::new(a.at.x, y), Point::new(b.at.x, y), b.at])
}
