//! `tessera slide analyze`: where a solve lost moves; `optimize`: a
//! solution never longer; and the two move string tools, `simplify` and
//! `invert`.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::{json, Value};
use slide::solver::BOUNDED_MAX_CELLS;
use slide::{
    Analysis, Databases, HeuristicKind, Metric, Moves, Position, Progress, SolveError, SolveOptions,
};

use super::board::{Board, GoalCache};
use super::input::{self, Item};
use crate::cli::tables::TableArgs;
use crate::cli::Failure;

/// What `analyze` and `optimize` read: solves (a start and the moves
/// played from it), the metric, and a budget per solve.
#[derive(Args)]
pub struct Solves {
    #[command(flatten)]
    board: Board,
    #[command(flatten)]
    tables: TableArgs,
    /// stm or mtm: the metric moves are counted in (in MTM a move is a run).
    #[arg(long, default_value = "stm", value_parser = parse_metric)]
    metric: Metric,
    /// A budget per solve (500ms, 3s, 2m; a bare number is seconds). What
    /// is not proven within it is a lower bound, marked so.
    #[arg(long, value_parser = crate::cli::duration::seconds)]
    time_limit: Option<Duration>,
    /// The start position; - (the default) reads one `position<TAB>moves`
    /// line per solve from stdin, @FILE from a file.
    #[arg(default_value = "-")]
    position: String,
    /// The moves played from it (RDLU or compact R3), when the position is
    /// given as an argument.
    moves: Option<String>,
}

/// One solve read, with the options to search it within its budget.
struct Solve<'a> {
    item: Item,
    position: Position,
    goal: Position,
    moves: Moves,
    options: SolveOptions<'a>,
    started: Instant,
}

impl Solves {
    /// Calls `each` with every solve, its tables prepared and its budget
    /// started.
    fn each(&self, mut each: impl FnMut(Solve) -> Result<(), Failure>) -> Result<(), Failure> {
        if self.position != "-" && !self.position.starts_with('@') && self.moves.is_none() {
            return Err(Failure::input("give the moves after the position"));
        }
        let databases = Databases::new();
        let mut goals = GoalCache::default();
        let mut prepared = HashSet::new();
        for item in input::items(&self.position, NO_SOLVE) {
            let item = item?;
            let (at, moves) = split(&item, self.moves.as_deref())?;
            let (position, goal) = self.board.read(&at, &mut goals)?;
            let moves: Moves = moves
                .parse()
                .map_err(|e| item.failure(format!("moves: {e}")))?;
            // Beyond 5x5 the analysis takes the bound, which reads no table.
            let searched = goal.size().cells() <= BOUNDED_MAX_CELLS;
            if searched && prepared.insert((goal.size(), goal.blank())) {
                let (size, blank) = (goal.size(), goal.blank());
                let budgeted = self.time_limit.is_some();
                self.tables
                    .prepare_for(self.metric, size, blank, &databases, budgeted);
            }
            let started = Instant::now();
            let deadline = self.time_limit.map(|t| started + t);
            let stop = move || deadline.is_some_and(|d| Instant::now() >= d);
            let options = SolveOptions {
                heuristic: if searched {
                    self.tables.kind(goal.size(), goal.blank())
                } else {
                    HeuristicKind::Manhattan
                },
                stop: Some(&stop),
                databases: Some(&databases),
                lookups: self.tables.lookups,
                ..SolveOptions::default()
            };
            each(Solve {
                item,
                position,
                goal,
                moves,
                options,
                started,
            })?;
        }
        Ok(())
    }
}

impl Solve<'_> {
    fn analyze(&self, metric: Metric) -> Result<Analysis, Failure> {
        slide::analyze(
            &self.position,
            &self.goal,
            &self.moves,
            metric,
            &self.options,
        )
        .map_err(|e| match e {
            slide::AnalysisError::Solve(SolveError::Unsolvable) => {
                self.item.failure("the position cannot reach the goal")
            }
            e => self.item.failure(e),
        })
    }
}

#[derive(Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    solves: Solves,
    /// One JSON object per solve: {"distances","exact","optimal","lost",…}.
    #[arg(long)]
    json: bool,
}

fn parse_metric(s: &str) -> Result<Metric, String> {
    s.parse()
}

/// The moves of one solve: from the second argument, or after the tab of
/// its input line.
fn split<'a>(item: &'a Item, moves: Option<&'a str>) -> Result<(Item, &'a str), Failure> {
    let (position, moves) = match moves {
        Some(moves) => (item.text.as_str(), moves),
        None => item.text.split_once('\t').ok_or_else(|| {
            item.failure("expected `position<TAB>moves` (or give the moves as an argument)")
        })?,
    };
    let position = Item {
        line: item.line,
        text: position.to_string(),
    };
    Ok((position, moves.trim()))
}

pub fn analyze(args: AnalyzeArgs) -> Result<(), Failure> {
    let metric = args.solves.metric;
    args.solves.each(|solve| {
        let analysis = solve.analyze(metric)?;
        if args.json {
            outln!("{}", report(&analysis, solve.started.elapsed()));
        } else {
            out!("{}", text(&solve.position, &analysis));
        }
        Ok(())
    })
}

/// The text of each move in the analysis' metric.
fn move_text(step: &Moves, metric: Metric) -> String {
    match metric {
        Metric::Stm => step.to_string(),
        Metric::Mtm => step.compact(),
    }
}

/// The JSON report: `distances` has one more element than the moves, the
/// distance from the start to the end.
fn report(a: &Analysis, elapsed: Duration) -> Value {
    let steps: Vec<Value> = a
        .moves
        .iter()
        .zip(a.progress())
        .map(|(m, p)| json!({"move": move_text(m, a.metric), "progress": p.delta()}))
        .collect();
    let detours: Vec<Value> = a
        .detours(3)
        .iter()
        .map(|d| json!({"from": d.from, "to": d.to, "lost": d.lost}))
        .collect();
    json!({
        "metric": a.metric.to_string(),
        "moves": a.moves.len(),
        "distances": a.distances.iter().map(|d| d.moves).collect::<Vec<_>>(),
        "exact_distances": a.distances.iter().map(|d| d.exact).collect::<Vec<_>>(),
        "exact": a.exact(),
        "solves": a.solves(),
        "optimal": a.distances[0].moves,
        "optimal_solution": move_text(&a.best.moves, a.metric),
        // Beyond what the solver proves, the best solution found instead.
        "solution_optimal": a.best.optimal,
        "lost": a.lost(),
        "steps": steps,
        "detours": detours,
        "millis": elapsed.as_millis() as u64,
    })
}

/// The text report: a summary, the costliest stretches, then one line
/// per move with the distance after it.
fn text(start: &Position, a: &Analysis) -> String {
    let unit = match a.metric {
        Metric::Stm => "moves",
        Metric::Mtm => "MTM moves",
    };
    let first = a.distances[0];
    let mut out = format!("start: {start}\n");
    let optimal = if first.exact { "" } else { "at least " };
    out += &format!("optimal: {optimal}{} {unit}\n", first.moves);
    out += &format!("played: {} {unit}\n", a.moves.len());
    match a.lost() {
        Some(lost) => out += &format!("lost: {lost} {unit}\n"),
        None => out += "lost: unknown (some distances are only bounds)\n",
    }
    for d in a.detours(3) {
        let played: Vec<String> = a.moves[d.from..d.to]
            .iter()
            .map(|m| move_text(m, a.metric))
            .collect();
        out += &format!(
            "detour: moves {}-{} ({}) lost {}\n",
            d.from + 1,
            d.to,
            played.join(" "),
            d.lost
        );
    }
    for (i, (m, p)) in a.moves.iter().zip(a.progress()).enumerate() {
        let after = a.distances[i + 1];
        let mark = match p {
            Progress::Towards => "",
            Progress::Level => "  level",
            Progress::Away => "  away",
            Progress::Unknown => "  ?",
        };
        let bound = if after.exact { "" } else { ">=" };
        out += &format!(
            "{:>4} {:<4} {bound}{}{mark}\n",
            i + 1,
            move_text(m, a.metric),
            after.moves
        );
    }
    out
}

#[derive(Args)]
pub struct OptimizeArgs {
    #[command(flatten)]
    solves: Solves,
    /// One JSON object per solve: {"moves","stm","mtm","before","optimal"}.
    #[arg(long)]
    json: bool,
}

/// `slide optimize`: a solution never longer than the one given. The
/// shortest of an optimal solution (when the solver proves one within the
/// budget) and the given one with every losing stretch replaced by a
/// shortest path between the same positions.
pub fn optimize(args: OptimizeArgs) -> Result<(), Failure> {
    let metric = args.solves.metric;
    let length = |m: &Moves| m.length(metric);
    args.solves.each(|solve| {
        let mut end = solve.position.clone();
        end.apply_all(&solve.moves).map_err(|e| {
            let at = format!("move {} ({}) is not possible there", e.index + 1, e.direction);
            solve.item.failure(at)
        })?;
        if end != solve.goal {
            return Err(solve.item.failure("the moves do not reach the goal"));
        }
        let analysis = solve.analyze(metric)?;
        let shortened = analysis.shortened(&solve.position, &solve.options);
        let best = &analysis.best;
        let found = if length(&best.moves) < length(&shortened) {
            best.moves.clone()
        } else {
            shortened
        };
        let optimal = best.optimal && length(&found) == length(&best.moves);
        if args.json {
            outln!(
                "{}",
                json!({"moves": move_text(&found, metric), "stm": found.len(), "mtm": found.mtm_len(),
                       "before": length(&solve.moves), "optimal": optimal})
            );
        } else {
            outln!("{}", move_text(&found, metric));
        }
        Ok(())
    })
}

#[derive(Args)]
pub struct SimplifyArgs {
    #[command(flatten)]
    strings: MoveStrings,
    /// One JSON object per input: {"moves","stm","mtm","removed"}.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct InvertArgs {
    #[command(flatten)]
    strings: MoveStrings,
    /// One JSON object per input: {"moves","stm","mtm"}.
    #[arg(long)]
    json: bool,
}

/// The move strings `simplify` and `invert` rewrite, and how the new ones
/// are written.
#[derive(Args)]
struct MoveStrings {
    /// Print the result as single-tile letters (RRRU) instead of the
    /// compact notation (R3U).
    #[arg(long)]
    letters: bool,
    /// Moves such as RRLU or R3L2U; - (the default) reads one string a line.
    #[arg(default_value = "-")]
    moves: String,
}

impl MoveStrings {
    /// Prints each move string as `rewrite` turns it: in letters or compact
    /// notation, or with `json` as {"moves","stm","mtm"} followed by the
    /// fields of the object `rewrite` adds.
    fn rewrite(
        &self,
        json: bool,
        rewrite: impl Fn(Moves) -> (Moves, Value),
    ) -> Result<(), Failure> {
        for item in input::items(&self.moves, NO_MOVES) {
            let item = item?;
            let moves: Moves = item
                .text
                .trim()
                .parse()
                .map_err(|e| item.failure(format!("moves: {e}")))?;
            let (new, extra) = rewrite(moves);
            let text = if self.letters {
                new.to_string()
            } else {
                new.compact()
            };
            if json {
                let mut object = json!({"moves": text, "stm": new.len(), "mtm": new.mtm_len()});
                if let (Some(object), Value::Object(extra)) = (object.as_object_mut(), extra) {
                    object.extend(extra);
                }
                outln!("{object}");
            } else {
                outln!("{text}");
            }
        }
        Ok(())
    }
}

/// `analyze` and `optimize` on a stdin or file without a line.
const NO_SOLVE: &str = "no solve in the input: give one a line, the position, a tab, the moves";

/// `simplify` and `invert` on a stdin or file without a line.
const NO_MOVES: &str = "no moves in the input: give one move string a line, such as RDLU";

pub fn simplify(args: SimplifyArgs) -> Result<(), Failure> {
    args.strings.rewrite(args.json, |moves| {
        let simple = moves.simplified();
        let removed = moves.len() - simple.len();
        (simple, json!({"removed": removed}))
    })
}

pub fn invert(args: InvertArgs) -> Result<(), Failure> {
    args.strings
        .rewrite(args.json, |moves| (moves.inverse(), json!({})))
}
