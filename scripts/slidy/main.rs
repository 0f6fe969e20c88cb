//! The peer of `scripts/bench-slidy`: slidy's optimal 4x4 solvers, used
//! through their public API only, for measurement beside tessera.
//!
//!   slidy-driver stm|mtm < positions    # one row-major-goal 4x4 per line
//!
//! Prints the length of each optimal solution (in the metric asked), one
//! per line, then on stderr the seconds spent building the tables and the
//! seconds spent searching.

use std::io::{BufRead, Write};
use std::str::FromStr;
use std::time::Instant;

use slidy::algorithm::algorithm::Algorithm;
use slidy::puzzle::puzzle::Puzzle;
use slidy::solver::solver::Solver;
use slidy::solver::{Solver4x4Mtm, Solver4x4Stm};

fn main() {
    let metric = std::env::args().nth(1).unwrap_or_default();
    let positions: Vec<Puzzle> = std::io::stdin()
        .lock()
        .lines()
        .map(|line| Puzzle::from_str(line.expect("stdin").trim()).expect("a 4x4 position"))
        .collect();
    let lengths = match metric.as_str() {
        "stm" => solve_all(Solver4x4Stm::default, Algorithm::len_stm, &positions),
        "mtm" => solve_all(Solver4x4Mtm::default, Algorithm::len_mtm, &positions),
        _ => {
            eprintln!("usage: slidy-driver stm|mtm < positions");
            std::process::exit(2);
        }
    };
    let mut out = std::io::stdout().lock();
    for length in lengths {
        writeln!(out, "{length}").expect("stdout");
    }
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
