//! Display types: what each tile of a sliding puzzle shows, as a rule of
//! the position (and, for a few, of the moves that led to it). Speedsolvers
//! know them from slidysim; the page draws them and records a result under
//! its display, so the rules live here once and the page's copy
//! (`static/display.js`) is checked against them.
//!
//! Display types are not offered with the blindfold format (`bld`): a
//! blindfold solve hides every number already, and mixing the two would
//! make neither category mean anything. [`Display::allowed_with`] holds
//! that rule.

mod arrows;
mod board;
mod counts;
mod hiding;
mod marks;
mod recent;

use std::fmt;
use std::str::FromStr;

use slide::Position;

pub use recent::Recent;

use board::Board;

/// What the tiles show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Display {
    /// Every tile shows its number.
    #[default]
    Standard,
    /// Only the tile in the top-left cell shows its number.
    Minimal,
    /// Only the tiles in the top row.
    RowMinimal,
    /// Only the tiles in the top row and the left column.
    FringeMinimal,
    /// The inverse of the scramble's permutation instead of the scramble.
    InversePermutation,
    /// Each tile shows how far it is from its goal cell, in moves.
    Manhattan,
    /// Each tile shows an arrow to its goal cell.
    Vectors,
    /// Each tile shows an arrow to the next tile by number; the last is hidden.
    IncrementalVectors,
    /// The inverse permutation's arrows.
    InverseVectors,
    /// Colours: red in its goal row, blue in its goal column, green home.
    Rgb,
    /// Chess pieces: a rook's, bishop's or knight's move from home, a king home.
    Chess,
    /// Only the tiles beside the blank.
    AdjacentTiles,
    /// Each tile shows the sum of the tiles beside it.
    AdjacentSum,
    /// Only the tile that moved last.
    LastMove,
    /// Each move fades the tile that made it, until it is gone.
    FadingTiles,
    /// A tile moved into its goal cell is hidden from then on.
    VanishOnSolved,
    /// Each tile shows how many tiles beside it are home.
    Minesweeper,
    /// Only the smallest tile not home.
    MinimalUnsolved,
    /// Only the largest tile not home.
    MaximalUnsolved,
    /// Each tile shows how many other tiles in its row and column are home.
    RowsAndColumns,
}

impl Display {
    /// Every display type, in the order the page offers them.
    pub const ALL: [Display; 20] = [
        Display::Standard,
        Display::Minimal,
        Display::RowMinimal,
        Display::FringeMinimal,
        Display::InversePermutation,
        Display::Manhattan,
        Display::Vectors,
        Display::IncrementalVectors,
        Display::InverseVectors,
        Display::Rgb,
        Display::Chess,
        Display::AdjacentTiles,
        Display::AdjacentSum,
        Display::LastMove,
        Display::FadingTiles,
        Display::VanishOnSolved,
        Display::Minesweeper,
        Display::MinimalUnsolved,
        Display::MaximalUnsolved,
        Display::RowsAndColumns,
    ];

    /// The display's name, as submissions, links and records spell it.
    pub fn name(self) -> &'static str {
        match self {
            Display::Standard => "standard",
            Display::Minimal => "minimal",
            Display::RowMinimal => "row-minimal",
            Display::FringeMinimal => "fringe-minimal",
            Display::InversePermutation => "inverse-permutation",
            Display::Manhattan => "manhattan",
            Display::Vectors => "vectors",
            Display::IncrementalVectors => "incremental-vectors",
            Display::InverseVectors => "inverse-vectors",
            Display::Rgb => "rgb",
            Display::Chess => "chess",
            Display::AdjacentTiles => "adjacent-tiles",
            Display::AdjacentSum => "adjacent-sum",
            Display::LastMove => "last-move",
            Display::FadingTiles => "fading-tiles",
            Display::VanishOnSolved => "vanish-on-solved",
            Display::Minesweeper => "minesweeper",
            Display::MinimalUnsolved => "minimal-unsolved",
            Display::MaximalUnsolved => "maximal-unsolved",
            Display::RowsAndColumns => "rows-and-columns",
        }
    }

    /// Whether a format can be played with this display: anything but the
    /// standard display is refused for a blindfold solve.
    pub fn allowed_with(self, format: &crate::format::Format) -> bool {
        self == Display::Standard || !matches!(format, crate::format::Format::Blindfold)
    }
}

impl fmt::Display for Display {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Text that names no display type.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a display: expected one of {names}", names = names())]
pub struct DisplayError(pub String);

/// The names of every display, comma-separated.
pub fn names() -> String {
    Display::ALL.map(Display::name).join(", ")
}

impl FromStr for Display {
    type Err = DisplayError;

    fn from_str(text: &str) -> Result<Display, DisplayError> {
        Display::ALL
            .into_iter()
            .find(|d| d.name() == text)
            .ok_or_else(|| DisplayError(text.to_string()))
    }
}

/// A colour a tile is painted under the RGB display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tint {
    /// In its goal row, not its goal column.
    Red,
    /// In its goal column, not its goal row.
    Blue,
    /// Home.
    Green,
}

impl Tint {
    /// The tint's name, as the page's classes spell it.
    pub fn name(self) -> &'static str {
        match self {
            Tint::Red => "red",
            Tint::Blue => "blue",
            Tint::Green => "green",
        }
    }
}

/// What one tile shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    /// The text on the tile ("" for none).
    pub text: String,
    /// The tile is not drawn at all: it looks like the blank.
    pub hidden: bool,
    /// A colour, under the RGB display.
    pub tint: Option<Tint>,
    /// An arrow `(dx, dy)` in cells (y down), under the vector displays.
    pub arrow: Option<(i64, i64)>,
    /// How much of the tile is still seen, `(left, of)`, while fading.
    pub opacity: Option<(u32, u32)>,
}

impl Shown {
    /// A tile showing `text` and nothing else.
    fn text(text: impl ToString) -> Shown {
        Shown {
            text: text.to_string(),
            hidden: false,
            tint: None,
            arrow: None,
            opacity: None,
        }
    }

    /// A tile drawn as if it were the blank.
    fn hidden() -> Shown {
        Shown {
            hidden: true,
            ..Shown::text("")
        }
    }

    /// A tile showing its number when `seen`, hidden otherwise.
    fn number_if(tile: u32, seen: bool) -> Shown {
        if seen {
            Shown::text(tile)
        } else {
            Shown::hidden()
        }
    }
}

/// What every cell of `position` shows under `display`, in row-major order
/// (`None` for the blank), given the puzzle's `goal` (which must hold the
/// same labels) and the moves that led to the position.
pub fn show(
    display: Display,
    position: &Position,
    goal: &Position,
    recent: &Recent,
) -> Vec<Option<Shown>> {
    let board = Board::new(position, goal);
    let shown = |rule: &dyn Fn(usize, u32) -> Shown| -> Vec<Option<Shown>> {
        (0..board.cells())
            .map(|cell| {
                let tile = board.tile(cell);
                (tile != slide::BLANK).then(|| rule(cell, tile))
            })
            .collect()
    };
    match display {
        Display::Standard => shown(&|_, tile| Shown::text(tile)),
        Display::Minimal | Display::RowMinimal | Display::FringeMinimal => {
            shown(&|cell, tile| Shown::number_if(tile, hiding::corner_seen(display, &board, cell)))
        }
        Display::AdjacentTiles => {
            shown(&|cell, tile| Shown::number_if(tile, board.beside_blank(cell)))
        }
        Display::MinimalUnsolved | Display::MaximalUnsolved => {
            let seen = hiding::extreme_unsolved(&board, display == Display::MaximalUnsolved);
            shown(&|_, tile| Shown::number_if(tile, Some(tile) == seen))
        }
        Display::InversePermutation => {
            let inverse = arrows::inverse(&board);
            shown(&|cell, _| match inverse[cell] {
                slide::BLANK => Shown::text(""),
                label => Shown::text(label),
            })
        }
        Display::Manhattan => shown(&|cell, tile| Shown::text(board.distance(cell, tile))),
        Display::Vectors => {
            shown(&|cell, tile| arrows::arrow(board.offset(cell, board.home(tile))))
        }
        Display::IncrementalVectors => {
            let next = arrows::next_tiles(&board);
            shown(&|cell, tile| match next(tile) {
                Some(n) => arrows::arrow(board.offset(cell, board.cell_of(n))),
                None => Shown::hidden(),
            })
        }
        Display::InverseVectors => shown(&|cell, _| {
            arrows::arrow(board.offset(cell, board.cell_of(board.goal_tile(cell))))
        }),
        Display::Rgb => shown(&|cell, tile| marks::rgb(&board, cell, tile)),
        Display::Chess => shown(&|cell, tile| marks::chess(&board, cell, tile)),
        Display::AdjacentSum => shown(&|cell, _| Shown::text(counts::adjacent_sum(&board, cell))),
        Display::Minesweeper => shown(&|cell, _| Shown::text(counts::home_beside(&board, cell))),
        Display::RowsAndColumns => {
            shown(&|cell, _| Shown::text(counts::home_in_lines(&board, cell)))
        }
        Display::LastMove => shown(&|_, tile| Shown::number_if(tile, recent.last() == Some(tile))),
        Display::FadingTiles => {
            let of = recent::fade_limit(&board);
            shown(&|_, tile| recent::faded(tile, recent.moved(tile), of))
        }
        Display::VanishOnSolved => shown(&|_, tile| Shown::number_if(tile, !recent.was_home(tile))),
    }
}

#[cfg(test)]
mod tests;
