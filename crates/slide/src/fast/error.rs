//! Why the fast solver refuses a position.

use crate::{MismatchError, Solvability};

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
/// Why the fast solver cannot solve a position.
pub enum FastError {
    /// The position and the goal are not boards of the same puzzle.
    #[error(transparent)]
    Mismatch(#[from] MismatchError),
    /// The position is in the other half of the state space: no sequence of
    /// moves reaches the goal.
    #[error("unsolvable: the tiles are an {} permutation of the goal but the blank is {} moves from its goal cell; swap two tiles to make it solvable", .0.permutation_parity, .0.blank_distance)]
    Unsolvable(Solvability),
    /// The caller's stop hook ended the solve (see
    /// [`FastSolver::solve_until`](crate::FastSolver::solve_until)).
    #[error("stopped before the solution was complete")]
    Stopped,
}
