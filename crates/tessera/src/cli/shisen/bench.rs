//! `tessera shisen bench`: the solver, or solvable-deal generation, on
//! seeded random deals, timed by the CPU clock.

use std::time::{Duration, Instant};

use clap::Args;
use play::{thread_cpu_time, Deadline};
use shisen::{Deal, Rules, Size, TileSet, Verdict};

use super::input::{parse_size, parse_tiles};
use crate::cli::Failure;

#[derive(Args)]
pub struct BenchArgs {
    /// Board size WxH.
    #[arg(long, value_parser = parse_size, default_value = "18x8")]
    size: Size,
    /// Tile set: standard, chinese, or KxC.
    #[arg(long, default_value = "standard", value_parser = parse_tiles)]
    tiles: TileSet,
    /// Tiles fall after a removal.
    #[arg(long)]
    gravity: bool,
    /// The first deal's seed; deal i uses seed + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// How many deals.
    #[arg(long, default_value_t = 1000)]
    deals: u64,
    /// Per-deal limit in CPU time (on Linux; elsewhere wall time), so that
    /// a loaded machine does not turn hard deals into unknowns: 500ms, 3s,
    /// 2m; a bare number is milliseconds.
    #[arg(long, default_value = "10000", value_parser = crate::cli::duration::millis)]
    time_limit: Duration,
    /// Time solvable-deal generation (Deal::solvable) instead.
    #[arg(long)]
    generate: bool,
}

/// The `q`-quantile of sorted `values` (nearest rank).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

pub fn bench(args: BenchArgs) -> Result<(), Failure> {
    args.tiles.tiles(args.size).map_err(Failure::input)?;
    if args.deals == 0 {
        return Err(Failure::input("--deals must be at least 1"));
    }
    let rules = Rules::new(args.tiles.matching(), args.gravity);
    let limit = args.time_limit;
    let mut millis = Vec::new();
    let mut cpu_millis = Vec::new();
    let (mut solvable, mut unsolvable, mut unknown, mut attempts) = (0, 0, 0, 0);
    for i in 0..args.deals {
        let seed = args.seed.wrapping_add(i);
        let start = Instant::now();
        let cpu_start = thread_cpu_time();
        if args.generate {
            let deal = Deal::solvable(
                seed,
                args.size,
                args.tiles,
                rules,
                &mut Deadline::cpu(limit),
            )
            .map_err(Failure::input)?;
            match deal {
                Some(deal) => {
                    solvable += 1;
                    attempts += u64::from(deal.attempts);
                }
                None => unknown += 1,
            }
        } else {
            let board = Deal::random(seed, args.size, args.tiles).map_err(Failure::input)?;
            match shisen::solve(&board, rules, &mut Deadline::cpu(limit)).verdict {
                Verdict::Solvable(_) => solvable += 1,
                Verdict::Unsolvable => unsolvable += 1,
                Verdict::Unknown => unknown += 1,
            }
        }
        millis.push(start.elapsed().as_secs_f64() * 1000.0);
        if let (Some(a), Some(b)) = (cpu_start, thread_cpu_time()) {
            cpu_millis.push((b - a).as_secs_f64() * 1000.0);
        }
    }
    let mut slowest: Vec<(f64, u64)> = millis
        .iter()
        .zip(0..)
        .map(|(&t, i)| (t, args.seed.wrapping_add(i)))
        .collect();
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    let n = args.deals;
    let what = if args.generate {
        "solvable deals generated"
    } else {
        "deals solved"
    };
    outln!(
        "{n} {what}: {} board, tiles {}, gravity {}, seeds {}..{}",
        args.size,
        args.tiles,
        args.gravity,
        args.seed,
        args.seed.wrapping_add(n - 1)
    );
    if args.generate {
        outln!(
            "generated {solvable}, failed {unknown}, draws per deal {:.2}",
            attempts as f64 / solvable.max(1) as f64
        );
    } else {
        let decided = solvable + unsolvable;
        outln!(
            "decided {decided}/{n} ({:.1}%): solvable {solvable}, unsolvable {unsolvable}, unknown {unknown}",
            100.0 * decided as f64 / n as f64
        );
    }
    let summary = |label: &str, values: &mut Vec<f64>| -> Result<(), Failure> {
        values.sort_by(f64::total_cmp);
        outln!(
            "{label} per deal: median {:.3} ms, p99 {:.3} ms, worst {:.3} ms, mean {:.3} ms",
            quantile(values, 0.5),
            quantile(values, 0.99),
            values[values.len() - 1],
            values.iter().sum::<f64>() / values.len() as f64
        );
        Ok(())
    };
    summary("wall time", &mut millis)?;
    if cpu_millis.len() == millis.len() {
        summary("cpu time (scheduler-tick resolution)", &mut cpu_millis)?;
    }
    let slowest: Vec<String> = slowest
        .iter()
        .take(3)
        .map(|(t, seed)| format!("seed {seed} ({t:.1} ms)"))
        .collect();
    outln!("slowest: {}", slowest.join(", "));
    Ok(())
}
