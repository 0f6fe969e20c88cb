//! Every search that takes a budget returns soon after the budget is
//! spent, on inputs that need far more, and says honestly what it knows:
//! `optimal: false`, a solution that replays, and a lower bound no higher
//! than the known optimum.
//!
//! The bound is the budget plus half a second of the searching thread's
//! CPU time, far below what the searches would take unstopped (minutes).
//! CPU time rather than wall time: a busy machine (CI runs the server
//! tests beside these) stretches the wall clock of a search, not the work
//! it does before and after its stop. The stop itself stays on the wall
//! clock, as front ends set it. (The searches are single-threaded once
//! their tables are built.)

use slide::{solve_optimal, Goal, HeuristicKind, Metric, Position, Size, Solution, SolveOptions};
use std::time::{Duration, Instant};

const BUDGET: Duration = Duration::from_millis(1000);
const SLACK: Duration = Duration::from_millis(500);

/// The multi-tile metric's antipode on 4 × 4: 43 MTM moves.
const MTM_ANTIPODE: &str = "1 5 9 13/2 6 10 14/3 7 11 15/4 8 12 0";
const MTM_ANTIPODE_LENGTH: u32 = 43;

/// One of the 17 positions 80 single-tile moves from the goal (Korf and
/// Schultze 2005), the 15 puzzle's diameter.
const STM_80: &str = "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1";

/// Instance 1 of Korf and Felner's fifty 5 × 5 positions (blank-first
/// goal), 95 moves.
const KF_1: &str = "14 5 9 2 18/8 23 19 12 17/15 0 10 20 4/6 11 21 1 7/24 3 16 22 13";

/// The CPU time this thread has used so far (Linux's per-thread
/// scheduler statistics).
fn thread_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").expect("Linux schedstat");
    let nanos: u64 = stat.split_whitespace().next().unwrap().parse().unwrap();
    Duration::from_nanos(nanos)
}

fn replays(start: &Position, solution: &Solution, goal: &Position) -> bool {
    let mut p = start.clone();
    p.apply_all(&solution.moves).is_ok() && p == *goal
}

/// Solves `start` under a stop test at `BUDGET` from now; checks the time
/// it took and that its answer is honest about `optimum`.
fn within_budget(start: &str, goal: Goal, heuristic: HeuristicKind, metric: Metric, optimum: u32) {
    let start: Position = start.parse().unwrap();
    let goal = goal.position(start.size()).unwrap();
    let solve = |options: &SolveOptions| solve_optimal(&start, &goal, &options.in_metric(metric));
    // Tables are built before the clock starts, as front ends do.
    let warm = SolveOptions {
        heuristic,
        node_limit: Some(1),
        ..SolveOptions::default()
    };
    solve(&warm).unwrap();
    let deadline = Instant::now() + BUDGET;
    let stop = move || Instant::now() >= deadline;
    let options = SolveOptions {
        heuristic,
        stop: Some(&stop),
        ..SolveOptions::default()
    };
    let began = thread_cpu();
    let solution = solve(&options).unwrap();
    let took = thread_cpu() - began;
    assert!(
        took <= BUDGET + SLACK,
        "{metric} {heuristic:?} on {start} took {took:?}"
    );
    assert!(replays(&start, &solution, &goal), "{start}");
    assert!(!solution.optimal, "{start} cannot be proven in {BUDGET:?}");
    assert!(
        solution.lower_bound <= optimum,
        "bound {} above the optimum {optimum}",
        solution.lower_bound
    );
    assert!(solution.length(metric) as u32 >= optimum);
}

#[test]
fn a_stopped_mtm_search_answers_within_its_budget() {
    // Before, its fallback ran the STM solver to the end: 22 s with the
    // large tables, and minutes with Manhattan's bound.
    within_budget(
        MTM_ANTIPODE,
        Goal::RowMajor,
        HeuristicKind::Manhattan,
        Metric::Mtm,
        MTM_ANTIPODE_LENGTH,
    );
}

#[test]
fn a_stopped_mtm_search_with_the_small_tables_answers_within_its_budget() {
    within_budget(
        MTM_ANTIPODE,
        Goal::RowMajor,
        HeuristicKind::Small,
        Metric::Mtm,
        MTM_ANTIPODE_LENGTH,
    );
}

#[test]
fn a_stopped_stm_search_answers_within_its_budget() {
    within_budget(
        STM_80,
        Goal::RowMajor,
        HeuristicKind::Manhattan,
        Metric::Stm,
        80,
    );
}

#[test]
fn the_bounded_5x5_mode_answers_within_its_budget() {
    within_budget(
        KF_1,
        Goal::BlankFirst,
        HeuristicKind::Manhattan,
        Metric::Stm,
        95,
    );
}

#[test]
fn a_node_limit_holds_as_well_as_a_clock() {
    let start: Position = MTM_ANTIPODE.parse().unwrap();
    let goal = Goal::RowMajor.position(Size::square(4).unwrap()).unwrap();
    let options = SolveOptions {
        heuristic: HeuristicKind::Manhattan,
        node_limit: Some(100_000),
        ..SolveOptions::default()
    };
    let began = thread_cpu();
    let solution = solve_optimal(&start, &goal, &options.in_metric(Metric::Mtm)).unwrap();
    let took = thread_cpu() - began;
    assert!(took <= BUDGET + SLACK, "{took:?}");
    assert!(replays(&start, &solution, &goal));
    assert!(!solution.optimal && solution.lower_bound <= MTM_ANTIPODE_LENGTH);
}
