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
//! A solver may also have a stronger set to move up to
//! ([`Solver::with_upgrade`]: the web server's 7-8 set, built in about two
//! minutes): it is built after the first set, on the same thread, and each
//! answer uses the strongest set that is ready.

use std::collections::HashSet;
use std::sync::{mpsc, Arc, Mutex, OnceLock};
use std::time::Duration;

use slide::solver::{BOUNDED_MAX_CELLS, FULL_TABLE_MAX_CELLS, OPTIMAL_MAX_CELLS};
use slide::{Databases, HeuristicKind, Metric, Moves, Position, Size, SolveOptions};

use crate::tables::{Colouring, Quiet, TableConfig};
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

/// Why the optimal solver declines a board. Front ends add what their
/// users can do instead (a flag, a function, a button).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptimalSizeError {
    /// Past what even a search within a budget takes.
    #[error("{0} is too large for the optimal solver (at most {BOUNDED_MAX_CELLS} cells, and proven optimal only up to {OPTIMAL_MAX_CELLS})")]
    TooLarge(Size),
    /// Provable only slowly: within a time or node budget, the search
    /// gives the best solution it found.
    #[error("{0} is too large to solve optimally in reasonable time (at most {OPTIMAL_MAX_CELLS} cells)")]
    NeedsBudget(Size),
}

/// The name of the thread that builds and loads tables in the background.
pub const TABLE_BUILDER_THREAD: &str = "tables";

/// Refuses boards the optimal solver cannot serve (`bounded`: the search
/// has a time or node budget).
pub fn check_optimal_size(size: Size, bounded: bool) -> Result<(), OptimalSizeError> {
    if size.cells() > BOUNDED_MAX_CELLS {
        return Err(OptimalSizeError::TooLarge(size));
    }
    if size.cells() > OPTIMAL_MAX_CELLS && !bounded {
        return Err(OptimalSizeError::NeedsBudget(size));
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
    /// A stronger set, built after `tables.heuristic`'s and used once ready.
    upgrade: Option<HeuristicKind>,
    databases: &'static Databases,
    /// Sets (board size, goal blank, kind) queued or ready.
    queued: Mutex<HashSet<Job>>,
    builder: OnceLock<Mutex<mpsc::Sender<Job>>>,
    /// Told, on the builder's thread, when a set is ready and how long
    /// preparing it took.
    on_ready: Arc<dyn Fn(Ready) + Send + Sync>,
}

/// A set of tables the background builder has made ready.
#[derive(Clone, Copy, Debug)]
pub struct Ready {
    /// The board size it serves.
    pub size: Size,
    /// The goal blank cell it serves.
    pub goal_blank: usize,
    /// Which set.
    pub tables: TableSet,
    /// How long building or loading it took.
    pub took: Duration,
    /// Whether any table was built rather than loaded from the cache.
    pub built: bool,
}

/// The tables the background builder prepares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableSet {
    /// Pattern databases of one kind, for single-tile searches (and the
    /// multi-tile ones without a colouring table).
    Patterns(HeuristicKind),
    /// The multi-tile metric's colouring table (boards of 11 to 16 cells).
    Colouring,
}

/// The set's name in logs and metrics: the heuristic's ("Small", "Large",
/// …), or "Colouring".
impl std::fmt::Display for TableSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TableSet::Patterns(kind) => write!(f, "{kind:?}"),
            TableSet::Colouring => f.write_str("Colouring"),
        }
    }
}

/// Tables to prepare: for a board size and a goal blank cell, one set.
type Job = (Size, usize, TableSet);

static GLOBAL: OnceLock<Solver> = OnceLock::new();

impl Solver {
    /// A solver using `tables` (cached where they say) and the process's
    /// database set.
    pub fn new(tables: TableConfig) -> Solver {
        Solver {
            tables,
            upgrade: None,
            databases: Databases::global(),
            queued: Mutex::new(HashSet::new()),
            builder: OnceLock::new(),
            on_ready: Arc::new(|_| {}),
        }
    }

    /// The same solver, calling `hook` (on the builder's thread) whenever
    /// a set of tables becomes ready: for a log line or a metric.
    pub fn on_ready(mut self, hook: impl Fn(Ready) + Send + Sync + 'static) -> Solver {
        self.on_ready = Arc::new(hook);
        self
    }

    /// The same solver, moving up to `kind`'s tables once they are built
    /// (after its own, in the background).
    pub fn with_upgrade(mut self, kind: HeuristicKind) -> Solver {
        self.upgrade = (kind != self.tables.heuristic).then_some(kind);
        self
    }

    /// The process's solver: the one given to [`Solver::install`], else the
    /// small tables in the default cache.
    pub fn global() -> &'static Solver {
        GLOBAL.get_or_init(|| Solver::new(TableConfig::default()))
    }

    /// Makes `solver` the process's solver; false if one was in use already.
    pub fn install(solver: Solver) -> bool {
        GLOBAL.set(solver).is_ok()
    }

    /// The strongest set of tables ready for boards of `size` towards a
    /// goal blank at `goal_blank`, if any (nothing is queued).
    pub fn ready_tables(&self, size: Size, goal_blank: usize) -> Option<HeuristicKind> {
        self.kinds().find(|&kind| {
            slide::required_patterns(size, goal_blank, kind)
                .iter()
                .all(|spec| self.databases.contains(spec))
        })
    }

    /// The kinds of tables this solver uses, strongest first.
    fn kinds(&self) -> impl Iterator<Item = HeuristicKind> {
        self.upgrade.into_iter().chain([self.tables.heuristic])
    }

    /// Starts preparing the tables a puzzle towards `goal` needs, so that
    /// by the time its player asks for a hint they are likely ready.
    pub fn warm_up(&self, goal: &Position) {
        self.ready(goal.size(), goal.blank());
    }

    /// Which tables the optimal solver can answer with on this board now
    /// (any, for boards with a complete table). The sets not ready are
    /// queued for the background builder, the solver's own before the
    /// upgrade, once each.
    fn ready(&self, size: Size, goal_blank: usize) -> Option<HeuristicKind> {
        let cells = size.cells();
        if cells <= FULL_TABLE_MAX_CELLS {
            return Some(self.tables.heuristic);
        }
        if cells > OPTIMAL_MAX_CELLS {
            return None;
        }
        let ready = self.ready_tables(size, goal_blank);
        if ready != self.kinds().next() {
            [self.tables.heuristic]
                .into_iter()
                .chain(self.upgrade)
                .for_each(|kind| self.queue((size, goal_blank, TableSet::Patterns(kind))));
        }
        ready
    }

    /// Queues the colouring table a multi-tile search on this board reads,
    /// once: the search uses it as soon as it is loaded (37.8 MB for 4x4,
    /// about 26 s of CPU to build when the cache lacks it) and until then
    /// searches with the pattern databases within its budget.
    fn want_colouring(&self, size: Size, goal_blank: usize, metric: Metric) {
        let has_table = slide::solver::ColourTable::entries_for(size, goal_blank).is_some();
        if metric == Metric::Mtm
            && size.cells() > FULL_TABLE_MAX_CELLS
            && has_table
            && self.databases.colouring(size, goal_blank).is_none()
        {
            self.queue((size, goal_blank, TableSet::Colouring));
        }
    }

    /// Sends `job` to the builder unless it was sent before.
    fn queue(&self, job: Job) {
        let mut queued = self
            .queued
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if queued.insert(job) {
            let builder = self.builder.get_or_init(|| self.start_builder());
            let sender = builder
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let _ = sender.send(job);
        }
    }

    /// One thread that prepares queued tables one set at a time, in the
    /// order queued, from the disk cache when it has them.
    fn start_builder(&self) -> Mutex<mpsc::Sender<Job>> {
        let (send, receive) = mpsc::channel::<Job>();
        let (tables, databases) = (self.tables.clone(), self.databases);
        let on_ready = Arc::clone(&self.on_ready);
        // Named, so an operator (top -H) and the tests tell its deliberate
        // background work from a request's.
        let builder = std::thread::Builder::new().name(TABLE_BUILDER_THREAD.into());
        let spawned = builder.spawn(move || {
            for (size, goal_blank, set) in receive {
                let start = std::time::Instant::now();
                let report = match set {
                    TableSet::Patterns(heuristic) => {
                        let config = TableConfig {
                            heuristic,
                            ..tables.clone()
                        };
                        config.prepare(size, goal_blank, databases, &mut Quiet)
                    }
                    TableSet::Colouring => tables.prepare_colouring(
                        Colouring { size, goal_blank },
                        databases,
                        &mut Quiet,
                    ),
                };
                on_ready(Ready {
                    size,
                    goal_blank,
                    tables: set,
                    took: start.elapsed(),
                    built: !report.built.is_zero(),
                });
            }
        });
        // As `std::thread::spawn`: a process that cannot make one thread
        // more is past helping.
        spawned.expect("a thread for the table builder");
        Mutex::new(send)
    }

    /// Where a solve lost moves (see [`slide::analyze`]), with the tables
    /// that are ready (Manhattan distance otherwise) and within
    /// `deadline`: what is not proven in time is a bound, marked so. With
    /// it, the player's moves with each detour replaced by a shortest path
    /// between the same positions.
    pub fn analyze(
        &self,
        start: &Position,
        goal: &Position,
        moves: &Moves,
        metric: Metric,
        deadline: &Deadline,
    ) -> Result<(slide::Analysis, Moves), slide::AnalysisError> {
        self.want_colouring(start.size(), goal.blank(), metric);
        let heuristic = self
            .ready(start.size(), goal.blank())
            .unwrap_or(HeuristicKind::Manhattan);
        let stop = || deadline.passed();
        let options = SolveOptions {
            heuristic,
            stop: Some(&stop),
            databases: Some(self.databases),
            ..SolveOptions::default()
        };
        let analysis = slide::analyze(start, goal, moves, metric, &options)?;
        let shortened = analysis.shortened(start, &options);
        Ok((analysis, shortened))
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
        self.want_colouring(start.size(), goal.blank(), metric);
        if let Some(heuristic) = self.ready(start.size(), goal.blank()) {
            let thinking = deadline.clone().within(THINKING_TIME);
            // The bounded mode's share for shorter solutions (5x5).
            let shortening = deadline
                .clone()
                .within(THINKING_TIME.mul_f64(slide::SHORTENING_SHARE));
            let found = self.search(start, goal, metric, heuristic, &thinking, &shortening);
            if let Some(plan) = found {
                return Ok(plan);
            }
        }
        if deadline.passed() {
            return Err(PlanError::OutOfTime);
        }
        fast_plan(start, goal)
    }
}

impl Solver {
    /// The shortest solution (single-tile moves) the optimal solver finds
    /// within `deadline`, for a fewest-moves challenge, where the answer is
    /// worth a wait: no thinking-time cap, and the board's tables are
    /// loaded or built first (within the deadline) rather than left to the
    /// background builder. Proven shortest when the search finishes in
    /// time (in practice up to 16 cells); else the best it found (the
    /// bounded mode, 5x5), or the fast solver's when it found none.
    pub fn fewest(
        &self,
        start: &Position,
        goal: &Position,
        deadline: &Deadline,
    ) -> Result<Plan, PlanError> {
        let (size, goal_blank) = (start.size(), goal.blank());
        let stop = || deadline.passed();
        if size.cells() <= BOUNDED_MAX_CELLS {
            self.tables
                .prepare_until(size, goal_blank, self.databases, &mut Quiet, &stop);
            let heuristic = self
                .ready_tables(size, goal_blank)
                .unwrap_or(HeuristicKind::Manhattan);
            let shortening = deadline.clone().within(
                deadline
                    .remaining()
                    .unwrap_or(THINKING_TIME)
                    .mul_f64(slide::SHORTENING_SHARE),
            );
            let found = self.search(start, goal, Metric::Stm, heuristic, deadline, &shortening);
            if let Some(plan) = found {
                return Ok(plan);
            }
        }
        fast_plan(start, goal)
    }

    /// The optimal solver's solution in `metric`, searched until `stop`
    /// passes (the bounded mode looking for shorter ones until
    /// `shortening` does), if it found one that replays to the goal.
    fn search(
        &self,
        start: &Position,
        goal: &Position,
        metric: Metric,
        heuristic: HeuristicKind,
        stop: &Deadline,
        shortening: &Deadline,
    ) -> Option<Plan> {
        let stop = || stop.passed();
        let shorten_stop = || shortening.passed();
        let options = SolveOptions {
            heuristic,
            stop: Some(&stop),
            databases: Some(self.databases),
            shorten_stop: Some(&shorten_stop),
            ..SolveOptions::default()
        };
        let found = slide::solve_optimal(start, goal, &options.in_metric(metric)).ok()?;
        reaches(start, goal, &found.moves).then_some(Plan {
            moves: found.moves,
            optimal: found.optimal,
        })
    }
}

/// The fast solver's solution, replayed first: what a plan falls back
/// on when no search finished.
fn fast_plan(start: &Position, goal: &Position) -> Result<Plan, PlanError> {
    let moves = slide::solve_fast(start, goal).map_err(|e| PlanError::Refused(e.to_string()))?;
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

/// Whether `moves` take `start` to `goal`.
fn reaches(start: &Position, goal: &Position, moves: &Moves) -> bool {
    let mut position = start.clone();
    position.apply_all(moves).is_ok() && &position == goal
}

#[cfg(test)]
mod tests {
    use super::*;
    use slide::{Goal, Scramble};

    /// `solver` with tables in memory of its own: a test that counts the
    /// files its cache gets must not find a table already there, loaded
    /// by another test into the process's [`Databases::global`].
    fn own_tables(mut solver: Solver) -> Solver {
        solver.databases = Box::leak(Box::new(Databases::new()));
        solver
    }

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
        assert_eq!(
            check_optimal_size(size("5x5"), false),
            Err(OptimalSizeError::NeedsBudget(size("5x5")))
        );
        assert!(check_optimal_size(size("5x5"), true).is_ok());
        assert_eq!(
            check_optimal_size(size("6x6"), true),
            Err(OptimalSizeError::TooLarge(size("6x6")))
        );
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
            let shortest = slide::solve_optimal(
                &start,
                &goal,
                &SolveOptions::default().in_metric(Metric::Mtm),
            )
            .unwrap();
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

    #[test]
    fn a_multi_tile_plan_queues_the_colouring_table_and_it_is_built_in_the_background() {
        let dir = std::env::temp_dir().join(format!("tessera-colouring-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let tables = TableConfig {
            heuristic: HeuristicKind::Small,
            cache_dir: Some(dir.clone()),
        };
        let (send, heard) = mpsc::channel();
        let send = Mutex::new(send);
        let solver = own_tables(Solver::new(tables).on_ready(move |ready| {
            let _ = send.lock().unwrap().send((ready.size, ready.tables));
        }));
        // 12 cells: the colouring table builds in a blink.
        let (start, goal) = puzzle("4x3", 8);
        let plan = solver
            .plan(&start, &goal, Metric::Mtm, &Deadline::none())
            .unwrap();
        assert!(reaches(&start, &goal, &plan.moves));
        let begun = std::time::Instant::now();
        loop {
            let left = Duration::from_secs(120).saturating_sub(begun.elapsed());
            let (size, set) = heard
                .recv_timeout(left)
                .expect("the colouring table is ready");
            if set == TableSet::Colouring {
                assert_eq!(size, goal.size());
                break;
            }
        }
        assert!(solver
            .databases
            .colouring(goal.size(), goal.blank())
            .is_some());
        let file = slide::solver::ColourTable::file_name_for(goal.size(), goal.blank());
        assert!(dir.join(file).exists(), "cached for the next start");
        // A single-tile plan does not ask for it.
        let (start, goal) = puzzle("5x3", 2);
        solver
            .plan(&start, &goal, Metric::Stm, &Deadline::none())
            .unwrap();
        assert!(!solver.queued.lock().unwrap().contains(&(
            goal.size(),
            goal.blank(),
            TableSet::Colouring
        )));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_stronger_set_takes_over_once_built_in_the_background() {
        let dir = std::env::temp_dir().join(format!("tessera-upgrade-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let tables = TableConfig {
            heuristic: HeuristicKind::Small,
            cache_dir: Some(dir.clone()),
        };
        let solver = own_tables(Solver::new(tables).with_upgrade(HeuristicKind::Large));
        // 15 cells: the small set is 6-6-2, the large one 7-7 (32 M
        // entries, a few seconds).
        let (start, goal) = puzzle("5x3", 3);
        let (size, blank) = (goal.size(), goal.blank());
        solver.warm_up(&goal);
        let mut seen = vec![solver.ready_tables(size, blank)];
        let begun = std::time::Instant::now();
        while seen.last() != Some(&Some(HeuristicKind::Large)) {
            assert!(begun.elapsed() < Duration::from_secs(300), "{seen:?}");
            std::thread::sleep(Duration::from_millis(5));
            let now = solver.ready_tables(size, blank);
            if seen.last() != Some(&now) {
                seen.push(now);
            }
        }
        // The small set came first and served while the large one built;
        // nothing ever went back.
        assert!(seen.contains(&Some(HeuristicKind::Small)), "{seen:?}");
        let strength = |kind: &Option<HeuristicKind>| match kind {
            None => 0,
            Some(HeuristicKind::Small) => 1,
            Some(_) => 2,
        };
        assert!(
            seen.windows(2).all(|w| strength(&w[0]) < strength(&w[1])),
            "{seen:?}"
        );
        let plan = solver
            .plan(&start, &goal, Metric::Stm, &Deadline::none())
            .unwrap();
        let shortest = slide::solve_optimal(&start, &goal, &SolveOptions::default()).unwrap();
        assert!(plan.optimal && reaches(&start, &goal, &plan.moves));
        assert_eq!(plan.moves.len(), shortest.moves.len());
        let cached = crate::tables::cached(&dir).unwrap();
        let required = |kind| slide::required_patterns(size, blank, kind).len();
        assert_eq!(
            cached.len(),
            required(HeuristicKind::Small) + required(HeuristicKind::Large)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
