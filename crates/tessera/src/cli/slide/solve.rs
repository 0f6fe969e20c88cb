//! `tessera slide solve`, `hint`, and `new --optimal-length`: the optimal
//! and fast solvers from the command line.

use super::board::{Board, GoalCache};
use super::input::{self, Item};
use crate::cli::tables::{progress_bar, TableArgs};
use crate::cli::Failure;
use clap::Args;
use play::slide_game::{check_optimal_size, Method, OptimalSizeError};
use rayon::prelude::*;
use serde_json::json;
use slide::solver::OPTIMAL_MAX_CELLS;
use slide::{
    Databases, Direction, FastError, LengthRange, Metric, Moves, Position, Size, Solution,
    SolveError, SolveOptions,
};
use std::collections::HashSet;
use std::io::IsTerminal;
use std::io::Write;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    board: Board,
    /// Shortest solutions (boards of up to 16 cells; up to 25 with a time
    /// or node limit). Guarantee: a solution marked optimal is proven
    /// shortest. Stopped by a limit, it returns the best solution found
    /// with the proven lower bound, and marks it optimal only when the two
    /// meet.
    #[arg(long, conflicts_with_all = ["fast", "auto"])]
    optimal: bool,
    /// Quick, short but not shortest solutions, for any size up to
    /// 1000×1000 and beyond; streamed as they are found. Guarantee: the
    /// moves reach the goal (about 2 n³ on n×n boards, 2.2 n³ on
    /// 1000×1000); the lower bound given is the Manhattan distance.
    #[arg(long, conflicts_with = "auto")]
    fast: bool,
    /// The default: the optimal solver up to 16 cells, and up to 25 (5×5)
    /// with a time or node limit (the bounded mode: best found, proven
    /// lower bound); the fast solver beyond, or on 17–25 cells without a
    /// limit.
    #[arg(long)]
    auto: bool,
    /// Print only each solution's length (with --fast or --auto on large
    /// boards nothing is kept in memory).
    #[arg(long)]
    count_only: bool,
    /// Every optimal solution (STM or MTM): how many there are, and the
    /// first --limit of them, one per line after a count line (JSON:
    /// {"length","count","solutions"}). Counted over the search's DAG, not
    /// one by one, so millions count fast. Needs the optimum proven: on
    /// boards of up to 16 cells, within the limits.
    #[arg(long, conflicts_with_all = ["fast", "auto", "count_only"])]
    all: bool,
    /// With --all: list at most this many solutions (0 counts only).
    #[arg(long, default_value_t = 10, requires = "all")]
    limit: usize,
    /// stm: shortest in single-tile moves; mtm: shortest in multi-tile
    /// moves (a run of tiles slid along a line counts once; boards of up to
    /// 16 cells, printed in compact notation such as R3U2).
    #[arg(long, default_value = "stm", value_parser = crate::cli::parse_metric)]
    metric: Metric,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    tables: TableArgs,
    /// One JSON object per line: {"moves","length","optimal","nodes","millis"}.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    positions: input::Positions,
}

/// The bounded mode: stop the optimal search and return the best solution
/// found, with `"optimal": false` unless it was proven shortest.
#[derive(Args, Clone, Copy)]
pub struct LimitArgs {
    /// Give up proving optimality after this long per position (500ms, 3s,
    /// 2m; a bare number is seconds). Stopped, the optimal solver returns
    /// the best solution at hand with "optimal": false and its proven lower
    /// bound, within about 10 % of the limit (table loading excepted).
    #[arg(long, value_parser = crate::cli::duration::seconds)]
    time_limit: Option<Duration>,
    /// Give up proving optimality after this many search nodes per position.
    #[arg(long)]
    node_limit: Option<u64>,
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
    /// stm or mtm: the first move of a solution shortest in that metric (in
    /// MTM a whole run, such as R3).
    #[arg(long, default_value = "stm", value_parser = crate::cli::parse_metric)]
    metric: Metric,
    /// A budget per position: with --time-limit or --node-limit the hint
    /// is the first move of the best solution found in time, and
    /// "optimal" in --json says whether it was proven shortest.
    #[command(flatten)]
    limits: LimitArgs,
    /// {"hint","remaining","optimal"} per position.
    #[arg(long)]
    json: bool,
    /// A position such as "1 2 3/4 5 6/7 8 0", - for one per stdin line
    /// (the default), or @FILE for one per line of a file.
    #[arg(default_value = "-")]
    position: String,
}

/// One solve's answer.
enum Answer {
    Solved(Solution, Duration),
    /// Every optimal solution (`--all`).
    All(slide::AllSolutions, Duration),
    Unsolvable,
}

impl SolveArgs {
    fn method(&self, size: Size) -> Method {
        // Only the optimal solver knows the multi-tile metric.
        if self.metric == Metric::Mtm || self.all {
            return Method::Optimal;
        }
        match (self.optimal, self.fast) {
            (true, _) => Method::Optimal,
            (_, true) => Method::Fast,
            _ => Method::auto(size, self.limits.bounded()),
        }
    }
}

/// Solves one position, timing the search alone (tables are ready).
fn solve_one(
    position: &Position,
    goal: &Position,
    tables: &TableArgs,
    limits: &LimitArgs,
    databases: &Databases,
    metric: Metric,
    all: Option<usize>,
) -> Result<Answer, String> {
    let start = Instant::now();
    let deadline = limits.time_limit.map(|t| start + t);
    let stop = move || deadline.is_some_and(|d| Instant::now() >= d);
    // The bounded mode shortens its solution for a share of the time and
    // raises its lower bound for the rest.
    let shortening = limits
        .time_limit
        .map(|t| start + t.mul_f64(slide::SHORTENING_SHARE));
    let shorten_stop = move || shortening.is_some_and(|d| Instant::now() >= d);
    let options = SolveOptions {
        metric,
        heuristic: tables.kind(goal.size(), goal.blank()),
        node_limit: limits.node_limit,
        stop: Some(&stop),
        databases: Some(databases),
        shorten_stop: Some(&shorten_stop),
        lookups: tables.lookups,
    };
    if let Some(list) = all {
        return match slide::all_optimal(position, goal, &options, list) {
            Ok(all) => Ok(Answer::All(all, start.elapsed())),
            Err(slide::CountError::Solve(SolveError::Unsolvable)) => Ok(Answer::Unsolvable),
            Err(e) => Err(e.to_string()),
        };
    }
    match slide::solve_optimal(position, goal, &options) {
        Ok(solution) => Ok(Answer::Solved(solution, start.elapsed())),
        Err(SolveError::Unsolvable) => Ok(Answer::Unsolvable),
        Err(e) => Err(e.to_string()),
    }
}

fn render(answer: &Answer, json: bool, count_only: bool, metric: Metric) -> String {
    // Single-tile solutions print letter by letter, as they always have;
    // multi-tile ones in compact notation, one MTM move per letter.
    let text = |moves: &Moves| match metric {
        Metric::Stm => moves.to_string(),
        Metric::Mtm => moves.compact(),
    };
    match (answer, json) {
        (Answer::All(all, _), false) => {
            let mut lines = vec![format!(
                "{}{} optimal solution{} of {} {} moves",
                if all.complete { "" } else { "at least " },
                all.count,
                if all.count == 1 { "" } else { "s" },
                all.length,
                metric.to_string().to_uppercase(),
            )];
            lines.extend(all.solutions.iter().map(text));
            lines.join("\n")
        }
        (Answer::All(all, elapsed), true) => json!({
            "length": all.length,
            "metric": metric.to_string(),
            "count": all.count,
            "complete": all.complete,
            "solutions": all.solutions.iter().map(text).collect::<Vec<_>>(),
            "millis": elapsed.as_millis() as u64,
        })
        .to_string(),
        (Answer::Unsolvable, false) => "unsolvable".to_string(),
        (Answer::Unsolvable, true) => json!({"moves": null, "unsolvable": true}).to_string(),
        (Answer::Solved(solution, _), false) if count_only => solution.length(metric).to_string(),
        (Answer::Solved(solution, _), false) => text(&solution.moves),
        (Answer::Solved(solution, elapsed), true) => {
            // --count-only leaves out the moves and the lower bound.
            let whole = !count_only;
            let fields = [
                whole.then(|| ("moves", json!(text(&solution.moves)))),
                Some(("length", json!(solution.length(metric)))),
                Some(("metric", json!(metric.to_string()))),
                Some(("stm", json!(solution.stm()))),
                Some(("mtm", json!(solution.mtm()))),
                Some(("optimal", json!(solution.optimal))),
                Some(("nodes", json!(solution.nodes))),
                Some(("millis", json!(elapsed.as_millis() as u64))),
                whole.then(|| ("lower_bound", json!(solution.lower_bound))),
            ];
            let object: serde_json::Map<String, serde_json::Value> = fields
                .into_iter()
                .flatten()
                .map(|(name, value)| (name.to_string(), value))
                .collect();
            serde_json::Value::Object(object).to_string()
        }
    }
}

/// Parses items and prepares the tables of every (size, goal blank) met.
struct Reader<'a> {
    board: &'a Board,
    /// Which solver each size goes to; only the optimal one needs tables.
    method: &'a dyn Fn(Size) -> Method,
    tables: &'a TableArgs,
    limits: LimitArgs,
    goals: GoalCache,
    prepared: HashSet<(Size, usize)>,
    databases: &'a Databases,
    /// The metric solved in: the multi-tile metric reads its own table.
    metric: Metric,
}

impl Reader<'_> {
    fn read(&mut self, item: &Item) -> Result<(Position, Position, Method), Failure> {
        let (position, goal) = self.board.read(item, &mut self.goals)?;
        if position.size() != goal.size() {
            return Err(item.failure(format!(
                "the position is {} but the goal is {}",
                position.size(),
                goal.size()
            )));
        }
        position.solvability(&goal).map_err(|e| item.failure(e))?;
        let method = (self.method)(position.size());
        if method == Method::Fast {
            return Ok((position, goal, method));
        }
        check_optimal_size(position.size(), self.limits.bounded())
            .map_err(|e| item.failure(with_flags(e)))?;
        if self.prepared.insert((goal.size(), goal.blank())) {
            let budgeted = self.limits.bounded();
            let (size, blank) = (goal.size(), goal.blank());
            self.tables
                .prepare_for(self.metric, size, blank, self.databases, budgeted);
        }
        Ok((position, goal, method))
    }
}

pub fn solve(args: SolveArgs) -> Result<(), Failure> {
    let databases = Databases::new();
    let method = |size| args.method(size);
    let mut reader = Reader {
        board: &args.board,
        method: &method,
        tables: &args.tables,
        limits: args.limits,
        goals: GoalCache::default(),
        prepared: HashSet::new(),
        databases: &databases,
        metric: args.metric,
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let solve = |position: &Position, goal: &Position| {
        solve_one(
            position,
            goal,
            &args.tables,
            &args.limits,
            &databases,
            args.metric,
            args.all.then_some(args.limit),
        )
    };
    let jobs = args.positions.jobs();
    let pool = crate::cli::pool(jobs)?;
    // Positions are solved a batch at a time, the batch's optimal solves in
    // parallel and its answers written in input order before the next
    // batch is read: memory stays bounded however long the input. Fast
    // solutions are streamed one at a time in their turn (one may have
    // billions of moves). Typed at a terminal, or with one job, each line
    // is answered as soon as it is read.
    let interactive = args.positions.typed();
    let batch = if interactive || jobs == 1 {
        1
    } else {
        64 * jobs
    };
    let mut items = args.positions.items();
    loop {
        let read = items
            .by_ref()
            .map(|item| item.and_then(|item| reader.read(&item).map(|input| (item, input))));
        let (read, stop) = input::next_batch(read, batch);
        if read.is_empty() && stop.is_none() {
            break;
        }
        let answers = solve_batch(&pool, &read, &solve);
        for ((item, (position, goal, _)), answer) in read.iter().zip(answers) {
            match answer {
                None => {
                    stream_fast(position, goal, &args, &mut out).map_err(|e| item.failure(e))??;
                }
                Some(answer) => {
                    let answer = answer.map_err(|e| item.failure(e))?;
                    let line = render(&answer, args.json, args.count_only, args.metric);
                    writeln!(out, "{line}")?;
                }
            }
        }
        if let Some(failure) = stop {
            out.flush()?;
            return Err(failure);
        }
        if args.positions.on_stdin() {
            out.flush()?;
        }
    }
    out.flush()?;
    Ok(())
}

/// The largest board whose fast solution a batch solves in memory, beside
/// the others (32×32: about 6·10⁴ moves); larger ones are streamed.
const FAST_IN_MEMORY_CELLS: usize = 1024;

/// The answers to a batch, in its order: the optimal solves and the fast
/// ones of small boards run on the pool (a progress bar when there are
/// many); the fast ones of large boards, or of a batch of one, are left
/// (`None`) to be streamed in their turn.
fn solve_batch(
    pool: &rayon::ThreadPool,
    batch: &[(Item, (Position, Position, Method))],
    solve: &(dyn Fn(&Position, &Position) -> Result<Answer, String> + Sync),
) -> Vec<Option<Result<Answer, String>>> {
    let alone = batch.len() == 1;
    let one = |(position, goal, method): &(Position, Position, Method)| match method {
        Method::Optimal => Some(solve(position, goal)),
        Method::Fast if !alone && position.size().cells() <= FAST_IN_MEMORY_CELLS => {
            Some(fast_one(position, goal))
        }
        Method::Fast => None,
    };
    if alone {
        return vec![one(&batch[0].1)];
    }
    let bar = progress_bar(batch.len() as u64, "solving");
    let answers = pool.install(|| {
        batch
            .par_iter()
            .map(|(_, input)| {
                let answer = one(input);
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
    answers
}

/// The fast solver's answer in memory (small boards of a batch).
fn fast_one(position: &Position, goal: &Position) -> Result<Answer, String> {
    let start = Instant::now();
    match slide::solve_fast(position, goal) {
        Ok(moves) => {
            let bound = position.manhattan(goal).map_err(|e| e.to_string())?;
            Ok(Answer::Solved(fast_solution(moves, bound), start.elapsed()))
        }
        Err(FastError::Unsolvable(_)) => Ok(Answer::Unsolvable),
        Err(e) => Err(e.to_string()),
    }
}

/// A fast solution in the optimal solver's shape: not proven shortest, no
/// search nodes, and the cheap Manhattan bound as its lower bound.
fn fast_solution(moves: Moves, manhattan: u64) -> Solution {
    Solution {
        moves,
        optimal: false,
        nodes: 0,
        lower_bound: manhattan.min(u32::MAX as u64) as u32,
    }
}

/// Writes one fast solution as it is produced: a 1000×1000 solution has
/// billions of moves and is never held in memory. The outer error is the
/// position's (unsolvable or mismatched goal), the inner one the output's.
fn stream_fast(
    position: &Position,
    goal: &Position,
    args: &SolveArgs,
    out: &mut impl Write,
) -> Result<Result<(), Failure>, String> {
    if !position.is_solvable(goal).map_err(|e| e.to_string())? {
        let line = render(&Answer::Unsolvable, args.json, args.count_only, args.metric);
        return Ok(writeln!(out, "{line}").map_err(Failure::io));
    }
    let start = Instant::now();
    let spinner = spinner(position.size());
    let mut written: std::io::Result<()> = Ok(());
    let mut count = 0u64;
    if !args.count_only && args.json {
        written = out.write_all(b"{\"moves\":\"");
    }
    let mut sink = |direction: Direction| {
        count += 1;
        if count & 0xF_FFFF == 0 {
            if let Some(bar) = &spinner {
                bar.set_position(count);
            }
        }
        if !args.count_only && written.is_ok() {
            written = out.write_all(&[direction.letter() as u8]);
        }
    };
    let length = slide::solve_fast_with(position, goal, &mut sink).map_err(|e| e.to_string())?;
    if let Some(bar) = spinner {
        bar.finish_and_clear();
    }
    let millis = start.elapsed().as_millis() as u64;
    let bound = position.manhattan(goal).map_err(|e| e.to_string())?;
    let tail = match (args.json, args.count_only) {
        (false, false) => String::new(),
        (false, true) => length.to_string(),
        (true, true) => {
            json!({"length": length, "optimal": false, "nodes": 0, "millis": millis, "lower_bound": bound}).to_string()
        }
        (true, false) => {
            format!("\",\"length\":{length},\"optimal\":false,\"nodes\":0,\"millis\":{millis},\"lower_bound\":{bound}}}")
        }
    };
    Ok(written
        .and_then(|()| writeln!(out, "{tail}"))
        .map_err(Failure::io))
}

/// A spinner on stderr while positions of a chosen length are sought on a
/// board without a complete table (the search can take a while).
fn searching(size: Size, range: LengthRange) -> Option<indicatif::ProgressBar> {
    if size.cells() <= slide::solver::FULL_TABLE_MAX_CELLS || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_message(format!("finding a {size} position needing {range} moves"));
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}

/// A move counter on stderr while a large board is being solved.
fn spinner(size: Size) -> Option<indicatif::ProgressBar> {
    if size.cells() < 100_000 || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} solving {prefix}: {human_pos} moves ({elapsed})",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    bar.set_prefix(size.to_string());
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}

pub fn hint(args: HintArgs) -> Result<(), Failure> {
    let databases = Databases::new();
    let limits = args.limits;
    let mut reader = Reader {
        board: &args.board,
        method: &|_| Method::Optimal,
        tables: &args.tables,
        limits,
        goals: GoalCache::default(),
        prepared: HashSet::new(),
        databases: &databases,
        metric: args.metric,
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for item in input::items(&args.position, input::NO_POSITION) {
        let item = item?;
        let (position, goal, _) = reader.read(&item)?;
        let answer = solve_one(
            &position,
            &goal,
            &args.tables,
            &limits,
            &databases,
            args.metric,
            None,
        )
        .map_err(|e| item.failure(e))?;
        let line = match (&answer, args.json) {
            (Answer::Unsolvable, false) => "unsolvable".to_string(),
            (Answer::Unsolvable, true) => json!({"hint": null, "unsolvable": true}).to_string(),
            (Answer::Solved(s, _), false) => {
                first_move(&s.moves, args.metric).unwrap_or_else(|| "solved".to_string())
            }
            (Answer::Solved(s, _), true) => json!({
                "hint": first_move(&s.moves, args.metric),
                "remaining": s.length(args.metric),
                "optimal": s.optimal,
            })
            .to_string(),
            // A hint never asks for every solution.
            (Answer::All(..), _) => unreachable!("hints ask for one solution"),
        };
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(())
}

/// The first move of a solution: one tile, or in MTM its whole first run.
fn first_move(moves: &Moves, metric: Metric) -> Option<String> {
    let first = moves.iter().next()?;
    Some(match metric {
        Metric::Stm => first.to_string(),
        Metric::Mtm => moves.first_run().compact(),
    })
}

pub fn parse_length_range(s: &str) -> Result<LengthRange, String> {
    s.parse().map_err(|e: slide::DifficultyError| e.to_string())
}

/// `new --optimal-length A..B`: puzzle `i` comes from seed + i.
/// What `slide new --optimal-length` asks for.
pub struct Wanted {
    pub range: LengthRange,
    pub seed: u64,
    pub count: u64,
    /// Per position.
    pub time_limit: Option<Duration>,
}

pub fn new_with_length(
    goal: &Position,
    wanted: Wanted,
    tables: &TableArgs,
    json: bool,
) -> Result<(), Failure> {
    let Wanted {
        range,
        seed,
        count,
        time_limit,
    } = wanted;
    if goal.size().cells() > OPTIMAL_MAX_CELLS {
        return Err(Failure::input(format!(
            "--optimal-length needs a board of at most {OPTIMAL_MAX_CELLS} cells, not {}",
            goal.size()
        )));
    }
    let databases = Databases::new();
    tables.prepare(goal.size(), goal.blank(), &databases);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for i in 0..count {
        let seed = seed.wrapping_add(i);
        let deadline = time_limit.map(|t| Instant::now() + t);
        let stop = move || deadline.is_some_and(|d| Instant::now() >= d);
        let options = SolveOptions {
            heuristic: tables.kind(goal.size(), goal.blank()),
            databases: Some(&databases),
            stop: Some(&stop),
            ..SolveOptions::default()
        };
        let spinner = searching(goal.size(), range);
        let found = slide::with_optimal_length(goal, range, seed, &options);
        if let Some(bar) = spinner {
            bar.finish_and_clear();
        }
        let (position, solution) = found.map_err(|e| match e {
            slide::DifficultyError::OutOfTime { .. } => Failure::Other(e.to_string()),
            e => Failure::input(e),
        })?;
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

/// The optimal solver's refusal, with the flags that get an answer.
fn with_flags(refusal: OptimalSizeError) -> String {
    match refusal {
        OptimalSizeError::TooLarge(_) => format!("{refusal}; use --fast"),
        OptimalSizeError::NeedsBudget(_) => format!(
            "{refusal}; use --fast, or --time-limit/--node-limit for the best solution found in that budget"
        ),
    }
}
