//! Korf & Felner's 50 5 × 5 instances in the bounded mode, with the 6-6-6-6
//! tables read from a cache directory that `tessera slide tables build
//! --size 5x5 --cache-dir DIR` filled, on two threads, each instance with
//! its own thread's CPU time as the budget (as `tessera slide bench
//! korf-felner50` gives it, with the same share for shortening).
//!
//! ```sh
//! cargo run --release -p slide --example kf_bounded -- DIR DATA [SECONDS] [THREADS]
//! ```
//!
//! Prints the per-instance table (id, optimum, found, lower bound,
//! proven optimal, CPU s), then the mean gap and the worst. Every solution
//! is replayed, and every bound checked against the listed optimum.

use slide::{Databases, Goal, HeuristicKind, PatternDatabase, Position, Size, SolveOptions};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

fn cpu_now() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map(Duration::from_nanos)
        .expect("Linux thread CPU time")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = std::path::PathBuf::from(&args[1]);
    let text = std::fs::read_to_string(&args[2]).expect("instance file");
    let seconds: f64 = args.get(3).map_or(10.0, |s| s.parse().expect("seconds"));
    let threads: usize = args.get(4).map_or(2, |s| s.parse().expect("threads"));
    let size = Size::square(5).expect("5x5");
    let goal = Goal::BlankFirst.position(size).expect("goal");
    let databases = Databases::new();
    for spec in slide::required_patterns(size, goal.blank(), HeuristicKind::Large) {
        let bytes = std::fs::read(dir.join(spec.file_name())).expect("table in the cache");
        databases.insert(PatternDatabase::from_bytes(&spec, bytes).expect("a valid table"));
    }
    let list: Vec<(usize, usize, Position)> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let p = Position::parse(&f[2..].join(" "), Some(size)).expect("position");
            (f[0].parse().unwrap(), f[1].parse().unwrap(), p)
        })
        .collect();
    let next = AtomicUsize::new(0);
    let rows = Mutex::new(Vec::new());
    let limit = Duration::from_secs_f64(seconds);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((id, optimum, position)) = list.get(i) else {
                    return;
                };
                let deadline = cpu_now() + limit;
                let stop = move || cpu_now() >= deadline;
                let shortening = deadline - limit.mul_f64(1.0 - slide::SHORTENING_SHARE);
                let shorten_stop = move || cpu_now() >= shortening;
                let options = SolveOptions {
                    heuristic: HeuristicKind::Large,
                    stop: Some(&stop),
                    databases: Some(&databases),
                    shorten_stop: Some(&shorten_stop),
                    ..SolveOptions::default()
                };
                let start = cpu_now();
                let solution = slide::solve_optimal(position, &goal, &options).expect("solvable");
                let cpu = cpu_now() - start;
                let mut replay = position.clone();
                assert!(replay.apply_all(&solution.moves).is_ok() && replay == goal);
                assert!(solution.moves.len() >= *optimum);
                assert!(solution.lower_bound as usize <= *optimum);
                let row = (
                    *id,
                    *optimum,
                    solution.moves.len(),
                    solution.lower_bound,
                    solution.optimal,
                    cpu.as_secs_f64(),
                );
                eprintln!("{row:?}");
                rows.lock().unwrap().push(row);
            });
        }
    });
    let mut rows = rows.into_inner().unwrap();
    rows.sort_by_key(|r| r.0);
    println!(
        "| id | optimum | found | lower bound | optimal | CPU s |\n|---:|---:|---:|---:|:-:|---:|"
    );
    for (id, optimum, found, bound, optimal, cpu) in &rows {
        let yes = if *optimal { "yes" } else { "no" };
        println!("| {id} | {optimum} | {found} | {bound} | {yes} | {cpu:.1} |");
    }
    let n = rows.len() as f64;
    let gap: usize = rows.iter().map(|r| r.2 - r.1).sum();
    let below: usize = rows.iter().map(|r| r.1 - r.3 as usize).sum();
    let worst = rows.iter().map(|r| (r.2 - r.1, r.0)).max().unwrap();
    let exact = rows.iter().filter(|r| r.2 == r.1).count();
    let within2 = rows.iter().filter(|r| r.2 - r.1 <= 2).count();
    let proven = rows.iter().filter(|r| r.4).count();
    println!(
        "\n{} instances: found {:.2} above the optimum on average, worst +{} (instance {}); optimum found {exact}, within 2 moves {within2}; bound {:.2} below; {proven} proven",
        rows.len(),
        gap as f64 / n,
        worst.0,
        worst.1,
        below as f64 / n
    );
}
