//! The displays of arrows and of the inverse permutation.

use super::{Board, Shown};

/// A tile that shows an arrow and no text.
pub(super) fn arrow(step: (i64, i64)) -> Shown {
    Shown {
        arrow: Some(step),
        ..Shown::text("")
    }
}

/// The inverse position, cell by cell. Read the position as the
/// permutation taking each cell to the goal cell of the tile in it; its
/// inverse puts, in the goal cell of the tile now in `c`, the goal's tile
/// of `c`. A solved board is its own inverse. The inverse's blank need not
/// fall on the real blank: the tile there shows nothing.
pub(super) fn inverse(board: &Board) -> Vec<u32> {
    let mut inverse = vec![slide::BLANK; board.cells()];
    for cell in 0..board.cells() {
        inverse[board.home(board.tile(cell))] = board.goal_tile(cell);
    }
    inverse
}

/// The tile after each tile by number (`None` for the largest): tiles
/// need not be consecutive, a missing-number goal leaves one out.
pub(super) fn next_tiles(board: &Board) -> impl Fn(u32) -> Option<u32> {
    let mut labels: Vec<u32> = board.labels().filter(|&t| t != slide::BLANK).collect();
    labels.sort_unstable();
    move |tile| {
        let i = labels.binary_search(&tile).ok()?;
        labels.get(i + 1).copied()
    }
}
