//! `tessera shisen solve`: decide each board.

use std::io::Write;
use std::time::{Duration, Instant};

use clap::Args;
use play::Deadline;
use serde_json::json;
use shisen::{Rules, Verdict};

use super::shisen_cmd::Input;
use super::Failure;

#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    input: Input,
    /// Give up on a board after this many milliseconds: `unknown`.
    #[arg(long, default_value_t = 10_000)]
    time_limit: u64,
    /// {"result":…,"moves":[[x1,y1,x2,y2],…],"millis":N,"nodes":N} per board.
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
    let gravity = args.input.gravity;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    args.input.for_each(|board| {
        let start = Instant::now();
        let rules = Rules::new(board.matching(), gravity);
        let solution = shisen::solve(
            &board,
            rules,
            &mut Deadline::after(Duration::from_millis(args.time_limit)),
        );
        let millis = start.elapsed().as_millis() as u64;
        if args.json {
            let moves: Vec<[i32; 4]> = match &solution.verdict {
                Verdict::Solvable(moves) => {
                    moves.iter().map(|m| [m.a.x, m.a.y, m.b.x, m.b.y]).collect()
                }
                _ => Vec::new(),
            };
            let line = json!({
                "result": verdict_name(&solution.verdict),
                "moves": moves,
                "millis": millis,
                "nodes": solution.nodes,
            });
            writeln!(out, "{line}")?;
        } else {
            writeln!(out, "{}", verdict_name(&solution.verdict))?;
        }
        Ok(())
    })?;
    out.flush()?;
    Ok(())
}
