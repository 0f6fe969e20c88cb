//! The board: a grid of cells, each empty or holding a tile, with occupancy
//! bitboards per row and per column so that path queries are word
//! operations.

use std::collections::HashMap;
use std::fmt;

use crate::kind::Kind;
use crate::point::Point;
use crate::rules::Matching;
use crate::size::Size;

/// A Shisen-Sho board. Every matching class holds an even number of tiles.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    size: Size,
    matching: Matching,
    /// Row-major, `width × height`.
    cells: Vec<Option<Kind>>,
    /// Per row: bit `x + 1` set when `(x, y)` holds a tile. Bits 0 and
    /// `width + 1` are the ring (always clear); bits above are set as a wall
    /// so that scans stop there.
    rows: Vec<u128>,
    /// Per column, the same with `y + 1`.
    cols: Vec<u128>,
    tiles: usize,
}

/// Why cells do not make a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error("kind '{kind}' has an odd number of tiles ({count}): tiles are removed in pairs")]
    OddKind { kind: Kind, count: usize },
    #[error("{cells} cells given for a {size} board")]
    CellCount { size: Size, cells: usize },
}

/// The wall bits of a line of `len` interior cells.
pub(crate) fn wall(len: usize) -> u128 {
    !0u128 << (len + 2)
}

impl Board {
    /// A board of `size` with the given cells (row-major).
    pub fn new(
        size: Size,
        matching: Matching,
        cells: Vec<Option<Kind>>,
    ) -> Result<Board, BoardError> {
        if cells.len() != size.cells() {
            return Err(BoardError::CellCount {
                size,
                cells: cells.len(),
            });
        }
        let mut counts: HashMap<Kind, usize> = HashMap::new();
        for kind in cells.iter().flatten() {
            *counts.entry(matching.class(*kind)).or_insert(0) += 1;
        }
        let mut odd: Vec<(Kind, usize)> = counts.into_iter().filter(|&(_, n)| n % 2 == 1).collect();
        odd.sort_unstable();
        if let Some(&(kind, count)) = odd.first() {
            return Err(BoardError::OddKind { kind, count });
        }
        let mut board = Board {
            size,
            matching,
            tiles: cells.iter().flatten().count(),
            cells,
            rows: vec![wall(size.width()); size.height()],
            cols: vec![wall(size.height()); size.width()],
        };
        for y in 0..size.height() {
            for x in 0..size.width() {
                if board.cells[y * size.width() + x].is_some() {
                    board.rows[y] |= 1 << (x + 1);
                    board.cols[x] |= 1 << (y + 1);
                }
            }
        }
        Ok(board)
    }

    pub fn size(&self) -> Size {
        self.size
    }

    pub fn width(&self) -> usize {
        self.size.width()
    }

    pub fn height(&self) -> usize {
        self.size.height()
    }

    pub fn matching(&self) -> Matching {
        self.matching
    }

    /// The same tiles played under another matching rule, if every class
    /// stays even under it.
    pub fn with_matching(&self, matching: Matching) -> Result<Board, BoardError> {
        Board::new(self.size, matching, self.cells.clone())
    }

    /// Whether `p` lies in the interior.
    pub fn contains(&self, p: Point) -> bool {
        (0..self.width() as i32).contains(&p.x) && (0..self.height() as i32).contains(&p.y)
    }

    fn index(&self, p: Point) -> Option<usize> {
        self.contains(p)
            .then(|| p.y as usize * self.width() + p.x as usize)
    }

    /// The tile at `p`; `None` for an empty cell or a point off the interior.
    pub fn get(&self, p: Point) -> Option<Kind> {
        self.index(p).and_then(|i| self.cells[i])
    }

    /// The number of tiles left.
    pub fn tiles_left(&self) -> usize {
        self.tiles
    }

    pub fn is_cleared(&self) -> bool {
        self.tiles == 0
    }

    /// Every tile with its position, row by row.
    pub fn tiles(&self) -> impl Iterator<Item = (Point, Kind)> + '_ {
        let w = self.width();
        self.cells
            .iter()
            .enumerate()
            .filter_map(move |(i, c)| c.map(|k| (Point::new((i % w) as i32, (i / w) as i32), k)))
    }

    /// Row `y`'s occupancy (bit `x + 1`), walls above the ring.
    pub(crate) fn row_bits(&self, y: usize) -> u128 {
        self.rows[y]
    }

    /// Column `x`'s occupancy (bit `y + 1`), walls above the ring.
    pub(crate) fn col_bits(&self, x: usize) -> u128 {
        self.cols[x]
    }

    fn put(&mut self, p: Point, kind: Option<Kind>) {
        let (x, y) = (p.x as usize, p.y as usize);
        let i = y * self.width() + x;
        match (self.cells[i].is_some(), kind.is_some()) {
            (false, true) => self.tiles += 1,
            (true, false) => self.tiles -= 1,
            _ => {}
        }
        self.cells[i] = kind;
        let (row_bit, col_bit) = (1u128 << (x + 1), 1u128 << (y + 1));
        if kind.is_some() {
            self.rows[y] |= row_bit;
            self.cols[x] |= col_bit;
        } else {
            self.rows[y] &= !row_bit;
            self.cols[x] &= !col_bit;
        }
    }

    /// Removes the tiles at `a` and `b` (interior points, checked by the
    /// caller). With gravity the tiles above each removed one fall a cell.
    pub(crate) fn remove_pair(&mut self, a: Point, b: Point, gravity: bool) {
        if !gravity {
            self.put(a, None);
            self.put(b, None);
            return;
        }
        // Remove the lower tile first: the upper one then sits a cell lower,
        // unless it is in another column.
        let (low, high) = if a.y >= b.y { (a, b) } else { (b, a) };
        self.fall_onto(low);
        let high = if high.x == low.x {
            Point::new(high.x, high.y + 1)
        } else {
            high
        };
        self.fall_onto(high);
    }

    /// Removes the tile at `p` and lets the cells above it drop one row.
    fn fall_onto(&mut self, p: Point) {
        for y in (1..=p.y).rev() {
            let above = self.get(Point::new(p.x, y - 1));
            self.put(Point::new(p.x, y), above);
        }
        self.put(Point::new(p.x, 0), None);
    }

    /// The same board with its tiles, in row order, replaced by `kinds`
    /// (same count): used to shuffle the remaining tiles in place.
    pub(crate) fn refill(&mut self, kinds: &[Kind]) {
        let spots: Vec<Point> = self.tiles().map(|(p, _)| p).collect();
        for (p, k) in spots.into_iter().zip(kinds) {
            self.put(p, Some(*k));
        }
    }
}

impl fmt::Display for Board {
    /// `height` lines of `width` symbols, `.` for empty, each ending in a
    /// newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.cells.chunks(self.width()) {
            let line: String = row.iter().map(|c| c.map_or('.', Kind::symbol)).collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(c: char) -> Option<Kind> {
        Some(Kind::new(c).unwrap())
    }

    #[test]
    fn rejects_odd_kinds_naming_them() {
        let size = Size::new(2, 2).unwrap();
        let err =
            Board::new(size, Matching::Standard, vec![k('1'), k('1'), k('2'), None]).unwrap_err();
        assert_eq!(
            err,
            BoardError::OddKind {
                kind: Kind::new('2').unwrap(),
                count: 1
            }
        );
    }

    #[test]
    fn chinese_matching_pairs_flowers() {
        let size = Size::new(2, 1).unwrap();
        let cells = vec![k('s'), k('v')];
        assert!(Board::new(size, Matching::Standard, cells.clone()).is_err());
        assert!(Board::new(size, Matching::Chinese, cells).is_ok());
    }

    #[test]
    fn gravity_drops_the_column() {
        let size = Size::new(2, 4).unwrap();
        let cells = vec![k('1'), None, k('2'), k('3'), k('1'), k('3'), k('2'), None];
        let mut board = Board::new(size, Matching::Standard, cells).unwrap();
        // Remove (0,0) and (0,2), both '1', in the same column.
        board.remove_pair(Point::new(0, 0), Point::new(0, 2), true);
        assert_eq!(board.to_string(), "..\n.3\n23\n2.\n");
        assert_eq!(board.tiles_left(), 4);
        assert_eq!(board.row_bits(0) & 0b1111, 0);
        assert_eq!(board.col_bits(0) & 0b11_1111, 0b11000);
    }
}
