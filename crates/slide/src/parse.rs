//! Reading positions from text.
//!
//! Three layouts are accepted, all with cells split by white space (or
//! commas) and `0` for the blank:
//! - rows split by `/`: `1 2 3/4 5 6/7 8 0` (the form positions print in);
//! - rows on separate lines;
//! - one flat list of w·h numbers, with the size given separately, or
//!   inferred as n × n when the count is a perfect square.

use crate::{Position, PositionError, Size, SizeError};
use std::str::FromStr;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
/// Why position text does not parse.
#[allow(missing_docs)] // each variant's message names its fields
pub enum ParseError {
    #[error("empty position")]
    /// The text holds no tiles.
    Empty,
    #[error("{token:?} at row {row}, column {column} is not a tile number")]
    /// A cell that is not a number.
    NotANumber {
        /// The cell's text.
        token: String,
        /// 1-based row.
        row: usize,
        /// 1-based column.
        column: usize,
    },
    #[error("ragged rows: row {row} has {found} cells but row 1 has {expected}")]
    /// A row of another length than the first.
    Ragged {
        /// 1-based row.
        row: usize,
        /// Cells in that row.
        found: usize,
        /// Cells in the first row.
        expected: usize,
    },
    #[error(
        "{count} numbers in one line: give the size (e.g. --size 4x3), or split rows with '/'"
    )]
    NeedSize { count: usize },
    #[error("the rows make a {found} board but the size given is {given}")]
    SizeMismatch { found: Size, given: Size },
    #[error(transparent)]
    /// The size given does not parse or is out of range.
    Size(#[from] SizeError),
    #[error(transparent)]
    /// The tiles are not a position (a duplicate, no blank, …).
    Position(#[from] PositionError),
}

impl FromStr for Position {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Position, ParseError> {
        Position::parse(text, None)
    }
}

impl Position {
    /// Parses `text` in any accepted layout. `size` is needed only for a
    /// flat list whose count is not a perfect square; when given with rows
    /// it must agree with them.
    pub fn parse(text: &str, size: Option<Size>) -> Result<Position, ParseError> {
        match Grid::scan(text) {
            Some(grid) => grid.position(size),
            None => parse_general(text, size),
        }
    }
}

/// Tiles written the common way, in one pass over the bytes: ASCII digits
/// separated by spaces, tabs or commas, rows by `/` or newlines. Anything
/// else (another character, a ragged row, a number past `u32`) is left to
/// [`parse_general`], which reads every layout and names what is wrong.
struct Grid {
    tiles: Vec<u32>,
    width: usize,
    rows: usize,
}

impl Grid {
    fn scan(text: &str) -> Option<Grid> {
        let mut grid = Grid {
            tiles: Vec::with_capacity(text.len() / 2),
            width: 0,
            rows: 0,
        };
        let (mut number, mut in_row, mut row_cells) = (None::<u32>, false, 0usize);
        for &byte in text.as_bytes().iter().chain([b'\n'].iter()) {
            match byte {
                b'0'..=b'9' => {
                    let digit = u32::from(byte - b'0');
                    number = Some(number.unwrap_or(0).checked_mul(10)?.checked_add(digit)?);
                    in_row = true;
                }
                b' ' | b'\t' | b'\r' | b',' | b'/' | b'\n' => {
                    if let Some(n) = number.take() {
                        grid.tiles.push(n);
                        row_cells += 1;
                    }
                    // A comma is text: a row of commas alone is a row (of no
                    // cells, which the general parser reports).
                    in_row |= byte == b',';
                    if (byte == b'/' || byte == b'\n') && in_row {
                        if grid.rows == 0 {
                            grid.width = row_cells;
                        } else if row_cells != grid.width {
                            return None;
                        }
                        (grid.rows, row_cells, in_row) = (grid.rows + 1, 0, false);
                    }
                }
                _ => return None,
            }
        }
        (grid.width > 0).then_some(grid)
    }

    /// The position, as [`parse_rows`] or [`parse_flat`] would make it
    /// from the same tiles.
    fn position(self, size: Option<Size>) -> Result<Position, ParseError> {
        if self.rows == 1 {
            let size = match size {
                Some(size) => size,
                None => square_size(self.tiles.len())?,
            };
            return Ok(Position::new(size, self.tiles)?);
        }
        let found = Size::new(self.width, self.rows)?;
        if let Some(given) = size.filter(|&given| given != found) {
            return Err(ParseError::SizeMismatch { found, given });
        }
        Ok(Position::new(found, self.tiles)?)
    }
}

/// Every accepted layout, with precise errors.
fn parse_general(text: &str, size: Option<Size>) -> Result<Position, ParseError> {
    let rows: Vec<&str> = text
        .split(['/', '\n'])
        .map(str::trim)
        .filter(|row| !row.is_empty())
        .collect();
    match rows.len() {
        0 => Err(ParseError::Empty),
        1 => parse_flat(rows[0], size),
        _ => parse_rows(&rows, size),
    }
}

fn cells(row: &str) -> impl Iterator<Item = &str> {
    row.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
}

fn number(token: &str, row: usize, column: usize) -> Result<u32, ParseError> {
    token.parse::<u32>().map_err(|_| ParseError::NotANumber {
        token: token.chars().take(20).collect(),
        row,
        column,
    })
}

fn parse_rows(rows: &[&str], size: Option<Size>) -> Result<Position, ParseError> {
    let mut tiles = Vec::new();
    let mut width = 0;
    for (r, row) in rows.iter().enumerate() {
        let start = tiles.len();
        for (c, token) in cells(row).enumerate() {
            tiles.push(number(token, r + 1, c + 1)?);
        }
        let found = tiles.len() - start;
        if r == 0 {
            width = found;
        } else if found != width {
            return Err(ParseError::Ragged {
                row: r + 1,
                found,
                expected: width,
            });
        }
    }
    let found = Size::new(width, rows.len())?;
    if let Some(given) = size.filter(|&given| given != found) {
        return Err(ParseError::SizeMismatch { found, given });
    }
    Ok(Position::new(found, tiles)?)
}

fn parse_flat(line: &str, size: Option<Size>) -> Result<Position, ParseError> {
    let tiles = cells(line)
        .enumerate()
        .map(|(i, token)| {
            let width = size.map_or(usize::MAX, Size::width);
            number(token, i / width + 1, i % width + 1)
        })
        .collect::<Result<Vec<u32>, _>>()?;
    let size = match size {
        Some(size) => size,
        None => square_size(tiles.len())?,
    };
    Ok(Position::new(size, tiles)?)
}

fn square_size(count: usize) -> Result<Size, ParseError> {
    let side = (count as f64).sqrt().round() as usize;
    if side * side != count {
        return Err(ParseError::NeedSize { count });
    }
    Ok(Size::square(side)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// The one-pass reader and the general parser agree on every text:
        /// the same position or the same error.
        #[test]
        fn the_fast_path_agrees_with_the_general_parser(
            text in "[0-9 ,/\n\t\r+a]{0,40}",
            sized in any::<bool>(),
        ) {
            let size = sized.then(|| Size::new(3, 3).unwrap());
            prop_assert_eq!(Position::parse(&text, size), parse_general(&text, size));
        }

        #[test]
        fn every_position_reads_back_through_the_fast_path(
            (w, h, seed) in (2usize..12, 2usize..12, any::<u64>()),
        ) {
            let goal = crate::Goal::RowMajor.position(Size::new(w, h).unwrap()).unwrap();
            let position = crate::Scramble::Uniform.generate(&goal, seed);
            let text = position.to_string();
            prop_assert!(Grid::scan(&text).is_some());
            prop_assert_eq!(Position::parse(&text, None), Ok(position));
        }
    }

    fn parse(text: &str) -> Result<Position, ParseError> {
        text.parse()
    }

    #[test]
    fn reads_every_layout() {
        let expected = parse("1 2 3/4 5 6/7 8 0").unwrap();
        assert_eq!(parse("1 2 3\n4 5 6\n7 8 0\n").unwrap(), expected);
        assert_eq!(parse("1 2 3 4 5 6 7 8 0").unwrap(), expected);
        assert_eq!(parse("1,2,3/4,5,6/7,8,0").unwrap(), expected);
        let wide = Position::parse("1 2 3 4 5 0", Some("3x2".parse().unwrap())).unwrap();
        assert_eq!(wide.to_string(), "1 2 3/4 5 0");
    }

    #[test]
    fn names_what_is_wrong() {
        assert_eq!(parse(""), Err(ParseError::Empty));
        assert!(matches!(
            parse("1 2/3 x"),
            Err(ParseError::NotANumber {
                row: 2,
                column: 2,
                ..
            })
        ));
        assert!(matches!(
            parse("1 2 3/4 5/6 7 0"),
            Err(ParseError::Ragged {
                row: 2,
                found: 2,
                expected: 3
            })
        ));
        assert!(matches!(
            parse("1 2 3 4 5 0"),
            Err(ParseError::NeedSize { count: 6 })
        ));
        assert!(matches!(
            parse("1 2 3/4 5 3/7 8 0"),
            Err(ParseError::Position(PositionError::Duplicate {
                tile: 3,
                ..
            }))
        ));
        assert!(matches!(
            parse("1 2 3/4 5 6/7 8 9"),
            Err(ParseError::Position(PositionError::NoBlank))
        ));
        assert!(matches!(
            parse("1 2 3/4 5 6/7 8 10"),
            Err(ParseError::Position(PositionError::TooLarge {
                tile: 10,
                ..
            }))
        ));
        assert!(parse("1 2 3 0").is_ok());
        assert!(matches!(
            parse("1 0"),
            Err(ParseError::NeedSize { count: 2 })
        ));
        assert!(matches!(
            parse("1/0"),
            Err(ParseError::Size(SizeError::TooSmall { .. }))
        ));
        assert!(matches!(
            parse("1 99999999999/2 0"),
            Err(ParseError::NotANumber { .. })
        ));
        let given = "4x4".parse().unwrap();
        assert!(matches!(
            Position::parse("1 2/3 0", Some(given)),
            Err(ParseError::SizeMismatch { .. })
        ));
    }

    #[test]
    fn error_messages_help() {
        let message = parse("1 2 3/4 5 3/7 8 0").unwrap_err().to_string();
        assert_eq!(
            message,
            "tile 3 appears twice: at row 1, column 3 and at row 2, column 3"
        );
    }
}
