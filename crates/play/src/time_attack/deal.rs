//! The run's puzzles: a function of the run's seed alone.
//!
//! Each puzzle is a random walk of the blank from the 4×4's row-major goal
//! (never undoing the step before), the walks a step longer each time, and
//! is then labelled exactly: its optimal length, from the optimal solver.
//! The puzzles are shown in order of that length (the walk's order on a
//! tie), so the optimal lengths never decrease along a run. A walk that
//! comes back within [`SHORTEST`] moves of the goal is drawn again from
//! the same stream.
//!
//! Why the 4×4 throughout and walks: one board keeps the hands on one
//! shape, as Puzzle Storm keeps one board; a 3×3 warm-up would be over in
//! seconds and then change the board under the player. Uniform 4×4
//! positions are about 53 moves from solved, far too hard to start a run
//! with and rare below 40 (`slide::solver::difficulty` draws by
//! rejection), while walks of 6 to 55 steps give puzzles of about 5 to
//! 45 moves, and the optimal solver labels all fifty in 0.03–0.2 s with
//! the pattern databases, 0.05–1.1 s with the Manhattan distance alone
//! (the tests print both), well within the engine's budget.

use common::Rng;
use slide::{Goal, HeuristicKind, Moves, Position, Scramble, Size, SolveError, SolveOptions};

use crate::slide_game::Solver;
use crate::Deadline;

/// Puzzles in a run: more than anyone solves in three minutes and the
/// bonuses (the best solve about 30), so a run never runs out of them.
pub const PUZZLES: usize = 50;

/// The first walk's length; each one after it is a step longer.
const FIRST_WALK: usize = 6;

/// The shortest optimal length a puzzle may have.
pub const SHORTEST: u32 = 4;

/// One puzzle of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The position to solve.
    pub start: Position,
    /// The goal: the row-major 4×4.
    pub goal: Position,
    /// Its optimal length in single-tile moves, proven by the solver.
    pub optimal: u32,
    /// A shortest solution.
    pub solution: Moves,
}

/// A run's puzzles, in the order they are shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The seed they come from.
    pub seed: u64,
    /// [`PUZZLES`] puzzles, optimal lengths never decreasing.
    pub puzzles: Vec<Puzzle>,
}

/// Why a run's puzzles were not all labelled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    /// The deadline passed before every puzzle was solved optimally.
    #[error("the run's puzzles were not all solved optimally within the time limit ({labelled} of {PUZZLES})")]
    OutOfTime {
        /// Puzzles labelled before it passed.
        labelled: usize,
    },
    /// The solver refused a puzzle (never, for a walk from the goal).
    #[error("{0}")]
    Solver(#[from] SolveError),
}

/// The board: 4×4.
fn size() -> Size {
    Size::square(4).expect("4x4 is a size")
}

/// The run of `seed`, each puzzle solved optimally within `deadline` with
/// the tables `solver` has ready (the Manhattan distance until they are:
/// no request waits for a table to be built; the walks are short enough
/// for either, see the tests), the tables queued for its builder.
pub fn deal(seed: u64, solver: &Solver, deadline: &Deadline) -> Result<Run, DealError> {
    let goal = goal();
    solver.warm_up(&goal);
    let heuristic = solver
        .ready_tables(goal.size(), goal.blank())
        .unwrap_or(HeuristicKind::Manhattan);
    deal_with(seed, heuristic, deadline)
}

/// The row-major 4×4.
fn goal() -> Position {
    Goal::RowMajor
        .position(size())
        .expect("row-major fits the 4x4")
}

/// The run of `seed`, labelled by IDA* over `heuristic`.
pub(super) fn deal_with(
    seed: u64,
    heuristic: HeuristicKind,
    deadline: &Deadline,
) -> Result<Run, DealError> {
    let goal = goal();
    let stop = || deadline.passed();
    let options = SolveOptions {
        heuristic,
        stop: Some(&stop),
        ..SolveOptions::default()
    };
    let mut rng = Rng::new(seed);
    let mut puzzles = Vec::with_capacity(PUZZLES);
    while puzzles.len() < PUZZLES {
        let walk = FIRST_WALK + puzzles.len();
        let start = Scramble::Walk(walk as u64).generate(&goal, rng.next_u64());
        let solution = slide::solve_optimal(&start, &goal, &options)?;
        if !solution.optimal {
            return Err(DealError::OutOfTime {
                labelled: puzzles.len(),
            });
        }
        let optimal = solution.moves.len() as u32;
        if optimal < SHORTEST {
            continue;
        }
        puzzles.push(Puzzle {
            start,
            goal: goal.clone(),
            optimal,
            solution: solution.moves,
        });
    }
    // Stable: a tie keeps the walks' order.
    puzzles.sort_by_key(|p| p.optimal);
    Ok(Run { seed, puzzles })
}
