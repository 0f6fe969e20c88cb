//! Sliding-puzzle sessions: what a puzzle is ([`SlideSpec`]), how a seed
//! issues it, which solver answers ([`Solver`]), and how a move list
//! replays to an outcome ([`Session`]).

mod dataset;
mod session;
mod solver;
mod spec;

pub use dataset::{Dataset, DatasetError, DatasetSpec, LabelError};
pub use session::{Outcome, Session};
pub use solver::{
    check_optimal_size, Method, OptimalSizeError, Plan, PlanError, Ready, Solver, TableSet,
    TABLE_BUILDER_THREAD, THINKING_TIME,
};
pub use spec::{GoalChoice, Puzzle, SlideSpec, SpecError};
