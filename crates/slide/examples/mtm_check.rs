//! Checks the multi-tile-metric solver on 4 × 3 boards against a complete
//! MTM distance table built here, independently of the library's tables
//! and searches: one breadth-first search over all 12! / 2 arrangements
//! that reach the row-major goal.
//!
//! ```sh
//! cargo run --release -p slide --example mtm_check -- [POSITIONS]
//! ```
//!
//! `POSITIONS` uniformly random positions (seeds 0, 1, …; 1000 by
//! default) are solved in MTM (`SolveOptions::metric`) and their lengths compared
//! with the table's; the colouring lower bound (`mtm_lower_bound`) of each
//! must not exceed the table's distance. Needs about 0.5 GB.

use rayon::prelude::*;
use slide::solver::mtm_lower_bound;
use slide::{solve_optimal, Goal, HeuristicKind, Metric, Scramble, Size, SolveOptions};
use std::time::Instant;

const W: usize = 4;
const H: usize = 3;
const N: usize = W * H;
const UNSEEN: u8 = u8::MAX;

/// Factorials up to 11!.
const fn factorials() -> [usize; N] {
    let mut f = [1usize; N];
    let mut i = 1;
    while i < N {
        f[i] = f[i - 1] * i;
        i += 1;
    }
    f
}
const FACT: [usize; N] = factorials();

/// Lehmer rank of a permutation of 0..12, counting smaller unused values
/// with a bit mask.
fn rank(p: &[u8; N]) -> usize {
    let mut used = 0u16;
    let mut r = 0;
    for (i, &v) in p.iter().enumerate() {
        let below = (used & ((1 << v) - 1)).count_ones() as usize;
        r += (v as usize - below) * FACT[N - 1 - i];
        used |= 1 << v;
    }
    r
}

fn unrank(mut r: usize) -> [u8; N] {
    let mut free: Vec<u8> = (0..N as u8).collect();
    let mut p = [0u8; N];
    for i in 0..N {
        let d = r / FACT[N - 1 - i];
        r %= FACT[N - 1 - i];
        p[i] = free.remove(d);
    }
    p
}

/// Every MTM distance to the goal (value 11 is the blank; goal = identity).
fn table() -> Vec<u8> {
    let mut distance = vec![UNSEEN; FACT[N - 1] * N];
    let goal: [u8; N] = std::array::from_fn(|i| i as u8);
    distance[rank(&goal)] = 0;
    let mut frontier = vec![rank(&goal) as u32];
    let mut depth = 0u8;
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for &r in &frontier {
            let p = unrank(r as usize);
            let blank = p.iter().position(|&v| v as usize == N - 1).unwrap();
            let (x, y) = ((blank % W) as isize, (blank / W) as isize);
            for (dx, dy) in [(1isize, 0isize), (-1, 0), (0, 1), (0, -1)] {
                let mut q = p;
                let (mut bx, mut by) = (x, y);
                loop {
                    let (nx, ny) = (bx + dx, by + dy);
                    if nx < 0 || ny < 0 || nx >= W as isize || ny >= H as isize {
                        break;
                    }
                    q.swap(
                        (by * W as isize + bx) as usize,
                        (ny * W as isize + nx) as usize,
                    );
                    (bx, by) = (nx, ny);
                    let c = rank(&q);
                    if distance[c] == UNSEEN {
                        distance[c] = depth + 1;
                        next.push(c as u32);
                    }
                }
            }
        }
        frontier = next;
        depth += 1;
        eprintln!("depth {depth}: {} positions", frontier.len());
    }
    distance
}

fn main() {
    let count: u64 = std::env::args()
        .nth(1)
        .map_or(1000, |s| s.parse().expect("a number of positions"));
    let started = Instant::now();
    let distance = table();
    let reached = distance.iter().filter(|&&d| d != UNSEEN).count();
    let diameter = distance.iter().filter(|&&d| d != UNSEEN).max().unwrap();
    println!(
        "table: {reached} positions, diameter {diameter} MTM, built in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let size = Size::new(W, H).unwrap();
    let goal = Goal::RowMajor.position(size).unwrap();
    let options = SolveOptions {
        heuristic: HeuristicKind::Small,
        ..SolveOptions::default()
    };
    let solving = Instant::now();
    let results: Vec<(u64, usize, u8, bool, u32)> = (0..count)
        .into_par_iter()
        .map(|seed| {
            let position = Scramble::Uniform.generate(&goal, seed);
            let solution =
                solve_optimal(&position, &goal, &options.in_metric(Metric::Mtm)).unwrap();
            // Tile t's goal cell is t − 1; the blank's is the last cell.
            let p: [u8; N] = std::array::from_fn(|i| match position.tiles()[i] {
                0 => (N - 1) as u8,
                t => (t - 1) as u8,
            });
            let mut replay = position.clone();
            let reaches = replay.apply_all(&solution.moves).is_ok() && replay == goal;
            (
                seed,
                solution.mtm(),
                distance[rank(&p)],
                reaches && solution.optimal,
                mtm_lower_bound(&position, &goal).unwrap(),
            )
        })
        .collect();
    let wrong: Vec<_> = results
        .iter()
        .filter(|(_, got, want, ok, bound)| {
            *got != *want as usize || !ok || *bound > u32::from(*want)
        })
        .collect();
    let bounds = results.iter().map(|r| r.4 as f64).sum::<f64>() / count as f64;
    let mean = results.iter().map(|r| r.2 as f64).sum::<f64>() / count as f64;
    println!(
        "{count} random positions: mean {mean:.2} MTM, mean bound {bounds:.2}, {} disagree, fail to replay or have a bound above the distance, solved in {:.1} s",
        wrong.len(),
        solving.elapsed().as_secs_f64()
    );
    for (seed, got, want, _, bound) in wrong.iter().take(10) {
        println!("  seed {seed}: solver {got}, table {want}, bound {bound}");
    }
    assert!(wrong.is_empty());
}
