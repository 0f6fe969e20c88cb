//! Speed ratios robust to a shared, loaded machine: the three path finders
//! run in interleaved rounds (bitboard, kshisen, bfs, bitboard, …), each
//! round timing one pass over all the work, and each method keeps its
//! fastest pass. Interference from other processes only slows a pass down,
//! so the minimum is the closest to the method's own cost, and the ratios
//! compare passes measured moments apart in the same run.
//!
//! Run: `cargo bench -p shisen --bench ratios` (prints a Markdown table).

use std::hint::black_box;
use std::time::{Duration, Instant};

use shisen::{Board, Point};

mod common;

const ROUNDS: usize = 100;

/// The fastest of `ROUNDS` interleaved passes of each job, per job.
fn fastest(jobs: &[&dyn Fn() -> usize]) -> Vec<Duration> {
    let mut best = vec![Duration::MAX; jobs.len()];
    for _ in 0..ROUNDS {
        for (job, best) in jobs.iter().zip(&mut best) {
            let start = Instant::now();
            black_box(job());
            *best = (*best).min(start.elapsed());
        }
    }
    best
}

fn per_second(items: usize, repeat: usize, time: Duration) -> f64 {
    (items * repeat) as f64 / time.as_secs_f64()
}

fn human(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.2} M/s", rate / 1e6)
    } else {
        format!("{:.1} k/s", rate / 1e3)
    }
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument filters nothing.
    println!(
        "| measure | boards | bitboard | kshisen | bfs | bitboard / kshisen | bitboard / bfs |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (name, boards) in common::sets() {
        let pairs = common::pairs(&boards);
        // Each method is a closure of its own type, so every call inlines
        // into its pass; cheap methods repeat so a pass lasts long enough.
        let repeat = [20, 4, 1];
        let ours = || queries_pass(&boards, &pairs, repeat[0], |b, p, q| b.path(p, q).is_some());
        let ksh = || {
            queries_pass(&boards, &pairs, repeat[1], |b, p, q| {
                common::baseline::kshisen(b, p, q).is_some()
            })
        };
        let bfs = || {
            queries_pass(&boards, &pairs, repeat[2], |b, p, q| {
                common::baseline::bfs(b, p, q).is_some()
            })
        };
        let times = fastest(&[&ours, &ksh, &bfs]);
        let rates: Vec<f64> = times
            .iter()
            .zip(repeat)
            .map(|(&t, r)| per_second(pairs.len(), r, t))
            .collect();
        row("path queries", name, &rates);

        let per_board = common::pairs_per_board(&boards);
        let ours = || {
            (0..repeat[0])
                .map(|_| {
                    boards
                        .iter()
                        .map(|b| black_box(b).moves().len())
                        .sum::<usize>()
                })
                .sum()
        };
        let ksh = || {
            enumeration_pass(&boards, &per_board, repeat[1], |b, p, q| {
                common::baseline::kshisen(b, p, q).is_some()
            })
        };
        let bfs = || {
            enumeration_pass(&boards, &per_board, repeat[2], |b, p, q| {
                common::baseline::bfs(b, p, q).is_some()
            })
        };
        let times = fastest(&[&ours, &ksh, &bfs]);
        let rates: Vec<f64> = times
            .iter()
            .zip(repeat)
            .map(|(&t, r)| per_second(boards.len(), r, t))
            .collect();
        row("move enumerations", name, &rates);
    }
}

/// `repeat` passes of `connects` over every pair; the number connected.
fn queries_pass(
    boards: &[Board],
    pairs: &[(usize, Point, Point)],
    repeat: usize,
    connects: impl Fn(&Board, Point, Point) -> bool,
) -> usize {
    (0..repeat)
        .map(|_| {
            pairs
                .iter()
                .filter(|&&(i, p, q)| connects(&boards[i], black_box(p), q))
                .count()
        })
        .sum()
}

/// `repeat` enumerations of every board's moves by testing each matching
/// pair with `connects`; the number of moves.
fn enumeration_pass(
    boards: &[Board],
    per_board: &[Vec<(usize, Point, Point)>],
    repeat: usize,
    connects: impl Fn(&Board, Point, Point) -> bool,
) -> usize {
    (0..repeat)
        .map(|_| {
            per_board
                .iter()
                .map(|pairs| {
                    pairs
                        .iter()
                        .filter(|&&(i, p, q)| connects(&boards[i], black_box(p), q))
                        .count()
                })
                .sum::<usize>()
        })
        .sum()
}

fn row(measure: &str, boards: &str, rates: &[f64]) {
    println!(
        "| {measure} | {boards} | {} | {} | {} | {:.1}× | {:.1}× |",
        human(rates[0]),
        human(rates[1]),
        human(rates[2]),
        rates[0] / rates[1],
        rates[0] / rates[2]
    );
}
