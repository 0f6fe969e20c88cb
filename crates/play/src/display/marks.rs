//! The displays that mark how a tile stands to its goal cell.

use super::{Board, Shown, Tint};

/// RGB: green home, red in its goal row, blue in its goal column.
pub(super) fn rgb(board: &Board, cell: usize, tile: u32) -> Shown {
    let (dx, dy) = board.offset(cell, board.home(tile));
    let tint = match (dx == 0, dy == 0) {
        (true, true) => Some(Tint::Green),
        (false, true) => Some(Tint::Red),
        (true, false) => Some(Tint::Blue),
        (false, false) => None,
    };
    Shown {
        tint,
        ..Shown::text("")
    }
}

/// The chess pieces: a king home, a rook in its goal row or column, a
/// bishop on a diagonal through it, a knight a knight's move from it.
pub const KING: &str = "♚";
/// See [`KING`].
pub const ROOK: &str = "♜";
/// See [`KING`].
pub const BISHOP: &str = "♝";
/// See [`KING`].
pub const KNIGHT: &str = "♞";

/// Chess: the piece whose one move takes the tile home, if any.
pub(super) fn chess(board: &Board, cell: usize, tile: u32) -> Shown {
    let (dx, dy) = board.offset(cell, board.home(tile));
    let (dx, dy) = (dx.unsigned_abs(), dy.unsigned_abs());
    let piece = match (dx, dy) {
        (0, 0) => KING,
        (0, _) | (_, 0) => ROOK,
        _ if dx == dy => BISHOP,
        (1, 2) | (2, 1) => KNIGHT,
        _ => "",
    };
    Shown::text(piece)
}
