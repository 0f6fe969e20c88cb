//! Measures the fast solver: moves / n³ and time per solve on uniformly
//! random n × n positions (row-major goal), moves counted as they stream.
//!
//! cargo run --release -p slide --example fast_solver -- 10:10 30:10 100:10 300:3 1000:1
//!
//! Each argument is `n:count`. Peak memory (VmHWM) is printed at the end.

use slide::{solve_fast_with, Goal, Scramble, Size};
use std::time::Instant;

fn main() {
    let runs: Vec<(usize, u64)> = std::env::args()
        .skip(1)
        .map(|arg| {
            let (n, count) = arg.split_once(':').unwrap_or((&arg, "1"));
            (n.parse().expect("n"), count.parse().expect("count"))
        })
        .collect();
    println!(
        "| n | positions | mean moves | moves / n³ | min–max moves / n³ | mean time per solve |"
    );
    println!("|---|---|---|---|---|---|");
    for (n, count) in runs {
        let size = Size::square(n).expect("a board size");
        let goal = Goal::RowMajor.position(size).expect("a goal");
        let (mut total, mut seconds) = (0u64, 0f64);
        let (mut least, mut most) = (f64::MAX, 0f64);
        for seed in 0..count {
            let puzzle = Scramble::Uniform.generate(&goal, seed);
            let start = Instant::now();
            let mut moves = 0u64;
            solve_fast_with(&puzzle, &goal, &mut |_| moves += 1).expect("solvable");
            seconds += start.elapsed().as_secs_f64();
            total += moves;
            let ratio = moves as f64 / (n * n * n) as f64;
            least = least.min(ratio);
            most = most.max(ratio);
        }
        let mean = total as f64 / count as f64;
        println!(
            "| {n} | {count} | {mean:.0} | {:.3} | {least:.3}–{most:.3} | {:.3} s |",
            mean / (n * n * n) as f64,
            seconds / count as f64
        );
    }
    if let Ok(status) = std::fs::read_to_string("/proc/self/status") {
        if let Some(line) = status.lines().find(|l| l.starts_with("VmHWM")) {
            println!("peak memory: {}", line.trim_start_matches("VmHWM:").trim());
        }
    }
}
