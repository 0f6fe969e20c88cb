//! Every optimal solution: how many there are, and the first few.
//!
//! Once the optimal length L is known, the optimal solutions are the paths
//! of exactly L moves from the start to the goal. Every step of such a path
//! is itself a shortest path between its ends, so a position on it is
//! always reached after the same number of moves, and the number of ways
//! on from it depends on the position alone. The search is the last
//! iteration of IDA* (bound L, the same admissible bound), with each
//! position's count of ways on kept in a table: the paths are counted over
//! the DAG they form, not walked one by one, so a position with millions
//! of optimal solutions is counted as fast as one with a few. The first
//! `list` solutions are then read off the same table.
//!
//! Boards of at most [`FULL_TABLE_MAX_CELLS`] cells use their complete
//! distance table as the bound (exact: only positions on optimal paths are
//! visited), in both metrics.

use std::collections::HashMap;

use super::grid::Grid;
use super::heuristic::{Estimate, Lookups, Manhattan, Patterns};
use super::mtm::{mtm_distance, runs, Metric};
use super::relabel::Canonical;
use super::table::{DistanceTable, FULL_TABLE_MAX_CELLS};
use super::{accepted, solve_optimal, HeuristicKind, SolveError, SolveOptions};
use crate::{Direction, Moves, Position};

/// The optimal solutions of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllSolutions {
    /// The metric the solutions are shortest in.
    pub metric: Metric,
    /// The optimal length, in `metric`.
    pub length: usize,
    /// How many optimal solutions there are (a lower bound when not
    /// `complete`).
    pub count: u128,
    /// The first of them, in a fixed order (up to the `list` asked for).
    pub solutions: Vec<Moves>,
    /// Whether every path was counted: false when the budget ran out.
    pub complete: bool,
}

/// Why the solutions could not be counted.
#[derive(Debug, thiserror::Error)]
pub enum CountError {
    /// The position and goal cannot be solved optimally.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The optimum itself was not proven within the budget: a solution of
    /// `found` moves is known, and none shorter than `lower_bound`.
    #[error("the optimal length was not proven within the limit (a solution of {found} moves, at least {lower_bound}): raise the limit")]
    NotProven {
        /// The best solution's length.
        found: usize,
        /// The proven lower bound.
        lower_bound: u32,
    },
}

/// Positions whose count is zero are kept only up to this many (each is a
/// few dozen bytes); those with a count are always kept, since listing
/// reads them.
const ZERO_ENTRIES: usize = 1 << 22;

/// Counts every optimal solution from `position` to `goal` in the metric
/// `options` ask for, and lists the first `list` of them; `options` give
/// the bound and the budget, as for [`solve_optimal`].
pub fn all_optimal(
    position: &Position,
    goal: &Position,
    options: &SolveOptions,
    list: usize,
) -> Result<AllSolutions, CountError> {
    let start = accepted(position, goal)?;
    let metric = options.metric;
    let solution = solve_optimal(position, goal, options)?;
    if !solution.optimal {
        return Err(CountError::NotProven {
            found: solution.length(metric),
            lower_bound: solution.lower_bound,
        });
    }
    let length = solution.length(metric);
    let bound = Bound::new(&start, metric, options);
    let mut counter = Counter {
        grid: Grid::new(start.size),
        bound,
        metric,
        length: length as u32,
        cells: start.cells.clone(),
        positions: start.positions(),
        memo: HashMap::new(),
        zeros: 0,
        nodes: 0,
        stop: options.stop,
        node_limit: options.node_limit,
        stopped: false,
    };
    let count = counter.count(start.blank, usize::MAX, 0);
    let solutions = if counter.stopped {
        Vec::new()
    } else {
        counter.list(start.blank, list)
    };
    Ok(AllSolutions {
        metric,
        length,
        count,
        solutions,
        complete: !counter.stopped,
    })
}

/// A complete table's distance of canonical cells (`None`: unreachable).
type TableDistance = Box<dyn Fn(&[u8]) -> Option<u32>>;

/// A lower bound of the distance to the goal in the metric counted.
enum Bound {
    /// The complete table: exact.
    Table {
        distance: TableDistance,
    },
    Manhattan(Manhattan, u32),
    Patterns(Box<Patterns>, u32),
}

impl Bound {
    fn new(start: &Canonical, metric: Metric, options: &SolveOptions) -> Bound {
        let (size, goal_blank) = (start.size, start.goal_blank);
        let grid = Grid::new(size);
        if size.cells() <= FULL_TABLE_MAX_CELLS {
            let distance: TableDistance = match metric {
                Metric::Stm => {
                    let table = DistanceTable::get(size, goal_blank);
                    Box::new(move |cells| table.distance(cells))
                }
                Metric::Mtm => Box::new(move |cells| mtm_distance(size, goal_blank, cells)),
            };
            return Bound::Table { distance };
        }
        // One multi-tile move slides at most the longest line less one
        // tiles: the single-tile bound divided by that, rounded up.
        let per_move = match metric {
            Metric::Stm => 1,
            Metric::Mtm => size.width().max(size.height()) as u32 - 1,
        };
        match options.heuristic {
            HeuristicKind::Manhattan => {
                Bound::Manhattan(Manhattan::new(&grid, goal_blank), per_move)
            }
            kind => Bound::Patterns(
                Box::new(Patterns::new(
                    size,
                    goal_blank,
                    kind,
                    Lookups::Regular,
                    options.databases(),
                )),
                per_move,
            ),
        }
    }

    fn of(&self, cells: &[u8], positions: &[u8]) -> u32 {
        match self {
            // The table answers for every position of the start's class.
            Bound::Table { distance } => distance(cells).unwrap_or(u32::MAX),
            Bound::Manhattan(m, per) => m.initial(positions).0.div_ceil(*per),
            Bound::Patterns(p, per) => p.initial(positions).0.div_ceil(*per),
        }
    }
}

struct Counter<'a> {
    grid: Grid,
    bound: Bound,
    metric: Metric,
    length: u32,
    cells: Vec<u8>,
    positions: Vec<u8>,
    /// Ways on to the goal from (position, moves made).
    memo: HashMap<(u128, u32), u128>,
    zeros: usize,
    nodes: u64,
    stop: Option<&'a (dyn Fn() -> bool + Sync)>,
    node_limit: Option<u64>,
    stopped: bool,
}

/// A move of the metric: its direction and the cells the blank passes.
type Step = (Direction, Vec<usize>);

impl Counter<'_> {
    /// The position as one number: five bits a cell (at most 25 cells).
    fn key(&self) -> u128 {
        self.cells
            .iter()
            .fold(0u128, |key, &tile| (key << 5) | u128::from(tile))
    }

    /// The moves from the blank at `blank`: single tiles, or every run.
    fn steps(&self, blank: usize) -> Vec<Step> {
        let mut steps = Vec::new();
        match self.metric {
            Metric::Stm => {
                for &(c, direction) in &self.grid.neighbours[blank] {
                    steps.push((direction, vec![c as usize]));
                }
            }
            Metric::Mtm => runs(&self.grid, blank, |direction, line| {
                for k in 1..=line.len() {
                    steps.push((direction, line[..k].to_vec()));
                }
            }),
        }
        steps
    }

    /// Plays a step (the blank walks along `cells`); returns the blank.
    fn play(&mut self, mut blank: usize, cells: &[usize]) -> usize {
        for &c in cells {
            let tile = self.cells[c];
            self.cells.swap(blank, c);
            self.positions[tile as usize] = blank as u8;
            self.positions[self.cells[c] as usize] = c as u8;
            blank = c;
        }
        blank
    }

    /// Takes a step back.
    fn unplay(&mut self, blank: usize, from: usize, cells: &[usize]) {
        let mut at = blank;
        for &c in cells.iter().rev().skip(1).chain(std::iter::once(&from)) {
            let tile = self.cells[c];
            self.cells.swap(at, c);
            self.positions[tile as usize] = at as u8;
            self.positions[self.cells[c] as usize] = c as u8;
            at = c;
        }
    }

    fn out_of_budget(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) {
            let over = self.node_limit.is_some_and(|n| self.nodes >= n);
            self.stopped |= over || self.stop.is_some_and(|stop| stop());
        }
        self.stopped
    }

    /// Ways to the goal in exactly `length − g` moves from here, the blank
    /// at `blank` having come from `previous` (never stepped back onto:
    /// no shortest path undoes its last move).
    fn count(&mut self, blank: usize, previous: usize, g: u32) -> u128 {
        let h = self.bound.of(&self.cells, &self.positions);
        if g + h > self.length {
            return 0;
        }
        if g == self.length {
            return u128::from(h == 0);
        }
        let key = (self.key(), g);
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        if self.out_of_budget() {
            return 0;
        }
        let mut total = 0u128;
        for (_, line) in self.steps(blank) {
            // Stepping back onto the cell just left undoes (part of) the
            // last move, or in MTM continues it in a second move.
            if line.contains(&previous) || self.continues(previous, blank, &line) {
                continue;
            }
            let next = self.play(blank, &line);
            let came_from = *line.iter().rev().nth(1).unwrap_or(&blank);
            total += self.count(next, came_from, g + 1);
            self.unplay(next, blank, &line);
        }
        if !self.stopped && (total > 0 || self.zeros < ZERO_ENTRIES) {
            self.zeros += usize::from(total == 0);
            self.memo.insert(key, total);
        }
        total
    }

    /// In MTM, whether a run goes on in the direction of the last one (the
    /// two would be one move): the blank keeps moving away from `previous`.
    fn continues(&self, previous: usize, blank: usize, line: &[usize]) -> bool {
        if self.metric == Metric::Stm || previous == usize::MAX {
            return false;
        }
        let size = self.grid.size;
        let ((px, py), (bx, by), (nx, ny)) = (
            size.coords(previous),
            size.coords(blank),
            size.coords(line[0]),
        );
        let (ix, iy) = (bx as isize - px as isize, by as isize - py as isize);
        let (ox, oy) = (nx as isize - bx as isize, ny as isize - by as isize);
        (ix, iy) == (ox, oy)
    }

    /// The first `list` optimal solutions, read off the counts.
    fn list(&mut self, blank: usize, list: usize) -> Vec<Moves> {
        let mut found = Vec::new();
        let mut path = Vec::new();
        self.walk(blank, usize::MAX, 0, list, &mut path, &mut found);
        found
    }

    fn walk(
        &mut self,
        blank: usize,
        previous: usize,
        g: u32,
        list: usize,
        path: &mut Vec<Direction>,
        found: &mut Vec<Moves>,
    ) {
        if found.len() >= list {
            return;
        }
        if g == self.length {
            found.push(Moves(path.clone()));
            return;
        }
        for (direction, line) in self.steps(blank) {
            if line.contains(&previous) || self.continues(previous, blank, &line) {
                continue;
            }
            let next = self.play(blank, &line);
            let came_from = *line.iter().rev().nth(1).unwrap_or(&blank);
            let ways = if g + 1 == self.length {
                u128::from(self.bound.of(&self.cells, &self.positions) == 0)
            } else {
                self.memo.get(&(self.key(), g + 1)).copied().unwrap_or(0)
            };
            if ways > 0 {
                path.extend(std::iter::repeat_n(direction, line.len()));
                self.walk(next, came_from, g + 1, list, path, found);
                path.truncate(path.len() - line.len());
            }
            self.unplay(next, blank, &line);
            if found.len() >= list {
                return;
            }
        }
    }
}
