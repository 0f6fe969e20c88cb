//! The sliding-puzzle engine: positions, goals, moves, solvability and
//! seeded generation for boards of any width × height (2 × 2 up to
//! 2048 × 2048), and an optimal solver ([`solver`]) for boards of up to 16
//! cells (bounded beyond).
//!
//! Pure and deterministic: no I/O, no clock; every random choice comes from
//! a seed. The one process-wide state is the solver's memo of tables, each
//! a pure function of its board shape, built once on first use. Text becomes a validated [`Position`] or a
//! [`ParseError`] that says what is wrong; everything after that works on
//! valid values only.
//!
//! ```
//! use slide::{Goal, Position, Scramble};
//! let size = "4x4".parse().unwrap();
//! let goal = Goal::RowMajor.position(size).unwrap();
//! let puzzle = Scramble::Uniform.generate(&goal, 7);
//! assert!(puzzle.is_solvable(&goal).unwrap());
//! let mut p: Position = "1 2 3/4 5 6/7 0 8".parse().unwrap();
//! p.apply_all(&"L".parse().unwrap()).unwrap();
//! assert_eq!(p.to_string(), "1 2 3/4 5 6/7 8 0");
//! ```

mod bound;
pub use bound::LowerBound;
mod direction;
mod fast;
mod goal;
mod moves;
mod parse;
mod position;

mod scramble;
mod size;
mod solvable;
pub mod solver;

pub use common::Rng;
pub use direction::Direction;
pub use fast::{solve_fast, solve_fast_with, FastError, FastSolver};
pub use goal::{Goal, GoalError};
pub use moves::{Moves, MovesError, MAX_MOVES};
pub use parse::ParseError;
pub use position::{IllegalMove, Position, PositionError, ReplayError, BLANK};
pub use scramble::{Scramble, ScrambleError, MAX_WALK};
pub use size::{Size, SizeError, MAX_CELLS, MAX_SIDE};
pub use solvable::{goal_cells, permutation_parity, MismatchError, Parity, Solvability};
pub use solver::{
    all_optimal, analyze, hint, required_patterns, solve_optimal, with_optimal_length,
    AllSolutions, Analysis, AnalysisError, CountError, Databases, Detour, DifficultyError,
    Distance, HeuristicKind, LengthRange, Lookups, Metric, PatternDatabase, PatternSpec, Progress,
    Solution, SolveError, SolveOptions, SHORTENING_SHARE,
};
