//! The board: a grid of cells, each empty or holding a tile, with occupancy
//! bitboards per row and per column so that path queries are word
//! operations.

use std::fmt;

use crate::kind::Kind;
use crate::line::Line;
use crate::point::Point;
use crate::rules::Matching;
use crate::size::{Size, MAX_WIDTH};

/// A Shisen-Sho board. Every matching class holds an even number of tiles.
/// Boards are equal when their size, matching rule and cells are.
#[derive(Clone, Debug)]
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
    /// The matching classes met so far, by id (first seen first).
    classes: Vec<Kind>,
    /// Per cell, row-major: the id of its tile's class, or [`NO_CLASS`].
    ids: Vec<u16>,
    /// Per class id, the number of its tiles on the board.
    counts: Vec<u32>,
    /// The cells (`y << 16 | x`) of each class in reading order: class `c` owns
    /// `members[starts[c]..starts[c + 1]]`, of which the first `counts[c]`
    /// entries are in use. Move scans walk these instead of the grid.
    members: Vec<u32>,
    starts: Vec<u32>,
}

/// Classes a new board makes room for up front (the 42 faces; more grow).
const CLASS_ROOM: usize = 42;

/// The id of `class` in `classes`, appending it (with a count of zero) if
/// it is new.
fn class_id(classes: &mut Vec<Kind>, counts: &mut Vec<u32>, class: Kind) -> u16 {
    match classes.iter().position(|&c| c == class) {
        Some(id) => id as u16,
        None => new_class(classes, counts, class),
    }
}

/// Appends `class`, not in `classes` yet, with a count of zero; its id.
fn new_class(classes: &mut Vec<Kind>, counts: &mut Vec<u32>, class: Kind) -> u16 {
    counts.push(0);
    classes.push(class);
    (classes.len() - 1) as u16
}

/// A kind standing in for an empty cell where a kind must be computed and
/// is then discarded.
const ANY_KIND: Kind = Kind::PLACEHOLDER;

/// A slot of the class table of `number_classes` whose class has not been
/// met yet.
const UNSEEN: u16 = NO_CLASS - 1;

/// The class id of an empty cell.
pub(crate) const NO_CLASS: u16 = u16::MAX;

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        (self.size, self.matching, &self.cells) == (other.size, other.matching, &other.cells)
    }
}

impl Eq for Board {}

impl std::hash::Hash for Board {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.size, self.matching, &self.cells).hash(state);
    }
}

/// Why cells do not make a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[allow(missing_docs)] // each variant's message names its fields
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
        Board::from_cells(size, matching, &cells)
    }

    /// [`Board::new`] from borrowed cells.
    pub(crate) fn from_cells(
        size: Size,
        matching: Matching,
        cells: &[Option<Kind>],
    ) -> Result<Board, BoardError> {
        let mut board = Board {
            size,
            matching,
            tiles: 0,
            // Room for a standard set's classes: no regrowth while reading.
            classes: Vec::with_capacity(CLASS_ROOM),
            counts: Vec::with_capacity(CLASS_ROOM),
            ids: Vec::new(),
            members: Vec::new(),
            starts: Vec::new(),
            cells: Vec::new(),
            rows: Vec::new(),
            cols: Vec::new(),
        };
        board.rebuild(size, matching, cells)?;
        Ok(board)
    }

    /// Makes this board the one [`Board::new`] would make of `cells`,
    /// reusing its storage: a stream of boards read into one allocates
    /// nothing once the storage has grown. On an error the board is left
    /// in an unspecified (but memory-safe) state and must be rebuilt
    /// before use.
    pub(crate) fn rebuild(
        &mut self,
        size: Size,
        matching: Matching,
        cells: &[Option<Kind>],
    ) -> Result<(), BoardError> {
        if cells.len() != size.cells() {
            return Err(BoardError::CellCount {
                size,
                cells: cells.len(),
            });
        }
        (self.size, self.matching) = (size, matching);
        self.cells.clear();
        self.cells.extend_from_slice(cells);
        self.mark_lines();
        self.number_classes();
        let odd = (self.classes.iter().zip(&self.counts))
            .filter(|&(_, &n)| n % 2 == 1)
            .map(|(&kind, &n)| (kind, n as usize))
            .min();
        if let Some((kind, count)) = odd {
            return Err(BoardError::OddKind { kind, count });
        }
        self.reserve_empty();
        self.place_all();
        Ok(())
    }

    /// Sets the row and column occupancy of the cells, one pass without a
    /// branch on emptiness: in a played board empty and full cells are
    /// mixed at random, and such a branch would be mispredicted half the
    /// time. Later passes visit only the tiles, through these bits.
    fn mark_lines(&mut self) {
        if self.is_narrow() {
            self.mark_lines_in::<u64>();
        } else {
            self.mark_lines_in::<u128>();
        }
    }

    /// [`Board::mark_lines`] in words of `L`: a `u64` shift is one
    /// instruction, a `u128` one several.
    fn mark_lines_in<L: Line>(&mut self) {
        let (width, height) = (self.width(), self.height());
        let Board {
            cells, rows, cols, ..
        } = self;
        let mut down = [L::ZERO; MAX_WIDTH];
        rows.clear();
        for (y, row) in cells.chunks_exact(width).enumerate() {
            let mut bits = L::ZERO;
            for ((x, cell), col) in row.iter().enumerate().zip(&mut down) {
                let full = L::from(cell.is_some());
                bits = bits | full << (x as u32 + 1);
                *col = *col | full << (y as u32 + 1);
            }
            rows.push(wall(width) | bits.widen());
        }
        cols.clear();
        cols.extend(down[..width].iter().map(|&c| wall(height) | c.widen()));
    }

    /// Calls `visit(y, x)` for every tile, in reading order, walking the
    /// set bits of the rows (no test of empty cells).
    #[inline]
    fn each_tile(rows: &[u128], width: usize, mut visit: impl FnMut(usize, usize)) {
        let interior = !wall(width) & !1;
        for (y, &row) in rows.iter().enumerate() {
            let mut bits = row & interior;
            while bits != 0 {
                visit(y, bits.trailing_zeros() as usize - 1);
                bits &= bits - 1;
            }
        }
    }

    /// Numbers the classes of the tiles (first seen first), sets every
    /// cell's class id and counts each class's tiles: the odd check then
    /// reads the counts, no map of kinds.
    fn number_classes(&mut self) {
        let width = self.width();
        let Board {
            classes,
            counts,
            ids,
            matching,
            cells,
            rows,
            ..
        } = self;
        let tiles = rows
            .iter()
            .map(|&r| (r & !wall(width)).count_ones() as usize)
            .sum::<usize>();
        ids.clear();
        ids.resize(cells.len(), NO_CLASS);
        // Room for every class the tiles could make, so a new class is a
        // write and a step of `next`, not a branch: the first tile of a
        // class comes at random among the others.
        classes.clear();
        classes.resize(tiles, ANY_KIND);
        counts.clear();
        counts.resize(tiles, 0);
        // Ids of ASCII classes (every standard face) by byte; others are
        // looked up in the list of classes.
        let mut ascii = [UNSEEN; 128];
        let mut next = 0u16;
        Board::each_tile(rows, width, |y, x| {
            let i = y * width + x;
            let class = matching.class(cells[i].unwrap_or(ANY_KIND));
            let id = match ascii.get_mut(class.symbol() as usize) {
                Some(seen) => {
                    let fresh = *seen == UNSEEN;
                    let id = std::hint::select_unpredictable(fresh, next, *seen);
                    *seen = id;
                    next += u16::from(fresh);
                    id
                }
                None => match classes[..usize::from(next)]
                    .iter()
                    .position(|&c| c == class)
                {
                    Some(id) => id as u16,
                    None => {
                        next += 1;
                        next - 1
                    }
                },
            };
            classes[usize::from(id)] = class;
            ids[i] = id;
            counts[usize::from(id)] += 1;
        });
        classes.truncate(usize::from(next));
        counts.truncate(usize::from(next));
    }

    /// Lays out the tiles of a new board (cells, lines, class ids and room
    /// set, counts zero) in reading order, so each class's members are
    /// appended already sorted.
    fn place_all(&mut self) {
        let width = self.width();
        let Board {
            ids,
            counts,
            starts,
            members,
            rows,
            ..
        } = self;
        Board::each_tile(rows, width, |y, x| {
            let class = usize::from(ids[y * width + x]);
            members[(starts[class] + counts[class]) as usize] = ((y << 16) | x) as u32;
            counts[class] += 1;
        });
        self.tiles = self.counts.iter().map(|&n| n as usize).sum();
    }

    #[inline]
    /// The board's interior size (the ring around it excluded).
    pub fn size(&self) -> Size {
        self.size
    }

    #[inline]
    /// Columns of the interior.
    pub fn width(&self) -> usize {
        self.size.width()
    }

    #[inline]
    /// Rows of the interior.
    pub fn height(&self) -> usize {
        self.size.height()
    }

    #[inline]
    /// Which kinds match each other (standard or chinese).
    pub fn matching(&self) -> Matching {
        self.matching
    }

    /// The same tiles played under another matching rule, if every class
    /// stays even under it.
    pub fn with_matching(&self, matching: Matching) -> Result<Board, BoardError> {
        Board::new(self.size, matching, self.cells.clone())
    }

    /// Whether `p` lies in the interior.
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        (0..self.width() as i32).contains(&p.x) && (0..self.height() as i32).contains(&p.y)
    }

    #[inline]
    fn index(&self, p: Point) -> Option<usize> {
        self.contains(p)
            .then(|| p.y as usize * self.width() + p.x as usize)
    }

    /// The tile at `p`; `None` for an empty cell or a point off the interior.
    #[inline]
    pub fn get(&self, p: Point) -> Option<Kind> {
        self.index(p).and_then(|i| self.cells[i])
    }

    /// The number of tiles left.
    #[inline]
    pub fn tiles_left(&self) -> usize {
        self.tiles
    }

    #[inline]
    /// Whether every tile has been removed.
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

    /// The occupancy lines of the rows and of the columns (see
    /// [`Board::row_bits`]), for the connection tests.
    #[inline]
    pub(crate) fn lines(&self) -> (&[u128], &[u128]) {
        (&self.rows, &self.cols)
    }

    /// Row `y`'s occupancy (bit `x + 1`), walls above the ring.
    #[inline]
    pub(crate) fn row_bits(&self, y: usize) -> u128 {
        self.rows[y]
    }

    /// Column `x`'s occupancy (bit `y + 1`), walls above the ring.
    #[inline]
    pub(crate) fn col_bits(&self, x: usize) -> u128 {
        self.cols[x]
    }

    /// The cells of each class, in reading order, one slice per class id
    /// (empty for classes no longer on the board), each cell as
    /// `y << 16 | x`.
    pub(crate) fn groups(&self) -> impl Iterator<Item = &[u32]> + '_ {
        self.starts
            .windows(2)
            .zip(&self.counts)
            .map(|(s, &n)| &self.members[s[0] as usize..(s[0] + n) as usize])
    }

    /// The cells of the class of the tile at `p` (as in [`Board::groups`]),
    /// `p` included.
    pub(crate) fn class_of(&self, p: Point) -> &[u32] {
        let id = usize::from(self.ids[self.cell(p)]);
        let start = self.starts[id] as usize;
        &self.members[start..start + self.counts[id] as usize]
    }

    /// The id of `kind`'s class, allocating one for a new class.
    fn class_id(&mut self, kind: Kind) -> u16 {
        class_id(
            &mut self.classes,
            &mut self.counts,
            self.matching.class(kind),
        )
    }

    /// Lays out `members` with room for the current count of every class
    /// (or its current room, if larger), refilling it from the cells.
    fn reserve(&mut self) {
        let mut starts = vec![0u32];
        for (id, &n) in self.counts.iter().enumerate() {
            let room = self.starts.windows(2).nth(id).map_or(0, |s| s[1] - s[0]);
            starts.push(starts[id] + n.max(room));
        }
        self.members = vec![0; *starts.last().unwrap_or(&0) as usize];
        self.starts = starts;
        let mut used = vec![0u32; self.counts.len()];
        for (i, &id) in self
            .ids
            .iter()
            .enumerate()
            .filter(|&(_, &id)| id != NO_CLASS)
        {
            let id = usize::from(id);
            self.members[(self.starts[id] + used[id]) as usize] = self.member_key(i);
            used[id] += 1;
        }
    }

    /// How `members` names cell `i`: `y << 16 | x`, which sorts in reading
    /// order and unpacks without a division.
    fn member_key(&self, i: usize) -> u32 {
        (((i / self.width()) << 16) | (i % self.width())) as u32
    }

    /// Empties cell `i`, which holds a tile.
    fn clear(&mut self, i: usize) {
        let id = usize::from(self.ids[i]);
        let start = self.starts[id] as usize;
        let key = self.member_key(i);
        let group = &mut self.members[start..start + self.counts[id] as usize];
        if let Some(at) = group.iter().position(|&m| m == key) {
            group.copy_within(at + 1.., at);
        }
        self.counts[id] -= 1;
        self.ids[i] = NO_CLASS;
        self.cells[i] = None;
        self.tiles -= 1;
        let (x, y) = (i % self.width(), i / self.width());
        self.rows[y] &= !(1u128 << (x + 1));
        self.cols[x] &= !(1u128 << (y + 1));
    }

    /// Lays out `members` with exactly the room the counts need, all empty
    /// (counts reset to zero): for a new board, filled by [`Board::place_all`].
    fn reserve_empty(&mut self) {
        self.starts.clear();
        let mut total = 0u32;
        self.starts.push(total);
        for n in &mut self.counts {
            total += std::mem::take(n);
            self.starts.push(total);
        }
        self.members.clear();
        self.members.resize(total as usize, 0);
    }

    fn fill(&mut self, i: usize, kind: Kind) {
        let id = self.class_id(kind);
        let class = usize::from(id);
        if self.starts.len() <= class + 1
            || self.counts[class] == self.starts[class + 1] - self.starts[class]
        {
            // A class without room: only reachable through refills with
            // kinds new to the board. Make room (counts as they will be).
            self.counts[class] += 1;
            self.reserve();
            self.counts[class] -= 1;
        }
        let start = self.starts[class] as usize;
        let n = self.counts[class] as usize;
        let key = self.member_key(i);
        let group = &mut self.members[start..=start + n];
        let at = group[..n].iter().position(|&m| m > key).unwrap_or(n);
        group.copy_within(at..n, at + 1);
        group[at] = key;
        self.counts[class] += 1;
        self.ids[i] = id;
        self.cells[i] = Some(kind);
        self.tiles += 1;
        let (x, y) = (i % self.width(), i / self.width());
        self.rows[y] |= 1u128 << (x + 1);
        self.cols[x] |= 1u128 << (y + 1);
    }

    fn cell(&self, p: Point) -> usize {
        p.y as usize * self.width() + p.x as usize
    }

    /// Puts a tile of `kind` back on the empty interior cell `p` (undoing a
    /// removal without gravity).
    pub(crate) fn put_back(&mut self, p: Point, kind: Kind) {
        self.fill(self.cell(p), kind);
    }

    /// Empties the cell `p` (a relaxation step of the solver: its class's
    /// count goes odd, which only the solver's scratch boards allow).
    pub(crate) fn vacate(&mut self, p: Point) {
        self.clear(self.cell(p));
    }

    /// A 64-bit key of the position for the solver's tables: the class of
    /// every cell (tiles of one class are interchangeable), mixed word by
    /// word and finished with splitmix64's avalanche.
    pub(crate) fn position_key(&self) -> u64 {
        let mut h = 0u64;
        for chunk in self.ids.chunks(4) {
            let word = chunk.iter().fold(0u64, |w, &id| (w << 16) | u64::from(id));
            h = (h.rotate_left(23) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        h ^= h >> 31;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^ (h >> 29)
    }

    /// Whether no tile lies above the interior cell `p` in its column.
    pub(crate) fn is_top(&self, p: Point) -> bool {
        let above = ((1u128 << (p.y + 1)) - 1) & !1; // rows 0..p.y
        self.cols[p.x as usize] & above == 0
    }

    /// Removes the tiles at `a` and `b` (interior points, checked by the
    /// caller). With gravity the tiles above each removed one fall a cell.
    pub(crate) fn remove_pair(&mut self, a: Point, b: Point, gravity: bool) {
        if !gravity {
            self.clear(self.cell(a));
            self.clear(self.cell(b));
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
        self.clear(self.cell(p));
        for y in (1..=p.y).rev() {
            let (from, to) = (
                self.cell(Point::new(p.x, y - 1)),
                self.cell(Point::new(p.x, y)),
            );
            if let Some(kind) = self.cells[from] {
                self.clear(from);
                self.fill(to, kind);
            }
        }
    }

    /// Replaces the tiles, in reading order, by `kinds` (the same count):
    /// used to shuffle the remaining tiles in place.
    pub(crate) fn refill(&mut self, kinds: &[Kind]) {
        let spots: Vec<usize> = (0..self.cells.len())
            .filter(|&i| self.cells[i].is_some())
            .collect();
        for &i in &spots {
            self.clear(i);
        }
        for (i, k) in spots.into_iter().zip(kinds) {
            self.fill(i, *k);
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
