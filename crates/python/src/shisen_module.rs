//! `tessera.shisen`: Shisen-Sho boards, their moves and paths, deals and
//! the solver.

use crate::{interrupt, seconds, value_error};
use play::shisen_game::{DealError, ShisenSpec};
use play::Deadline;
use pyo3::prelude::*;
use shisen::{Game, Matching, Point, Rules, TileSet, Verdict};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Board>()?;
    m.add_class::<Solution>()?;
    Ok(())
}

/// A cell as Python sees it: ``(x, y)``, 0-based from the top left.
type Cell = (i32, i32);

/// A pair of tiles removed together.
type Pair = (Cell, Cell);

fn cell(p: Point) -> Cell {
    (p.x, p.y)
}

fn point((x, y): Cell) -> Point {
    Point::new(x, y)
}

/// A Shisen-Sho board and the rules it is played by (Chinese matching,
/// gravity). Boards are immutable; ``apply`` returns the next one.
///
/// Cells are ``(x, y)`` tuples, 0-based from the top left; the ring
/// around the board, where paths may run, is at ``x = -1``, ``x = width``,
/// ``y = -1`` and ``y = height``.
///
/// >>> from tessera.shisen import Board
/// >>> b = Board.parse("AB/BA/BA/AB")
/// >>> b
/// Board.parse('AB/BA/BA/AB')
/// >>> b.moves()
/// [((0, 0), (0, 3)), ((1, 0), (1, 3)), ((0, 1), (0, 2)), ((1, 1), (1, 2))]
/// >>> b.path((0, 0), (0, 3))
/// [(0, 0), (-1, 0), (-1, 3), (0, 3)]
/// >>> print(b.apply(((0, 0), (0, 3))), end="")
/// .B
/// BA
/// BA
/// .B
#[pyclass(
    module = "tessera.shisen",
    name = "Board",
    frozen,
    eq,
    skip_from_py_object
)]
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    board: shisen::Board,
    gravity: bool,
}

#[pymethods]
impl Board {
    /// Reads a board: one line per row (or rows split by ``/`` when the
    /// text has no newline), one symbol per tile, ``.`` for an empty cell.
    /// ``chinese`` matches any flower with any flower and any season with
    /// any season; under ``gravity`` tiles fall after a removal.
    ///
    /// >>> Board.parse("AB/AB").width
    /// 2
    /// >>> Board.parse("AB/A")
    /// Traceback (most recent call last):
    /// ...
    /// ValueError: line 2, column 1: row has 1 cells, expected 2 like the first row
    #[staticmethod]
    #[pyo3(signature = (text, chinese=false, gravity=false))]
    fn parse(text: &str, chinese: bool, gravity: bool) -> PyResult<Board> {
        // As on the command line: without a newline, `/` splits rows.
        let text = if text.contains('\n') {
            text.to_string()
        } else {
            text.replace('/', "\n")
        };
        let board =
            shisen::parse_board(&text, Matching::from_chinese(chinese)).map_err(value_error)?;
        Ok(Board { board, gravity })
    }

    /// The board ``tessera shisen new --preset PRESET --seed SEED`` deals
    /// (with ``--solvable``, ``--gravity``, ``--size``, ``--tiles``,
    /// ``--chinese`` as the keywords say). A solvable deal is the first
    /// draw of the seed the solver does not prove unsolvable; ``time_limit``
    /// (seconds) gives up rather than wait. Presets: ``14x6``, ``16x9``,
    /// ``18x8``, ``24x12``, ``26x14``, ``30x16`` (``small``, ``medium``,
    /// ``large``); ``size`` deals any ``WxH`` instead.
    ///
    /// >>> b = Board.deal(size="4x2", tiles="2x4", seed=1)
    /// >>> b.size, b.tiles_left
    /// ('4x2', 8)
    #[staticmethod]
    #[pyo3(signature = (preset="18x8", seed=0, solvable=true, gravity=false, *, chinese=false, size=None, tiles=None, time_limit=None))]
    #[allow(clippy::too_many_arguments)]
    fn deal(
        py: Python<'_>,
        preset: &str,
        seed: u64,
        solvable: bool,
        gravity: bool,
        chinese: bool,
        size: Option<&str>,
        tiles: Option<&str>,
        time_limit: Option<f64>,
    ) -> PyResult<Board> {
        let size = match size {
            Some(size) => size
                .parse()
                .map_err(|e: shisen::SizeError| value_error(e))?,
            None => shisen::Size::preset(preset).map_err(value_error)?,
        };
        let tiles = match (tiles, chinese) {
            (Some(_), true) => return Err(value_error("give tiles or chinese, not both")),
            (Some(tiles), false) => tiles
                .parse()
                .map_err(|e: shisen::TileSetError| value_error(e))?,
            (None, true) => TileSet::Chinese,
            (None, false) => TileSet::Standard,
        };
        tiles.tiles(size).map_err(value_error)?;
        let spec = ShisenSpec {
            size,
            tiles,
            gravity,
            solvable,
        };
        let limit = seconds(time_limit)?;
        let (deadline, cancel) = limit
            .map_or_else(Deadline::none, Deadline::after)
            .cancellable();
        let dealt = interrupt::run(py, &cancel, move || {
            let mut deadline = deadline;
            spec.deal(seed, &mut deadline)
        })?;
        let board = dealt.map_err(|e| match e {
            DealError::OutOfTime => value_error(format!(
                "seed {seed}: no solvable deal was proven within the time limit"
            )),
            other => value_error(other),
        })?;
        Ok(Board { board, gravity })
    }

    /// Columns.
    #[getter]
    fn width(&self) -> usize {
        self.board.width()
    }

    /// Rows.
    #[getter]
    fn height(&self) -> usize {
        self.board.height()
    }

    /// The size as ``"WxH"``.
    #[getter]
    fn size(&self) -> String {
        self.board.size().to_string()
    }

    /// Tiles on the board.
    #[getter]
    fn tiles_left(&self) -> usize {
        self.board.tiles_left()
    }

    /// Whether every tile is gone.
    #[getter]
    fn is_cleared(&self) -> bool {
        self.board.is_cleared()
    }

    /// Whether tiles fall down their column after a removal.
    #[getter]
    fn gravity(&self) -> bool {
        self.gravity
    }

    /// Whether flowers match flowers and seasons seasons (Chinese rules).
    #[getter]
    fn chinese(&self) -> bool {
        self.board.matching() == Matching::Chinese
    }

    /// The pairs that can be removed now, each in reading order (by row,
    /// then column), as ``tessera shisen moves`` lists them.
    ///
    /// >>> Board.parse("AA/BB").moves()
    /// [((0, 0), (1, 0)), ((0, 1), (1, 1))]
    fn moves(&self) -> Vec<Pair> {
        self.board
            .moves()
            .iter()
            .map(|m| (cell(m.a), cell(m.b)))
            .collect()
    }

    /// The cells of a shortest connection of at most three segments that
    /// removes the tiles at ``a`` and ``b`` (corners included), or ``None``
    /// when they do not match or nothing connects them. A cell off the
    /// board or without a tile raises.
    ///
    /// >>> Board.parse("AB/BA").path((0, 0), (1, 0)) is None
    /// True
    /// >>> Board.parse("AB/BA").path((0, 0), (5, 0))
    /// Traceback (most recent call last):
    /// ...
    /// ValueError: 5,0 is off the 2x2 board
    fn path(&self, a: Cell, b: Cell) -> PyResult<Option<Vec<Cell>>> {
        let (a, b) = (point(a), point(b));
        let ka = self.tile_at(a)?;
        let kb = self.tile_at(b)?;
        if a == b {
            return Err(value_error(format!("{a} and {b} are the same tile")));
        }
        if !self.board.matching().matches(ka, kb) {
            return Ok(None);
        }
        Ok(self
            .board
            .path(a, b)
            .map(|path| path.points().iter().copied().map(cell).collect()))
    }

    /// The board after removing ``pair`` (under gravity, after the tiles
    /// above fall). Raises when the pair cannot be removed, saying why.
    ///
    /// >>> Board.parse("AB/BA").apply(((0, 0), (1, 0)))
    /// Traceback (most recent call last):
    /// ...
    /// ValueError: tiles 'A' and 'B' do not match
    fn apply(&self, pair: Pair) -> PyResult<Board> {
        let mut game = Game::new(self.board.clone(), self.rules());
        game.remove(point(pair.0), point(pair.1))
            .map_err(value_error)?;
        Ok(Board {
            board: game.board().clone(),
            gravity: self.gravity,
        })
    }

    /// Searches for a sequence of removals that clears the board, for at
    /// most ``time_limit`` seconds (Ctrl-C stops it too). The answer is a
    /// ``Solution``: true when solvable, with ``moves`` to play in order
    /// (``None`` otherwise) and ``reason`` saying what the solver found.
    ///
    /// >>> s = Board.parse("AB/BA/BA/AB").solve()
    /// >>> bool(s), s.verdict, len(s.moves)
    /// (True, 'solvable', 4)
    /// >>> s = Board.parse("AB/BA").solve()
    /// >>> bool(s), s.moves, s.reason
    /// (False, None, 'unsolvable: no sequence of removals clears the board')
    #[pyo3(signature = (time_limit=10.0))]
    fn solve(&self, py: Python<'_>, time_limit: Option<f64>) -> PyResult<Solution> {
        let limit = seconds(time_limit)?;
        let (deadline, cancel) = limit
            .map_or_else(Deadline::none, Deadline::after)
            .cancellable();
        let rules = self.rules();
        let board = &self.board;
        let solution = interrupt::run(py, &cancel, move || {
            let mut deadline = deadline;
            shisen::solve(board, rules, &mut deadline)
        })?;
        let moves = match &solution.verdict {
            Verdict::Solvable(moves) => {
                Some(moves.iter().map(|m| (cell(m.a), cell(m.b))).collect())
            }
            _ => None,
        };
        let (verdict, reason) = match &solution.verdict {
            Verdict::Solvable(_) => (
                "solvable",
                "solvable: these removals clear the board".to_string(),
            ),
            Verdict::Unsolvable => (
                "unsolvable",
                "unsolvable: no sequence of removals clears the board".to_string(),
            ),
            Verdict::Unknown => (
                "unknown",
                format!(
                    "unknown: the time limit ran out after {} positions",
                    solution.nodes
                ),
            ),
        };
        Ok(Solution {
            verdict,
            reason,
            moves,
            nodes: solution.nodes,
        })
    }

    fn __str__(&self) -> String {
        self.board.to_string()
    }

    /// The board as ``tessera shisen render`` draws it: a ``(height,
    /// width, 3)`` ``uint8`` RGB array, 40 × 52 pixels a tile with the
    /// empty ring around the board.
    ///
    /// >>> Board.parse("AB/BA").frame().shape
    /// (208, 160, 3)
    fn frame<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray3<u8>>> {
        crate::frames::rgb(py, &picture::shisen_board::board(&self.board, None))
    }

    fn __repr__(&self) -> String {
        let rows: Vec<String> = self.board.to_string().lines().map(str::to_string).collect();
        let mut options = String::new();
        if self.chinese() {
            options.push_str(", chinese=True");
        }
        if self.gravity {
            options.push_str(", gravity=True");
        }
        format!("Board.parse('{}'{options})", rows.join("/"))
    }

    /// Pickled as its text and rules, so boards travel to worker processes.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, bool, bool))> {
        let parse = slf.get_type().getattr("parse")?;
        let board = slf.get();
        Ok((
            parse,
            (board.board.to_string(), board.chinese(), board.gravity),
        ))
    }
}

impl Board {
    fn rules(&self) -> Rules {
        Rules::new(self.board.matching(), self.gravity)
    }

    fn tile_at(&self, p: Point) -> PyResult<shisen::Kind> {
        if !self.board.contains(p) {
            return Err(value_error(format!(
                "{p} is off the {} board",
                self.board.size()
            )));
        }
        self.board
            .get(p)
            .ok_or_else(|| value_error(format!("no tile at {p}")))
    }
}

/// What the solver found: ``verdict`` is ``"solvable"``, ``"unsolvable"``
/// or ``"unknown"`` (the time limit ran out), ``reason`` says so in words,
/// ``moves`` is the clearing sequence when solvable (else ``None``), and
/// ``nodes`` the positions searched. True only when solvable.
#[pyclass(module = "tessera.shisen", name = "Solution", frozen)]
pub struct Solution {
    /// ``"solvable"``, ``"unsolvable"`` or ``"unknown"``.
    #[pyo3(get)]
    verdict: &'static str,
    /// The verdict in words.
    #[pyo3(get)]
    reason: String,
    /// The pairs to remove in order, when solvable.
    #[pyo3(get)]
    moves: Option<Vec<Pair>>,
    /// Positions searched.
    #[pyo3(get)]
    nodes: u64,
}

#[pymethods]
impl Solution {
    fn __bool__(&self) -> bool {
        self.moves.is_some()
    }

    fn __repr__(&self) -> String {
        match &self.moves {
            Some(moves) => format!(
                "Solution(verdict='solvable', moves=<{} pairs>)",
                moves.len()
            ),
            None => format!(
                "Solution(verdict='{}', reason='{}')",
                self.verdict, self.reason
            ),
        }
    }
}
