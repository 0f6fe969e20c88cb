//! The displays that hide most tiles and show a few by their number.

use super::{Board, Display};

/// Whether `cell` is seen under the minimal displays: the top-left cell,
/// the top row, or the top row and left column.
pub(super) fn corner_seen(display: Display, board: &Board, cell: usize) -> bool {
    let (x, y) = board.coords(cell);
    match display {
        Display::Minimal => x == 0 && y == 0,
        Display::RowMinimal => y == 0,
        _ => x == 0 || y == 0,
    }
}

/// The smallest (or, with `largest`, the largest) tile not in its goal
/// cell; `None` when every tile is home.
pub(super) fn extreme_unsolved(board: &Board, largest: bool) -> Option<u32> {
    let unsolved = board
        .labels()
        .filter(|&t| t != slide::BLANK && board.cell_of(t) != board.home(t));
    if largest {
        unsolved.max()
    } else {
        unsolved.min()
    }
}
