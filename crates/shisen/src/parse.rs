//! The text format: H lines of W cells, one character per cell, `.` for an
//! empty cell, any other printable character a tile kind (see
//! [`crate::kind`]). The cells of a line may be separated by single spaces.
//! Boards in a stream are separated by one or more blank lines. A trailing
//! `\r` on a line is ignored.

use crate::board::{Board, BoardError};
use crate::kind::Kind;
use crate::rules::Matching;
use crate::size::{Size, MAX_HEIGHT, MAX_WIDTH};

/// What is wrong at a place in the input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[allow(missing_docs)] // each variant's message names its fields
pub enum Problem {
    #[error("{0:?} is not a cell: expected '.' or a printable character")]
    /// A character that is neither a tile kind nor `.`.
    NotACell(char),
    #[error("cells must be separated by single spaces")]
    /// Cells separated by spaces on some rows and not on others.
    Spacing,
    #[error("row has {found} cells, expected {expected} like the first row")]
    Ragged { expected: usize, found: usize },
    #[error("row has {0} cells, more than the {MAX_WIDTH} allowed")]
    /// More columns than a board may have (the limit is the value).
    TooWide(usize),
    #[error("board has more than {MAX_HEIGHT} rows")]
    /// More rows than a board may have.
    TooTall,
    #[error("kind '{kind}' has an odd number of tiles ({count}): tiles are removed in pairs")]
    OddKind { kind: Kind, count: usize },
    #[error("no board in the input")]
    /// The text holds no board.
    NoBoard,
    #[error("a second board: only one is expected here")]
    /// The text holds more than the one board expected.
    ExtraBoard,
    #[error("{0}")]
    /// The cells parse but do not make a valid board.
    Board(BoardError),
}

/// A malformed board: where (1-based line and column in the input) and what.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {problem}")]
pub struct ParseError {
    /// 1-based line of the text where the problem is.
    pub line: usize,
    /// 1-based column (in characters) where the problem is.
    pub column: usize,
    /// What is wrong there.
    pub problem: Problem,
}

/// Parses a text holding exactly one board.
pub fn parse_board(text: &str, matching: Matching) -> Result<Board, ParseError> {
    let mut boards = parse_boards(text, matching);
    let board = boards.next().unwrap_or(Err(ParseError {
        line: 1,
        column: 1,
        problem: Problem::NoBoard,
    }))?;
    match boards.next_start() {
        None => Ok(board),
        Some(line) => Err(ParseError {
            line,
            column: 1,
            problem: Problem::ExtraBoard,
        }),
    }
}

/// Parses a stream of boards separated by blank lines, lazily; each error
/// names its line in the whole stream.
pub fn parse_boards(text: &str, matching: Matching) -> Boards<'_> {
    Boards {
        lines: text.lines().enumerate().peekable(),
        matching,
        grid: Grid::default(),
    }
}

/// The boards of a stream, see [`parse_boards`].
pub struct Boards<'a> {
    lines: std::iter::Peekable<std::iter::Enumerate<std::str::Lines<'a>>>,
    matching: Matching,
    /// Reused from board to board: no allocation per board for reading.
    grid: Grid,
}

impl Boards<'_> {
    /// The line where the next board starts, if any.
    fn next_start(&mut self) -> Option<usize> {
        while self.lines.next_if(|(_, l)| is_blank(l)).is_some() {}
        self.lines.peek().map(|(i, _)| i + 1)
    }
}

impl Iterator for Boards<'_> {
    type Item = Result<Board, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        while self.lines.next_if(|(_, l)| is_blank(l)).is_some() {}
        let (first, _) = *self.lines.peek()?;
        let grid = &mut self.grid;
        grid.clear();
        let mut error = None;
        while let Some((i, line)) = self.lines.next_if(|(_, l)| !is_blank(l)) {
            if error.is_some() {
                continue; // skip the rest of a malformed board
            }
            error = if grid.spaced.len() == MAX_HEIGHT {
                Some(ParseError {
                    line: i + 1,
                    column: 1,
                    problem: Problem::TooTall,
                })
            } else {
                grid.push_row(line, i + 1).err()
            };
        }
        Some(match error {
            Some(e) => Err(e),
            None => grid.build(first + 1, self.matching),
        })
    }
}

fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// The cells of a board being read, row after row, and whether each row's
/// cells are separated by spaces (for the columns of error messages).
#[derive(Default)]
struct Grid {
    cells: Vec<Option<Kind>>,
    width: usize,
    spaced: Vec<bool>,
}

impl Grid {
    fn clear(&mut self) {
        self.cells.clear();
        self.spaced.clear();
        self.width = 0;
    }

    /// The 1-based text column of cell `x` of row `y`.
    fn column(&self, x: usize, y: usize) -> usize {
        if self.spaced[y] {
            2 * x + 1
        } else {
            x + 1
        }
    }

    /// Reads one row; every row must be as wide as the first.
    fn push_row(&mut self, line: &str, number: usize) -> Result<(), ParseError> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let at = |column: usize, problem| ParseError {
            line: number,
            column,
            problem,
        };
        let spaced = line.contains(' ');
        let before = self.cells.len();
        let mut count = 0;
        for (i, c) in line.chars().enumerate() {
            count = i + 1;
            if spaced && i % 2 == 1 {
                if c != ' ' {
                    return Err(at(i + 1, Problem::Spacing));
                }
                continue;
            }
            self.cells.push(match c {
                '.' => None,
                ' ' => return Err(at(i + 1, Problem::Spacing)),
                _ => Some(Kind::new(c).map_err(|_| at(i + 1, Problem::NotACell(c)))?),
            });
        }
        if spaced && count.is_multiple_of(2) {
            return Err(at(count, Problem::Spacing));
        }
        let width = self.cells.len() - before;
        if width > MAX_WIDTH {
            return Err(at(1, Problem::TooWide(width)));
        }
        if self.spaced.is_empty() {
            self.width = width;
        } else if width != self.width {
            let problem = Problem::Ragged {
                expected: self.width,
                found: width,
            };
            return Err(at(1, problem));
        }
        self.spaced.push(spaced);
        Ok(())
    }

    /// The board; an odd class is reported at its first tile, so the user
    /// can find it.
    fn build(&self, first: usize, matching: Matching) -> Result<Board, ParseError> {
        let at = |line, column, problem| ParseError {
            line,
            column,
            problem,
        };
        let size = Size::new(self.width, self.spaced.len())
            .map_err(|_| at(first, 1, Problem::TooWide(self.width)))?;
        match Board::from_cells(size, matching, &self.cells) {
            Ok(board) => Ok(board),
            Err(BoardError::OddKind { kind, count }) => {
                let i = self
                    .cells
                    .iter()
                    .position(|c| c.is_some_and(|c| matching.class(c) == kind))
                    .unwrap_or(0);
                let (x, y) = (i % self.width, i / self.width);
                let problem = Problem::OddKind { kind, count };
                Err(at(first + y, self.column(x, y), problem))
            }
            Err(e) => Err(at(first, 1, Problem::Board(e))),
        }
    }
}
