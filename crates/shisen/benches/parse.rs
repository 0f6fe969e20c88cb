//! Reading board text (criterion, in MB/s of text): a stream of full and
//! of half-played 18 × 8 boards read into one reused board
//! ([`shisen::Boards::next_ref`], the command line's batch path) and as
//! boards of their own (the iterator); and counting every board's moves,
//! with a board built for each ("built") or straight from the text
//! ([`shisen::Boards::next_count`], "counted", what
//! `tessera shisen moves --count` runs).
//!
//! Run: `cargo bench -p shisen --bench parse`.
// criterion's macros make undocumented public functions.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};
use shisen::{parse_boards, Matching};

mod common;

/// A group measured in bytes of text, run on two texts: 500 full and 500
/// half-played 18 × 8 boards, named `full` and `half`.
fn on_texts(
    c: &mut Criterion,
    group: &str,
    mut bench: impl FnMut(&mut BenchmarkGroup<'_, WallTime>, &str, &String),
) {
    let mut group = c.benchmark_group(group);
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for (name, left) in [("full", 144), ("half", 72)] {
        let text: String = common::played(left, 500)
            .iter()
            .map(|board| format!("{board}\n"))
            .collect();
        group.throughput(Throughput::Bytes(text.len() as u64));
        bench(&mut group, name, &text);
    }
    group.finish();
}

fn bench_parse(c: &mut Criterion) {
    on_texts(c, "parse", |group, name, text| {
        group.bench_with_input(BenchmarkId::new("reused", name), text, |b, text| {
            b.iter(|| {
                let mut boards = parse_boards(black_box(text), Matching::Standard);
                let mut tiles = 0;
                while let Some(board) = boards.next_ref() {
                    tiles += board.expect("a valid board").tiles_left();
                }
                tiles
            });
        });
        group.bench_with_input(BenchmarkId::new("owned", name), text, |b, text| {
            b.iter(|| {
                parse_boards(black_box(text), Matching::Standard)
                    .map(|board| board.expect("a valid board").tiles_left())
                    .sum::<usize>()
            });
        });
    });
}

fn bench_count(c: &mut Criterion) {
    on_texts(c, "count", |group, name, text| {
        group.bench_with_input(BenchmarkId::new("built", name), text, |b, text| {
            b.iter(|| {
                let mut boards = parse_boards(black_box(text), Matching::Standard);
                let mut moves = 0;
                while let Some(board) = boards.next_ref() {
                    moves += board.expect("a valid board").count_moves();
                }
                moves
            });
        });
        group.bench_with_input(BenchmarkId::new("counted", name), text, |b, text| {
            b.iter(|| {
                let mut boards = parse_boards(black_box(text), Matching::Standard);
                let mut moves = 0;
                while let Some(count) = boards.next_count() {
                    moves += count.expect("a valid board");
                }
                moves
            });
        });
    });
}

criterion_group!(benches, bench_parse, bench_count);
criterion_main!(benches);
