//! Batched sliding-puzzle primitives on NumPy arrays: many positions moved,
//! expanded, tested or generated in one call, with the GIL released.
//!
//! Positions are rows of a `(N, cells)` `uint8` array, tiles in row-major
//! order, `0` the blank. Actions are `0 1 2 3` for `U D L R`, the direction
//! a tile slides (the blank goes the other way). The loops are written
//! here on flat byte rows: the engine's `Position` would cost an
//! allocation per row.

use crate::value_error;
use numpy::ndarray::{Array2, Array3};
use numpy::{
    PyArray1, PyArray2, PyArray3, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use play::slide_game::{GoalChoice, SlideSpec};
use pyo3::prelude::*;
use rayon::prelude::*;
use slide::{Goal, Scramble, Size};

/// Two arrays a call returns.
type Pair<'py, A, B> = PyResult<(Bound<'py, A>, Bound<'py, B>)>;

/// Rows handed to one rayon task: small batches stay on the calling
/// thread, where spawning would cost more than the work.
pub(crate) const ROWS_PER_TASK: usize = 4096;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(next_states, m)?)?;
    m.add_function(wrap_pyfunction!(expand, m)?)?;
    m.add_function(wrap_pyfunction!(is_goal, m)?)?;
    m.add_function(wrap_pyfunction!(random_walks, m)?)?;
    Ok(())
}

/// The private helpers of `tessera.gym`, on the extension module itself.
pub fn register_private(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(random_positions, m)?)?;
    Ok(())
}

/// The board's geometry, for moving blanks on flat rows.
#[derive(Clone, Copy)]
pub(crate) struct Board {
    pub(crate) width: usize,
    pub(crate) height: usize,
}

impl Board {
    fn of(size: Size) -> Board {
        Board {
            width: size.width(),
            height: size.height(),
        }
    }

    pub(crate) fn cells(self) -> usize {
        self.width * self.height
    }

    /// The cell of the tile that slides into `blank` under `action`
    /// (`U D L R`), if there is one.
    #[inline]
    pub(crate) fn source(self, blank: usize, action: usize) -> Option<usize> {
        let (x, y) = (blank % self.width, blank / self.width);
        match action {
            0 => (y + 1 < self.height).then(|| blank + self.width),
            1 => (y > 0).then(|| blank - self.width),
            2 => (x + 1 < self.width).then(|| blank + 1),
            _ => (x > 0).then(|| blank - 1),
        }
    }
}

/// The blank's cell in a row known to hold one.
#[inline]
pub(crate) fn blank_of(row: &[u8]) -> usize {
    row.iter().position(|&t| t == 0).unwrap_or(0)
}

/// A NumPy array argument of `dtype`, with a message naming what was
/// expected when it is something else.
fn array_arg<'py>(
    value: &Bound<'py, PyAny>,
    name: &str,
    dtype: &str,
    shape: &str,
) -> PyResult<Bound<'py, PyUntypedArray>> {
    let array = value.cast::<PyUntypedArray>().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "{name} must be a NumPy {dtype} array of shape {shape}, not {}",
            value
                .get_type()
                .name()
                .map_or_else(|_| "an object".to_string(), |n| n.to_string())
        ))
    })?;
    Ok(array.clone())
}

/// The shape of an array as Python prints it.
fn shape_text(shape: &[usize]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A `(N, cells)` `uint8` array of positions, its rows checked to be
/// positions of the size (`size`, or the square of `cells`).
fn states_arg<'py>(
    value: &Bound<'py, PyAny>,
    size: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Vec<u8>, usize, Size)> {
    let array = array_arg(value, "states", "uint8", "(N, cells)")?;
    let shape = array.shape().to_vec();
    let dtype = array.dtype();
    if dtype.kind() != b'u' || dtype.itemsize() != 1 || shape.len() != 2 {
        return Err(value_error(format!(
            "states must be a uint8 array of shape (N, cells), not {} of shape {}",
            dtype.str()?,
            shape_text(&shape)
        )));
    }
    let (rows, cells) = (shape[0], shape[1]);
    let size = match size {
        Some(size) => crate::slide_module::size_of(size)?,
        None => crate::slide_module::square_of(cells)?,
    };
    if size.cells() != cells {
        return Err(value_error(format!(
            "states must have shape (N, {}) for {size}, not {}",
            size.cells(),
            shape_text(&shape)
        )));
    }
    let array = array.cast::<PyArray2<u8>>()?.readonly();
    let flat: Vec<u8> = match array.as_slice() {
        Ok(slice) => slice.to_vec(),
        Err(_) => array.as_array().iter().copied().collect(),
    };
    if let Some(bad) = (0..rows).find(|&r| !is_position(&flat[r * cells..(r + 1) * cells])) {
        let tiles = flat[bad * cells..(bad + 1) * cells]
            .iter()
            .map(|&t| u32::from(t))
            .collect();
        let message = match slide::Position::new(size, tiles) {
            Err(e) => e.to_string(),
            Ok(_) => "not a position".to_string(),
        };
        return Err(value_error(format!("row {bad}: {message}")));
    }
    Ok((flat, rows, size))
}

/// Whether a row is a position as `slide::Position::new` accepts: labels
/// at most the cell count, none twice, one of them the blank.
fn is_position(row: &[u8]) -> bool {
    let mut seen = [0u64; 4];
    for &tile in row {
        let (word, bit) = (usize::from(tile) / 64, 1u64 << (tile % 64));
        if usize::from(tile) > row.len() || seen[word] & bit != 0 {
            return false;
        }
        seen[word] |= bit;
    }
    seen[0] & 1 != 0
}

/// A 1-D array of `rows` actions `0..=3`, of any integer dtype; `range`
/// says what an action is, after `actions[i] is a: `.
pub(crate) fn actions_arg(value: &Bound<'_, PyAny>, rows: usize, range: &str) -> PyResult<Vec<u8>> {
    let array = array_arg(value, "actions", "integer", "(N,)")?;
    let shape = array.shape().to_vec();
    let dtype = array.dtype();
    if !matches!(dtype.kind(), b'i' | b'u') || shape != [rows] {
        return Err(value_error(format!(
            "actions must be an integer array of shape ({rows},), not {} of shape {}",
            dtype.str()?,
            shape_text(&shape)
        )));
    }
    // Read in the array's own dtype: a conversion to one would cost an
    // allocation and a call back into NumPy on every step.
    fn read<T: numpy::Element + Copy + Into<i128>>(
        array: &Bound<'_, PyUntypedArray>,
        range: &str,
    ) -> PyResult<Vec<u8>> {
        let typed = array.cast::<PyArray1<T>>()?.readonly();
        let narrow = |(i, &a): (usize, &T)| {
            let a: i128 = a.into();
            u8::try_from(a)
                .ok()
                .filter(|&a| a < 4)
                .ok_or_else(|| value_error(format!("actions[{i}] is {a}: {range}")))
        };
        match typed.as_slice() {
            Ok(slice) => slice.iter().enumerate().map(narrow).collect(),
            Err(_) => typed.as_array().iter().enumerate().map(narrow).collect(),
        }
    }
    match (dtype.kind(), dtype.itemsize()) {
        (b'i', 8) => read::<i64>(&array, range),
        (b'i', 4) => read::<i32>(&array, range),
        (b'i', 2) => read::<i16>(&array, range),
        (b'i', _) => read::<i8>(&array, range),
        (b'u', 8) => read::<u64>(&array, range),
        (b'u', 4) => read::<u32>(&array, range),
        (b'u', 2) => read::<u16>(&array, range),
        _ => read::<u8>(&array, range),
    }
}

/// What an action is, as `next_states` says it.
const BATCH_ACTIONS: &str = "an action is 0, 1, 2 or 3 (U D L R)";

/// A goal name laid out on `size`, as bytes.
fn goal_row(goal: &str, size: Size) -> PyResult<Vec<u8>> {
    let goal: Goal = goal.parse().map_err(value_error)?;
    let goal = goal.position(size).map_err(value_error)?;
    byte_row(&goal)
}

/// A position's tiles as bytes (boards of up to 255 labels).
fn byte_row(position: &slide::Position) -> PyResult<Vec<u8>> {
    position
        .tiles()
        .iter()
        .map(|&t| {
            u8::try_from(t).map_err(|_| {
                value_error(format!(
                    "{} has labels past 255, too many for uint8 arrays",
                    position.size()
                ))
            })
        })
        .collect()
}

/// The positions after one move each: ``states[i]`` with ``actions[i]``
/// (``0 1 2 3`` for ``U D L R``, the direction the tile slides) applied.
/// Returns ``(next, legal)``: a ``(N, cells)`` ``uint8`` array and a
/// ``(N,)`` ``bool`` array; where the move is illegal (no tile on that side
/// of the blank) the row is unchanged and ``legal`` is false. ``size`` is
/// needed when ``cells`` is not a square.
///
/// >>> import numpy as np
/// >>> from tessera.slide import next_states
/// >>> after, legal = next_states(np.array([[1, 2, 3, 4, 5, 6, 7, 0, 8]], dtype=np.uint8), np.array([2]))
/// >>> after, legal
/// (array([[1, 2, 3, 4, 5, 6, 7, 8, 0]], dtype=uint8), array([ True]))
/// >>> next_states(np.zeros((2, 9), dtype=np.int64), np.array([0, 1]))
/// Traceback (most recent call last):
/// ...
/// ValueError: states must be a uint8 array of shape (N, cells), not int64 of shape (2, 9)
#[pyfunction]
#[pyo3(signature = (states, actions, size=None))]
fn next_states<'py>(
    py: Python<'py>,
    states: &Bound<'py, PyAny>,
    actions: &Bound<'py, PyAny>,
    size: Option<&Bound<'py, PyAny>>,
) -> Pair<'py, PyArray2<u8>, PyArray1<bool>> {
    let (mut flat, rows, size) = states_arg(states, size)?;
    let actions = actions_arg(actions, rows, BATCH_ACTIONS)?;
    let board = Board::of(size);
    let cells = board.cells();
    let mut legal = vec![false; rows];
    py.detach(|| {
        flat.par_chunks_mut(cells)
            .zip(legal.par_iter_mut())
            .zip(actions.par_iter())
            .with_min_len(ROWS_PER_TASK)
            .for_each(|((row, legal), &action)| {
                let blank = blank_of(row);
                if let Some(from) = board.source(blank, usize::from(action)) {
                    row.swap(blank, from);
                    *legal = true;
                }
            });
    });
    let next = Array2::from_shape_vec((rows, cells), flat).map_err(value_error)?;
    Ok((
        PyArray2::from_owned_array(py, next),
        PyArray1::from_vec(py, legal),
    ))
}

/// Every child of every position: ``(children, mask)``, a ``(N, 4, cells)``
/// ``uint8`` array holding ``states[i]`` after ``U D L R`` and a ``(N, 4)``
/// ``bool`` array saying which of those moves are legal (an illegal
/// child is a copy of its parent).
///
/// >>> import numpy as np
/// >>> from tessera.slide import expand
/// >>> children, mask = expand(np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0]], dtype=np.uint8))
/// >>> mask
/// array([[False,  True, False,  True]])
/// >>> children[0, 1]
/// array([1, 2, 3, 4, 5, 0, 7, 8, 6], dtype=uint8)
#[pyfunction]
#[pyo3(signature = (states, size=None))]
fn expand<'py>(
    py: Python<'py>,
    states: &Bound<'py, PyAny>,
    size: Option<&Bound<'py, PyAny>>,
) -> Pair<'py, PyArray3<u8>, PyArray2<bool>> {
    let (flat, rows, size) = states_arg(states, size)?;
    let board = Board::of(size);
    let cells = board.cells();
    let mut children = vec![0u8; rows * 4 * cells];
    let mut mask = vec![false; rows * 4];
    py.detach(|| {
        children
            .par_chunks_mut(4 * cells)
            .zip(mask.par_chunks_mut(4))
            .zip(flat.par_chunks(cells))
            .with_min_len(ROWS_PER_TASK / 4)
            .for_each(|((children, mask), row)| {
                let blank = blank_of(row);
                for (action, child) in children.chunks_mut(cells).enumerate() {
                    child.copy_from_slice(row);
                    if let Some(from) = board.source(blank, action) {
                        child.swap(blank, from);
                        mask[action] = true;
                    }
                }
            });
    });
    let children = Array3::from_shape_vec((rows, 4, cells), children).map_err(value_error)?;
    let mask = Array2::from_shape_vec((rows, 4), mask).map_err(value_error)?;
    Ok((
        PyArray3::from_owned_array(py, children),
        PyArray2::from_owned_array(py, mask),
    ))
}

/// Which positions are the goal (a goal name such as ``"row-major"``,
/// ``"snake"`` or ``"spiral"``): a ``(N,)`` ``bool`` array.
///
/// >>> import numpy as np
/// >>> from tessera.slide import is_goal
/// >>> is_goal(np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0], [0, 1, 2, 3, 4, 5, 6, 7, 8]], dtype=np.uint8))
/// array([ True, False])
/// >>> is_goal(np.array([[0, 1, 2, 3, 4, 5, 6, 7, 8]], dtype=np.uint8), goal="blank-first")
/// array([ True])
#[pyfunction]
#[pyo3(signature = (states, goal="row-major", size=None))]
fn is_goal<'py>(
    py: Python<'py>,
    states: &Bound<'py, PyAny>,
    goal: &str,
    size: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let (flat, _, size) = states_arg(states, size)?;
    let goal = goal_row(goal, size)?;
    let solved: Vec<bool> = py.detach(|| {
        flat.par_chunks(size.cells())
            .with_min_len(ROWS_PER_TASK)
            .map(|row| row == goal.as_slice())
            .collect()
    });
    Ok(PyArray1::from_vec(py, solved))
}

/// SplitMix64: a small seeded generator, one per walk so that walks are
/// drawn in parallel and each depends only on the seed and its index.
struct SplitMix(u64);

impl SplitMix {
    fn new(seed: u64, stream: u64) -> SplitMix {
        let mut rng = SplitMix(seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03));
        rng.next();
        rng
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n` ≥ 1), by rejection.
    fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next();
            if x < zone {
                return x % n;
            }
        }
    }
}

/// ``n`` positions scrambled from ``goal`` by random walks: walk ``i``
/// takes a number of moves drawn uniformly from ``0..=depth``, never
/// undoing the move before. Returns ``(positions, depths)``: a
/// ``(n, cells)`` ``uint8`` array and the ``(n,)`` ``int32`` walk lengths,
/// each an upper bound on the position's distance to the goal. The same
/// ``seed`` gives the same walks.
///
/// >>> from tessera.slide import random_walks, distances
/// >>> positions, depths = random_walks(5, 10, "3x3", seed=1)
/// >>> positions.shape, depths.dtype.name
/// ((5, 9), 'int32')
/// >>> bool((distances(positions) <= depths).all())
/// True
#[pyfunction]
#[pyo3(signature = (n, depth, size, goal="row-major", seed=0))]
fn random_walks<'py>(
    py: Python<'py>,
    n: usize,
    depth: u32,
    size: &Bound<'py, PyAny>,
    goal: &str,
    seed: u64,
) -> Pair<'py, PyArray2<u8>, PyArray1<i32>> {
    let size = crate::slide_module::size_of(size)?;
    let goal = goal_row(goal, size)?;
    if depth > i32::MAX as u32 {
        return Err(value_error(format!("depth {depth} is too long a walk")));
    }
    let board = Board::of(size);
    let cells = board.cells();
    let mut positions = vec![0u8; n * cells];
    let mut depths = vec![0i32; n];
    py.detach(|| {
        positions
            .par_chunks_mut(cells)
            .zip(depths.par_iter_mut())
            .enumerate()
            .with_min_len(64)
            .for_each(|(index, (row, walked))| {
                let mut rng = SplitMix::new(seed, index as u64);
                let steps = rng.below(u64::from(depth) + 1);
                row.copy_from_slice(&goal);
                let mut blank = blank_of(row);
                let mut previous: Option<usize> = None;
                for _ in 0..steps {
                    let mut options = [0usize; 4];
                    let mut count = 0;
                    for action in 0..4 {
                        // The inverse of U D L R is D U R L: action ^ 1.
                        if board.source(blank, action).is_some() && previous != Some(action ^ 1) {
                            options[count] = action;
                            count += 1;
                        }
                    }
                    let action = options[rng.below(count as u64) as usize];
                    let from = board.source(blank, action).unwrap_or(blank);
                    row.swap(blank, from);
                    blank = from;
                    previous = Some(action);
                }
                *walked = steps as i32;
            });
    });
    let positions = Array2::from_shape_vec((n, cells), positions).map_err(value_error)?;
    Ok((
        PyArray2::from_owned_array(py, positions),
        PyArray1::from_vec(py, depths),
    ))
}

/// What `Position.random(size, seed, goal, scramble)` scrambles, and
/// how: the goal position (its labels checked to fit a byte) and the
/// scramble, checked.
pub fn dealer(size: Size, goal: &str, scramble: &str) -> PyResult<(Scramble, slide::Position)> {
    let goal: Goal = goal.parse().map_err(value_error)?;
    let scramble: Scramble = scramble
        .parse()
        .map_err(|e: slide::ScrambleError| value_error(e))?;
    let spec = SlideSpec::new(size, GoalChoice::Goal(goal)).map_err(value_error)?;
    let goal_position = spec.issue(0).map_err(value_error)?.goal_position;
    byte_row(&goal_position)?;
    Ok((scramble, goal_position))
}

/// The puzzles `Position.random(size, seed, goal, scramble)` gives for
/// each of `seeds`, as rows of a `(len(seeds), cells)` array.
#[pyfunction]
#[pyo3(signature = (seeds, size, goal="row-major", scramble="uniform"))]
fn random_positions<'py>(
    py: Python<'py>,
    seeds: Vec<u64>,
    size: &Bound<'py, PyAny>,
    goal: &str,
    scramble: &str,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let size = crate::slide_module::size_of(size)?;
    let (scramble, goal_position) = dealer(size, goal, scramble)?;
    let cells = size.cells();
    let rows: Vec<Vec<u8>> = py.detach(|| {
        seeds
            .par_iter()
            .with_min_len(16)
            .map(|&seed| {
                // As `Position.random`: the seed scrambles the goal.
                let position = scramble.generate(&goal_position, seed);
                position.tiles().iter().map(|&t| t as u8).collect()
            })
            .collect()
    });
    let flat: Vec<u8> = rows.into_iter().flatten().collect();
    let array = Array2::from_shape_vec((seeds.len(), cells), flat).map_err(value_error)?;
    Ok(PyArray2::from_owned_array(py, array))
}
