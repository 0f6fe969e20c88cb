//! Path queries and whole-board move enumeration (criterion): the bitboard
//! search against the two baselines of `common` (a breadth-first search
//! and kshisen's method), on full, half-played and nearly empty 18 × 8
//! boards.
//!
//! Run: `cargo bench -p shisen --bench paths`. For ratios robust to a
//! loaded machine, see the `ratios` bench.
// criterion's macros make undocumented public functions.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use shisen::{Board, Point};

mod common;

type Finder = fn(&Board, Point, Point) -> bool;

fn finders() -> [(&'static str, Finder); 3] {
    [
        ("bitboard", |b, p, q| b.path(p, q).is_some()),
        ("kshisen", |b, p, q| {
            common::baseline::kshisen(b, p, q).is_some()
        }),
        ("bfs", |b, p, q| common::baseline::bfs(b, p, q).is_some()),
    ]
}

fn bench_paths(c: &mut Criterion) {
    let mut group = c.benchmark_group("path-queries");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for (name, boards) in common::sets() {
        let pairs = common::pairs(&boards);
        // The three must agree on which pairs connect, and on the length
        // wherever a shortest path is promised.
        for &(i, p, q) in &pairs {
            let b = &boards[i];
            let ours = b.path(p, q).map(|path| path.length());
            let bfs = common::baseline::bfs(b, p, q).map(|pts| common::length(&pts));
            assert_eq!(ours, bfs, "{p} {q} on\n{b}");
            assert_eq!(ours.is_some(), common::baseline::kshisen(b, p, q).is_some());
        }
        group.throughput(Throughput::Elements(pairs.len() as u64));
        for (finder, f) in finders() {
            group.bench_with_input(BenchmarkId::new(finder, name), &pairs, |bench, pairs| {
                bench.iter(|| {
                    pairs
                        .iter()
                        .filter(|&&(i, p, q)| f(&boards[i], black_box(p), q))
                        .count()
                });
            });
        }
    }
    group.finish();
}

fn bench_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("move-enumeration");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for (name, boards) in common::sets() {
        let per_board = common::pairs_per_board(&boards);
        group.throughput(Throughput::Elements(boards.len() as u64));
        group.bench_with_input(
            BenchmarkId::new("bitboard", name),
            &boards,
            |bench, boards| {
                bench.iter(|| {
                    boards
                        .iter()
                        .map(|b| black_box(b).moves().len())
                        .sum::<usize>()
                });
            },
        );
        for (finder, f) in finders().into_iter().skip(1) {
            group.bench_with_input(
                BenchmarkId::new(finder, name),
                &per_board,
                |bench, per_board| {
                    bench.iter(|| {
                        per_board
                            .iter()
                            .map(|pairs| {
                                pairs
                                    .iter()
                                    .filter(|&&(i, p, q)| f(&boards[i], black_box(p), q))
                                    .count()
                            })
                            .sum::<usize>()
                    });
                },
            );
        }
    }
    group.finish();
}

criterion_group!(benches, bench_paths, bench_moves);
criterion_main!(benches);
