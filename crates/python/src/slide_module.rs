//! `tessera.slide`: positions, the optimal and fast solvers, the pattern
//! database cache, and batch distances for NumPy arrays.

use crate::{interrupt, seconds, value_error};
use numpy::{PyArray1, PyArray2, PyReadonlyArray2};
use play::slide_game::{
    check_optimal_size, DatasetError, DatasetSpec, GoalChoice, LabelError, SlideSpec,
};
use play::tables::{Quiet, TableConfig};
use play::Deadline;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use rayon::prelude::*;
use slide::{
    Databases, FastError, Goal, HeuristicKind, Metric, Moves, Scramble, Size, SolveError,
    SolveOptions,
};
use std::time::Instant;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Position>()?;
    m.add_class::<Solution>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(fast_solve, m)?)?;
    m.add_function(wrap_pyfunction!(distances, m)?)?;
    m.add_function(wrap_pyfunction!(dataset, m)?)?;
    let tables = PyModule::new(m.py(), "tessera.slide.tables")?;
    tables.add_function(wrap_pyfunction!(build, &tables)?)?;
    tables.add_function(wrap_pyfunction!(status, &tables)?)?;
    m.add_submodule(&tables)?;
    Ok(())
}

/// A sliding-puzzle position: tiles in row-major order, ``0`` the blank.
///
/// Positions are immutable; ``apply`` returns a new one.
///
/// >>> from tessera.slide import Position
/// >>> p = Position.parse("1 2 3/4 5 6/7 0 8")
/// >>> p
/// Position('1 2 3/4 5 6/7 0 8')
/// >>> print(p.apply("L"))
/// 1 2 3/4 5 6/7 8 0
/// >>> p.width, p.height, p.tiles[-2:], p.blank
/// (3, 3, [0, 8], 7)
#[pyclass(
    module = "tessera.slide",
    name = "Position",
    frozen,
    eq,
    hash,
    from_py_object
)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position(pub(crate) slide::Position);

#[pymethods]
impl Position {
    /// Reads a position: rows split by ``/`` or newlines, cells by spaces
    /// or commas, ``0`` the blank. ``size`` (``"4x3"``) is needed only for
    /// a flat list whose length is not a square.
    ///
    /// >>> Position.parse("1 2 3 4 5 6 7 8 0 9 10 11", size="4x3")
    /// Position('1 2 3 4/5 6 7 8/0 9 10 11')
    /// >>> Position.parse("1 2/2 0")
    /// Traceback (most recent call last):
    /// ...
    /// ValueError: tile 2 appears twice: at row 1, column 2 and at row 2, column 1
    #[staticmethod]
    #[pyo3(signature = (text, size=None))]
    fn parse(text: &str, size: Option<&Bound<'_, PyAny>>) -> PyResult<Position> {
        let size = size.map(size_of).transpose()?;
        slide::Position::parse(text, size)
            .map(Position)
            .map_err(value_error)
    }

    /// The puzzle ``tessera slide new --size SIZE --seed SEED --goal GOAL
    /// --scramble SCRAMBLE`` prints: drawn uniformly among the positions
    /// that reach the goal, or with ``scramble="walk:K"`` ``K`` random
    /// moves from it (positions near the goal, for weaker solvers).
    ///
    /// >>> Position.random("3x3", seed=1)
    /// Position('4 2 8/7 3 6/1 5 0')
    /// >>> Position.random(3, seed=1).is_solvable()
    /// True
    /// >>> Position.random(4, seed=1, scramble="walk:2")
    /// Position('1 2 3 4/5 6 7 8/9 10 11 12/13 0 14 15')
    #[staticmethod]
    #[pyo3(signature = (size, seed, goal="row-major", scramble="uniform"))]
    fn random(
        size: &Bound<'_, PyAny>,
        seed: u64,
        goal: &str,
        scramble: &str,
    ) -> PyResult<Position> {
        let goal: Goal = goal.parse().map_err(value_error)?;
        let scramble: Scramble = scramble
            .parse()
            .map_err(|e: slide::ScrambleError| value_error(e))?;
        let spec = SlideSpec::new(size_of(size)?, GoalChoice::Goal(goal)).map_err(value_error)?;
        let puzzle = spec.issue(seed).map_err(value_error)?;
        // As `slide new` does: a walk starts from the goal the seed issued.
        Ok(Position(match scramble {
            Scramble::Uniform => puzzle.start,
            walk => walk.generate(&puzzle.goal_position, seed),
        }))
    }

    /// Columns.
    #[getter]
    fn width(&self) -> usize {
        self.0.size().width()
    }

    /// Rows.
    #[getter]
    fn height(&self) -> usize {
        self.0.size().height()
    }

    /// The size as ``"WxH"``.
    #[getter]
    fn size(&self) -> String {
        self.0.size().to_string()
    }

    /// The tiles in row-major order, ``0`` for the blank.
    #[getter]
    fn tiles(&self) -> Vec<u32> {
        self.0.tiles().to_vec()
    }

    /// The blank's cell, counted row-major from 0.
    #[getter]
    fn blank(&self) -> usize {
        self.0.blank()
    }

    /// Whether the position can reach ``goal`` (a goal name such as
    /// ``"row-major"``, ``"blank-first"``, ``"snake"``, ``"spiral"``,
    /// ``"missing:K"``, or a Position).
    ///
    /// >>> Position.parse("1 2 3/4 5 6/8 7 0").is_solvable()
    /// False
    /// >>> Position.parse("1 2 3/4 5 6/8 7 0").is_solvable("1 2 3/4 5 6/8 7 0")
    /// True
    #[pyo3(signature = (goal=GoalArg::default()), text_signature = "($self, goal='row-major')")]
    fn is_solvable(&self, goal: GoalArg) -> PyResult<bool> {
        let goal = goal.on(self.0.size())?;
        self.0.is_solvable(&goal).map_err(value_error)
    }

    /// The sum of the tiles' taxicab distances to their goal cells: a lower
    /// bound on the moves to the goal.
    ///
    /// >>> Position.parse("1 2 3/4 5 6/0 7 8").manhattan()
    /// 2
    #[pyo3(signature = (goal=GoalArg::default()), text_signature = "($self, goal='row-major')")]
    fn manhattan(&self, goal: GoalArg) -> PyResult<u64> {
        let goal = goal.on(self.0.size())?;
        self.0.manhattan(&goal).map_err(value_error)
    }

    /// The position after ``moves``: letters ``U D L R`` naming the
    /// direction a tile slides, ``R3`` for three in a row.
    ///
    /// >>> Position.parse("1 2 3/4 5 6/0 7 8").apply("L2")
    /// Position('1 2 3/4 5 6/7 8 0')
    /// >>> Position.parse("1 2 3/4 5 6/7 8 0").apply("RU")
    /// Traceback (most recent call last):
    /// ...
    /// ValueError: move 2 (U) is illegal: no tile can slide up
    fn apply(&self, moves: &str) -> PyResult<Position> {
        let moves: Moves = moves.parse().map_err(value_error)?;
        let mut position = self.0.clone();
        position.apply_all(&moves).map_err(value_error)?;
        Ok(Position(position))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.0)
    }

    /// Pickled as its text, so positions travel to worker processes.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        let parse = slf.get_type().getattr("parse")?;
        let position = &slf.get().0;
        Ok((parse, (position.to_string(), position.size().to_string())))
    }
}

/// The size a Python value names: ``"4x3"``, or ``4`` for 4×4.
pub(crate) fn size_of(value: &Bound<'_, PyAny>) -> PyResult<Size> {
    if let Ok(side) = value.extract::<usize>() {
        return Size::square(side).map_err(value_error);
    }
    let text: String = value.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err("a size is a string such as \"4x3\" or a side")
    })?;
    text.parse().map_err(|e: slide::SizeError| value_error(e))
}

/// A goal as a caller gives it: a name (or a position's text), or a
/// Position.
#[derive(FromPyObject)]
pub(crate) enum GoalArg {
    Position(Position),
    Text(String),
}

impl Default for GoalArg {
    fn default() -> GoalArg {
        GoalArg::Text("row-major".to_string())
    }
}

impl GoalArg {
    /// The goal laid out on a board of `size`.
    pub(crate) fn on(&self, size: Size) -> PyResult<slide::Position> {
        let goal: Goal = match self {
            GoalArg::Position(p) => return Ok(p.0.clone()),
            GoalArg::Text(text) => text.parse().map_err(value_error)?,
        };
        goal.position(size).map_err(value_error)
    }
}

/// A solution: ``moves`` in ``U D L R`` letters, its length in single-tile
/// (``stm``) and multi-tile (``mtm``) moves, and whether it is proven
/// shortest (``optimal``); ``lower_bound`` is the proven lower bound on the
/// optimal length, ``nodes`` the search nodes it took.
///
/// >>> from tessera.slide import Position, solve
/// >>> s = solve(Position.parse("1 2 3/4 5 6/0 7 8"))
/// >>> s
/// Solution(moves='LL', stm=2, mtm=1, optimal=True)
/// >>> s.lower_bound, len(s)
/// (2, 2)
#[pyclass(
    module = "tessera.slide",
    name = "Solution",
    frozen,
    eq,
    skip_from_py_object
)]
#[derive(Clone, PartialEq, Eq)]
pub struct Solution {
    /// The moves, one letter per single-tile move.
    #[pyo3(get)]
    moves: String,
    /// Single-tile moves.
    #[pyo3(get)]
    stm: usize,
    /// Multi-tile moves (a run of tiles slid along a line counts once).
    #[pyo3(get)]
    mtm: usize,
    /// Whether the moves are proven shortest in the metric solved for.
    #[pyo3(get)]
    optimal: bool,
    /// A proven lower bound on the optimal length.
    #[pyo3(get)]
    lower_bound: u32,
    /// Search nodes expanded (0 for the fast solver).
    #[pyo3(get)]
    nodes: u64,
}

#[pymethods]
impl Solution {
    fn __len__(&self) -> usize {
        self.stm
    }

    fn __repr__(&self) -> String {
        format!(
            "Solution(moves='{}', stm={}, mtm={}, optimal={})",
            self.moves,
            self.stm,
            self.mtm,
            if self.optimal { "True" } else { "False" }
        )
    }
}

impl From<slide::Solution> for Solution {
    fn from(s: slide::Solution) -> Solution {
        Solution {
            moves: s.moves.to_string(),
            stm: s.stm(),
            mtm: s.mtm(),
            optimal: s.optimal,
            lower_bound: s.lower_bound,
            nodes: s.nodes,
        }
    }
}

/// Which pattern databases to search with: "auto" takes the large set
/// when it is in the cache and the small one (built in seconds) otherwise,
/// so no call waits minutes for a build it did not ask for.
fn heuristic_of(name: &str, size: Size, goal_blank: usize) -> PyResult<HeuristicKind> {
    if name.trim().eq_ignore_ascii_case("auto") {
        let large = TableConfig {
            heuristic: HeuristicKind::Large,
            cache_dir: None,
        };
        return Ok(if large.is_cached(size, goal_blank) {
            HeuristicKind::Large
        } else {
            HeuristicKind::Small
        });
    }
    name.parse()
        .map_err(|e: slide::solver::HeuristicError| value_error(format!("{e}, or auto")))
}

/// Loads (or builds and caches) the tables `kind` needs on boards of
/// `size` towards a goal blank at `goal_blank`, into the process's set;
/// `None` if `interrupted` stopped a build.
fn prepare(
    kind: HeuristicKind,
    size: Size,
    goal_blank: usize,
    interrupted: &Deadline,
) -> Option<()> {
    let config = TableConfig {
        heuristic: kind,
        cache_dir: None,
    };
    let stop = || interrupted.passed();
    config
        .prepare_until(size, goal_blank, Databases::global(), &mut Quiet, &stop)
        .map(|_| ())
}

/// The error of work that gave up because Ctrl-C cancelled it. Seldom
/// seen: [`interrupt::run`] raises the signal's own exception first.
fn keyboard_interrupt() -> PyErr {
    pyo3::exceptions::PyKeyboardInterrupt::new_err(())
}

/// Solves ``position`` towards ``goal``.
///
/// With ``optimal=True`` (boards of up to 16 cells; up to 25 with a
/// ``time_limit``) the solution is shortest in ``metric`` (``"stm"``
/// single-tile or ``"mtm"`` multi-tile moves); stopped by ``time_limit``
/// (seconds) it is the best found, marked ``optimal`` only if proven. With
/// ``optimal=False`` the fast solver answers at once on any size. Tables
/// are loaded from the cache (``tables.status()``) or built for the
/// position's size on first use; ``heuristic`` is ``"auto"``, ``"large"``,
/// ``"small"`` or ``"manhattan"``. Ctrl-C stops the search.
///
/// >>> from tessera.slide import Position, solve
/// >>> solve(Position.parse("8 6 7/2 5 4/3 0 1"))
/// Solution(moves='LDDRUULDDRURULLDRRDLLURRULDDLUU', stm=31, mtm=22, optimal=True)
/// >>> solve(Position.parse("8 6 7/2 5 4/3 0 1"), metric="mtm").mtm
/// 20
/// >>> solve(Position.parse("1 2 3/4 5 6/8 7 0"))
/// Traceback (most recent call last):
/// ...
/// ValueError: unsolvable: the position cannot reach the goal
#[pyfunction]
#[pyo3(
    signature = (position, goal=GoalArg::default(), optimal=true, metric="stm", time_limit=None, heuristic="auto"),
    text_signature = "(position, goal='row-major', optimal=True, metric='stm', time_limit=None, heuristic='auto')"
)]
fn solve(
    py: Python<'_>,
    position: &Position,
    goal: GoalArg,
    optimal: bool,
    metric: &str,
    time_limit: Option<f64>,
    heuristic: &str,
) -> PyResult<Solution> {
    let metric: Metric = metric.parse().map_err(value_error)?;
    let limit = seconds(time_limit)?;
    let position = &position.0;
    let goal = goal.on(position.size())?;
    if !optimal {
        if metric == Metric::Mtm {
            return Err(value_error(
                "the fast solver counts single-tile moves only: use optimal=True for metric=\"mtm\"",
            ));
        }
        return fast(py, position, &goal);
    }
    position.solvability(&goal).map_err(value_error)?;
    check_optimal_size(position.size(), limit.is_some()).map_err(value_error)?;
    let kind = heuristic_of(heuristic, goal.size(), goal.blank())?;
    let started = Instant::now();
    // Ctrl-C stops the table builds; it and the time limit, the search.
    let (interrupted, cancel) = Deadline::none().cancellable();
    let deadline = match limit {
        Some(limit) => interrupted.clone().within(limit),
        None => interrupted.clone(),
    };
    // The bounded mode shortens its solution for a share of the time and
    // raises its lower bound for the rest, as on the command line.
    let shortening = limit.map(|t| started + t.mul_f64(slide::SHORTENING_SHARE));
    let found = interrupt::run(py, &cancel, || {
        prepare(kind, goal.size(), goal.blank(), &interrupted)?;
        let stop = || deadline.passed();
        let shorten_stop =
            || shortening.is_some_and(|at| Instant::now() >= at) || deadline.passed();
        let options = SolveOptions {
            heuristic: kind,
            stop: Some(&stop),
            shorten_stop: Some(&shorten_stop),
            ..SolveOptions::default()
        };
        Some(slide::solve_optimal(
            position,
            &goal,
            &options.in_metric(metric),
        ))
    })?;
    found
        .ok_or_else(keyboard_interrupt)?
        .map(Solution::from)
        .map_err(value_error)
}

/// The fast solver's answer: not proven shortest, Manhattan as its bound.
/// Ctrl-C stops it before its next line.
fn fast(py: Python<'_>, position: &slide::Position, goal: &slide::Position) -> PyResult<Solution> {
    let (interrupted, cancel) = Deadline::none().cancellable();
    let solved = interrupt::run(py, &cancel, || {
        let stop = || interrupted.passed();
        let mut moves = Vec::new();
        slide::FastSolver::default().solve_until(position, goal, &mut |d| moves.push(d), &stop)?;
        // Millions of moves on large boards: spelt out here, without the GIL.
        let moves = Moves(moves);
        Ok((moves.to_string(), moves.len(), moves.mtm_len()))
    })?;
    let (moves, stm, mtm) = solved.map_err(|e| match e {
        FastError::Stopped => keyboard_interrupt(),
        e => value_error(e),
    })?;
    let bound = position.manhattan(goal).map_err(value_error)?;
    Ok(Solution {
        stm,
        mtm,
        moves,
        optimal: false,
        lower_bound: bound.min(u64::from(u32::MAX)) as u32,
        nodes: 0,
    })
}

/// A short solution at once, on boards of any size (about 2 n³ moves on
/// n×n): ``solve(position, goal, optimal=False)``. Ctrl-C stops it (within
/// a tenth of a second on 1000×1000).
///
/// >>> from tessera.slide import Position, fast_solve
/// >>> p = Position.random("20x20", seed=3)
/// >>> s = fast_solve(p)
/// >>> str(p.apply(s.moves)) == str(Position.parse(" ".join(map(str, list(range(1, 400)) + [0])), size="20x20"))
/// True
#[pyfunction]
#[pyo3(signature = (position, goal=GoalArg::default()), text_signature = "(position, goal='row-major')")]
fn fast_solve(py: Python<'_>, position: &Position, goal: GoalArg) -> PyResult<Solution> {
    let goal = goal.on(position.0.size())?;
    fast(py, &position.0, &goal)
}

/// The optimal distances of a batch of positions, solved in parallel on
/// every core (or ``threads``) with the GIL released.
///
/// ``positions`` is a NumPy ``uint8`` array of shape ``(N, H*W)``, one
/// position per row in row-major order (``0`` the blank); ``size`` is
/// needed when ``H*W`` is not a square. The result is an ``int32`` array
/// of ``N`` distances in ``metric``. A row that is not a position of the
/// size, or cannot reach the goal, raises ``ValueError`` naming its index.
///
/// >>> import numpy as np
/// >>> from tessera.slide import distances
/// >>> distances(np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0], [1, 2, 3, 4, 5, 6, 0, 7, 8]], dtype=np.uint8))
/// array([0, 2], dtype=int32)
/// >>> distances(np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0], [1, 1, 3, 4, 5, 6, 0, 7, 8]], dtype=np.uint8))
/// Traceback (most recent call last):
/// ...
/// ValueError: row 1: tile 1 appears twice: at row 1, column 1 and at row 1, column 2
#[pyfunction]
#[pyo3(
    signature = (positions, goal=GoalArg::default(), size=None, metric="stm", heuristic="auto", threads=None),
    text_signature = "(positions, goal='row-major', size=None, metric='stm', heuristic='auto', threads=None)"
)]
fn distances<'py>(
    py: Python<'py>,
    positions: PyReadonlyArray2<'py, u8>,
    goal: GoalArg,
    size: Option<&Bound<'py, PyAny>>,
    metric: &str,
    heuristic: &str,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let metric: Metric = metric.parse().map_err(value_error)?;
    let rows = positions.as_array();
    let cells = rows.ncols();
    let size = match size {
        Some(size) => size_of(size)?,
        None => square_of(cells)?,
    };
    if size.cells() != cells {
        return Err(value_error(format!(
            "{size} has {} cells but the rows have {cells}",
            size.cells()
        )));
    }
    let goal = goal.on(size)?;
    check_optimal_size(size, false).map_err(value_error)?;
    // Every row is read before any is solved: a bad one raises at once.
    let starts = rows
        .rows()
        .into_iter()
        .enumerate()
        .map(|(index, row)| {
            let tiles = row.iter().map(|&t| u32::from(t)).collect();
            let position = slide::Position::new(size, tiles)
                .map_err(|e| value_error(format!("row {index}: {e}")))?;
            match position.is_solvable(&goal) {
                Ok(true) => Ok(position),
                Ok(false) => Err(value_error(format!(
                    "row {index}: unsolvable: the position cannot reach the goal"
                ))),
                Err(e) => Err(value_error(format!("row {index}: {e}"))),
            }
        })
        .collect::<PyResult<Vec<_>>>()?;
    let solved = optimal_distances(py, &starts, &goal, metric, heuristic, threads)?;
    Ok(PyArray1::from_vec(py, solved))
}

/// The optimal distances of `starts` to `goal`, solved in parallel (on
/// `threads`, or every core) without the GIL; Ctrl-C stops them.
fn optimal_distances(
    py: Python<'_>,
    starts: &[slide::Position],
    goal: &slide::Position,
    metric: Metric,
    heuristic: &str,
    threads: Option<usize>,
) -> PyResult<Vec<i32>> {
    let size = goal.size();
    let kind = heuristic_of(heuristic, size, goal.blank())?;
    let pool = pool(threads)?;
    let (deadline, cancel) = Deadline::none().cancellable();
    let solved = interrupt::run(py, &cancel, || {
        prepare(kind, size, goal.blank(), &deadline)?;
        let stop = || deadline.passed();
        let options = SolveOptions {
            heuristic: kind,
            stop: Some(&stop),
            ..SolveOptions::default()
        };
        Some(pool.install(|| {
            starts
                .par_iter()
                .map(|start| distance(start, goal, metric, &options))
                .collect::<Result<Vec<i32>, SolveError>>()
        }))
    })?;
    solved.ok_or_else(keyboard_interrupt)?.map_err(value_error)
}

/// A pool of `threads` workers, or one per core.
fn pool(threads: Option<usize>) -> PyResult<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(value_error)
}

/// A labelled data set: the ``n`` puzzles ``Position.random(size, seed +
/// i, goal, scramble)`` gives for ``i`` in ``0..n`` (``tessera slide new
/// --seed SEED --count N``), with their distances to the goal, solved in
/// parallel (every core, or ``threads``) with the GIL released; ``tessera
/// slide dataset`` writes the same arrays to an ``.npz`` file.
///
/// Returns ``(positions, distances, optimal)``: a ``(n, cells)`` ``uint8``
/// array, a ``(n,)`` ``int32`` array of distances in ``metric``, and a
/// ``(n,)`` ``bool`` array saying which distances are proven optimal. On
/// boards the optimal solver labels (up to 16 cells) every distance is
/// optimal. Past them, ``exact=True`` raises ``ValueError``, and
/// ``exact=False`` labels with the fast solver's length: an upper bound,
/// marked not optimal. With ``first_moves=True`` a fourth ``(n,)`` ``int8``
/// array holds each row's first move (0 1 2 3 for U D L R, as
/// ``next_states`` numbers them; -1 at the goal) of the solution labelled.
///
/// >>> from tessera.slide import dataset, Position
/// >>> positions, distances, optimal = dataset(3, "3x3", seed=1)
/// >>> distances, bool(optimal.all())
/// (array([22, 22, 21], dtype=int32), True)
/// >>> list(positions[0]) == Position.random("3x3", seed=1).tiles
/// True
/// >>> dataset(2, "5x5")
/// Traceback (most recent call last):
/// ...
/// ValueError: 5x5 is too large to solve optimally in reasonable time (at most 16 cells); exact=False gives the fast solver's upper bounds
#[pyfunction]
#[pyo3(
    signature = (n, size, goal="row-major", scramble="uniform", seed=0, metric="stm", exact=true, heuristic="auto", threads=None, first_moves=false),
    text_signature = "(n, size, goal='row-major', scramble='uniform', seed=0, metric='stm', exact=True, heuristic='auto', threads=None, first_moves=False)"
)]
#[allow(clippy::too_many_arguments)]
fn dataset<'py>(
    py: Python<'py>,
    n: usize,
    size: &Bound<'py, PyAny>,
    goal: &str,
    scramble: &str,
    seed: u64,
    metric: &str,
    exact: bool,
    heuristic: &str,
    threads: Option<usize>,
    first_moves: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let metric: Metric = metric.parse().map_err(value_error)?;
    let size = size_of(size)?;
    let goal: Goal = goal.parse().map_err(value_error)?;
    let scramble: Scramble = scramble
        .parse()
        .map_err(|e: slide::ScrambleError| value_error(e))?;
    let spec = DatasetSpec::new(n, size, goal, scramble, seed, metric, exact, first_moves)
        .map_err(|e| match e {
            DatasetError::NotExact(e) => value_error(format!(
                "{e}; exact=False gives the fast solver's upper bounds"
            )),
            DatasetError::MultiTileInexact(_) => value_error(format!("{e}: use metric=\"stm\"")),
            e => value_error(e),
        })?;
    // The fast solver, past the optimal one, reads no tables.
    let kind = match spec.optimal {
        true => heuristic_of(heuristic, size, spec.goal.blank())?,
        false => SolveOptions::default().heuristic,
    };
    let pool = pool(threads)?;
    let (deadline, cancel) = Deadline::none().cancellable();
    let labelled = interrupt::run(py, &cancel, || {
        if spec.optimal {
            prepare(kind, size, spec.goal.blank(), &deadline)?;
        }
        let stop = || deadline.passed();
        let options = SolveOptions {
            heuristic: kind,
            stop: Some(&stop),
            ..SolveOptions::default()
        };
        Some(pool.install(|| spec.generate(&options, &|| ())))
    })?;
    let set = match labelled.ok_or_else(keyboard_interrupt)? {
        Ok(set) => set,
        Err(LabelError::Stopped) => return Err(keyboard_interrupt()),
        Err(e) => return Err(value_error(e)),
    };
    let positions = numpy::ndarray::Array2::from_shape_vec((n, set.cells), set.positions)
        .map_err(value_error)?;
    let mut arrays = vec![
        PyArray2::from_owned_array(py, positions).into_any(),
        PyArray1::from_vec(py, set.distances).into_any(),
        PyArray1::from_vec(py, vec![set.optimal; n]).into_any(),
    ];
    if let Some(firsts) = set.first_moves {
        arrays.push(PyArray1::from_vec(py, firsts).into_any());
    }
    PyTuple::new(py, arrays)
}

/// One row's distance (a cancelled search gives up with a bound, which is
/// never returned: the caller raises KeyboardInterrupt instead).
fn distance(
    start: &slide::Position,
    goal: &slide::Position,
    metric: Metric,
    options: &SolveOptions,
) -> Result<i32, SolveError> {
    let solution = slide::solve_optimal(start, goal, &options.in_metric(metric))?;
    Ok(solution.length(metric) as i32)
}

/// The square board of `cells` cells, or an error asking for the size.
pub(crate) fn square_of(cells: usize) -> PyResult<Size> {
    let side = (cells as f64).sqrt().round() as usize;
    if side * side != cells || cells == 0 {
        return Err(value_error(format!(
            "rows of {cells} cells are no square board: give the size (e.g. size=\"4x3\")"
        )));
    }
    Size::square(side).map_err(value_error)
}

/// Builds (or loads) the pattern databases the optimal solver uses on
/// boards of ``size`` towards ``goal`` and caches them on disk (in
/// ``cache_dir``, by default ``$XDG_CACHE_HOME/tessera``), so later solves
/// start at once. The large 4x4 set (7-8, 288 MB) takes about two minutes
/// once; Ctrl-C stops it, keeping the tables already finished. Returns
/// what it cost: seconds building and loading, bytes on disk and in
/// memory.
///
/// >>> from tessera.slide import tables
/// >>> report = tables.build("3x3")
/// >>> sorted(report)
/// ['built_seconds', 'bytes_in_memory', 'bytes_on_disk', 'loaded_seconds']
#[pyfunction]
#[pyo3(signature = (size=None, goal="row-major", heuristic="large", cache_dir=None))]
fn build<'py>(
    py: Python<'py>,
    size: Option<&Bound<'py, PyAny>>,
    goal: &str,
    heuristic: &str,
    cache_dir: Option<std::path::PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let size = match size {
        Some(size) => size_of(size)?,
        None => Size::square(4).map_err(value_error)?,
    };
    let goal: Goal = goal.parse().map_err(value_error)?;
    let goal = goal.position(size).map_err(value_error)?;
    let heuristic: HeuristicKind = heuristic
        .parse()
        .map_err(|e: slide::solver::HeuristicError| value_error(e))?;
    let config = TableConfig {
        heuristic,
        cache_dir,
    };
    let (interrupted, cancel) = Deadline::none().cancellable();
    let report = interrupt::run(py, &cancel, || {
        let stop = || interrupted.passed();
        config.prepare_until(size, goal.blank(), Databases::global(), &mut Quiet, &stop)
    })?
    .ok_or_else(keyboard_interrupt)?;
    let dict = PyDict::new(py);
    dict.set_item("built_seconds", report.built.as_secs_f64())?;
    dict.set_item("loaded_seconds", report.loaded.as_secs_f64())?;
    dict.set_item("bytes_on_disk", report.bytes_on_disk)?;
    dict.set_item("bytes_in_memory", report.bytes_in_memory)?;
    Ok(dict)
}

/// The cached tables: ``{"directory": str, "tables": [{"name", "bytes"}],
/// "complete": {"4x4-small": bool, "4x4-large": bool, "5x5-small": bool,
/// "5x5-large": bool}}``, the last saying which sets (blank in a corner)
/// are all there.
///
/// >>> from tessera.slide import tables
/// >>> sorted(tables.status()["complete"])
/// ['4x4-large', '4x4-small', '5x5-large', '5x5-small']
#[pyfunction]
#[pyo3(signature = (cache_dir=None))]
fn status<'py>(
    py: Python<'py>,
    cache_dir: Option<std::path::PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let dir = cache_dir
        .or_else(play::tables::default_cache_dir)
        .ok_or_else(|| {
            value_error("no cache directory: give cache_dir, or set XDG_CACHE_HOME or HOME")
        })?;
    let cached =
        play::tables::cached(&dir).map_err(|e| value_error(format!("{}: {e}", dir.display())))?;
    let tables = PyList::empty(py);
    for table in cached {
        let entry = PyDict::new(py);
        entry.set_item("name", table.name)?;
        entry.set_item("bytes", table.bytes)?;
        tables.append(entry)?;
    }
    let complete = PyDict::new(py);
    for side in [4, 5] {
        for (kind, name) in [
            (HeuristicKind::Small, "small"),
            (HeuristicKind::Large, "large"),
        ] {
            let size = Size::square(side).map_err(value_error)?;
            let config = TableConfig {
                heuristic: kind,
                cache_dir: Some(dir.clone()),
            };
            complete.set_item(
                format!("{size}-{name}"),
                config.is_cached(size, size.cells() - 1),
            )?;
        }
    }
    let dict = PyDict::new(py);
    dict.set_item("directory", dir)?;
    dict.set_item("tables", tables)?;
    dict.set_item("complete", complete)?;
    Ok(dict)
}
