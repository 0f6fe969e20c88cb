//! `tessera shisen replay`: a deal and the turns played on it, as the games
//! play them — the command-line view of a Shisen-Sho replay.

use clap::Args;
use play::shisen_game::{DealError, Session, ShisenSpec, Turn};
use play::Deadline;
use serde_json::json;

use crate::cli::seeds::FirstSeed;
use crate::cli::Failure;

#[derive(Args)]
pub struct ReplayArgs {
    /// The deal: a size, then any of gravity, chinese, tiles:KxC and any
    /// (deals that may be unsolvable), joined by `-`: 18x8, 14x6-gravity,
    /// 18x8-gravity-chinese.
    #[arg(long, default_value = "18x8", value_parser = parse_spec)]
    deal: ShisenSpec,
    #[command(flatten)]
    seed: FirstSeed,
    /// {"board":[rows],"removals":N,"tiles_left":N,"cleared":bool,"step":N}.
    #[arg(long)]
    json: bool,
    /// Turns: x1,y1-x2,y2 removes a pair; shuffle, undo, redo. Separated
    /// by spaces (one argument or several).
    turns: Vec<String>,
}

pub(super) fn parse_spec(s: &str) -> Result<ShisenSpec, String> {
    s.parse()
        .map_err(|e: play::shisen_game::SpecError| e.to_string())
}

/// The game the deal `spec` gives for `seed`, ready to replay turns on.
pub(super) fn dealt(spec: &ShisenSpec, seed: u64) -> Result<Session, Failure> {
    let board = spec
        .deal(seed, &mut Deadline::none())
        .map_err(|e| match e {
            DealError::Tiles(e) => Failure::input(e),
            other => Failure::Other(other.to_string()),
        })?;
    Ok(Session::new(board, spec.rules(), seed))
}

/// The turns written in `args`, each checked.
pub(super) fn turns(args: &[String]) -> Result<Vec<Turn>, Failure> {
    args.iter()
        .flat_map(|arg| arg.split_whitespace())
        .map(|word| word.parse().map_err(Failure::input))
        .collect()
}

pub fn replay(args: ReplayArgs) -> Result<(), Failure> {
    let turns = turns(&args.turns)?;
    let session = dealt(&args.deal, args.seed.get())?;
    let replay = session.replay(&turns).map_err(Failure::input)?;
    let game = replay.session.game();
    let board = game.board();
    if args.json {
        let rows: Vec<String> = board.to_string().lines().map(str::to_string).collect();
        let line = json!({
            "board": rows,
            "removals": replay.removals,
            "tiles_left": board.tiles_left(),
            "cleared": game.is_won(),
            "step": game.step(),
        });
        outln!("{line}");
    } else {
        out!("{board}");
        let state = if game.is_won() {
            "cleared"
        } else {
            "not cleared"
        };
        outln!(
            "{state}: {} removals, {} tiles left",
            replay.removals,
            board.tiles_left()
        );
    }
    Ok(())
}
