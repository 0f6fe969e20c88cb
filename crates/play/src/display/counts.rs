//! The displays where a tile shows a count of its neighbourhood.

use super::Board;

/// The sum of the tiles beside `cell` (the blank counts 0).
pub(super) fn adjacent_sum(board: &Board, cell: usize) -> u64 {
    board.beside(cell).map(|c| board.tile(c) as u64).sum()
}

/// How many tiles beside `cell` are home.
pub(super) fn home_beside(board: &Board, cell: usize) -> usize {
    board.beside(cell).filter(|&c| board.is_home(c)).count()
}

/// How many other tiles in `cell`'s row and column are home.
pub(super) fn home_in_lines(board: &Board, cell: usize) -> usize {
    let (x, y) = board.coords(cell);
    (0..board.cells())
        .filter(|&c| c != cell && board.is_home(c))
        .filter(|&c| {
            let (cx, cy) = board.coords(c);
            cx == x || cy == y
        })
        .count()
}
