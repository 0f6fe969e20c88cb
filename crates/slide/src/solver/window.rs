//! Shortening a found solution stretch by stretch.
//!
//! A weighted search's solution wanders: it gets a tile home by a detour
//! that a shortest path would not take. Such a detour is local, so it
//! shows between two positions a few dozen moves apart on the path, and a
//! shortest path between those two is cheap to find even with the
//! Manhattan bound alone (they are close). The bounded mode replaces every
//! stretch by a shortest path between its ends, in windows that overlap
//! by half, and repeats with longer windows while its time lasts.

use super::budget::Limits;
use super::grid::Grid;
use super::heuristic::Manhattan;
use super::ida::{Outcome, Search};
use super::relabel::Canonical;
use crate::Direction;

/// Window lengths, one pass each, shortest first (cheapest, and what they
/// remove leaves less for the longer ones).
const WINDOWS: [usize; 7] = [12, 18, 24, 30, 36, 42, 48];

/// `path` from `start`, with every stretch of each window length replaced
/// by a shortest path between its ends where that is shorter. Stops where
/// `limits` say; what was shortened by then is kept.
pub(crate) fn shorten(
    grid: &Grid,
    start: &Canonical,
    mut path: Vec<Direction>,
    limits: Limits,
) -> Vec<Direction> {
    for window in WINDOWS {
        let mut at = 0;
        while at < path.len() {
            let end = (at + window).min(path.len());
            let from = State::after(grid, start, &path[..at]);
            let to = State::after(grid, start, &path[..end]);
            let stretch = from.towards(&to, grid);
            let estimate = Manhattan::new(grid, stretch.goal_blank);
            let mut search = Search::new(grid, &estimate, &stretch.cells, limits);
            match search.run(stretch.blank, (end - at) as u32) {
                Outcome::Found(shorter) => {
                    path.splice(at..end, shorter);
                }
                Outcome::None => {}
                Outcome::Exhausted { .. } => return path,
            }
            at += window / 2;
        }
    }
    path
}

/// A position on the way, in the start's labels.
struct State {
    cells: Vec<u8>,
    blank: usize,
}

impl State {
    /// The position after `moves` from `start`.
    fn after(grid: &Grid, start: &Canonical, moves: &[Direction]) -> State {
        let mut state = State {
            cells: start.cells.clone(),
            blank: start.blank,
        };
        for &direction in moves {
            let (c, _) = grid.neighbours[state.blank]
                .iter()
                .copied()
                .find(|&(_, d)| d == direction)
                .expect("a solution's moves are legal");
            state.cells.swap(state.blank, c as usize);
            state.blank = c as usize;
        }
        state
    }

    /// This position relabelled so that `goal` is the goal: each tile named
    /// by its cell in `goal`.
    fn towards(&self, goal: &State, grid: &Grid) -> Canonical {
        let mut cell_of = vec![0u8; goal.cells.len()];
        for (cell, &tile) in goal.cells.iter().enumerate() {
            cell_of[tile as usize] = cell as u8;
        }
        Canonical {
            size: grid.size,
            cells: self.cells.iter().map(|&t| cell_of[t as usize]).collect(),
            blank: self.blank,
            goal_blank: goal.blank,
        }
    }
}
