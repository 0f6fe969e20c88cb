//! A validated arrangement of tiles on a board.

use crate::{Direction, Moves, Size};
use std::fmt;

/// Label of the blank.
pub const BLANK: u32 = 0;

/// Tiles on a board: every cell holds a distinct label, `0` is the blank.
///
/// Labels run from 1 to n (n = cells) with exactly one missing: normally
/// `n` itself (tiles 1..n−1, the classic), but any one may be missing, which
/// is how "missing number" goals are written. Two positions can be compared
/// (solved, solvable) only when they hold the same labels.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    size: Size,
    tiles: Vec<u32>,
    blank: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
/// Why tiles do not make a position.
pub enum PositionError {
    #[error("{size} needs {expected} cells, found {found}")]
    /// Not as many tiles as the size has cells.
    WrongCount {
        /// The size.
        size: Size,
        /// Cells of that size.
        expected: usize,
        /// Tiles given.
        found: usize,
    },
    #[error("tile {tile} appears twice: at row {}, column {} and at row {}, column {}", .first.1 + 1, .first.0 + 1, .second.1 + 1, .second.0 + 1)]
    /// A tile given twice.
    Duplicate {
        /// The tile.
        tile: u32,
        /// Its first cell (column, row).
        first: (usize, usize),
        /// Its second cell (column, row).
        second: (usize, usize),
    },
    #[error("tile {tile} at row {}, column {} is too large: a {size} board has labels up to {max}", .at.1 + 1, .at.0 + 1)]
    /// A tile above the largest a board of this size holds.
    TooLarge {
        /// The tile.
        tile: u32,
        /// Its cell (column, row).
        at: (usize, usize),
        /// The board's size.
        size: Size,
        /// The largest tile the size holds.
        max: u32,
    },
    #[error("no blank (0) on the board")]
    /// No blank (`0`).
    NoBlank,
}

/// A move that cannot be made: no tile on that side of the blank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {direction} is illegal: no tile can slide {}", direction_word(*.direction))]
pub struct IllegalMove {
    /// The direction that could not be played.
    pub direction: Direction,
}

/// The first move of a sequence that cannot be made, and where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {} ({}) is illegal: no tile can slide {}", .index + 1, .direction, direction_word(*.direction))]
pub struct ReplayError {
    /// 0-based index of the offending move in the sequence.
    pub index: usize,
    /// The direction that could not be played.
    pub direction: Direction,
}

fn direction_word(direction: Direction) -> &'static str {
    match direction {
        Direction::Up => "up",
        Direction::Down => "down",
        Direction::Left => "left",
        Direction::Right => "right",
    }
}

impl Position {
    /// Validates `tiles` (row-major) for a board of `size`.
    pub fn new(size: Size, tiles: Vec<u32>) -> Result<Position, PositionError> {
        let n = size.cells();
        if tiles.len() != n {
            return Err(PositionError::WrongCount {
                size,
                expected: n,
                found: tiles.len(),
            });
        }
        // first cell each label was seen in; u32::MAX = not yet
        let mut seen = vec![u32::MAX; n + 1];
        for (cell, &tile) in tiles.iter().enumerate() {
            let slot = seen.get_mut(tile as usize).ok_or(PositionError::TooLarge {
                tile,
                at: size.coords(cell),
                size,
                max: n as u32,
            })?;
            if *slot != u32::MAX {
                let first = size.coords(*slot as usize);
                return Err(PositionError::Duplicate {
                    tile,
                    first,
                    second: size.coords(cell),
                });
            }
            *slot = cell as u32;
        }
        match seen[BLANK as usize] {
            u32::MAX => Err(PositionError::NoBlank),
            blank => Ok(Position {
                size,
                tiles,
                blank: blank as usize,
            }),
        }
    }

    /// For engine code that builds tiles known to be valid (a permutation of
    /// a valid position's labels).
    pub(crate) fn from_valid(size: Size, tiles: Vec<u32>) -> Position {
        debug_assert!(Position::new(size, tiles.clone()).is_ok());
        let blank = tiles.iter().position(|&t| t == BLANK).expect("a blank");
        Position { size, tiles, blank }
    }

    /// The board's size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// Labels in row-major order.
    pub fn tiles(&self) -> &[u32] {
        &self.tiles
    }

    /// Cell index of the blank.
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// The tile at column `x`, row `y` (0 is the blank).
    pub fn tile_at(&self, x: usize, y: usize) -> u32 {
        self.tiles[self.size.cell(x, y)]
    }

    /// The label absent from 1..=n (n when the tiles are the classic 1..n−1).
    pub fn missing_label(&self) -> u32 {
        let n = self.tiles.len() as u64;
        let total: u64 = self.tiles.iter().map(|&t| t as u64).sum();
        (n * (n + 1) / 2 - total) as u32
    }

    /// The cell of the tile that would move in `direction`, if any.
    pub fn source(&self, direction: Direction) -> Option<usize> {
        let (x, y) = self.size.coords(self.blank);
        let (dx, dy) = direction.blank_step();
        let nx = x.checked_add_signed(dx)?;
        let ny = y.checked_add_signed(dy)?;
        (nx < self.size.width() && ny < self.size.height()).then(|| self.size.cell(nx, ny))
    }

    /// Whether a tile can move in `direction` (one lies on that side of the blank).
    pub fn can_move(&self, direction: Direction) -> bool {
        self.source(direction).is_some()
    }

    /// The legal moves from here, in `U D L R` order.
    pub fn legal_moves(&self) -> impl Iterator<Item = Direction> + '_ {
        Direction::ALL.into_iter().filter(|&d| self.can_move(d))
    }

    /// Slides one tile `direction` into the blank.
    pub fn apply(&mut self, direction: Direction) -> Result<(), IllegalMove> {
        let from = self.source(direction).ok_or(IllegalMove { direction })?;
        self.tiles.swap(from, self.blank);
        self.blank = from;
        Ok(())
    }

    /// Takes back a move made in `direction`.
    pub fn undo(&mut self, direction: Direction) -> Result<(), IllegalMove> {
        self.apply(direction.inverse())
    }

    /// Replays a whole sequence; on the first illegal move the position is
    /// left as it was before that move and the error names it.
    pub fn apply_all(&mut self, moves: &Moves) -> Result<(), ReplayError> {
        for (index, direction) in moves.iter().enumerate() {
            self.apply(direction)
                .map_err(|_| ReplayError { index, direction })?;
        }
        Ok(())
    }

    /// Moves the blank to `cell` by sliding every tile in between (the
    /// blank and `cell` must share a row or column): the moves made, or
    /// `None` if `cell` is not in line with the blank.
    pub fn slide_to(&mut self, cell: usize) -> Option<Moves> {
        let (bx, by) = self.size.coords(self.blank);
        let (cx, cy) = self.size.coords(cell);
        let (direction, count) = if bx == cx && cy > by {
            (Direction::Up, cy - by)
        } else if bx == cx && cy < by {
            (Direction::Down, by - cy)
        } else if by == cy && cx > bx {
            (Direction::Left, cx - bx)
        } else if by == cy && cx < bx {
            (Direction::Right, bx - cx)
        } else {
            return None;
        };
        let moves = Moves(vec![direction; count]);
        self.apply_all(&moves)
            .expect("in-line slides stay on the board");
        Some(moves)
    }

    /// The position turned on its side: row r, column c becomes row c,
    /// column r. Moves map by [`Direction::transposed`].
    pub fn transposed(&self) -> Position {
        let size = self.size.transposed();
        let mut tiles = vec![0; self.tiles.len()];
        for (cell, &tile) in self.tiles.iter().enumerate() {
            let (x, y) = self.size.coords(cell);
            tiles[size.cell(y, x)] = tile;
        }
        Position::from_valid(size, tiles)
    }
}

impl fmt::Display for Position {
    /// Rows split by `/`, cells by spaces: `1 2 3/4 5 6/7 8 0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = String::with_capacity(self.tiles.len() * 4);
        for (i, row) in self.tiles.chunks(self.size.width()).enumerate() {
            if i > 0 {
                line.push('/');
            }
            for (j, tile) in row.iter().enumerate() {
                if j > 0 {
                    line.push(' ');
                }
                line.push_str(itoa(*tile, &mut [0u8; 10]));
            }
        }
        f.write_str(&line)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

/// Decimal digits of `value` without a heap allocation per tile: printing
/// a 1000 × 1000 position formats a million numbers.
fn itoa(mut value: u32, buffer: &mut [u8; 10]) -> &str {
    let mut at = buffer.len();
    loop {
        at -= 1;
        buffer[at] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    std::str::from_utf8(&buffer[at..]).expect("ascii digits")
}
