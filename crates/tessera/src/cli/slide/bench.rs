//! `tessera slide bench …`: the measurements behind BENCHMARKS.md, each a
//! single command. Every solution is replayed and its length checked
//! against the listed optimum; timings exclude table preparation, which is
//! reported on its own.

use crate::cli::tables::TableArgs;
use crate::cli::Failure;
use clap::{Args, ValueEnum};
use slide::solver::{required_patterns, DistanceTable, PatternDatabase};
use slide::{Databases, Goal, HeuristicKind, Position, Scramble, Size, SolveOptions};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, ValueEnum)]
pub enum Suite {
    /// Korf's 100 random 15-puzzle instances, against IDA* + Manhattan.
    Korf100,
    /// The 17 15-puzzle positions that need 80 moves.
    Hardest80,
    /// Korf & Felner's 50 24-puzzle instances in the bounded mode.
    KorfFelner50,
    /// Random 3x3 positions: optimal solves per second.
    Random3x3,
    /// Build, save and load the 4x4 pattern databases.
    Tables,
}

#[derive(Args)]
pub struct BenchArgs {
    /// What to measure.
    suite: Suite,
    /// Instance file (`id length tiles…` per line) for korf100, hardest80
    /// and korf-felner50.
    #[arg(long)]
    data: Option<PathBuf>,
    /// korf100: run the IDA* + Manhattan baseline on the first N instances.
    #[arg(long, default_value_t = 10)]
    baseline: usize,
    /// korf-felner50: CPU time per instance (500ms, 3s, 2m; a bare number
    /// is seconds).
    #[arg(long, default_value = "10", value_parser = crate::cli::duration::seconds)]
    time_limit: Duration,
    /// random3x3: how many positions.
    #[arg(long, default_value_t = 1_000_000)]
    count: usize,
    /// random3x3: the seed of the positions drawn.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    tables: TableArgs,
}

struct Instance {
    id: String,
    length: usize,
    position: Position,
}

fn instances(path: &Option<PathBuf>, size: Size) -> Result<Vec<Instance>, Failure> {
    let path = path
        .as_ref()
        .ok_or_else(|| Failure::input("this suite needs --data FILE (lines `id length tiles…`)"))?;
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, line)| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let bad = |what: String| Failure::input_at(i + 1, what);
            if fields.len() != size.cells() + 2 {
                return Err(bad(format!(
                    "expected id, length and {} tiles",
                    size.cells()
                )));
            }
            let length = fields[1]
                .parse()
                .map_err(|_| bad(format!("length {:?} is not a number", fields[1])))?;
            let position = Position::parse(&fields[2..].join(" "), Some(size))
                .map_err(|e| bad(e.to_string()))?;
            Ok(Instance {
                id: fields[0].to_string(),
                length,
                position,
            })
        })
        .collect()
}

pub fn run(args: BenchArgs) -> Result<(), Failure> {
    match args.suite {
        Suite::Korf100 => fifteen(&args, Goal::BlankFirst, args.baseline),
        Suite::Hardest80 => fifteen(&args, Goal::RowMajor, 0),
        Suite::KorfFelner50 => twenty_four(&args),
        Suite::Random3x3 => random_3x3(&args),
        Suite::Tables => tables(&args),
    }
}

/// CPU time of the calling thread (Linux), so that measurements on a
/// shared machine are not inflated by other processes; wall time elsewhere.
fn cpu_now() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map(Duration::from_nanos)
        .unwrap_or_else(|| {
            static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
            START.get_or_init(Instant::now).elapsed()
        })
}

/// Runs `work` and says how long it took: in CPU time, unless that is
/// too short for the scheduler to have counted (it accounts a thread's
/// time at context switches and ticks, so a few microseconds of solving
/// read as 0 s, and rates as "inf"), then in wall time. The name of the
/// clock used comes third.
fn measured<T>(work: impl FnOnce() -> T) -> (T, Duration, &'static str) {
    let (cpu, wall) = (cpu_now(), Instant::now());
    let value = work();
    let (cpu, wall) = (cpu_now().saturating_sub(cpu), wall.elapsed());
    if cpu >= Duration::from_millis(20) {
        (value, cpu, "CPU")
    } else {
        (value, wall.max(Duration::from_nanos(1)), "wall time")
    }
}

/// CPU time of the whole process, all threads (Linux; zero elsewhere):
/// user + system ticks from /proc/self/stat, at the usual 100 per second.
fn process_cpu() -> Duration {
    let ticks = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            // Fields after the command name, which is in parentheses.
            let rest = s.rsplit_once(')')?.1;
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let user: u64 = fields.get(11)?.parse().ok()?;
            let system: u64 = fields.get(12)?.parse().ok()?;
            Some(user + system)
        });
    Duration::from_millis(ticks.unwrap_or(0) * 10)
}

/// One solve, checked: (length, nodes, CPU time, wall time, optimal). The
/// thread's CPU clock advances in scheduler ticks (4 ms here), so single
/// short solves read as 0 or 4 ms; sums over many are accurate, and the wall
/// time is precise but includes waiting for a busy machine's cores.
fn timed(
    position: &Position,
    goal: &Position,
    options: &SolveOptions,
) -> Result<(usize, u64, Duration, Duration, bool), Failure> {
    let start = cpu_now();
    let wall = Instant::now();
    let solution = slide::solve_optimal(position, goal, options).map_err(Failure::input)?;
    let wall = wall.elapsed();
    let elapsed = cpu_now().saturating_sub(start);
    let mut replay = position.clone();
    replay
        .apply_all(&solution.moves)
        .map_err(|e| Failure::Other(format!("{position}: solution does not replay: {e}")))?;
    if replay != *goal {
        return Err(Failure::Other(format!(
            "{position}: solution does not reach the goal"
        )));
    }
    Ok((
        solution.moves.len(),
        solution.nodes,
        elapsed,
        wall,
        solution.optimal,
    ))
}

fn seconds(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn fifteen(args: &BenchArgs, goal: Goal, baseline: usize) -> Result<(), Failure> {
    let size = Size::square(4).expect("4x4");
    let goal = goal.position(size).expect("a 4x4 goal");
    let list = instances(&args.data, size)?;
    let databases = Databases::new();
    let prep = args.tables.prepare(size, goal.blank(), &databases);
    let heuristic = args.tables.kind(size, goal.blank());
    outln!(
        "tables ({heuristic:?}): built in {:.1} s, loaded in {:.2} s; {:.0} MB on disk, {:.0} MB in memory",
        seconds(prep.built),
        seconds(prep.loaded),
        prep.bytes_on_disk as f64 / 1e6,
        prep.bytes_in_memory as f64 / 1e6
    );
    let options = SolveOptions {
        heuristic,
        databases: Some(&databases),
        lookups: args.tables.lookups,
        ..SolveOptions::default()
    };
    outln!("\n| id | length | nodes | CPU ms | wall ms |\n|---:|---:|---:|---:|---:|");
    let mut total = Duration::ZERO;
    let mut nodes_total = 0u64;
    let wall = Instant::now();
    for instance in &list {
        let (length, nodes, elapsed, wall_one, optimal) =
            timed(&instance.position, &goal, &options)?;
        if length != instance.length || !optimal {
            return Err(Failure::Other(format!(
                "instance {}: found {length} moves, the optimum is {}",
                instance.id, instance.length
            )));
        }
        outln!(
            "| {} | {length} | {nodes} | {:.0} | {:.2} |",
            instance.id,
            elapsed.as_secs_f64() * 1e3,
            wall_one.as_secs_f64() * 1e3
        );
        total += elapsed;
        nodes_total += nodes;
    }
    let wall = wall.elapsed();
    let n = list.len() as f64;
    outln!(
        "\nall {} optimal and replayed: {:.3} s CPU total ({:.3} s wall, replays included), {:.2} ms and {:.0} nodes per instance on average, {:.1} M nodes/s",
        list.len(),
        seconds(total),
        seconds(wall),
        seconds(total) * 1e3 / n,
        nodes_total as f64 / n,
        nodes_total as f64 / seconds(total) / 1e6
    );
    if baseline == 0 {
        return Ok(());
    }
    let subset = &list[..baseline.min(list.len())];
    let manhattan = SolveOptions {
        heuristic: HeuristicKind::Manhattan,
        ..SolveOptions::default()
    };
    let (mut md_time, mut md_nodes, mut pdb_time, mut pdb_nodes) =
        (Duration::ZERO, 0u64, Duration::ZERO, 0u64);
    outln!("\nbaseline on the first {} instances (CPU time)\n\n| id | length | Manhattan nodes | Manhattan s | PDB nodes | PDB ms |\n|---:|---:|---:|---:|---:|---:|", subset.len());
    for instance in subset {
        let (length, nodes, elapsed, _, _) = timed(&instance.position, &goal, &manhattan)?;
        if length != instance.length {
            return Err(Failure::Other(format!(
                "instance {}: Manhattan IDA* found {length}",
                instance.id
            )));
        }
        let (_, p_nodes, p_elapsed, _, _) = timed(&instance.position, &goal, &options)?;
        outln!(
            "| {} | {length} | {nodes} | {:.2} | {p_nodes} | {:.2} |",
            instance.id,
            seconds(elapsed),
            seconds(p_elapsed) * 1e3
        );
        md_time += elapsed;
        md_nodes += nodes;
        pdb_time += p_elapsed;
        pdb_nodes += p_nodes;
    }
    outln!(
        "\nsubset: Manhattan {:.1} s, {} nodes; pattern databases {:.3} s, {} nodes; {:.0}× faster, {:.0}× fewer nodes",
        seconds(md_time),
        md_nodes,
        seconds(pdb_time),
        pdb_nodes,
        seconds(md_time) / seconds(pdb_time).max(1e-9),
        md_nodes as f64 / pdb_nodes.max(1) as f64
    );
    Ok(())
}

fn twenty_four(args: &BenchArgs) -> Result<(), Failure> {
    let size = Size::square(5).expect("5x5");
    let goal = Goal::BlankFirst.position(size).expect("a 5x5 goal");
    let list = instances(&args.data, size)?;
    let databases = Databases::new();
    let prep = args.tables.prepare(size, goal.blank(), &databases);
    let heuristic = args.tables.kind(size, goal.blank());
    outln!(
        "tables ({heuristic:?}): built in {:.1} s, loaded in {:.2} s, {:.0} MB in memory; {:?} per instance",
        seconds(prep.built),
        seconds(prep.loaded),
        prep.bytes_in_memory as f64 / 1e6,
        args.time_limit
    );
    outln!(
        "\n| id | optimum | found | lower bound | optimal | CPU s |\n|---:|---:|---:|---:|:-:|---:|"
    );
    let (mut proven, mut excess) = (0, 0usize);
    for instance in &list {
        let limit = args.time_limit;
        // A CPU-time budget: other processes on a shared machine do not eat it.
        let deadline = cpu_now() + limit;
        let stop = move || cpu_now() >= deadline;
        let shortening = deadline - limit.mul_f64(1.0 - slide::SHORTENING_SHARE);
        let shorten_stop = move || cpu_now() >= shortening;
        let options = SolveOptions {
            heuristic,
            stop: Some(&stop),
            databases: Some(&databases),
            shorten_stop: Some(&shorten_stop),
            lookups: args.tables.lookups,
            ..SolveOptions::default()
        };
        let start = cpu_now();
        let solution =
            slide::solve_optimal(&instance.position, &goal, &options).map_err(Failure::input)?;
        let elapsed = cpu_now().saturating_sub(start);
        let mut replay = instance.position.clone();
        if replay.apply_all(&solution.moves).is_err() || replay != goal {
            return Err(Failure::Other(format!(
                "instance {}: solution does not replay",
                instance.id
            )));
        }
        let length = solution.moves.len();
        if length < instance.length || solution.lower_bound as usize > instance.length {
            return Err(Failure::Other(format!(
                "instance {}: inconsistent with the listed optimum",
                instance.id
            )));
        }
        proven += usize::from(solution.optimal);
        excess += length - instance.length;
        outln!(
            "| {} | {} | {length} | {} | {} | {:.1} |",
            instance.id,
            instance.length,
            solution.lower_bound,
            if solution.optimal { "yes" } else { "no" },
            seconds(elapsed)
        );
    }
    outln!(
        "\n{} of {} proven optimal; found solutions average {:.1} moves above the optimum",
        proven,
        list.len(),
        excess as f64 / list.len() as f64
    );
    Ok(())
}

fn random_3x3(args: &BenchArgs) -> Result<(), Failure> {
    let size = Size::square(3).expect("3x3");
    let goal = Goal::RowMajor.position(size).expect("a 3x3 goal");
    let positions: Vec<Position> = (0..args.count as u64)
        .map(|i| Scramble::Uniform.generate(&goal, args.seed.wrapping_add(i)))
        .collect();
    let start = Instant::now();
    DistanceTable::get(size, goal.blank());
    let table_time = start.elapsed();
    let options = SolveOptions::default();
    let (solutions, elapsed, clock) = measured(|| {
        positions
            .iter()
            .map(|p| slide::solve_optimal(p, &goal, &options).map_err(Failure::input))
            .collect::<Result<Vec<slide::Solution>, _>>()
    });
    let solutions = solutions?;
    let mut moves = 0usize;
    for (position, solution) in positions.iter().zip(&solutions) {
        let mut replay = position.clone();
        if replay.apply_all(&solution.moves).is_err() || replay != goal {
            return Err(Failure::Other(format!(
                "{position}: solution does not replay"
            )));
        }
        moves += solution.moves.len();
    }
    let rate = positions.len() as f64 / seconds(elapsed);
    outln!(
        "table built in {:.3} s; {} random 3x3 positions solved optimally in {:.3} s of {clock}: {:.0} solves/s ({:.2} µs each), mean length {:.2}, all replayed",
        seconds(table_time),
        positions.len(),
        seconds(elapsed),
        rate,
        1e6 / rate,
        moves as f64 / positions.len() as f64
    );
    let sample = &positions[..positions.len().min(10_000)];
    let manhattan = SolveOptions {
        heuristic: HeuristicKind::Manhattan,
        ..SolveOptions::default()
    };
    let (searched, took, _) = measured(|| {
        sample.iter().try_for_each(|position| {
            slide::solver::solve_with_search(position, &goal, &manhattan)
                .map(drop)
                .map_err(Failure::input)
        })
    });
    searched?;
    let baseline = sample.len() as f64 / seconds(took);
    outln!(
        "baseline, IDA* + Manhattan on the first {}: {:.0} solves/s; the table walk is {:.0}× faster",
        sample.len(),
        baseline,
        rate / baseline
    );
    Ok(())
}

/// The process's peak resident memory so far (Linux `VmHWM`), in MB.
fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024.0 / 1e6)
}

fn tables(args: &BenchArgs) -> Result<(), Failure> {
    let size = Size::square(4).expect("4x4");
    let dir = args.tables.cache_dir.clone().ok_or_else(|| {
        Failure::input("tables needs --cache-dir DIR (the tables are rebuilt there)")
    })?;
    std::fs::create_dir_all(&dir)?;
    outln!("| pattern | entries | build s (wall) | build s (CPU, all threads) | peak RSS MB (process, so far) | capped | file MB | write s | load s |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for spec in required_patterns(size, 0, args.tables.to_build()) {
        let start = Instant::now();
        let cpu = process_cpu();
        let database = PatternDatabase::build(&spec, &mut |_| {});
        let built = start.elapsed();
        let built_cpu = process_cpu().saturating_sub(cpu);
        let capped = database.capped();
        let start = Instant::now();
        let bytes = database.to_bytes();
        let path = dir.join(spec.file_name());
        std::fs::write(&path, &bytes)?;
        let written = start.elapsed();
        drop(database);
        let start = Instant::now();
        let bytes = std::fs::read(&path)?;
        PatternDatabase::from_bytes(&spec, bytes).map_err(|e| Failure::Other(e.to_string()))?;
        let loaded = start.elapsed();
        outln!(
            "| {} | {} | {:.1} | {:.1} | {} | {} | {:.1} | {:.2} | {:.2} |",
            spec.file_name(),
            spec.entries(),
            seconds(built),
            seconds(built_cpu),
            peak_rss_mb().map_or("?".to_string(), |mb| format!("{mb:.0}")),
            capped,
            std::fs::metadata(&path)?.len() as f64 / 1e6,
            seconds(written),
            seconds(loaded)
        );
    }
    Ok(())
}
