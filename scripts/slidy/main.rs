//! The peer of `scripts/bench-slidy`: slidy's optimal 4x4 solvers, used
//! through their public API only, for measurement beside tessera.
//!
//!   slidy-driver stm|mtm < positions    # one row-major-goal 4x4 per line
//!   slidy-driver count-stm|count-mtm < positions
//!
//! Prints the length of each optimal solution (in the metric asked), one
//! per line, then on stderr the seconds spent building the tables and the
//! seconds spent searching. The `count-` modes print `length count` a
//! line instead: slidy's enumeration of every optimal solution
//! (`depth_beyond_optimal: 0`), counted as its callback receives them.

use std::io::{BufRead, Write};
use std::ops::ControlFlow;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use slidy::algorithm::algorithm::Algorithm;
use slidy::puzzle::puzzle::Puzzle;
use slidy::solver::config::SolverConfig;
use slidy::solver::solver::Solver;
use slidy::solver::{Solver4x4Mtm, Solver4x4Stm};

fn main() {
    let metric = std::env::args().nth(1).unwrap_or_default();
    let positions: Vec<Puzzle> = std::io::stdin()
        .lock()
        .lines()
        .map(|line| Puzzle::from_str(line.expect("stdin").trim()).expect("a 4x4 position"))
        .collect();
    let lines: Vec<String> = match metric.as_str() {
        "stm" => to_lines(solve_all(Solver4x4Stm::default, Algorithm::len_stm, &positions)),
        "mtm" => to_lines(solve_all(Solver4x4Mtm::default, Algorithm::len_mtm, &positions)),
        "count-stm" => count_all(Solver4x4Stm::default, Algorithm::len_stm, &positions),
        "count-mtm" => count_all(Solver4x4Mtm::default, Algorithm::len_mtm, &positions),
        _ => {
            eprintln!("usage: slidy-driver stm|mtm|count-stm|count-mtm < positions");
            std::process::exit(2);
        }
    };
    let mut out = std::io::stdout().lock();
    for line in lines {
        writeln!(out, "{line}").expect("stdout");
    }
}

fn to_lines(lengths: Vec<u64>) -> Vec<String> {
    lengths.iter().map(u64::to_string).collect()
}

/// Builds a solver, then enumerates every optimal solution of each
/// position through slidy's solution callback, keeping only their number
/// and length: `length count` a position.
fn count_all<S: Solver<Puzzle, Context = ()>>(
    new: impl FnOnce() -> S,
    len: fn(&Algorithm) -> u64,
    positions: &[Puzzle],
) -> Vec<String> {
    let start = Instant::now();
    let mut solver = new();
    let built = start.elapsed();
    let lines = positions
        .iter()
        .map(|p| {
            let count = Arc::new(AtomicU64::new(0));
            let length = Arc::new(AtomicU64::new(u64::MAX));
            let (c, l) = (Arc::clone(&count), Arc::clone(&length));
            let config = SolverConfig {
                depth_beyond_optimal: 0,
                num_solutions: u64::MAX,
                solution_callback: Some(Box::new(move |a: Algorithm| {
                    c.fetch_add(1, Ordering::Relaxed);
                    l.fetch_min(len(&a), Ordering::Relaxed);
                    ControlFlow::Continue(())
                })),
                ..Default::default()
            };
            solver.solve_with_config(p, config).expect("solvable");
            let length = length.load(Ordering::Relaxed);
            format!("{length} {}", count.load(Ordering::Relaxed))
        })
        .collect();
    report(built, start);
    lines
}

/// Builds a solver (its tables) with `new`, then solves every position:
/// the length of each solution by `len`, and the two times on stderr.
fn solve_all<S: Solver<Puzzle, Context = ()>>(
    new: impl FnOnce() -> S,
    len: fn(&Algorithm) -> u64,
    positions: &[Puzzle],
) -> Vec<u64> {
    let start = Instant::now();
    let mut solver = new();
    let built = start.elapsed();
    let lengths = positions
        .iter()
        .map(|p| len(&solver.solve(p).expect("solvable")))
        .collect();
    report(built, start);
    lengths
}

fn report(built: std::time::Duration, start: Instant) {
    let total = start.elapsed();
    eprintln!(
        "tables {:.3} s, search {:.3} s",
        built.as_secs_f64(),
        (total - built).as_secs_f64()
    );
}
