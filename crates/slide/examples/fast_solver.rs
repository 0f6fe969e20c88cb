//! Measures the fast solver on uniformly random n × n positions (row-major
//! goal): moves / n³ and time per solve, the moves counted as they stream
//! (nothing is stored, as for `--count-only`).
//!
//! cargo run --release -p slide --example fast_solver -- 10:10 30:10 100:10 300:3 1000:1
//!
//! Each argument is `n:count`; `--thorough` or `--quick` fixes the routing
//! for the whole solve (by default it is quick while more than 825 × 825
//! cells are unsolved, thorough after), and `--no-replay` skips the
//! replaying solve (its columns then read 0 and —). Times are wall clock and CPU time (the
//! machine this was measured on is shared, so CPU time is the fairer one). Baseline, measured in the same run: the
//! same solve with every move also applied to a `Position` as it streams
//! (which verifies the solution reaches the goal); "replay" is the extra
//! time that takes, so "solve / replay" says how the solver's cost per
//! move compares with merely playing a move. Peak memory (VmHWM) is printed
//! at the end.

use slide::{FastSolver, Goal, Scramble, Size};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let solver = FastSolver {
        thorough: match () {
            _ if args.iter().any(|a| a == "--thorough") => Some(true),
            _ if args.iter().any(|a| a == "--quick") => Some(false),
            _ => None,
        },
        ..FastSolver::default()
    };
    let replay_too = !args.iter().any(|a| a == "--no-replay");
    let runs: Vec<(usize, u64)> = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .map(|arg| {
            let (n, count) = arg.split_once(':').unwrap_or((arg.as_str(), "1"));
            (n.parse().expect("n"), count.parse().expect("count"))
        })
        .collect();
    println!("| n | positions | mean moves | moves / n³ | min–max moves / n³ | solve, wall (mean) | solve, CPU (mean) | replay, wall (mean) | solve / replay |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for (n, count) in runs {
        let size = Size::square(n).expect("a board size");
        let goal = Goal::RowMajor.position(size).expect("a goal");
        let (mut total, mut solving, mut checking) = (0u64, 0f64, 0f64);
        let mut solving_cpu = 0f64;
        let (mut least, mut most) = (f64::MAX, 0f64);
        for seed in 0..count {
            let puzzle = Scramble::Uniform.generate(&goal, seed);
            let (start, cpu) = (Instant::now(), cpu_seconds());
            let mut moves = 0u64;
            solver
                .solve_with(&puzzle, &goal, &mut |_| moves += 1)
                .expect("solvable");
            let elapsed = start.elapsed().as_secs_f64();
            solving += elapsed;
            solving_cpu += cpu_seconds() - cpu;
            total += moves;
            let ratio = moves as f64 / (n * n * n) as f64;
            least = least.min(ratio);
            most = most.max(ratio);

            if !replay_too {
                checking += elapsed;
                continue;
            }
            let start = Instant::now();
            let mut replay = puzzle.clone();
            solver
                .solve_with(&puzzle, &goal, &mut |d| {
                    replay.apply(d).expect("a legal move");
                })
                .expect("solvable");
            checking += start.elapsed().as_secs_f64();
            assert_eq!(replay, goal, "the streamed solution reaches the goal");
        }
        let mean = total as f64 / count as f64;
        let (solve, replay) = (solving / count as f64, (checking - solving) / count as f64);
        println!(
            "| {n} | {count} | {mean:.0} | {:.3} | {least:.3}–{most:.3} | {solve:.3} s | {:.3} s | {replay:.3} s | {} |",
            mean / (n * n * n) as f64,
            solving_cpu / count as f64,
            match replay_too {
                true => format!("{:.1}", solve / replay.max(1e-9)),
                false => "—".to_string(),
            }
        );
    }
    if let Ok(status) = std::fs::read_to_string("/proc/self/status") {
        if let Some(line) = status.lines().find(|l| l.starts_with("VmHWM")) {
            println!(
                "\npeak memory (VmHWM): {}",
                line.trim_start_matches("VmHWM:").trim()
            );
        }
    }
}

/// Time this process has spent on a CPU (Linux `/proc/self/schedstat`), so
/// figures stay meaningful on a busy shared machine; 0 elsewhere.
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}
