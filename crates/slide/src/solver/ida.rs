//! Iterative-deepening A* (Korf 1985) over canonical states.
//!
//! Depth-first search bounded by f = g + w·h, the bound raised to the
//! smallest f that exceeded it until a solution appears. With w = 1 and an
//! admissible h the first solution is optimal; larger weights find longer
//! solutions much sooner (used by the bounded mode on 5 × 5 and up). The
//! only state is one board, its tile positions and the path, so memory
//! stays tiny at any depth.

use super::budget::{Budget, Limits};
use super::grid::Grid;
use super::heuristic::Estimate;
use crate::Direction;

/// The result of one search.
pub(crate) enum Outcome {
    Found(Vec<Direction>),
    /// Out of budget; no solution shorter than `lower_bound` exists (for
    /// w = 1).
    Exhausted {
        lower_bound: u32,
    },
    /// No solution with fewer than `limit` moves.
    None,
}

pub(crate) struct Search<'a, E: Estimate> {
    grid: &'a Grid,
    estimate: &'a E,
    cells: Vec<u8>,
    positions: Vec<u8>,
    path: Vec<Direction>,
    pub nodes: u64,
    budget: Budget<'a>,
    /// Weight w as a fraction.
    weight: (u32, u32),
    /// This iteration's threshold on f.
    bound: u32,
    /// The least f over `bound` seen in this iteration: the next threshold.
    next_bound: u32,
    /// Only solutions shorter than this are looked for.
    limit: u32,
    /// Whether a solution found ends the search (`false`) or only lowers
    /// `limit`, the iteration going on for a shorter one (`true`).
    improve: bool,
    /// The shortest solution found so far in `improve` mode.
    best: Option<Vec<Direction>>,
    /// In `improve` mode, whether the iterations go on after the one that
    /// found a solution, until the budget ends.
    keep_on: bool,
    /// Whether the estimate has a dual lookup to try on each child.
    dual: bool,
}

impl<'a, E: Estimate> Search<'a, E> {
    pub fn new(grid: &'a Grid, estimate: &'a E, cells: &[u8], limits: Limits<'a>) -> Self {
        let mut positions = vec![0u8; cells.len()];
        for (cell, &tile) in cells.iter().enumerate() {
            positions[tile as usize] = cell as u8;
        }
        Search {
            grid,
            estimate,
            cells: cells.to_vec(),
            positions,
            path: Vec::new(),
            nodes: 0,
            budget: Budget::new(limits),
            weight: (1, 1),
            bound: 0,
            next_bound: u32::MAX,
            limit: u32::MAX,
            improve: false,
            best: None,
            keep_on: false,
            dual: estimate.has_dual(),
        }
    }

    /// The lower bound of the start position.
    pub fn initial_estimate(&self, blank: usize) -> u32 {
        self.start_estimate(blank).0
    }

    /// The start's bound, the dual lookup's included, and its memo.
    fn start_estimate(&self, blank: usize) -> (u32, E::Memo) {
        let (h, memo) = self.estimate.initial(&self.positions);
        (
            h.max(self.estimate.dual(&self.cells, blank, u32::MAX)),
            memo,
        )
    }

    /// Weighted search: f = g + h·num/den.
    pub fn with_weight(mut self, num: u32, den: u32) -> Self {
        self.weight = (num, den);
        self
    }

    /// Weighted search that does not stop at its first solution: each one
    /// found lowers the limit, and the iteration that found it is searched
    /// to its end for a shorter one (branch and bound under the weighted
    /// threshold). Its pruning on g + h stays admissible, so what it keeps
    /// is the shortest solution within that threshold, found for the cost
    /// of one more iteration at most. Stopped on the way, it answers with
    /// the best found by then.
    /// With `keep_on`, the iterations go on past that one, each under the
    /// limit the last solution set, until the budget ends.
    pub fn improving(mut self, keep_on: bool) -> Self {
        self.improve = true;
        self.keep_on = keep_on;
        self
    }

    /// `UNIT`: w = 1, the optimal search, whose every node is spared the
    /// two divisions of the weighted bound.
    #[inline]
    fn f<const UNIT: bool>(&self, g: u32, h: u32) -> u32 {
        if UNIT {
            g + h
        } else {
            g + h * self.weight.0 / self.weight.1
        }
    }

    /// Runs IDA* from the start position, looking only for solutions
    /// shorter than `limit` moves.
    pub fn run(&mut self, blank: usize, limit: u32) -> Outcome {
        if self.weight.0 == self.weight.1 {
            self.run_in::<true>(blank, limit)
        } else {
            self.run_in::<false>(blank, limit)
        }
    }

    fn run_in<const UNIT: bool>(&mut self, blank: usize, limit: u32) -> Outcome {
        let (h, memo) = self.start_estimate(blank);
        self.bound = self.f::<UNIT>(0, h);
        self.limit = limit;
        loop {
            // With w = 1 every solution shorter than `limit` has f < limit.
            if UNIT && self.bound >= self.limit {
                return Outcome::None;
            }
            self.next_bound = u32::MAX;
            if self.dfs::<UNIT>(blank, usize::MAX, 0, h, memo) {
                return Outcome::Found(std::mem::take(&mut self.path));
            }
            let stopped = self.budget.is_spent();
            let more = self.keep_on && !stopped && self.next_bound != u32::MAX;
            if self.best.is_some() && !more {
                return Outcome::Found(self.best.take().expect("a solution"));
            }
            if stopped {
                return Outcome::Exhausted {
                    lower_bound: self.bound,
                };
            }
            if self.next_bound == u32::MAX {
                return Outcome::None;
            }
            self.bound = self.next_bound;
        }
    }

    /// The largest h a child at depth `g` may have and still be searched.
    #[inline]
    fn cutoff<const UNIT: bool>(&self, g: u32, bound: u32, limit: u32) -> u32 {
        let by_limit = limit.saturating_sub(g + 1);
        let by_bound = if UNIT {
            bound.saturating_sub(g) + 1
        } else {
            (bound.saturating_sub(g) + 1) * self.weight.1 / self.weight.0
        };
        by_limit.min(by_bound)
    }

    fn dfs<const UNIT: bool>(
        &mut self,
        blank: usize,
        previous: usize,
        g: u32,
        h: u32,
        memo: E::Memo,
    ) -> bool {
        if h == 0 {
            if self.improve {
                // Shorter than the limit, or it would have been pruned.
                self.limit = g;
                self.best = Some(self.path.clone());
                return false;
            }
            return true;
        }
        if self.budget.spent_at(self.nodes) {
            return false;
        }
        let bound = self.bound;
        let grid = self.grid;
        for &(c, direction) in &grid.neighbours[blank] {
            let c = c as usize;
            if c == previous {
                continue;
            }
            // The same for every child, unless a solution found under a
            // sibling lowered the limit.
            let limit = self.limit;
            let cutoff = self.cutoff::<UNIT>(g + 1, bound, limit);
            self.nodes += 1;
            let tile = self.cells[c];
            self.cells[blank] = tile;
            self.cells[c] = u8::MAX;
            self.positions[tile as usize] = blank as u8;
            let (mut child_h, child_memo) =
                self.estimate
                    .update(&memo, &self.positions, tile, c as u8, cutoff);
            if self.dual && child_h <= cutoff {
                child_h = child_h.max(self.estimate.dual(&self.cells, c, cutoff));
            }
            // Bidirectional pathmax: the dual lookup is inconsistent, and
            // a child's bound minus one is a bound of the parent too. Once
            // that lifts the parent over the threshold its other children
            // need not be tried.
            if UNIT && g + child_h > bound + 1 {
                let parent_f = g + child_h - 1;
                if parent_f < limit {
                    self.next_bound = self.next_bound.min(parent_f);
                }
                self.positions[tile as usize] = c as u8;
                self.cells[c] = tile;
                self.cells[blank] = u8::MAX;
                return false;
            }
            let f = self.f::<UNIT>(g + 1, child_h);
            let fits = f <= bound && g + 1 + child_h < limit;
            if fits {
                self.path.push(direction);
                if self.dfs::<UNIT>(c, blank, g + 1, child_h, child_memo) {
                    return true;
                }
                self.path.pop();
            } else if f > bound && g + 1 + child_h < limit {
                self.next_bound = self.next_bound.min(f);
            }
            self.positions[tile as usize] = c as u8;
            self.cells[c] = tile;
            self.cells[blank] = u8::MAX;
            if self.budget.is_spent() {
                return false;
            }
        }
        false
    }
}
