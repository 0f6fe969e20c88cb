//! Solvability by counting cycles (the engine) against the textbook O(n²)
//! inversion count (the baseline, written here), and generation throughput.
//!
//! Run: `cargo bench -p slide --bench solvability`
// criterion's macros make undocumented public functions.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use slide::{goal_cells, Goal, Parity, Position, Scramble, Size};
use std::hint::black_box;

/// Baseline: the same rule, with the permutation's parity from counting
/// inversions pair by pair.
fn solvable_by_inversions(position: &Position, goal: &Position) -> bool {
    let target = goal_cells(position, goal).unwrap();
    let mut inversions = 0usize;
    for i in 0..target.len() {
        for j in i + 1..target.len() {
            inversions += (target[i] > target[j]) as usize;
        }
    }
    Parity::of(inversions) == Parity::of(position.size().distance(position.blank(), goal.blank()))
}

fn puzzle(side: usize) -> (Position, Position) {
    let goal = Goal::RowMajor
        .position(Size::square(side).unwrap())
        .unwrap();
    (Scramble::Uniform.generate(&goal, 1), goal)
}

fn solvability(c: &mut Criterion) {
    let mut group = c.benchmark_group("solvability");
    group.sample_size(10);
    for side in [4, 100, 1000] {
        let (position, goal) = puzzle(side);
        group.bench_function(BenchmarkId::new("cycles", format!("{side}x{side}")), |b| {
            b.iter(|| black_box(&position).is_solvable(black_box(&goal)).unwrap());
        });
        // 1000×1000 by inversions is ~5·10¹¹ comparisons: minutes per check.
        if side <= 100 {
            group.bench_function(
                BenchmarkId::new("inversions", format!("{side}x{side}")),
                |b| b.iter(|| solvable_by_inversions(black_box(&position), black_box(&goal))),
            );
        }
    }
    let (position, goal) = puzzle(1000);
    let text = position.to_string();
    group.bench_function("parse+cycles/1000x1000", |b| {
        b.iter(|| {
            black_box(&text)
                .parse::<Position>()
                .unwrap()
                .is_solvable(&goal)
                .unwrap()
        });
    });
    group.finish();
}

fn generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate");
    group.throughput(Throughput::Elements(1));
    for side in [4, 100] {
        let goal = Goal::RowMajor
            .position(Size::square(side).unwrap())
            .unwrap();
        let mut seed = 0u64;
        group.bench_function(BenchmarkId::new("uniform", format!("{side}x{side}")), |b| {
            b.iter(|| {
                seed += 1;
                Scramble::Uniform.generate(&goal, seed)
            });
        });
    }
    let goal = Goal::RowMajor.position(Size::square(4).unwrap()).unwrap();
    let mut seed = 0u64;
    group.bench_function("walk:100/4x4", |b| {
        b.iter(|| {
            seed += 1;
            Scramble::Walk(100).generate(&goal, seed)
        });
    });
    group.finish();
}

criterion_group!(benches, solvability, generation);
criterion_main!(benches);
