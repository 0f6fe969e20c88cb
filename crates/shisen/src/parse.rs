//! The text format: H lines of W cells, one character per cell, `.` for an
//! empty cell, any other printable character a tile kind (see
//! [`crate::kind`]). The cells of a line may be separated by single spaces.
//! Boards in a stream are separated by one or more blank lines. A trailing
//! `\r` on a line is ignored.

use crate::batch::Counter;
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
        lines: Lines {
            rest: text,
            number: 0,
            line: None,
        },
        matching,
        grid: Grid::default(),
        board: None,
        counter: None,
    }
}

/// The boards of a stream, see [`parse_boards`].
pub struct Boards<'a> {
    lines: Lines<'a>,
    matching: Matching,
    /// Reused from board to board: no allocation per board for reading.
    grid: Grid,
    /// The storage [`Boards::next_ref`] builds into.
    board: Option<Board>,
    /// Made by the first [`Boards::next_count`].
    counter: Option<Box<Counter>>,
}

impl Boards<'_> {
    /// The line where the next board starts, if any.
    fn next_start(&mut self) -> Option<usize> {
        while self.lines.next_if(is_blank).is_some() {}
        self.lines.peek().map(|_| self.lines.number + 1)
    }
}

/// The lines of a text as [`str::lines`] splits them, numbered from 0,
/// with a peek. Board rows are short: a plain scan for the newline beats
/// the general searcher here.
struct Lines<'a> {
    /// The text from the start of line `number` on.
    rest: &'a str,
    number: usize,
    /// Line `number`, once peeked.
    line: Option<&'a str>,
}

impl<'a> Lines<'a> {
    fn peek(&mut self) -> Option<&'a str> {
        if self.line.is_none() && !self.rest.is_empty() {
            let bytes = self.rest.as_bytes();
            let end = bytes
                .iter()
                .position(|&b| b == b'\n')
                .unwrap_or(bytes.len());
            // Both ends lie on character boundaries: '\n' is ASCII.
            self.line = Some(&self.rest[..end]);
        }
        self.line
    }

    /// The next line and its number, if `keep` accepts it.
    fn next_if(&mut self, keep: impl FnOnce(&str) -> bool) -> Option<(usize, &'a str)> {
        let line = self.peek()?;
        if !keep(line) {
            return None;
        }
        self.rest = self.rest.get(line.len() + 1..).unwrap_or("");
        self.line = None;
        self.number += 1;
        Some((self.number - 1, line))
    }
}

impl Boards<'_> {
    /// Reads the next board's rows into the grid: `None` at the end of
    /// the stream, else the line the board starts on, or its first error.
    fn read(&mut self) -> Option<Result<usize, ParseError>> {
        while self.lines.next_if(is_blank).is_some() {}
        self.lines.peek()?;
        let first = self.lines.number;
        let grid = &mut self.grid;
        grid.clear();
        let mut error = None;
        while let Some((i, line)) = self.lines.next_if(|l| !is_blank(l)) {
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
        Some(error.map_or(Ok(first + 1), Err))
    }

    /// The next board, built into storage the stream keeps and reuses:
    /// the batch path, with no allocation per board. The iterator hands
    /// out boards of their own instead.
    pub fn next_ref(&mut self) -> Option<Result<&Board, ParseError>> {
        let first = match self.read()? {
            Ok(first) => first,
            Err(e) => return Some(Err(e)),
        };
        let built = match self.board.as_mut() {
            Some(board) => self.grid.build_into(board, first, self.matching),
            None => self.grid.build(first, self.matching).map(|board| {
                self.board = Some(board);
            }),
        };
        Some(match built {
            Ok(()) => Ok(self.board.as_ref().expect("built above")),
            Err(e) => {
                // A failed rebuild leaves the storage unusable as a board.
                self.board = None;
                Err(e)
            }
        })
    }
}

impl Boards<'_> {
    /// The number of moves of the next board, as
    /// [`Board::count_moves`] of [`Boards::next_ref`] would give, or its
    /// error. A batch that only counts takes this way: common boards are
    /// counted from their lines without building a board (see
    /// `crate::batch`).
    pub fn next_count(&mut self) -> Option<Result<usize, ParseError>> {
        while self.lines.next_if(is_blank).is_some() {}
        self.lines.peek()?;
        let matching = self.matching;
        let counter = self
            .counter
            .get_or_insert_with(|| Box::new(Counter::new(matching)));
        if let Some((count, bytes, rows)) = counter.count(self.lines.rest.as_bytes()) {
            // `bytes` ends after a line end or at the text's end: a
            // character boundary.
            self.lines.rest = &self.lines.rest[bytes..];
            self.lines.number += rows;
            self.lines.line = None;
            return Some(Ok(count));
        }
        // Declined: the full way.
        self.next_ref().map(|board| board.map(Board::count_moves))
    }
}

impl Iterator for Boards<'_> {
    type Item = Result<Board, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        let first = self.read()?;
        Some(first.and_then(|first| self.grid.build(first, self.matching)))
    }
}

fn is_blank(line: &str) -> bool {
    // A row starts with a cell: no need to trim Unicode whitespace.
    match line.as_bytes().first() {
        Some(b) if b.is_ascii_graphic() => false,
        _ => line.trim().is_empty(),
    }
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
        let before = self.cells.len();
        if self.push_plain(line) {
            return self.end_row(before, false, number);
        }
        let spaced = line.contains(' ');
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
        self.end_row(before, spaced, number)
    }

    /// The fast path of [`Grid::push_row`]: a row of graphic ASCII cells
    /// without spaces (every standard board) is one byte per cell. Returns
    /// `false`, pushing nothing, for any other row.
    fn push_plain(&mut self, line: &str) -> bool {
        let bytes = line.as_bytes();
        if !bytes.iter().all(u8::is_ascii_graphic) {
            return false;
        }
        // A select, not a branch: empty and full cells alternate at random
        // in a played board.
        self.cells.extend(bytes.iter().map(|&b| {
            let kind = Some(Kind::from_graphic_ascii(b));
            std::hint::select_unpredictable(b == b'.', None, kind)
        }));
        true
    }

    /// Checks the width of the row just pushed from cell `before` on.
    fn end_row(&mut self, before: usize, spaced: bool, number: usize) -> Result<(), ParseError> {
        let at = |column: usize, problem| ParseError {
            line: number,
            column,
            problem,
        };
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
        let size = self.size(first)?;
        Board::from_cells(size, matching, &self.cells).map_err(|e| self.locate(e, first, matching))
    }

    /// [`Grid::build`] into the storage of `board`.
    fn build_into(
        &self,
        board: &mut Board,
        first: usize,
        matching: Matching,
    ) -> Result<(), ParseError> {
        let size = self.size(first)?;
        board
            .rebuild(size, matching, &self.cells)
            .map_err(|e| self.locate(e, first, matching))
    }

    fn size(&self, first: usize) -> Result<Size, ParseError> {
        Size::new(self.width, self.spaced.len()).map_err(|_| ParseError {
            line: first,
            column: 1,
            problem: Problem::TooWide(self.width),
        })
    }

    /// Where in the text a board error lies, for a board read from line
    /// `first`.
    fn locate(&self, e: BoardError, first: usize, matching: Matching) -> ParseError {
        let at = |line, column, problem| ParseError {
            line,
            column,
            problem,
        };
        match e {
            BoardError::OddKind { kind, count } => {
                let i = self
                    .cells
                    .iter()
                    .position(|c| c.is_some_and(|c| matching.class(c) == kind))
                    .unwrap_or(0);
                let (x, y) = (i % self.width, i / self.width);
                let problem = Problem::OddKind { kind, count };
                at(first + y, self.column(x, y), problem)
            }
            e => at(first, 1, Problem::Board(e)),
        }
    }
}
