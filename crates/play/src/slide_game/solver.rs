//! Which sliding-puzzle solver answers, and within what budget: one
//! policy for the command line, the web game and the terminal game.
//!
//! * Boards of up to [`OPTIMAL_MAX_CELLS`] cells get shortest solutions
//!   from the optimal solver, when its tables are ready.
//! * Up to [`BOUNDED_MAX_CELLS`] cells, a time or node limit turns the
//!   optimal solver into the bounded mode (the best solution found, with a
//!   proven lower bound).
//! * Everything else, and anything the optimal solver cannot finish within
//!   [`THINKING_TIME`] in a game, goes to the fast solver.
//!
//! No answer waits for a table to be built: a game asks [`Solver::warm_up`]
//! when it deals, the tables are built (or loaded from the disk cache) on a
//! background thread, and until they are ready the fast solver answers.

use std::collections::BTreeSet;
use std::sync::{mpsc, Mutex, OnceLock};
use std::time::Duration;

use slide::solver::{BOUNDED_MAX_CELLS, FULL_TABLE_MAX_CELLS, OPTIMAL_MAX_CELLS};
use slide::{Databases, Metric, Moves, Position, Size, SolveOptions};

use crate::tables::{Quiet, TableConfig};
use crate::Deadline;

/// How long a game (web or terminal) lets the optimal solver search before
/// the best solution found so far, or the fast solver's, is taken.
pub const THINKING_TIME: Duration = Duration::from_secs(3);

/// Which solver serves a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Shortest solutions (or, bounded, the best found with a lower bound).
    Optimal,
    /// Short solutions of any size at once.
    Fast,
}

impl Method {
    /// The solver for a board of `size` when the user named none: optimal
    /// where it is quick, or where a time or node limit (`bounded`) caps it
    /// on boards up to 5×5; fast beyond.
    pub fn auto(size: Size, bounded: bool) -> Method {
        let cells = size.cells();
        if cells <= OPTIMAL_MAX_CELLS || (bounded && cells <= BOUNDED_MAX_CELLS) {
            Method::Optimal
        } else {
            Method::Fast
        }
    }
}

/// Refuses boards the optimal solver cannot serve, saying what to use
/// instead.
pub fn check_optimal_size(size: Size, bounded: bool) -> Result<(), String> {
    if size.cells() > BOUNDED_MAX_CELLS {
        return Err(format!(
            "{size} is too large for the optimal solver (at most {BOUNDED_MAX_CELLS} cells, and proven optimal only up to {OPTIMAL_MAX_CELLS}); use --fast"
        ));
    }
    if size.cells() > OPTIMAL_MAX_CELLS && !bounded {
        return Err(format!(
            "{size} is too large to solve optimally in reasonable time (at most {OPTIMAL_MAX_CELLS} cells); use --fast, or --time-limit/--node-limit for the best solution found in that budget"
        ));
    }
    Ok(())
}

/// A solution for a game, replayed and checked before it is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Moves from the position to the goal.
    pub moves: Moves,
    /// Whether they are proven shortest.
    pub optimal: bool,
}

/// Why a game got no solution.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The deadline passed first.
    #[error("the solver ran out of time on this position")]
    OutOfTime,
    /// The solvers refused the position (unsolvable, or not of the goal's
    /// size and labels).
    #[error("{0}")]
    Refused(String),
}

/// The solvers as the games use them: one set of tables, cached on disk,
/// built in the background.
pub struct Solver {
    tables: TableConfig,
    databases: &'static Databases,
    /// Boards (size, goal blank) whose tables were queued or are ready.
    queued: Mutex<BTreeSet<(Size, usize)>>,
    builder: OnceLock<Mutex<mpsc::Sender<(Size, usize)>>>,
}

static GLOBAL: OnceLock<Solver> = OnceLock::new();

impl Solver {
    /// A solver using `tables` (cached where they say) and the process's
    /// database set.
    pub fn new(tables: TableConfig) -> Solver {
        Solver {
            tables,
            databases: Databases::global(),
            queued: Mutex::new(BTreeSet::new()),
            builder: OnceLock::new(),
        }
    }

    /// The process's solver, with the small tables in the default cache.
    pub fn global() -> &'static Solver {
        GLOBAL.get_or_init(|| Solver::new(TableConfig::default()))
    }

    /// Starts preparing the tables a puzzle towards `goal` needs, so that
    /// by the time its player asks for a hint they are likely ready.
    pub fn warm_up(&self, goal: &Position) {
        self.ready(goal.size(), goal.blank());
    }

    /// Whether the optimal solver can answer on this board now; if not,
    /// its tables are queued for the background builder (once each).
    fn ready(&self, size: Size, goal_blank: usize) -> bool {
        let cells = size.cells();
        if cells <= FULL_TABLE_MAX_CELLS {
            return true;
        }
        if cells > OPTIMAL_MAX_CELLS {
            return false;
        }
        let specs = slide::required_patterns(size, goal_blank, self.tables.heuristic);
        if specs.iter().all(|spec| self.databases.contains(spec)) {
            return true;
        }
        let mut queued = self
            .queued
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if queued.insert((size, goal_blank)) {
            let builder = self.builder.get_or_init(|| self.start_builder());
            let sender = builder
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let _ = sender.send((size, goal_blank));
        }
        false
    }

    /// One thread that prepares queued tables one board at a time, from the
    /// disk cache when it has them.
    fn start_builder(&self) -> Mutex<mpsc::Sender<(Size, usize)>> {
        let (send, receive) = mpsc::channel::<(Size, usize)>();
        let (tables, databases) = (self.tables.clone(), self.databases);
        std::thread::spawn(move || {
            for (size, goal_blank) in receive {
                tables.prepare(size, goal_blank, databases, &mut Quiet);
            }
        });
        Mutex::new(send)
    }

    /// A solution for a game from `start` (known to reach `goal`): shortest
    /// in `metric` when the optimal solver finishes within
    /// [`THINKING_TIME`] and the deadline, else the best one at hand (the
    /// fast solver's). Every answer is replayed first.
    pub fn plan(
        &self,
        start: &Position,
        goal: &Position,
        metric: Metric,
        deadline: &Deadline,
    ) -> Result<Plan, PlanError> {
        if self.ready(start.size(), goal.blank()) {
            let thinking = deadline.clone().within(THINKING_TIME);
            let stop = || thinking.passed();
            let options = SolveOptions {
                heuristic: self.tables.heuristic,
                stop: Some(&stop),
                databases: Some(self.databases),
                ..SolveOptions::default()
            };
            let found = match metric {
                Metric::Stm => slide::solve_optimal(start, goal, &options),
                Metric::Mtm => slide::solve_optimal_mtm(start, goal, &options),
            };
            if let Ok(found) = found {
                if reaches(start, goal, &found.moves) {
                    return Ok(Plan {
                        moves: found.moves,
                        optimal: found.optimal,
                    });
                }
            }
        }
        if deadline.passed() {
            return Err(PlanError::OutOfTime);
        }
        let moves =
            slide::solve_fast(start, goal).map_err(|e| PlanError::Refused(e.to_string()))?;
        if !reaches(start, goal, &moves) {
            return Err(PlanError::Refused(
                "the fast solver's answer does not reach the goal".to_string(),
            ));
        }
        Ok(Plan {
            moves,
            optimal: false,
        })
    }
}

/// Whether `moves` take `start` to `goal`.
fn reaches(start: &Position, goal: &Position, moves: &Moves) -> bool {
    let mut position = start.clone();
    position.apply_all(moves).is_ok() && &position == goal
}

#[cfg(test)]
mod tests {
    use super::*;
    use slide::{Goal, Scramble};

    fn puzzle(size: &str, seed: u64) -> (Position, Position) {
        let goal = Goal::RowMajor.position(size.parse().unwrap()).unwrap();
        (Scramble::Uniform.generate(&goal, seed), goal)
    }

    #[test]
    fn methods_by_size_and_limits() {
        let size = |s: &str| s.parse::<Size>().unwrap();
        assert_eq!(Method::auto(size("4x4"), false), Method::Optimal);
        assert_eq!(Method::auto(size("5x5"), false), Method::Fast);
        assert_eq!(Method::auto(size("5x5"), true), Method::Optimal);
        assert_eq!(Method::auto(size("6x6"), true), Method::Fast);
        assert!(check_optimal_size(size("4x4"), false).is_ok());
        assert!(check_optimal_size(size("5x5"), false)
            .unwrap_err()
            .contains("--time-limit"));
        assert!(check_optimal_size(size("6x6"), true)
            .unwrap_err()
            .contains("--fast"));
    }

    #[test]
    fn small_boards_get_shortest_plans_and_large_ones_fast_plans() {
        let solver = Solver::new(TableConfig::default());
        let (start, goal) = puzzle("3x3", 5);
        let plan = solver
            .plan(&start, &goal, Metric::Stm, &Deadline::none())
            .unwrap();
        assert!(plan.optimal);
        let shortest = slide::solve_optimal(&start, &goal, &SolveOptions::default()).unwrap();
        assert_eq!(plan.moves.len(), shortest.moves.len());
        let (start, goal) = puzzle("7x6", 5);
        let plan = solver
            .plan(&start, &goal, Metric::Stm, &Deadline::none())
            .unwrap();
        assert!(!plan.optimal);
        assert!(reaches(&start, &goal, &plan.moves));
    }

    #[test]
    fn plans_follow_the_metric_asked_for() {
        let solver = Solver::new(TableConfig::default());
        for seed in 0..10 {
            let (start, goal) = puzzle("3x3", seed);
            let mtm = solver
                .plan(&start, &goal, Metric::Mtm, &Deadline::none())
                .unwrap();
            let stm = solver
                .plan(&start, &goal, Metric::Stm, &Deadline::none())
                .unwrap();
            let shortest =
                slide::solve_optimal_mtm(&start, &goal, &SolveOptions::default()).unwrap();
            assert!(mtm.optimal && reaches(&start, &goal, &mtm.moves));
            assert_eq!(mtm.moves.mtm_len(), shortest.mtm());
            assert!(mtm.moves.mtm_len() <= stm.moves.mtm_len());
            assert!(stm.moves.len() <= mtm.moves.len());
        }
    }

    #[test]
    fn a_passed_deadline_is_out_of_time() {
        let solver = Solver::new(TableConfig::default());
        let (start, goal) = puzzle("7x6", 1);
        let late = Deadline::after(Duration::ZERO);
        assert_eq!(
            solver.plan(&start, &goal, Metric::Stm, &late),
            Err(PlanError::OutOfTime)
        );
    }
}
