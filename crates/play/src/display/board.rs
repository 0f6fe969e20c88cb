//! A position seen against its goal: where each tile is and belongs.

use slide::Position;

/// A position and its goal, with each label's cell in both.
pub(super) struct Board<'a> {
    tiles: &'a [u32],
    goal: &'a [u32],
    width: usize,
    height: usize,
    /// The goal cell of each label (by label).
    home: Vec<usize>,
    /// The current cell of each label (by label).
    at: Vec<usize>,
}

impl<'a> Board<'a> {
    pub(super) fn new(position: &'a Position, goal: &'a Position) -> Board<'a> {
        let (tiles, goal_tiles) = (position.tiles(), goal.tiles());
        let labels = tiles.len() + 1;
        let (mut home, mut at) = (vec![0; labels], vec![0; labels]);
        for (cell, &label) in goal_tiles.iter().enumerate() {
            home[label as usize] = cell;
        }
        for (cell, &label) in tiles.iter().enumerate() {
            at[label as usize] = cell;
        }
        Board {
            tiles,
            goal: goal_tiles,
            width: position.size().width(),
            height: position.size().height(),
            home,
            at,
        }
    }

    pub(super) fn cells(&self) -> usize {
        self.tiles.len()
    }

    pub(super) fn width(&self) -> usize {
        self.width
    }

    pub(super) fn height(&self) -> usize {
        self.height
    }

    /// The tile in `cell` (0 for the blank).
    pub(super) fn tile(&self, cell: usize) -> u32 {
        self.tiles[cell]
    }

    /// The tile the goal puts in `cell`.
    pub(super) fn goal_tile(&self, cell: usize) -> u32 {
        self.goal[cell]
    }

    /// Every label on the board, the blank included.
    pub(super) fn labels(&self) -> impl Iterator<Item = u32> + '_ {
        self.tiles.iter().copied()
    }

    /// The goal cell of `tile`.
    pub(super) fn home(&self, tile: u32) -> usize {
        self.home[tile as usize]
    }

    /// The cell `tile` is in now.
    pub(super) fn cell_of(&self, tile: u32) -> usize {
        self.at[tile as usize]
    }

    pub(super) fn coords(&self, cell: usize) -> (i64, i64) {
        ((cell % self.width) as i64, (cell / self.width) as i64)
    }

    /// The step from `from` to `to`, in cells (y down).
    pub(super) fn offset(&self, from: usize, to: usize) -> (i64, i64) {
        let ((fx, fy), (tx, ty)) = (self.coords(from), self.coords(to));
        (tx - fx, ty - fy)
    }

    /// How many single moves `tile`, in `cell`, is from its goal cell.
    pub(super) fn distance(&self, cell: usize, tile: u32) -> u64 {
        let (dx, dy) = self.offset(cell, self.home(tile));
        dx.unsigned_abs() + dy.unsigned_abs()
    }

    /// Whether a (non-blank) tile is in `cell` and that is its goal cell.
    pub(super) fn is_home(&self, cell: usize) -> bool {
        let tile = self.tiles[cell];
        tile != slide::BLANK && self.home(tile) == cell
    }

    /// The cells beside `cell` (up, down, left, right; 2 to 4 of them).
    pub(super) fn beside(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        let (x, y) = self.coords(cell);
        [(0, -1), (0, 1), (-1, 0), (1, 0)]
            .into_iter()
            .map(move |(dx, dy)| (x + dx, y + dy))
            .filter(|&(x, y)| x >= 0 && y >= 0 && x < self.width as i64 && y < self.height as i64)
            .map(|(x, y)| y as usize * self.width + x as usize)
    }

    /// Whether `cell` is beside the blank.
    pub(super) fn beside_blank(&self, cell: usize) -> bool {
        self.beside(cell).any(|c| self.tiles[c] == slide::BLANK)
    }
}
