//! Optimal solutions in the multi-tile metric (MTM): sliding a run of tiles
//! along the blank's row or column, one cell each, counts as one move.
//!
//! * Boards of at most [`FULL_TABLE_MAX_CELLS`] cells walk a complete MTM
//!   distance table, built by one breadth-first search back from the goal
//!   whose edges are the multi-tile moves.
//! * Larger boards (up to [`OPTIMAL_MAX_CELLS`]) run IDA* whose nodes are
//!   multi-tile moves, bounded by a colouring table (module `colouring`):
//!   the exact MTM distance of the board with its tiles painted in a few
//!   colours. A search under a budget on a board whose table takes
//!   seconds to build (4 × 4) uses it only when it is loaded; without it,
//!   the bound is the STM bound divided by the longest run, rounded up
//!   (admissible: one MTM move of k tiles is k single-tile moves, and k is
//!   at most `max(width, height) − 1`), which is weak, and a stopped search
//!   answers with the best solution known and the proven lower bound.
//!
//! Solutions are written as single-tile moves, like every other solution:
//! their MTM length is [`crate::Moves::mtm_len`], and the compact notation
//! (`R3U2`) prints one MTM move per letter.

use super::budget::{Budget, Limits};
use super::colouring::{self, ColourTable};
use super::grid::Grid;
use super::heuristic::{Estimate, Lookups, Manhattan, Patterns};
use super::relabel::Canonical;
use super::table::{factorial, rank, unrank, FULL_TABLE_MAX_CELLS};
use super::{
    accepted, Databases, HeuristicKind, Solution, SolveError, SolveOptions, OPTIMAL_MAX_CELLS,
};
use crate::{Direction, Moves, Position, Size};
use std::sync::{Arc, Mutex, OnceLock};

/// Which moves a length counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Single-tile moves: each tile slid one cell is a move.
    #[default]
    Stm,
    /// Multi-tile moves: a run of tiles slid along a line is one move.
    Mtm,
}

impl std::str::FromStr for Metric {
    type Err = String;

    fn from_str(s: &str) -> Result<Metric, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "stm" => Ok(Metric::Stm),
            "mtm" => Ok(Metric::Mtm),
            _ => Err(format!("unknown metric {s:?}: use stm or mtm")),
        }
    }
}

impl std::fmt::Display for Metric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Metric::Stm => "stm",
            Metric::Mtm => "mtm",
        })
    }
}

/// A shortest solution from `start` (the canonical form of `position`
/// and `goal`) in the multi-tile metric: `solve_optimal`'s, when its
/// options ask for MTM.
pub(super) fn solve_from(
    start: &Canonical,
    position: &Position,
    goal: &Position,
    options: &SolveOptions,
) -> Result<Solution, SolveError> {
    let size = start.size;
    if size.cells() <= FULL_TABLE_MAX_CELLS {
        let moves = MtmTable::get(size, start.goal_blank).solve(start);
        return Ok(Solution::proven(moves, Metric::Mtm, 0));
    }
    if size.cells() > OPTIMAL_MAX_CELLS {
        return Err(SolveError::TooLarge { size });
    }
    let table = colour_table(size, start.goal_blank, options);
    if let Some(table) = table {
        let limits = Limits::of(options);
        let stop = |nodes| limits.reached(nodes);
        return Ok(match colouring::search(&table, start, &stop) {
            Ok((moves, nodes)) => Solution::proven(moves, Metric::Mtm, nodes),
            Err((bound, nodes)) => stopped(position, goal, options, bound, nodes),
        });
    }
    let grid = Grid::new(size);
    Ok(match options.heuristic {
        HeuristicKind::Manhattan => {
            let estimate = Manhattan::new(&grid, start.goal_blank);
            search(&grid, &estimate, start, position, goal, options)
        }
        kind => {
            let estimate = Patterns::new(
                size,
                start.goal_blank,
                kind,
                Lookups::Regular,
                options.databases(),
            );
            search(&grid, &estimate, start, position, goal, options)
        }
    })
}

/// Where the distance of `position` lies, given that it is within
/// `floor..=ceiling`: the colouring search's shortest solution if one is
/// no longer than `ceiling` (`Ok(Some(moves))`), `Ok(None)` if none is,
/// `Err(bound)` when the budget stopped it first. `None` when no colouring
/// table serves the board (the caller solves it outright).
pub(crate) fn mtm_within(
    position: &Position,
    goal: &Position,
    options: &SolveOptions,
    floor: u32,
    ceiling: u32,
) -> Option<Result<Option<Moves>, u32>> {
    let start = accepted(position, goal).ok()?;
    let size = position.size();
    if size.cells() <= FULL_TABLE_MAX_CELLS || size.cells() > OPTIMAL_MAX_CELLS {
        return None;
    }
    let table = colour_table(size, start.goal_blank, options)?;
    let limits = Limits::of(options);
    let stop = |nodes| limits.reached(nodes);
    Some(
        colouring::search_within(&table, &start, &stop, floor, ceiling)
            .map(|(moves, _)| moves)
            .map_err(|(bound, _)| bound),
    )
}

/// The colouring table a search with `options` uses: built now when it
/// is small or the search has no budget; under a budget a large table
/// (4 × 4: seconds to build) only if it is already loaded (front ends
/// load or build it ahead, see `Databases::insert_colouring`).
fn colour_table(size: Size, goal_blank: usize, options: &SolveOptions) -> Option<Arc<ColourTable>> {
    let databases = options.databases();
    let budget = options.stop.is_some() || options.node_limit.is_some();
    if budget && !ColourTable::is_quick(size, goal_blank) {
        databases.colouring(size, goal_blank)
    } else {
        databases.colouring_or_build(size, goal_blank)
    }
}

/// An admissible lower bound on the MTM distance from `position` to
/// `goal`: the colouring bound where a table exists for the board (built
/// now if missing), else the STM bound over the longest run. Exposed for
/// checks against complete tables.
pub fn mtm_lower_bound(position: &Position, goal: &Position) -> Result<u32, SolveError> {
    let start = accepted(position, goal)?;
    let size = position.size();
    if size.cells() <= FULL_TABLE_MAX_CELLS {
        return Ok(mtm_distance(size, start.goal_blank, &start.cells).unwrap_or(0));
    }
    if let Some(table) = Databases::global().colouring_or_build(size, start.goal_blank) {
        return Ok(table.bound_of(&start));
    }
    let grid = Grid::new(size);
    let longest = size.width().max(size.height()) as u32 - 1;
    let estimate = Manhattan::new(&grid, start.goal_blank);
    Ok(estimate.initial(&start.positions()).0.div_ceil(longest))
}

/// The MTM distance of canonical `cells` (at most
/// [`FULL_TABLE_MAX_CELLS`]) to the goal with its blank on `goal_blank`;
/// `None` for the other parity.
pub(super) fn mtm_distance(size: Size, goal_blank: usize, cells: &[u8]) -> Option<u32> {
    let distance = MtmTable::get(size, goal_blank).distances[rank(cells)];
    (distance != UNREACHABLE).then_some(u32::from(distance))
}

/// The MTM distance of every arrangement of one board shape towards a
/// goal blank cell; `UNREACHABLE` for the other parity.
struct MtmTable {
    grid: Grid,
    distances: Vec<u8>,
}

const UNREACHABLE: u8 = u8::MAX;

/// The built tables, by shape and goal blank cell: pure results, built
/// once per process.
type Memo = Mutex<Vec<((Size, usize), &'static MtmTable)>>;
static TABLES: OnceLock<Memo> = OnceLock::new();

/// Calls `each(cell, direction)` for every multi-tile move from `blank`:
/// the blank steps over 1, 2, … cells one way, and `direction` is the way
/// the tiles move. `each` sees the blank's cell after each step.
pub(super) fn runs(grid: &Grid, blank: usize, mut each: impl FnMut(Direction, &[usize])) {
    let size = grid.size;
    let (x, y) = size.coords(blank);
    let mut cells = Vec::with_capacity(size.width().max(size.height()));
    for d in Direction::ALL {
        let (dx, dy) = d.blank_step();
        cells.clear();
        let (mut cx, mut cy) = (x, y);
        while let (Some(nx), Some(ny)) = (cx.checked_add_signed(dx), cy.checked_add_signed(dy)) {
            if nx >= size.width() || ny >= size.height() {
                break;
            }
            cells.push(size.cell(nx, ny));
            (cx, cy) = (nx, ny);
        }
        if !cells.is_empty() {
            each(d, &cells);
        }
    }
}

impl MtmTable {
    fn get(size: Size, goal_blank: usize) -> &'static MtmTable {
        let memo = TABLES.get_or_init(|| Mutex::new(Vec::new()));
        let mut tables = memo
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((_, table)) = tables.iter().find(|(key, _)| *key == (size, goal_blank)) {
            return table;
        }
        let table: &'static MtmTable = Box::leak(Box::new(MtmTable::build(size, goal_blank)));
        tables.push(((size, goal_blank), table));
        table
    }

    /// Breadth-first search from the goal; a state's children are every
    /// run of 1, 2, … tiles slid into the blank along each line.
    fn build(size: Size, goal_blank: usize) -> MtmTable {
        let grid = Grid::new(size);
        let n = grid.cells;
        let mut distances = vec![UNREACHABLE; factorial(n)];
        let goal: Vec<u8> = (0..n as u8).collect();
        distances[rank(&goal)] = 0;
        let mut frontier = vec![rank(&goal) as u32];
        let mut depth = 0u8;
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for &r in &frontier {
                let start = unrank(r as usize, n);
                let blank = start
                    .iter()
                    .position(|&t| t as usize == goal_blank)
                    .expect("a blank");
                runs(&grid, blank, |_, line| {
                    let mut cells = start.clone();
                    let mut b = blank;
                    for &c in line {
                        cells.swap(b, c);
                        b = c;
                        let child = rank(&cells);
                        if distances[child] == UNREACHABLE {
                            distances[child] = depth + 1;
                            next.push(child as u32);
                        }
                    }
                });
            }
            frontier = next;
            depth += 1;
        }
        MtmTable { grid, distances }
    }

    /// An optimal solution: from each arrangement, a multi-tile move to one
    /// a step closer.
    fn solve(&self, start: &Canonical) -> Moves {
        let mut cells = start.cells.clone();
        let mut blank = start.blank;
        let mut distance = self.distances[rank(&cells)];
        let mut moves = Vec::new();
        while distance != 0 {
            let mut step = None;
            runs(&self.grid, blank, |d, line| {
                let mut trial = cells.clone();
                let mut b = blank;
                for (k, &c) in line.iter().enumerate() {
                    trial.swap(b, c);
                    b = c;
                    if step.is_none() && self.distances[rank(&trial)] == distance - 1 {
                        step = Some((d, k + 1, trial.clone(), c));
                    }
                }
            });
            let (d, k, next, b) = step.expect("some move is one closer");
            moves.extend(std::iter::repeat_n(d, k));
            (cells, blank) = (next, b);
            distance -= 1;
        }
        Moves(moves)
    }
}

/// IDA* over multi-tile moves; see the module documentation for its bound.
fn search<E: Estimate>(
    grid: &Grid,
    estimate: &E,
    start: &Canonical,
    position: &Position,
    goal: &Position,
    options: &SolveOptions,
) -> Solution {
    let longest = grid.size.width().max(grid.size.height()) as u32 - 1;
    let mut dfs = Dfs {
        grid,
        estimate,
        longest,
        cells: start.cells.clone(),
        positions: start.positions(),
        path: Vec::new(),
        nodes: 0,
        budget: Budget::new(Limits::of(options)),
        bound: 0,
        next_bound: u32::MAX,
    };
    let (h, memo) = estimate.initial(&dfs.positions);
    dfs.bound = h.div_ceil(longest);
    loop {
        dfs.next_bound = u32::MAX;
        if dfs.visit(start.blank, None, 0, h, memo) {
            let moves = Moves(std::mem::take(&mut dfs.path));
            return Solution::proven(moves, Metric::Mtm, dfs.nodes);
        }
        if dfs.budget.is_spent() {
            break;
        }
        dfs.bound = dfs.next_bound;
    }
    stopped(position, goal, options, dfs.bound, dfs.nodes)
}

/// A stopped search's answer: the shorter in MTM of two solutions that
/// cost next to nothing once the budget is spent, with the proven `bound`.
/// The STM solver runs under the same (spent) budget, so it answers at
/// once with its own cheap, node-capped fallback; the fast solver is
/// bounded by construction. Neither may outlive the caller's budget.
fn stopped(
    position: &Position,
    goal: &Position,
    options: &SolveOptions,
    bound: u32,
    nodes: u64,
) -> Solution {
    let spent = SolveOptions {
        node_limit: Some(0),
        metric: Metric::Stm,
        ..*options
    };
    let fallback = super::solve_optimal(position, goal, &spent)
        .map(|s| s.moves)
        .ok()
        .into_iter()
        .chain(crate::solve_fast(position, goal).ok())
        .min_by_key(Moves::mtm_len)
        .expect("a solvable position has a solution");
    let length = fallback.mtm_len() as u32;
    Solution {
        optimal: bound >= length,
        lower_bound: bound.min(length),
        moves: fallback,
        nodes,
    }
}

struct Dfs<'a, E: Estimate> {
    grid: &'a Grid,
    estimate: &'a E,
    /// The most tiles one move slides.
    longest: u32,
    cells: Vec<u8>,
    positions: Vec<u8>,
    path: Vec<Direction>,
    nodes: u64,
    budget: Budget<'a>,
    /// This iteration's threshold on the MTM f.
    bound: u32,
    /// The least f over `bound` seen in this iteration: the next threshold.
    next_bound: u32,
}

/// Whether two directions move along the same line (both horizontal or
/// both vertical).
fn same_axis(a: Direction, b: Direction) -> bool {
    let horizontal = |d| matches!(d, Direction::Left | Direction::Right);
    horizontal(a) == horizontal(b)
}

impl<E: Estimate> Dfs<'_, E> {
    /// Checks the budget every few thousand nodes (a pruned child counts
    /// too, so the check is by threshold, not by exact multiples).
    /// Searches below the node whose last move went `previous`, at MTM
    /// depth `g` with STM bound `h`.
    fn visit(
        &mut self,
        blank: usize,
        previous: Option<Direction>,
        g: u32,
        h: u32,
        memo: E::Memo,
    ) -> bool {
        if h == 0 {
            return true;
        }
        if self.budget.spent_at(self.nodes) {
            return false;
        }
        let bound = self.bound;
        let mut lines = Vec::with_capacity(4);
        // Two moves along one line in a row are never needed: they make
        // one move, or none.
        runs(self.grid, blank, |d, line| {
            if !previous.is_some_and(|p| same_axis(p, d)) {
                lines.push((d, line.to_vec()));
            }
        });
        for (d, line) in lines {
            let (mut b, mut memo_k) = (blank, memo);
            let mut slid = 0;
            let mut found = false;
            for &c in &line {
                self.nodes += 1;
                let tile = self.cells[c];
                self.cells[b] = tile;
                self.cells[c] = u8::MAX;
                self.positions[tile as usize] = b as u8;
                let (child_h, child_memo) =
                    self.estimate
                        .update(&memo_k, &self.positions, tile, c as u8, u32::MAX);
                self.path.push(d);
                (b, memo_k) = (c, child_memo);
                slid += 1;
                let f = g + 1 + child_h.div_ceil(self.longest);
                if f <= bound {
                    if self.visit(b, Some(d), g + 1, child_h, child_memo) {
                        found = true;
                        break;
                    }
                } else {
                    self.next_bound = self.next_bound.min(f);
                }
                if self.budget.is_spent() {
                    break;
                }
            }
            if found {
                return true;
            }
            // Slide the run back, last tile first: the tile moved at step
            // j went from line[j] to the cell before it on the walk.
            for j in (0..slid).rev() {
                let before = if j == 0 { blank } else { line[j - 1] };
                let tile = self.cells[before];
                self.cells[line[j]] = tile;
                self.cells[before] = u8::MAX;
                self.positions[tile as usize] = line[j] as u8;
                self.path.pop();
            }
            if self.budget.is_spent() {
                return false;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{solve_optimal, Goal, Scramble};
    use std::collections::{HashMap, VecDeque};

    /// Every position that reaches `goal`, with its MTM distance, by a
    /// breadth-first search of the public `Position` API: independent of
    /// the tables and searches above.
    fn reference(goal: &Position) -> HashMap<Vec<u32>, u32> {
        let mut seen = HashMap::from([(goal.tiles().to_vec(), 0)]);
        let mut queue = VecDeque::from([goal.clone()]);
        while let Some(p) = queue.pop_front() {
            let d = seen[p.tiles()];
            for direction in Direction::ALL {
                let mut q = p.clone();
                while q.apply(direction).is_ok() {
                    if !seen.contains_key(q.tiles()) {
                        seen.insert(q.tiles().to_vec(), d + 1);
                        queue.push_back(q.clone());
                    }
                }
            }
        }
        seen
    }

    fn replays(start: &Position, goal: &Position, moves: &Moves) -> bool {
        let mut p = start.clone();
        p.apply_all(moves).is_ok() && &p == goal
    }

    #[test]
    fn tables_equal_breadth_first_search_on_every_board_up_to_9_cells() {
        for size in ["2x2", "2x3", "3x2", "2x4", "4x2", "3x3"] {
            let size: Size = size.parse().unwrap();
            let goal = Goal::RowMajor.position(size).unwrap();
            let distances = reference(&goal);
            assert_eq!(distances.len(), factorial(size.cells()) / 2, "{size}");
            for (tiles, &d) in &distances {
                let start = Position::new(size, tiles.clone()).unwrap();
                let solution = solve_optimal(
                    &start,
                    &goal,
                    &SolveOptions::default().in_metric(Metric::Mtm),
                )
                .unwrap();
                assert_eq!(solution.mtm() as u32, d, "{size} {start}");
                assert!(solution.optimal && solution.lower_bound == d);
                assert!(replays(&start, &goal, &solution.moves), "{size} {start}");
            }
        }
    }

    #[test]
    fn the_search_agrees_with_the_tables_and_other_goals_work() {
        // IDA* over multi-tile moves, run where the table gives the answer.
        let size: Size = "3x3".parse().unwrap();
        for goal in [Goal::RowMajor, Goal::Spiral, Goal::BlankFirst] {
            let goal = goal.position(size).unwrap();
            for seed in 0..40 {
                let start = Scramble::Uniform.generate(&goal, seed);
                let canonical = accepted(&start, &goal).unwrap();
                let grid = Grid::new(size);
                let estimate = Manhattan::new(&grid, canonical.goal_blank);
                let found = search(
                    &grid,
                    &estimate,
                    &canonical,
                    &start,
                    &goal,
                    &SolveOptions::default(),
                );
                let table = solve_optimal(
                    &start,
                    &goal,
                    &SolveOptions::default().in_metric(Metric::Mtm),
                )
                .unwrap();
                assert_eq!(found.mtm(), table.mtm(), "{start}");
                assert!(found.optimal && replays(&start, &goal, &found.moves));
                // MTM is never longer than STM, and the STM optimum is not
                // shorter in STM.
                let stm = solve_optimal(&start, &goal, &SolveOptions::default()).unwrap();
                assert!(
                    table.mtm() <= stm.mtm() && stm.stm() <= table.stm(),
                    "{start}"
                );
            }
        }
    }

    #[test]
    fn three_by_four_boards_solve_optimally_by_the_search() {
        let size: Size = "4x3".parse().unwrap();
        let goal = Goal::RowMajor.position(size).unwrap();
        for seed in 0..5 {
            let start = Scramble::Uniform.generate(&goal, seed);
            let options = SolveOptions {
                heuristic: HeuristicKind::Small,
                ..SolveOptions::default()
            };
            let solution = solve_optimal(&start, &goal, &options.in_metric(Metric::Mtm)).unwrap();
            assert!(solution.optimal && replays(&start, &goal, &solution.moves));
            // The bound it proved is its length, and the STM optimum is no
            // shorter in MTM.
            let stm = solve_optimal(&start, &goal, &options).unwrap();
            assert!(solution.mtm() <= stm.mtm(), "{start}");
        }
    }

    #[test]
    fn a_stopped_search_answers_with_a_bound() {
        let size: Size = "4x4".parse().unwrap();
        let goal = Goal::RowMajor.position(size).unwrap();
        let start = Scramble::Uniform.generate(&goal, 3);
        let options = SolveOptions {
            heuristic: HeuristicKind::Manhattan,
            node_limit: Some(20_000),
            ..SolveOptions::default()
        };
        let solution = solve_optimal(&start, &goal, &options.in_metric(Metric::Mtm)).unwrap();
        assert!(replays(&start, &goal, &solution.moves));
        assert!(solution.lower_bound as usize <= solution.mtm());
        assert!(!solution.optimal || solution.lower_bound as usize == solution.mtm());
    }

    #[test]
    fn metrics_parse_and_print() {
        assert_eq!("MTM".parse::<Metric>(), Ok(Metric::Mtm));
        assert_eq!("stm".parse::<Metric>(), Ok(Metric::Stm));
        assert!("qtm".parse::<Metric>().unwrap_err().contains("stm or mtm"));
        assert_eq!(Metric::Mtm.to_string(), "mtm");
    }
}
