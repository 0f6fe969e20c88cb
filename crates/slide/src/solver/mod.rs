//! Optimal solving: complete distance tables for small boards, IDA* with
//! additive pattern databases up to 16 cells, and a bounded mode beyond.
//!
//! Every goal layout is first relabelled to one canonical goal
//! (module `relabel`), so one set of tables serves row-major, blank-first,
//! snake, spiral, custom and missing-number goals alike.
//!
//! ```
//! use slide::{solve_optimal, Goal, Position, SolveOptions};
//! let goal = Goal::RowMajor.position("3x3".parse().unwrap()).unwrap();
//! let start: Position = "8 6 7/2 5 4/3 0 1".parse().unwrap();
//! let solution = solve_optimal(&start, &goal, &SolveOptions::default()).unwrap();
//! assert_eq!(solution.moves.len(), 31);
//! assert!(solution.optimal);
//! ```

mod analysis;
mod budget;
mod colouring;
mod count;
mod difficulty;
mod grid;
mod heuristic;
mod ida;
mod mtm;
mod pdb;
mod pdb_build;
mod relabel;
mod table;
mod window;

pub use analysis::{analyze, Analysis, AnalysisError, Detour, Distance, Progress};
pub use colouring::{ColourTable, COLOUR_FORMAT_VERSION};
pub use count::{all_optimal, AllSolutions, CountError};
pub use difficulty::{with_optimal_length, DifficultyError, LengthRange};
pub use heuristic::{
    dual_sets, required_patterns, Databases, HeuristicError, HeuristicKind, Lookups, LookupsError,
};
pub use mtm::{mtm_lower_bound, Metric};
pub use pdb::{BuildProgress, LoadError, PatternDatabase, PatternSpec, FORMAT_VERSION};
pub use table::{DistanceTable, FULL_TABLE_MAX_CELLS};

use crate::{Direction, MismatchError, Moves, Position, Size};
use budget::Limits;
use grid::Grid;
use heuristic::{Estimate, Manhattan, Patterns};
use ida::{Outcome, Search};
use relabel::Canonical;

/// Boards up to this many cells are solved optimally (given time); larger
/// ones only in the bounded mode.
pub const OPTIMAL_MAX_CELLS: usize = 16;
/// Largest board the bounded mode takes on: 5 × 5 (and 3 × 8 …), where its
/// 5-tile pattern databases build in seconds. Beyond, use the fast solver.
pub const BOUNDED_MAX_CELLS: usize = 25;

/// A solution and what is known about it. `optimal` and `lower_bound`
/// speak of the metric it was solved in (single-tile moves unless it came
/// asked for MTM in [`SolveOptions::metric`]); its length in either metric is
/// [`Solution::stm`] and [`Solution::mtm`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Tile moves that take the position to the goal.
    pub moves: Moves,
    /// Whether `moves` is proven shortest.
    pub optimal: bool,
    /// Search nodes generated (0 for a table walk).
    pub nodes: u64,
    /// No solution has fewer moves (equals the length when optimal).
    pub lower_bound: u32,
}

impl Solution {
    /// A solution proven shortest in `metric`, found after `nodes` nodes.
    pub(crate) fn proven(moves: Moves, metric: Metric, nodes: u64) -> Solution {
        let lower_bound = moves.length(metric) as u32;
        Solution {
            moves,
            optimal: true,
            nodes,
            lower_bound,
        }
    }

    /// Length in single-tile moves.
    pub fn stm(&self) -> usize {
        self.moves.len()
    }

    /// Length in multi-tile moves.
    pub fn mtm(&self) -> usize {
        self.moves.mtm_len()
    }

    /// Length in `metric`.
    pub fn length(&self, metric: Metric) -> usize {
        self.moves.length(metric)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
/// Why the optimal solver gives no solution.
#[allow(missing_docs)] // each variant's message names its fields
pub enum SolveError {
    #[error("unsolvable: the position cannot reach the goal")]
    /// The goal cannot be reached from the position.
    Unsolvable,
    #[error(transparent)]
    /// The position and the goal do not fit together.
    Mismatch(#[from] MismatchError),
    #[error("{size} is too large for the optimal solver (at most {BOUNDED_MAX_CELLS} cells)")]
    TooLarge { size: Size },
}

/// How to solve. `Default` is the cheap configuration: small pattern
/// databases, no budget, the process-wide database set.
#[derive(Clone, Copy, Default)]
pub struct SolveOptions<'a> {
    /// The metric a solution is shortest in: single-tile moves (the
    /// default) or multi-tile moves. An MTM solution's `lower_bound` and
    /// `optimal` speak of MTM lengths; its moves are single-tile moves
    /// (see the `mtm` module).
    pub metric: Metric,
    /// Lower bound used by IDA* on boards without a complete table.
    pub heuristic: HeuristicKind,
    /// Stop the optimal search after this many nodes (bounded mode).
    pub node_limit: Option<u64>,
    /// Stop the optimal search when this returns true (checked every few
    /// thousand nodes; e.g. a deadline kept by the front end).
    pub stop: Option<&'a (dyn Fn() -> bool + Sync)>,
    /// Where pattern databases come from; [`Databases::global`] if `None`.
    pub databases: Option<&'a Databases>,
    /// Bounded mode: stop looking for shorter solutions when this returns
    /// true, and give the rest of the budget to raising the proven lower
    /// bound. Unset, shortening may take the whole budget and the bound
    /// stay where the tables put it. Front ends with a deadline set this at
    /// [`SHORTENING_SHARE`] of their time.
    pub shorten_stop: Option<&'a (dyn Fn() -> bool + Sync)>,
    /// Whether IDA* also looks up the dual position.
    pub lookups: Lookups,
}

/// The share of a bounded solve's time that front ends give to finding
/// shorter solutions; the rest raises the lower bound. On Korf and
/// Felner's 50 5 × 5 instances at 10 s each (BENCHMARKS.md), with the
/// weighted searches before the improving ones, 0.85 found solutions 2.88
/// moves above the optimum on average with bounds 6.32 below it, and 0.7
/// found them 3.48 above with bounds 5.88 below; with [`PHASES`], 0.85
/// finds them 1.56–1.84 above (the last phase is cut by the clock, so runs
/// at different loads differ) with bounds 6.5–7.0 below, and 0.95 finds
/// the same lengths with bounds 7.36 below.
pub const SHORTENING_SHARE: f64 = 0.85;

/// One weighted search of the bounded mode.
struct Phase {
    /// w = num / den.
    weight: (u32, u32),
    /// Whether the search goes on after its first solution for shorter
    /// ones, to the end of that iteration ([`Search::improving`]).
    improving: bool,
    /// Whether an improving search goes on, iteration after iteration,
    /// until its cap.
    keep_on: bool,
    /// Nodes the phase may take at most, so that a weight that finds
    /// nothing shorter leaves time to the next.
    cap: Option<u64>,
}

const fn phase(num: u32, den: u32, improving: bool, keep_on: bool, cap: Option<u64>) -> Phase {
    Phase {
        weight: (num, den),
        improving,
        keep_on,
        cap,
    }
}

/// The bounded mode's weighted searches, in order, each looking only for
/// a solution shorter than the best so far, and each solution then
/// shortened window by window. w = 3 and 2 find a first solution in
/// thousands of nodes. From 3/2 down, each search is improving: the
/// iteration that finds a solution is searched to its end, and what it
/// keeps is the shortest under that threshold; 3/2 goes on to the next
/// thresholds until its cap (on instances 9 and 33, +6 and +8 become +4). On Korf and Felner's
/// hardest instances (24, 27), 3/2 and 7/5 improving take them from 16
/// moves above the optimum to 2 (BENCHMARKS.md); the caps (about 2 s of
/// search each here) keep a weight that finds nothing shorter from taking
/// the time the lower ones need on the others.
const PHASES: [Phase; 7] = [
    phase(3, 1, false, false, None),
    phase(2, 1, false, false, None),
    phase(3, 2, true, true, Some(30_000_000)),
    phase(7, 5, true, false, Some(25_000_000)),
    phase(4, 3, true, false, Some(25_000_000)),
    phase(5, 4, true, false, Some(25_000_000)),
    phase(9, 8, true, false, None),
];

impl<'a> SolveOptions<'a> {
    fn databases(&self) -> &Databases {
        self.databases.unwrap_or_else(|| Databases::global())
    }

    /// These options, asking for `metric`.
    pub fn in_metric(&self, metric: Metric) -> SolveOptions<'a> {
        SolveOptions { metric, ..*self }
    }
}

/// A shortest solution from `position` to `goal`.
///
/// Boards of at most [`FULL_TABLE_MAX_CELLS`] cells walk a complete distance
/// table (built once per shape and goal blank cell, then shared); boards up
/// to [`OPTIMAL_MAX_CELLS`] run IDA* with pattern databases. Larger boards,
/// or any search stopped by `node_limit`/`stop`, return the best solution
/// found with `optimal: false` and the proven lower bound.
pub fn solve_optimal(
    position: &Position,
    goal: &Position,
    options: &SolveOptions,
) -> Result<Solution, SolveError> {
    let start = accepted(position, goal)?;
    match options.metric {
        Metric::Stm => Ok(stm_from(&start, options)),
        Metric::Mtm => mtm::solve_from(&start, position, goal, options),
    }
}

/// A shortest solution in single-tile moves: from the complete table where
/// there is one, else by IDA*.
fn stm_from(start: &Canonical, options: &SolveOptions) -> Solution {
    if start.size.cells() <= FULL_TABLE_MAX_CELLS {
        let table = DistanceTable::get(start.size, start.goal_blank);
        return Solution::proven(table.solve(start), Metric::Stm, 0);
    }
    search_from(start, options)
}

/// The canonical form of a position and goal the optimal solvers take: at
/// most [`BOUNDED_MAX_CELLS`] cells, and a goal that fits.
fn accepted(position: &Position, goal: &Position) -> Result<Canonical, SolveError> {
    let size = position.size();
    if size.cells() > BOUNDED_MAX_CELLS {
        return Err(SolveError::TooLarge { size });
    }
    Canonical::new(position, goal)
}

/// Like [`solve_optimal`] but always by IDA*, even where a complete table
/// exists: a baseline for benchmarks and an independent cross-check.
pub fn solve_with_search(
    position: &Position,
    goal: &Position,
    options: &SolveOptions,
) -> Result<Solution, SolveError> {
    accepted(position, goal).map(|start| search_from(&start, options))
}

/// IDA* from `start` with the heuristic `options` ask for.
fn search_from(start: &Canonical, options: &SolveOptions) -> Solution {
    let grid = Grid::new(start.size);
    match options.heuristic {
        HeuristicKind::Manhattan => {
            let estimate = Manhattan::new(&grid, start.goal_blank);
            search(&grid, &estimate, start, options)
        }
        kind => {
            let estimate = Patterns::new(
                start.size,
                start.goal_blank,
                kind,
                options.lookups,
                options.databases(),
            );
            search(&grid, &estimate, start, options)
        }
    }
}

/// The first move of an optimal solution, or `None` if already solved.
pub fn hint(
    position: &Position,
    goal: &Position,
    options: &SolveOptions,
) -> Result<Option<Direction>, SolveError> {
    Ok(
        solve_optimal(position, goal, &options.in_metric(Metric::Stm))?
            .moves
            .iter()
            .next(),
    )
}

/// A lower bound of the optimal length of `start` (exact on small boards).
pub(crate) fn lower_bound(start: &Canonical, options: &SolveOptions) -> u32 {
    let cells = start.cells.len();
    let size = start.size;
    if cells <= FULL_TABLE_MAX_CELLS {
        let table = DistanceTable::get(size, start.goal_blank);
        return table.distance(&start.cells).unwrap_or(0);
    }
    let grid = Grid::new(size);
    let positions = start.positions();
    match options.heuristic {
        HeuristicKind::Manhattan => {
            Manhattan::new(&grid, start.goal_blank)
                .initial(&positions)
                .0
        }
        kind => {
            let patterns = Patterns::new(
                size,
                start.goal_blank,
                kind,
                options.lookups,
                options.databases(),
            );
            let regular = patterns.initial(&positions).0;
            regular.max(patterns.dual(&start.cells, start.blank, u32::MAX))
        }
    }
}

/// IDA* from `start`; when stopped, a weighted search supplies the best
/// solution it can within the remaining allowance.
fn search<E: Estimate>(
    grid: &Grid,
    estimate: &E,
    start: &Canonical,
    options: &SolveOptions,
) -> Solution {
    let limits = Limits::of(options);
    let mut nodes = 0;
    let mut best: Option<Vec<Direction>> = None;
    let bounded = grid.cells > OPTIMAL_MAX_CELLS;
    if bounded {
        // Shortening stops at either signal.
        let shorten_stop = || {
            options.stop.is_some_and(|stop| stop())
                || options.shorten_stop.is_some_and(|stop| stop())
        };
        let shortening = Limits {
            nodes: options.node_limit,
            stop: Some(&shorten_stop),
        };
        // Beyond 16 cells the optimal search rarely ends in time: find a
        // solution first, then shorten it with decreasing weights.
        for phase in PHASES {
            let first = best.is_none();
            if !first && shorten_stop() {
                break;
            }
            // The first solution is looked for under the caller's budget:
            // if it runs out, the cheap fallback below answers.
            let mut limits = if first { limits } else { shortening };
            if let Some(cap) = phase.cap {
                let left = options
                    .node_limit
                    .map_or(u64::MAX, |n| n.saturating_sub(nodes));
                limits.nodes = Some(cap.min(left));
            }
            let limit = best.as_ref().map_or(u32::MAX, |b| b.len() as u32);
            let (num, den) = phase.weight;
            let mut weighted =
                Search::new(grid, estimate, &start.cells, limits).with_weight(num, den);
            if phase.improving {
                weighted = weighted.improving(phase.keep_on);
            }
            let outcome = weighted.run(start.blank, limit);
            nodes += weighted.nodes;
            match outcome {
                // Local detours go first: the next weight must beat what
                // is left.
                Outcome::Found(path) => {
                    best = Some(window::shorten(grid, start, path, shortening));
                }
                // Out of the phase's own nodes: the next weight may do
                // better.
                Outcome::Exhausted { .. } if phase.cap.is_some() => {}
                Outcome::Exhausted { .. } => break,
                // Nothing shorter than the limit at any weight: the limit
                // pruned on g + h alone.
                Outcome::None => break,
            }
        }
    }
    let remaining = limits.after(nodes);
    let limit = best.as_ref().map_or(u32::MAX, |b| b.len() as u32);
    let mut optimal = Search::new(grid, estimate, &start.cells, remaining);
    let lower_bound_start = optimal.initial_estimate(start.blank);
    let outcome = optimal.run(start.blank, limit);
    nodes += optimal.nodes;
    match outcome {
        Outcome::Found(path) => finish(path, true, nodes, None),
        // Nothing shorter than the weighted solution: it is optimal.
        Outcome::None => finish(
            best.expect("a solution bounds the search"),
            true,
            nodes,
            None,
        ),
        Outcome::Exhausted { lower_bound } => {
            let path = best.unwrap_or_else(|| any_solution(grid, estimate, start, &mut nodes));
            let bound = lower_bound.max(lower_bound_start);
            finish(path, false, nodes, Some(bound))
        }
    }
}

/// Nodes the weighted fallback may spend once the budget is spent: a few
/// milliseconds. A 4 × 4 board needs a few hundred at w = 3.
const FALLBACK_NODES: u64 = 200_000;

/// Any solution, cheaply, for a search stopped before it found one: a
/// weighted search capped at [`FALLBACK_NODES`], else the fast solver,
/// which is bounded by construction. Neither outlives the caller's budget
/// by more than milliseconds.
fn any_solution<E: Estimate>(
    grid: &Grid,
    estimate: &E,
    start: &Canonical,
    nodes: &mut u64,
) -> Vec<Direction> {
    let capped = Limits {
        nodes: Some(FALLBACK_NODES),
        stop: None,
    };
    let mut weighted = Search::new(grid, estimate, &start.cells, capped).with_weight(3, 1);
    let found = weighted.run(start.blank, u32::MAX);
    *nodes += weighted.nodes;
    if let Outcome::Found(path) = found {
        return path;
    }
    let (position, goal) = start.to_positions();
    crate::solve_fast(&position, &goal)
        .expect("a solvable position has a fast solution")
        .iter()
        .collect()
}

fn finish(path: Vec<Direction>, optimal: bool, nodes: u64, bound: Option<u32>) -> Solution {
    let length = path.len() as u32;
    let lower_bound = bound.unwrap_or(length).min(length);
    Solution {
        optimal: optimal || lower_bound == length,
        moves: Moves(path),
        nodes,
        lower_bound,
    }
}

#[cfg(test)]
mod tests;
