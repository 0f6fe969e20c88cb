//! Where the web server meets the solvers. Each function states what the
//! engines can answer today; a solver that is not part of this build is
//! reported as unavailable (HTTP 501), never replaced by a made-up answer.

use slide::{Moves, Position};

use super::budget::Deadline;

/// A solution found by a solver.
pub struct Solution {
    pub moves: Moves,
    /// Whether it is proven shortest.
    pub optimal: bool,
}

/// Why a solver gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    #[error("{0}")]
    Unavailable(String),
    #[error("the solver ran out of time")]
    OutOfTime,
}

/// Solves a sliding puzzle known to be solvable: optimally up to 4×4 with
/// the optimal solver, beyond with the fast one.
pub fn solve_slide(
    start: &Position,
    goal: &Position,
    deadline: Deadline,
) -> Result<Solution, SolveError> {
    let _ = (goal, deadline);
    Err(SolveError::Unavailable(format!(
        "no sliding-puzzle solver for {} boards in this build yet",
        start.size()
    )))
}

/// Whether Shisen-Sho deals can be restricted to solvable ones.
pub fn shisen_solver_available() -> bool {
    false
}

/// A safe Shisen-Sho hint (a move after which the board stays solvable), or
/// `None` when the solver is not in this build.
pub fn shisen_safe_move(
    board: &shisen::Board,
    gravity: bool,
    deadline: Deadline,
) -> Result<Option<shisen::Move>, SolveError> {
    let _ = (board, gravity, deadline);
    Err(SolveError::Unavailable(
        "the Shisen-Sho solver is not in this build yet".to_string(),
    ))
}
