//! The sliding puzzle's vector environment (`tessera.gym`'s
//! `SlidingPuzzleVectorEnv`) in Rust: N boards stepped in one call, in
//! place, on arrays the environment allocated once.
//!
//! A step is the whole cost of a small environment, so the boards are
//! bound once ([`VectorBoards`]): a step reads one argument, the actions.
//! Up to [`HELD_ROWS`] boards it keeps the GIL and reads the arrays
//! without rust-numpy's borrow bookkeeping, which alone would cost more
//! than stepping a few boards; larger batches release the GIL, with the
//! arrays borrowed as usual.

use crate::batch::{actions_arg, blank_of, Board, ROWS_PER_TASK};
use crate::value_error;
use numpy::{Element, PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use rayon::prelude::*;

/// Batches up to this many boards are stepped with the GIL held: releasing
/// and taking it back costs more than their step.
pub const HELD_ROWS: usize = 256;

/// What an action is, as the vector environment says it.
const SPACE_ACTIONS: &str = "outside the action space Discrete(4), 0 1 2 3 are U D L R";

pub fn register_private(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<VectorBoards>()?;
    m.add_function(wrap_pyfunction!(vector_check_actions, m)?)?;
    Ok(())
}

/// The actions of a vector environment's step, checked as the step
/// checks them, for the rare step that first resets boards that ended:
/// a bad action must raise before any board changes.
#[pyfunction]
fn vector_check_actions(actions: &Bound<'_, PyAny>, rows: usize) -> PyResult<()> {
    actions_arg(actions, rows, SPACE_ACTIONS).map(drop)
}

/// The vector environment's boards and the arrays a step writes, bound
/// once. A step ([`VectorBoards::step`]): every row of `states` not
/// flagged in `ended` takes its action (an illegal move leaves it as it
/// is), counts a step, and gets its reward (`-1`, or with `sparse` `1` on
/// reaching `goal` and `0` otherwise), termination (the goal reached) and
/// truncation (`max_steps` taken); rows flagged in `ended` were just
/// replaced by new puzzles and get reward 0, no ending and a step count
/// of 0. Every row's action mask is written, and `ended` is overwritten
/// with the rows that end on this step, whose number is returned (the
/// caller resets them before the next step only when there are some).
#[pyclass(module = "tessera._native", frozen)]
pub struct VectorBoards {
    states: Py<PyArray2<u8>>,
    masks: Py<PyArray2<i8>>,
    steps: Py<PyArray1<i64>>,
    ended: Py<PyArray1<bool>>,
    rewards: Py<PyArray1<f64>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    goal: Vec<u8>,
    moves: Moves,
    max_steps: i64,
    sparse: bool,
    rows: usize,
}

#[pymethods]
impl VectorBoards {
    #[new]
    #[pyo3(signature = (states, steps, ended, goal, width, max_steps, sparse, rewards, terminated, truncated, masks))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        states: Bound<'_, PyArray2<u8>>,
        steps: Bound<'_, PyArray1<i64>>,
        ended: Bound<'_, PyArray1<bool>>,
        goal: Vec<u8>,
        width: usize,
        max_steps: i64,
        sparse: bool,
        rewards: Bound<'_, PyArray1<f64>>,
        terminated: Bound<'_, PyArray1<bool>>,
        truncated: Bound<'_, PyArray1<bool>>,
        masks: Bound<'_, PyArray2<i8>>,
    ) -> PyResult<VectorBoards> {
        let cells = goal.len();
        if width == 0 || !cells.is_multiple_of(width) {
            return Err(value_error(format!(
                "width {width} does not divide {cells}"
            )));
        }
        let rows = steps.len();
        let arrays = [
            span(&states, "states", rows * cells)?,
            span(&masks, "masks", rows * 4)?,
            span(&steps, "steps", rows)?,
            span(&ended, "ended", rows)?,
            span(&rewards, "rewards", rows)?,
            span(&terminated, "terminated", rows)?,
            span(&truncated, "truncated", rows)?,
        ];
        // A step writes them all at once: no two may share memory.
        for (i, a) in arrays.iter().enumerate() {
            if let Some(b) = arrays[i + 1..].iter().find(|b| a.overlaps(b)) {
                return Err(value_error(format!(
                    "{} and {} share memory",
                    a.name, b.name
                )));
            }
        }
        Ok(VectorBoards {
            moves: Moves::new(Board {
                width,
                height: cells / width,
            }),
            states: states.unbind(),
            masks: masks.unbind(),
            steps: steps.unbind(),
            ended: ended.unbind(),
            rewards: rewards.unbind(),
            terminated: terminated.unbind(),
            truncated: truncated.unbind(),
            goal,
            max_steps,
            sparse,
            rows,
        })
    }

    /// Steps every board (see the type's documentation); the number of
    /// boards that ended.
    fn step(&self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<usize> {
        // Read (and checked) before any board changes, and copied: the
        // actions may be any array, even a view of one of ours.
        let actions = actions_arg(actions, self.rows, SPACE_ACTIONS)?;
        let rules = StepRules {
            moves: &self.moves,
            goal: &self.goal,
            max_steps: self.max_steps,
            sparse: self.sparse,
        };
        if self.rows <= HELD_ROWS {
            // SAFETY: the GIL is held for the whole step and no Python
            // code runs during it, so nothing else reads or writes these
            // arrays meanwhile; they share no memory (checked when
            // bound); and each slice is taken afresh from the array's
            // current data and checked against its length.
            let boards = unsafe { self.held(py, &actions)? };
            return Ok(boards.step(&rules));
        }
        let (mut states, mut masks) = (
            self.states.bind(py).readwrite(),
            self.masks.bind(py).readwrite(),
        );
        let (mut steps, mut ended) = (
            self.steps.bind(py).readwrite(),
            self.ended.bind(py).readwrite(),
        );
        let (mut rewards, mut terminated, mut truncated) = (
            self.rewards.bind(py).readwrite(),
            self.terminated.bind(py).readwrite(),
            self.truncated.bind(py).readwrite(),
        );
        let rows = self.rows;
        let cells = self.goal.len();
        let boards = Boards {
            states: fitted(states.as_slice_mut(), "states", rows * cells)?,
            masks: fitted(masks.as_slice_mut(), "masks", rows * 4)?,
            steps: fitted(steps.as_slice_mut(), "steps", rows)?,
            ended: fitted(ended.as_slice_mut(), "ended", rows)?,
            actions: &actions,
            rewards: fitted(rewards.as_slice_mut(), "rewards", rows)?,
            terminated: fitted(terminated.as_slice_mut(), "terminated", rows)?,
            truncated: fitted(truncated.as_slice_mut(), "truncated", rows)?,
        };
        Ok(py.detach(|| boards.step(&rules)))
    }
}

impl VectorBoards {
    /// The boards as slices, without borrow bookkeeping.
    ///
    /// # Safety
    /// The caller holds the GIL until the slices are dropped and runs no
    /// Python code meanwhile.
    unsafe fn held<'a>(&'a self, py: Python<'a>, actions: &'a [u8]) -> PyResult<Boards<'a>> {
        let (rows, cells) = (self.rows, self.goal.len());
        // SAFETY: as the caller promises; the arrays share no memory.
        unsafe {
            Ok(Boards {
                states: fitted(self.states.bind(py).as_slice_mut(), "states", rows * cells)?,
                masks: fitted(self.masks.bind(py).as_slice_mut(), "masks", rows * 4)?,
                steps: fitted(self.steps.bind(py).as_slice_mut(), "steps", rows)?,
                ended: fitted(self.ended.bind(py).as_slice_mut(), "ended", rows)?,
                actions,
                rewards: fitted(self.rewards.bind(py).as_slice_mut(), "rewards", rows)?,
                terminated: fitted(self.terminated.bind(py).as_slice_mut(), "terminated", rows)?,
                truncated: fitted(self.truncated.bind(py).as_slice_mut(), "truncated", rows)?,
            })
        }
    }
}

/// An array's contiguous data with the length a step expects.
fn fitted<'a, T>(
    slice: Result<&'a mut [T], numpy::AsSliceError>,
    name: &str,
    len: usize,
) -> PyResult<&'a mut [T]> {
    let slice = slice.map_err(|_| value_error(format!("{name} must be contiguous")))?;
    if slice.len() != len {
        return Err(value_error(format!(
            "{name} must have {len} entries, not {}",
            slice.len()
        )));
    }
    Ok(slice)
}

/// Where an array's data lies, to tell that two do not overlap.
struct Span {
    name: &'static str,
    start: usize,
    end: usize,
}

impl Span {
    fn overlaps(&self, other: &Span) -> bool {
        self.start < other.end && other.start < self.end
    }
}

/// The span of a writable, contiguous array of `len` entries.
fn span<T: Element, D: numpy::ndarray::Dimension>(
    array: &Bound<'_, numpy::PyArray<T, D>>,
    name: &'static str,
    len: usize,
) -> PyResult<Span> {
    let mut written = array
        .try_readwrite()
        .map_err(|_| value_error(format!("{name} must be writable and not borrowed")))?;
    let slice = fitted(written.as_slice_mut(), name, len)?;
    let start = slice.as_ptr() as usize;
    Ok(Span {
        name,
        start,
        end: start + size_of_val(slice),
    })
}

/// Every cell's neighbour in each direction, looked up instead of
/// divided out on every row of every step.
struct Moves {
    /// `sources[4 * blank + action]`: the cell whose tile slides into
    /// `blank` under `action`, or `blank` itself when there is none.
    sources: Vec<u8>,
    /// `masks[4 * blank ..][..4]`: which actions are legal there.
    masks: Vec<i8>,
}

impl Moves {
    fn new(board: Board) -> Moves {
        let cells = board.cells();
        let mut sources = Vec::with_capacity(4 * cells);
        let mut masks = Vec::with_capacity(4 * cells);
        for blank in 0..cells {
            for action in 0..4 {
                let source = board.source(blank, action);
                // Boards reach the vector environment only with uint8
                // labels, so at most 256 cells: a cell fits a byte.
                sources.push(source.unwrap_or(blank) as u8);
                masks.push(i8::from(source.is_some()));
            }
        }
        Moves { sources, masks }
    }
}

/// What every board of a step shares.
struct StepRules<'a> {
    moves: &'a Moves,
    goal: &'a [u8],
    max_steps: i64,
    sparse: bool,
}

/// The vector environment's arrays, row-aligned.
struct Boards<'a> {
    states: &'a mut [u8],
    masks: &'a mut [i8],
    steps: &'a mut [i64],
    ended: &'a mut [bool],
    actions: &'a [u8],
    rewards: &'a mut [f64],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
}

impl Boards<'_> {
    /// Steps every board; the number of boards that ended. Batches that
    /// fit one rayon task stay on the calling thread: handing them to the
    /// pool and waiting for it costs more than the step.
    fn step(self, rules: &StepRules<'_>) -> usize {
        let rows = self.steps.len();
        if rows <= ROWS_PER_TASK {
            return self.step_here(rules);
        }
        let cells = rules.goal.len();
        let mut parts = Vec::with_capacity(rows.div_ceil(ROWS_PER_TASK));
        let mut rest = self;
        while !rest.steps.is_empty() {
            let take = ROWS_PER_TASK.min(rest.steps.len());
            let (head, tail) = rest.split_at(take, cells);
            parts.push(head);
            rest = tail;
        }
        parts
            .into_par_iter()
            .map(|part| part.step_here(rules))
            .sum()
    }

    fn split_at(self, rows: usize, cells: usize) -> (Self, Self) {
        let (states, states_rest) = self.states.split_at_mut(rows * cells);
        let (masks, masks_rest) = self.masks.split_at_mut(rows * 4);
        let (steps, steps_rest) = self.steps.split_at_mut(rows);
        let (ended, ended_rest) = self.ended.split_at_mut(rows);
        let (actions, actions_rest) = self.actions.split_at(rows);
        let (rewards, rewards_rest) = self.rewards.split_at_mut(rows);
        let (terminated, terminated_rest) = self.terminated.split_at_mut(rows);
        let (truncated, truncated_rest) = self.truncated.split_at_mut(rows);
        (
            Boards {
                states,
                masks,
                steps,
                ended,
                actions,
                rewards,
                terminated,
                truncated,
            },
            Boards {
                states: states_rest,
                masks: masks_rest,
                steps: steps_rest,
                ended: ended_rest,
                actions: actions_rest,
                rewards: rewards_rest,
                terminated: terminated_rest,
                truncated: truncated_rest,
            },
        )
    }

    /// Steps these boards on this thread.
    fn step_here(self, rules: &StepRules<'_>) -> usize {
        let cells = rules.goal.len();
        let mut ending = 0;
        for (i, row) in self.states.chunks_exact_mut(cells).enumerate() {
            let mut blank = blank_of(row);
            if self.ended[i] {
                self.steps[i] = 0;
                self.rewards[i] = 0.0;
                self.terminated[i] = false;
                self.truncated[i] = false;
                self.ended[i] = false;
            } else {
                let source =
                    usize::from(rules.moves.sources[4 * blank + usize::from(self.actions[i])]);
                row.swap(blank, source);
                blank = source;
                self.steps[i] += 1;
                let solved = row == rules.goal;
                self.rewards[i] = match (rules.sparse, solved) {
                    (false, _) => -1.0,
                    (true, true) => 1.0,
                    (true, false) => 0.0,
                };
                let cut = !solved && self.steps[i] >= rules.max_steps;
                self.terminated[i] = solved;
                self.truncated[i] = cut;
                self.ended[i] = solved || cut;
                ending += usize::from(solved || cut);
            }
            self.masks[4 * i..4 * i + 4]
                .copy_from_slice(&rules.moves.masks[4 * blank..4 * blank + 4]);
        }
        ending
    }
}
