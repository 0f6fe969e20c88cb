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

use slidy::puzzle::puzzle::Puzzle;
use slidy::solver::solver::Solver as _;
use slidy::solver::{Solver4x4Mtm, Solver4x4Stm};

fn main() {
    let metric = std::env::args().nth(1).unwrap_or_default();
    let positions: Vec<Puzzle> = std::io::stdin()
        .lock()
        .lines()
        .map(|line| Puzzle::from_str(line.expect("stdin").trim()).expect("a 4x4 position"))
        .collect();
    let mut out = std::io::stdout().lock();
    let start = Instant::now();
    let lengths: Vec<u64> = match metric.as_str() {
        "stm" => {
            let mut solver = Solver4x4Stm::default();
            let built = start.elapsed();
            let lengths = positions
                .iter()
                .map(|p| solver.solve(p).expect("solvable").len_stm())
                .collect();
            report(built, start);
            lengths
        }
        "mtm" => {
            let mut solver = Solver4x4Mtm::default();
            let built = start.elapsed();
            let lengths = positions
                .iter()
                .map(|p| solver.solve(p).expect("solvable").len_mtm())
                .collect();
            report(built, start);
            lengths
        }
        _ => {
            eprintln!("usage: slidy-driver stm|mtm < positions");
            std::process::exit(2);
        }
    };
    for length in lengths {
        writeln!(out, "{length}").expect("stdout");
    }
}

fn report(built: std::time::Duration, start: Instant) {
    let total = start.elapsed();
    eprintln!(
        "tables {:.3} s, search {:.3} s",
        built.as_secs_f64(),
        (total - built).as_secs_f64()
    );
}
