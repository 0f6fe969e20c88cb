//! The fast solver: short solutions at once, for boards up to 1000 × 1000.
//!
//! The optimal solver stops near 4 × 4; beyond that people want a solution
//! now, and a short one. This one reduces the board line by line — solve
//! an outer row or column, shrink, repeat — and solves the last 3 × 2
//! region by exact search. Tiles and the blank travel along geometric
//! paths with O(1) work per move, so time is proportional to the length of
//! the solution, and memory to the board: 1000 × 1000 takes ~2.5·10⁹ moves,
//! streamed to a sink as they are produced, never stored.
//!
//! On small boards a beam search guided by
//! Manhattan distance and linear conflicts also runs, and the shorter of
//! the two solutions is returned.

mod board;
mod cancel;
mod error;
mod frame;
mod local;
mod reduce;
mod route;

pub use error::FastError;

use crate::{goal_cells, Direction, Moves, Position};
use board::Board;
use route::Router;

/// Solves `position` toward `goal` and returns the moves.
///
/// ```
/// use slide::{solve_fast, Goal, Scramble};
/// let goal = Goal::Snake.position("12x9".parse().unwrap()).unwrap();
/// let mut puzzle = Scramble::Uniform.generate(&goal, 42);
/// let moves = solve_fast(&puzzle, &goal).unwrap();
/// puzzle.apply_all(&moves).unwrap();
/// assert_eq!(puzzle, goal);
/// ```
pub fn solve_fast(position: &Position, goal: &Position) -> Result<Moves, FastError> {
    let mut moves = Vec::new();
    solve_fast_with(position, goal, &mut |d| moves.push(d))?;
    Ok(Moves(moves))
}

/// Solves `position` toward `goal`, handing each move to `sink` as soon as
/// it is final; returns how many moves were emitted.
///
/// Refuses at once, before any move, a position that cannot reach the goal
/// or does not match it.
pub fn solve_fast_with<S: FnMut(Direction)>(
    position: &Position,
    goal: &Position,
    sink: &mut S,
) -> Result<u64, FastError> {
    let solvability = position.solvability(goal)?;
    if !solvability.is_solvable() {
        return Err(FastError::Unsolvable(solvability));
    }
    let tiles = goal_cells(position, goal)?;
    let size = position.size();
    let board = Board::new(size.width(), tiles, position.blank());
    let mut router = Router::new(board, sink);
    reduce::solve(&mut router, size, goal.blank());
    debug_assert!(router.board.is_solved());
    Ok(router.finish())
}
