//! `tessera slide solve`, `hint`, and `new --optimal-length`: the optimal
//! solver from the command line.

use super::input::{self, Item};
use super::slide::{Board, GoalCache};
use super::tables::{progress_bar, TableArgs};
use super::Failure;
use clap::Args;
use rayon::prelude::*;
use serde_json::json;
use slide::solver::{BOUNDED_MAX_CELLS, OPTIMAL_MAX_CELLS};
use slide::{Databases, LengthRange, Position, Size, Solution, SolveError, SolveOptions};
use std::collections::HashSet;
use std::io::Write;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    board: Board,
    /// Shortest solutions (the default).
    #[arg(long, conflicts_with_all = ["fast", "auto"])]
    optimal: bool,
    /// Quick, not necessarily shortest solutions for large boards.
    #[arg(long, conflicts_with = "auto")]
    fast: bool,
    /// Let tessera choose (currently the optimal solver).
    #[arg(long)]
    auto: bool,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    tables: TableArgs,
    /// One JSON object per line: {"moves","length","optimal","nodes","millis"}.
    #[arg(long)]
    json: bool,
    /// Solve this many positions at once (output stays in input order).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: u32,
    /// A position such as "1 2 3/4 5 6/7 8 0", or - for one per stdin line.
    #[arg(default_value = "-")]
    position: String,
}

/// The bounded mode: stop the optimal search and return the best solution
/// found, with `"optimal": false` unless it was proven shortest.
#[derive(Args, Clone, Copy)]
pub struct LimitArgs {
    /// Give up proving optimality after this many seconds per position.
    #[arg(long, value_parser = parse_seconds)]
    time_limit: Option<Duration>,
    /// Give up proving optimality after this many search nodes per position.
    #[arg(long)]
    node_limit: Option<u64>,
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    s.parse::<f64>()
        .ok()
        .filter(|t| t.is_finite() && *t > 0.0)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("{s:?} is not a positive number of seconds"))
}

impl LimitArgs {
    fn bounded(&self) -> bool {
        self.time_limit.is_some() || self.node_limit.is_some()
    }
}

#[derive(Args)]
pub struct HintArgs {
    #[command(flatten)]
    board: Board,
    #[command(flatten)]
    tables: TableArgs,
    #[arg(long)]
    json: bool,
    /// A position such as "1 2 3/4 5 6/7 8 0", or - for one per stdin line.
    position: String,
}

/// One solve's answer.
enum Answer {
    Solved(Solution, Duration),
    Unsolvable,
}

/// Refuses boards the optimal solver cannot serve, with what to use instead.
fn check_size(size: Size, limits: &LimitArgs) -> Result<(), String> {
    if size.cells() > BOUNDED_MAX_CELLS {
        return Err(format!(
            "{size} is too large for the optimal solver (at most {BOUNDED_MAX_CELLS} cells, and proven optimal only up to {OPTIMAL_MAX_CELLS}); use --fast"
        ));
    }
    if size.cells() > OPTIMAL_MAX_CELLS && !limits.bounded() {
        return Err(format!(
            "{size} is too large to solve optimally in reasonable time (at most {OPTIMAL_MAX_CELLS} cells); use --fast, or --time-limit/--node-limit for the best solution found in that budget"
        ));
    }
    Ok(())
}

/// Solves one position, timing the search alone (tables are ready).
fn solve_one(
    position: &Position,
    goal: &Position,
    tables: &TableArgs,
    limits: &LimitArgs,
    databases: &Databases,
) -> Result<Answer, SolveError> {
    let start = Instant::now();
    let deadline = limits.time_limit.map(|t| start + t);
    let stop = move || deadline.is_some_and(|d| Instant::now() >= d);
    let options = SolveOptions {
        heuristic: tables.heuristic,
        node_limit: limits.node_limit,
        stop: Some(&stop),
        databases: Some(databases),
    };
    match slide::solve_optimal(position, goal, &options) {
        Ok(solution) => Ok(Answer::Solved(solution, start.elapsed())),
        Err(SolveError::Unsolvable) => Ok(Answer::Unsolvable),
        Err(e) => Err(e),
    }
}

fn render(answer: &Answer, json: bool) -> String {
    match (answer, json) {
        (Answer::Unsolvable, false) => "unsolvable".to_string(),
        (Answer::Unsolvable, true) => json!({"moves": null, "unsolvable": true}).to_string(),
        (Answer::Solved(solution, _), false) => solution.moves.to_string(),
        (Answer::Solved(solution, elapsed), true) => json!({
            "moves": solution.moves.to_string(),
            "length": solution.moves.len(),
            "optimal": solution.optimal,
            "nodes": solution.nodes,
            "millis": elapsed.as_millis() as u64,
            "lower_bound": solution.lower_bound,
        })
        .to_string(),
    }
}

/// Parses items and prepares the tables of every (size, goal blank) met.
struct Reader<'a> {
    board: &'a Board,
    tables: &'a TableArgs,
    limits: LimitArgs,
    goals: GoalCache,
    prepared: HashSet<(Size, usize)>,
    databases: &'a Databases,
}

impl Reader<'_> {
    fn read(&mut self, item: &Item) -> Result<(Position, Position), Failure> {
        let (position, goal) = self.board.read(item, &mut self.goals)?;
        if position.size() != goal.size() {
            return Err(item.failure(format!(
                "the position is {} but the goal is {}",
                position.size(),
                goal.size()
            )));
        }
        position.solvability(&goal).map_err(|e| item.failure(e))?;
        check_size(position.size(), &self.limits).map_err(|e| item.failure(e))?;
        if self.prepared.insert((goal.size(), goal.blank())) {
            self.tables
                .prepare(goal.size(), goal.blank(), self.databases);
        }
        Ok((position, goal))
    }
}

pub fn solve(args: SolveArgs) -> Result<(), Failure> {
    if args.fast {
        return Err(Failure::input(
            "--fast is not available in this build yet; use --optimal (or --auto)",
        ));
    }
    let databases = Databases::new();
    let mut reader = Reader {
        board: &args.board,
        tables: &args.tables,
        limits: args.limits,
        goals: GoalCache::default(),
        prepared: HashSet::new(),
        databases: &databases,
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let solve = |(position, goal): &(Position, Position)| {
        solve_one(position, goal, &args.tables, &args.limits, &databases)
    };
    if args.jobs == 1 {
        for item in input::items(&args.position) {
            let item = item?;
            let pair = reader.read(&item)?;
            let answer = solve(&pair).map_err(|e| item.failure(e))?;
            writeln!(out, "{}", render(&answer, args.json))?;
            if args.position == "-" {
                out.flush()?;
            }
        }
        out.flush()?;
        return Ok(());
    }
    let items: Vec<Item> = input::items(&args.position).collect::<Result<_, _>>()?;
    let pairs: Vec<(Position, Position)> = items
        .iter()
        .map(|item| reader.read(item))
        .collect::<Result<_, _>>()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs as usize)
        .build()
        .map_err(|e| Failure::Other(e.to_string()))?;
    let bar = progress_bar(pairs.len() as u64, "solving");
    let answers: Vec<Result<Answer, SolveError>> = pool.install(|| {
        pairs
            .par_iter()
            .map(|pair| {
                let answer = solve(pair);
                if let Some(bar) = &bar {
                    bar.inc(1);
                }
                answer
            })
            .collect()
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    for (item, answer) in items.iter().zip(answers) {
        let answer = answer.map_err(|e| item.failure(e))?;
        writeln!(out, "{}", render(&answer, args.json))?;
    }
    out.flush()?;
    Ok(())
}

pub fn hint(args: HintArgs) -> Result<(), Failure> {
    let databases = Databases::new();
    let limits = LimitArgs {
        time_limit: None,
        node_limit: None,
    };
    let mut reader = Reader {
        board: &args.board,
        tables: &args.tables,
        limits,
        goals: GoalCache::default(),
        prepared: HashSet::new(),
        databases: &databases,
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for item in input::items(&args.position) {
        let item = item?;
        let (position, goal) = reader.read(&item)?;
        let answer = solve_one(&position, &goal, &args.tables, &limits, &databases)
            .map_err(|e| item.failure(e))?;
        let line = match (&answer, args.json) {
            (Answer::Unsolvable, false) => "unsolvable".to_string(),
            (Answer::Unsolvable, true) => json!({"hint": null, "unsolvable": true}).to_string(),
            (Answer::Solved(s, _), false) => s
                .moves
                .iter()
                .next()
                .map_or("solved".to_string(), |d| d.to_string()),
            (Answer::Solved(s, _), true) => json!({
                "hint": s.moves.iter().next().map(|d| d.to_string()),
                "remaining": s.moves.len(),
            })
            .to_string(),
        };
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(())
}

pub fn parse_length_range(s: &str) -> Result<LengthRange, String> {
    s.parse().map_err(|e: slide::DifficultyError| e.to_string())
}

/// `new --optimal-length A..B`: puzzle `i` comes from seed + i.
pub fn new_with_length(
    goal: &Position,
    range: LengthRange,
    seed: u64,
    count: u64,
    tables: &TableArgs,
    json: bool,
) -> Result<(), Failure> {
    if goal.size().cells() > OPTIMAL_MAX_CELLS {
        return Err(Failure::input(format!(
            "--optimal-length needs a board of at most {OPTIMAL_MAX_CELLS} cells, not {}",
            goal.size()
        )));
    }
    let databases = Databases::new();
    tables.prepare(goal.size(), goal.blank(), &databases);
    let options = SolveOptions {
        heuristic: tables.heuristic,
        databases: Some(&databases),
        ..SolveOptions::default()
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for i in 0..count {
        let seed = seed.wrapping_add(i);
        let (position, solution) =
            slide::with_optimal_length(goal, range, seed, &options).map_err(Failure::input)?;
        if json {
            let line = json!({
                "seed": seed,
                "size": goal.size().to_string(),
                "position": position.to_string(),
                "optimal_length": solution.moves.len(),
            });
            writeln!(out, "{line}")?;
        } else {
            writeln!(out, "{position}")?;
        }
        out.flush()?;
    }
    Ok(())
}
