//! Korf's 100 4 × 4 instances solved optimally in the multi-tile metric
//! with the colouring bound, turned to the row-major goal (a half turn and
//! the relabelling v → 16 − v keep every optimal length). Every solution
//! is replayed; the lengths are printed one per line on stdout, with the
//! table build and search times on stderr.
//!
//! ```sh
//! cargo run --release -p slide --example mtm_korf -- \
//!     ../shared/data/korf100_15puzzle.txt [FIRST [COUNT]]
//! ```
//!
//! Release builds only: the 4 × 4 table has 151 M entries. With
//! `MTM_TABLE=FILE` the table is read from a cache file (`tessera slide
//! tables build --metric mtm` writes it) instead of built.

use slide::solver::mtm_lower_bound;
use slide::{solve_optimal, Goal, Metric, Position, Size, SolveOptions};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args.next().expect("the Korf 100 instance file");
    let first: usize = args.next().map_or(0, |s| s.parse().expect("FIRST"));
    let count: usize = args.next().map_or(100, |s| s.parse().expect("COUNT"));
    let text = std::fs::read_to_string(&file).expect("readable instance file");
    let size = Size::new(4, 4).unwrap();
    let goal = Goal::RowMajor.position(size).unwrap();
    let positions: Vec<Position> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|f| f.len() == 18)
        .map(|f| {
            let mut t = [0u8; 16];
            for i in 0..16 {
                let v: u8 = f[i + 2].parse().unwrap();
                t[15 - i] = if v == 0 { 0 } else { 16 - v };
            }
            let rows: Vec<String> = t
                .chunks(4)
                .map(|r| r.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))
                .collect();
            rows.join("/").parse().unwrap()
        })
        .skip(first)
        .take(count)
        .collect();
    let options = SolveOptions::default();
    if let Ok(path) = std::env::var("MTM_TABLE") {
        let bytes = std::fs::read(path).expect("readable table");
        let table = slide::solver::ColourTable::from_bytes(size, 15, &bytes).expect("a table");
        slide::solver::Databases::global().insert_colouring(table);
    }
    let started = Instant::now();
    let mut total_nodes = 0;
    for (i, position) in positions.iter().enumerate() {
        let one = Instant::now();
        let solution = solve_optimal(position, &goal, &options.in_metric(Metric::Mtm)).unwrap();
        let mut replay = position.clone();
        assert!(replay.apply_all(&solution.moves).is_ok() && replay == goal);
        assert!(solution.optimal);
        let bound = mtm_lower_bound(position, &goal).unwrap();
        assert!(bound as usize <= solution.mtm());
        total_nodes += solution.nodes;
        println!("{}", solution.mtm());
        eprintln!(
            "{:3}: {} MTM (bound {bound}), {} nodes, {:.2} s",
            first + i + 1,
            solution.mtm(),
            solution.nodes,
            one.elapsed().as_secs_f64()
        );
    }
    eprintln!(
        "{} positions, {total_nodes} nodes, {:.1} s",
        positions.len(),
        started.elapsed().as_secs_f64()
    );
}
