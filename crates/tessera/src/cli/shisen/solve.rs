//! `tessera shisen solve` and `hint`: what the solver says of each board.

use std::io::Write;
use std::time::{Duration, Instant};

use clap::Args;
use play::shisen_game::{analyse, Session, ANALYSIS_TIME};
use play::Deadline;
use serde_json::json;
use shisen::{Board, Rules, Verdict};

use super::input::Input;
use crate::cli::Failure;

#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    input: Input,
    /// Give up on a board after this long (500ms, 3s, 2m; a bare number is
    /// milliseconds): the answer is then `unknown`, within about 10 % of
    /// the limit.
    #[arg(long, default_value = "10000", value_parser = crate::cli::duration::millis)]
    time_limit: Duration,
    /// {"result":…,"moves":[[x1,y1,x2,y2],…],"millis":N,"nodes":N} per board.
    #[arg(long)]
    json: bool,
    /// Solve this many boards at once (output stays in input order)
    /// [default: one per core].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: Option<u32>,
}

#[derive(Args)]
pub struct HintArgs {
    #[command(flatten)]
    input: Input,
    /// {"move":[x1,y1,x2,y2] or null,"safe":bool,"solvable":bool or null} per board.
    #[arg(long)]
    json: bool,
}

pub fn verdict_name(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Solvable(_) => "solvable",
        Verdict::Unsolvable => "unsolvable",
        Verdict::Unknown => "unknown",
    }
}

pub fn solve(args: SolveArgs) -> Result<(), Failure> {
    let jobs = crate::cli::jobs_or_cores(args.jobs);
    let pool = crate::cli::pool(jobs)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    // Boards are solved a batch at a time, the batch in parallel and its
    // answers written in input order; one job answers each board at once.
    let batch_size = if jobs == 1 { 1 } else { 4 * jobs };
    let mut batch = Vec::with_capacity(batch_size);
    let mut answer = |batch: &mut Vec<Board>| -> Result<(), Failure> {
        let lines: Vec<String> = if batch.len() <= 1 {
            batch
                .iter()
                .map(|board| solution_line(&args, board))
                .collect()
        } else {
            pool.install(|| {
                use rayon::prelude::*;
                batch
                    .par_iter()
                    .map(|board| solution_line(&args, board))
                    .collect()
            })
        };
        batch.clear();
        for line in lines {
            writeln!(out, "{line}")?;
        }
        out.flush()?;
        Ok(())
    };
    let read = args.input.for_each(|board| {
        batch.push(board.clone());
        if batch.len() == batch_size {
            answer(&mut batch)?;
        }
        Ok(())
    });
    // The boards before a malformed one are answered before its error.
    answer(&mut batch)?;
    read
}

/// What `solve` prints for one board.
fn solution_line(args: &SolveArgs, board: &Board) -> String {
    let start = Instant::now();
    let rules = Rules::new(board.matching(), args.input.gravity);
    let limit = args.time_limit;
    let solution = shisen::solve(board, rules, &mut Deadline::after(limit));
    let millis = start.elapsed().as_millis() as u64;
    if !args.json {
        return verdict_name(&solution.verdict).to_string();
    }
    let moves: Vec<[i32; 4]> = match &solution.verdict {
        Verdict::Solvable(moves) => moves.iter().map(|m| [m.a.x, m.a.y, m.b.x, m.b.y]).collect(),
        _ => Vec::new(),
    };
    json!({
        "result": verdict_name(&solution.verdict),
        "moves": moves,
        "millis": millis,
        "nodes": solution.nodes,
    })
    .to_string()
}

/// The hint of the games (`play::shisen_game`), with their time to think.
pub fn hint(args: HintArgs) -> Result<(), Failure> {
    let gravity = args.input.gravity;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    args.input.for_each(|board| {
        let rules = Rules::new(board.matching(), gravity);
        let mut session = Session::new(board.clone(), rules, 0);
        let verdict = analyse(session.game(), &mut Deadline::after(ANALYSIS_TIME));
        let hint = session.hint(&verdict);
        let line = match (hint, args.json) {
            (Some(h), false) => {
                let kind = if h.safe { "safe" } else { "open" };
                format!("{} {} {kind}", h.pair.a, h.pair.b)
            }
            (None, false) => "none".to_string(),
            (hint, true) => json!({
                "move": hint.map(|h| [h.pair.a.x, h.pair.a.y, h.pair.b.x, h.pair.b.y]),
                "safe": hint.is_some_and(|h| h.safe),
                "solvable": match verdict {
                    Verdict::Solvable(_) => Some(true),
                    Verdict::Unsolvable => Some(false),
                    Verdict::Unknown => None,
                },
            })
            .to_string(),
        };
        writeln!(out, "{line}")?;
        Ok(())
    })?;
    out.flush()?;
    Ok(())
}
