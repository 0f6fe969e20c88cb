//! The plots of BENCHMARKS.md, measured and drawn in one run:
//!
//! ```sh
//! cargo run --release -p tessera --example plots -- [KORF-FILE]
//! ```
//!
//! writes `docs/plots/`:
//! - `fast-moves.svg`: the fast solver's moves / n³ against n, beside
//!   Parberry's 8/3 and the Manhattan lower bound of the same positions;
//! - `shisen-cdf.svg`: the Shisen-Sho solver's time per 18 × 8 deal, as a
//!   distribution, with and without gravity;
//! - `korf-nodes.svg`: time against nodes for each of Korf's 100 instances,
//!   solved optimally with the small (6-6-3) tables;
//!
//! and prints the figures behind them.

use std::time::{Duration, Instant};

use play::Deadline;
use plotters::prelude::*;
use shisen::{Deal, Matching, Rules, TileSet, Verdict};
use slide::{
    solve_fast_with, solve_optimal, Goal, HeuristicKind, Position, Scramble, Size, SolveOptions,
};

const OUT: &str = "docs/plots";

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn main() -> Result<()> {
    let korf = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/data/korf100_15puzzle.txt".into());
    std::fs::create_dir_all(OUT)?;
    fast_moves()?;
    shisen_cdf()?;
    korf_nodes(&korf)?;
    Ok(())
}

/// A legend entry: a short line in the series' style.
fn key(style: ShapeStyle) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    move |(x, y)| PathElement::new([(x, y), (x + 20, y)], style)
}

fn fast_moves() -> Result<()> {
    let sizes: [(usize, u64); 11] = [
        (5, 20),
        (7, 20),
        (10, 20),
        (15, 10),
        (20, 10),
        (30, 10),
        (50, 5),
        (70, 5),
        (100, 5),
        (200, 2),
        (300, 1),
    ];
    let mut rows = Vec::new();
    println!("fast solver: n, positions, moves/n^3 (mean), manhattan/n^3 (mean)");
    for (n, count) in sizes {
        let size = Size::square(n).expect("a size");
        let goal = Goal::RowMajor.position(size)?;
        let cube = (n as f64).powi(3);
        let (mut moves, mut bound) = (0.0, 0.0);
        for seed in 0..count {
            let puzzle = Scramble::Uniform.generate(&goal, seed);
            let mut m = 0u64;
            solve_fast_with(&puzzle, &goal, &mut |_| m += 1)?;
            moves += m as f64 / cube;
            bound += puzzle.manhattan(&goal)? as f64 / cube;
        }
        let (moves, bound) = (moves / count as f64, bound / count as f64);
        println!("{n} {count} {moves:.3} {bound:.3}");
        rows.push((n as f64, moves, bound));
    }
    let path = format!("{OUT}/fast-moves.svg");
    let root = SVGBackend::new(&path, (720, 420)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Fast solver: moves / n³ on random n × n boards",
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d((4f64..400f64).log_scale(), 0f64..3f64)?;
    chart
        .configure_mesh()
        .x_desc("n (log scale)")
        .y_desc("moves / n³")
        .draw()?;
    let parberry = RGBColor(0xd5, 0x5e, 0x00);
    chart
        .draw_series(LineSeries::new(
            [(4.0, 8.0 / 3.0), (400.0, 8.0 / 3.0)],
            parberry.stroke_width(2),
        ))?
        .label("Parberry, 8/3")
        .legend(key(parberry.stroke_width(2)));
    let ours = RGBColor(0x00, 0x72, 0xb2);
    chart
        .draw_series(LineSeries::new(
            rows.iter().map(|r| (r.0, r.1)),
            ours.stroke_width(2),
        ))?
        .label("tessera fast solver")
        .legend(key(ours.stroke_width(2)));
    chart.draw_series(
        rows.iter()
            .map(|r| Circle::new((r.0, r.1), 4, ours.filled())),
    )?;
    let bound = RGBColor(0x00, 0x9e, 0x73);
    chart
        .draw_series(LineSeries::new(
            rows.iter().map(|r| (r.0, r.2)),
            bound.stroke_width(2),
        ))?
        .label("lower bound: Manhattan distance")
        .legend(key(bound.stroke_width(2)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

/// Milliseconds for each of `deals` 18 × 8 deals, by the wall clock: the
/// thread CPU clock ticks in 4 ms steps here, too coarse for deals decided
/// in microseconds. Sorted.
fn shisen_times(gravity: bool, deals: u64) -> Result<(Vec<f64>, usize)> {
    let rules = Rules::new(Matching::Standard, gravity);
    let mut times = Vec::new();
    let mut unknown = 0;
    for seed in 0..deals {
        let board = Deal::random(seed, shisen::Size::DEFAULT, TileSet::Standard)?;
        let wall = Instant::now();
        let verdict =
            shisen::solve(&board, rules, &mut Deadline::cpu(Duration::from_secs(10))).verdict;
        unknown += usize::from(matches!(verdict, Verdict::Unknown));
        times.push(wall.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    Ok((times, unknown))
}

fn shisen_cdf() -> Result<()> {
    let deals = 1000;
    let path = format!("{OUT}/shisen-cdf.svg");
    let root = SVGBackend::new(&path, (720, 420)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut series = Vec::new();
    for gravity in [false, true] {
        let (times, unknown) = shisen_times(gravity, deals)?;
        let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
        println!(
            "shisen 18x8 gravity={gravity}: {deals} deals, median {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms, unknown {unknown}",
            at(0.5), at(0.9), at(0.99), at(1.0)
        );
        series.push((gravity, times));
    }
    let most = series
        .iter()
        .map(|s| *s.1.last().unwrap())
        .fold(1.0, f64::max);
    let least = series
        .iter()
        .map(|s| s.1[0])
        .fold(f64::MAX, f64::min)
        .max(0.001);
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Shisen-Sho solver: time per 18 × 8 deal (1000 deals)",
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d((least * 0.8..most * 1.25).log_scale(), 0f64..1f64)?;
    chart
        .configure_mesh()
        .x_desc("wall time, ms (log scale)")
        .y_desc("share of deals decided")
        .draw()?;
    for (gravity, times) in &series {
        let colour = if *gravity {
            RGBColor(0xd5, 0x5e, 0x00)
        } else {
            RGBColor(0x00, 0x72, 0xb2)
        };
        let n = times.len() as f64;
        let steps = times
            .iter()
            .enumerate()
            .map(|(i, &t)| (t, (i + 1) as f64 / n));
        chart
            .draw_series(LineSeries::new(steps, colour.stroke_width(2)))?
            .label(if *gravity { "gravity" } else { "no gravity" })
            .legend(key(colour.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

fn korf_nodes(file: &str) -> Result<()> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let size = Size::square(4).expect("4x4");
    let goal = Goal::BlankFirst.position(size)?;
    let options = SolveOptions {
        heuristic: HeuristicKind::Small,
        ..SolveOptions::default()
    };
    // Build the tables before timing, so the first instance is not
    // charged for them.
    let warm = Position::parse("1 2 3 0/4 5 6 7/8 9 10 11/12 13 14 15", Some(size))?;
    solve_optimal(&warm, &goal, &options)?;
    let mut points = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let length: usize = fields[1].parse()?;
        let position = Position::parse(&fields[2..].join(" "), Some(size))?;
        let start = Instant::now();
        let solution = solve_optimal(&position, &goal, &options)?;
        let seconds = start.elapsed().as_secs_f64();
        assert!(
            solution.optimal && solution.moves.len() == length,
            "instance {}",
            fields[0]
        );
        points.push((solution.nodes.max(1) as f64, seconds.max(1e-5), length));
    }
    let nodes: f64 = points.iter().map(|p| p.0).sum();
    let seconds: f64 = points.iter().map(|p| p.1).sum();
    println!(
        "korf100 (small tables): {} instances, all optimal, {:.0} nodes per instance, {seconds:.2} s in all, {:.1} M nodes/s",
        points.len(),
        nodes / points.len() as f64,
        nodes / seconds / 1e6
    );
    let path = format!("{OUT}/korf-nodes.svg");
    let root = SVGBackend::new(&path, (720, 420)).into_drawing_area();
    root.fill(&WHITE)?;
    let max_nodes = points.iter().map(|p| p.0).fold(1.0, f64::max);
    let max_time = points.iter().map(|p| p.1).fold(1e-4, f64::max);
    let min_time = points.iter().map(|p| p.1).fold(f64::MAX, f64::min);
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Korf's 100: time against nodes, each instance (6-6-3 tables)",
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(
            (1e3..max_nodes * 1.5).log_scale(),
            (min_time * 0.7..max_time * 1.5).log_scale(),
        )?;
    chart
        .configure_mesh()
        .x_desc("nodes (log scale)")
        .y_desc("seconds (log scale)")
        .draw()?;
    // Colour by optimal length: longer solutions need more nodes.
    let (short, long) = (
        points.iter().map(|p| p.2).min().unwrap_or(0),
        points.iter().map(|p| p.2).max().unwrap_or(1),
    );
    chart.draw_series(points.iter().map(|&(n, s, l)| {
        let t = (l - short) as f64 / (long - short).max(1) as f64;
        let colour = RGBColor(
            (68.0 + 185.0 * t) as u8,
            (1.0 + 200.0 * t) as u8,
            (84.0 - 50.0 * t) as u8,
        );
        Circle::new((n, s), 4, colour.filled())
    }))?;
    // The line of the mean rate: how far an instance's time strays from
    // its node count.
    let rate = nodes / seconds;
    chart
        .draw_series(LineSeries::new(
            [(1e3, 1e3 / rate), (max_nodes * 1.5, max_nodes * 1.5 / rate)],
            BLACK.stroke_width(1),
        ))?
        .label(format!("{:.1} M nodes/s (mean rate)", rate / 1e6))
        .legend(key(BLACK.stroke_width(1)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
