//! `tessera shisen analyze`: where a Shisen-Sho game was lost — after each
//! turn whether the board could still be cleared, the losing turn, and a
//! winning continuation. The game is a replay as the replay page
//! downloads it, or a deal and turns as `tessera shisen replay` takes them.

use std::io::Read;
use std::time::Duration;

use clap::Args;
use play::shisen_game::{where_lost, Loss, LossAnalysis, Session, ShisenSpec, Turn};
use play::Deadline;
use serde_json::json;
use shisen::{parse_board, Rules};

use super::replay::{dealt, parse_spec, turns};
use crate::cli::seeds::FirstSeed;
use crate::cli::Failure;

#[derive(Args)]
pub struct AnalyzeArgs {
    /// A replay as the replay page downloads it (`-` reads stdin): its
    /// seed, rules, deal and turns. Without it the game is --deal, --seed
    /// and TURNS.
    #[arg(long, conflicts_with_all = ["deal", "turns"])]
    replay: Option<String>,
    /// The deal, as for `tessera shisen replay`: 18x8, 14x6-gravity,
    /// 8x4-tiles:8x4.
    #[arg(long, default_value = "18x8", value_parser = parse_spec)]
    deal: ShisenSpec,
    #[command(flatten)]
    seed: FirstSeed,
    /// How long the solver may take on each position (500ms, 3s; a bare
    /// number is milliseconds); a position it cannot decide is unknown.
    /// The default is the games' own budget.
    #[arg(long, default_value = "3s", value_parser = crate::cli::duration::millis)]
    time_limit: Duration,
    /// {"positions":[…],"lost_at":N|null,"undecided":bool,
    /// "continuation":{"after":N,"turns":[…]}|null}; positions has one
    /// entry for the deal and one per turn.
    #[arg(long)]
    json: bool,
    /// Turns: x1,y1-x2,y2 removes a pair; shuffle, undo, redo.
    turns: Vec<String>,
}

pub fn analyze(args: AnalyzeArgs) -> Result<(), Failure> {
    let (session, turns) = match &args.replay {
        Some(path) => read_replay(&read(path)?)?,
        None => (dealt(&args.deal, args.seed.get())?, turns(&args.turns)?),
    };
    let analysis =
        where_lost(session, &turns, args.time_limit, &Deadline::none()).map_err(Failure::input)?;
    if args.json {
        outln!("{}", as_json(&analysis));
    } else {
        print(&analysis, &turns)?;
    }
    Ok(())
}

fn read(path: &str) -> Result<String, Failure> {
    let mut text = String::new();
    if path == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(Failure::io)?;
        return Ok(text);
    }
    std::fs::read_to_string(path).map_err(|e| Failure::input(format!("cannot read {path}: {e}")))
}

/// The game in a downloaded replay:
///
/// ```text
/// # tessera replay ID: VARIANT, seed SEED, by NAME
/// # TIME, score N; ranked
/// # deal (RULES):
/// # ROW
/// # …
/// TURNS
/// # times …
/// ```
fn read_replay(text: &str) -> Result<(Session, Vec<Turn>), Failure> {
    let lines: Vec<&str> = text.lines().collect();
    let header = lines.first().copied().unwrap_or_default();
    let seed = header
        .split_once(", seed ")
        .and_then(|(_, rest)| rest.split(',').next())
        .filter(|_| header.starts_with("# tessera replay "))
        .ok_or_else(|| {
            Failure::input_at(
                1,
                "expected \"# tessera replay ID: VARIANT, seed N, by NAME\"",
            )
        })?;
    let seed: u64 = seed
        .trim()
        .parse()
        .map_err(|_| Failure::input_at(1, format!("{seed:?} is not a seed")))?;
    let at = lines
        .iter()
        .position(|line| line.starts_with("# deal ("))
        .ok_or_else(|| Failure::input("no \"# deal (RULES):\" line: not a Shisen-Sho replay"))?;
    let rules: Rules = lines[at]
        .strip_prefix("# deal (")
        .and_then(|rest| rest.strip_suffix("):"))
        .ok_or_else(|| Failure::input_at(at + 1, "expected \"# deal (RULES):\""))?
        .parse()
        .map_err(|e| Failure::input_at(at + 1, e))?;
    let rows: Vec<&str> = lines[at + 1..]
        .iter()
        .map_while(|line| {
            line.strip_prefix("# ")
                .filter(|_| !line.starts_with("# times"))
        })
        .collect();
    let board = parse_board(&rows.join("\n"), rules.matching)
        .map_err(|e| Failure::input_at(at + 2, format!("the deal: {e}")))?;
    // The turns are the line after the deal (empty for a game of no turn).
    let turns_at = at + 1 + rows.len();
    let played = lines
        .get(turns_at)
        .filter(|line| !line.starts_with('#'))
        .copied()
        .unwrap_or_default();
    let turns = turns(&[played.to_string()]).map_err(|e| match e {
        Failure::Input(message) => Failure::input_at(turns_at + 1, message),
        other => other,
    })?;
    Ok((Session::new(board, rules, seed), turns))
}

fn as_json(analysis: &LossAnalysis) -> serde_json::Value {
    let positions: Vec<&str> = analysis.positions.iter().map(|p| p.as_str()).collect();
    let lost_at = match analysis.loss {
        Loss::At(at) => Some(at),
        Loss::Never | Loss::Undecided => None,
    };
    let continuation = analysis
        .continuation
        .as_ref()
        .map(|line| json!({"after": line.after, "turns": removals(&line.removals)}));
    json!({
        "positions": positions,
        "lost_at": lost_at,
        "undecided": analysis.loss == Loss::Undecided,
        "continuation": continuation,
    })
}

/// Removals written as turns, ready to be played.
fn removals(moves: &[shisen::Move]) -> Vec<String> {
    moves
        .iter()
        .map(|m| Turn::Remove(m.a, m.b).to_string())
        .collect()
}

fn print(analysis: &LossAnalysis, turns: &[Turn]) -> Result<(), Failure> {
    for (at, position) in analysis.positions.iter().enumerate() {
        match at {
            0 => outln!("deal: {}", position.as_str()),
            _ => outln!("turn {at} {}: {}", turns[at - 1], position.as_str()),
        }
    }
    match analysis.loss {
        Loss::Never => outln!("never lost"),
        Loss::At(0) => outln!("lost at the deal: it cannot be cleared"),
        Loss::At(at) => outln!("lost at turn {at} ({})", turns[at - 1]),
        Loss::Undecided => outln!(
            "losing turn unknown: a position before the first unsolvable one was not decided in time"
        ),
    }
    match &analysis.continuation {
        Some(line) => {
            let from = match line.after {
                0 => "the deal".to_string(),
                at => format!("turn {at}"),
            };
            outln!(
                "winning continuation after {from}: {}",
                removals(&line.removals).join(" ")
            );
        }
        None => outln!("no winning continuation known"),
    }
    Ok(())
}
