//! `tessera shisen …`: Shisen-Sho from the command line — the commands,
//! the options of those that read boards, and `new`. The others live in
//! `paths` (path, moves), `solve`, `replay`, `analyze` and `bench`.
//!
//! Boards are read as text (see the `shisen` crate's parse module): a BOARD
//! argument holds one board, its rows separated by newlines or, when it has
//! no newline, by `/`; `-` reads a stream of boards separated by blank lines
//! from stdin.

mod analyze;
mod bench;
mod input;
mod paths;
mod replay;
mod solve;

use std::io::Write;

use clap::{Args, Subcommand};
use play::shisen_game::{DealError, ShisenSpec};
use play::Deadline;
use serde_json::json;
use shisen::{Size, TileSet};

use self::input::{parse_preset, parse_size, parse_tiles};
use super::seeds::Seeds;
use super::Failure;

#[derive(Subcommand)]
pub enum ShisenCommand {
    /// Deal boards, separated by blank lines.
    #[command(after_help = examples!(
        "tessera shisen new --preset 18x8 --seed 1",
        "tessera shisen new --size 12x8 --solvable --gravity --seed 4 --time-limit 5s",
        "tessera shisen new --size 8x4 --tiles 8x4 --count 2 --json --seed 1",
    ))]
    New(NewArgs),
    /// The shortest connection between two tiles: its corner points, or
    /// none (also when the tiles do not match).
    #[command(after_help = examples!(
        "tessera shisen path --from 0,0 --to 0,1 'AB/AB'",
        "tessera shisen new --seed 1 | tessera shisen path --from 0,0 --to 5,3 --json",
    ))]
    Path(paths::PathArgs),
    /// Each board's connectable pairs, as `x1,y1 x2,y2` lines.
    #[command(after_help = examples!(
        "tessera shisen moves 'AB/BA'",
        "tessera shisen new --seed 1 --count 3 | tessera shisen moves --count",
    ))]
    Moves(paths::MovesArgs),
    /// Draw a board as SVG or PNG with the web page's tile faces, and the
    /// connection between two tiles with --from and --to.
    #[command(after_help = examples!(
        "tessera shisen new --seed 1 | tessera shisen render -o board.svg",
        "tessera shisen render 'AB/AB' --from 0,0 --to 0,1 -o path.png",
    ))]
    Render(paths::RenderArgs),
    /// Decide each board: solvable, unsolvable or unknown (time limit hit).
    #[command(after_help = examples!(
        "tessera shisen new --seed 7 | tessera shisen solve",
        "tessera shisen new --seed 7 | tessera shisen solve --gravity --json --time-limit 3s",
    ))]
    Solve(solve::SolveArgs),
    /// The games' hint for each board: the first removal of a solution
    /// (`safe`), else a pair that connects (`open`), else `none`.
    #[command(after_help = examples!(
        "tessera shisen new --seed 7 | tessera shisen hint",
        "tessera shisen new --seed 7 | tessera shisen hint --json",
    ))]
    Hint(solve::HintArgs),
    /// Deal from a seed and play turns (removals, shuffles, undos, redos)
    /// as the games do: the board they lead to.
    #[command(after_help = examples!(
        "tessera shisen replay --seed 1",
        "tessera shisen replay --deal 14x6-gravity --seed 2 --json",
    ))]
    Replay(replay::ReplayArgs),
    /// Where a game was lost: after each turn whether the board could
    /// still be cleared (solvable, unsolvable, or unknown when the solver
    /// ran out of time), the losing turn, and a winning continuation.
    #[command(after_help = examples!(
        "tessera shisen analyze --deal 8x4-gravity-tiles:8x4 --seed 31 0,3-3,3 4,3-7,3 4,3-5,3 5,2-5,3 6,2-5,3 7,2-7,3 2,3-4,3 1,0-7,3",
        "tessera shisen analyze --deal 6x4-gravity-tiles:6x4 --seed 1 1,0-3,0 shuffle undo --json --time-limit 1s",
    ))]
    Analyze(analyze::AnalyzeArgs),
    /// Measure the solver on seeded random deals: decided share, median,
    /// p99 and worst time; with --generate, solvable-deal generation time.
    #[command(after_help = examples!(
        "tessera shisen bench --deals 20",
        "tessera shisen bench --size 14x6 --gravity --deals 10 --time-limit 1s",
    ))]
    Bench(bench::BenchArgs),
}

#[derive(Args)]
pub struct NewArgs {
    /// Board size WxH (up to 64x64).
    #[arg(long, value_parser = parse_size, conflicts_with = "preset")]
    size: Option<Size>,
    /// kshisen size: 14x6, 16x9, 18x8 (default), 24x12, 26x14, 30x16, or
    /// small, medium, large.
    #[arg(long, value_parser = parse_preset)]
    preset: Option<Size>,
    /// Tile set: standard, chinese, or KxC (K kinds × C copies, C even).
    #[arg(long, default_value = "standard", value_parser = parse_tiles)]
    tiles: TileSet,
    /// Same as --tiles chinese.
    #[arg(long, conflicts_with = "tiles")]
    chinese: bool,
    #[command(flatten)]
    seeds: Seeds,
    /// One JSON object per line: {"seed":…,"size":…,"tiles":…,"board":[rows]}.
    #[arg(long)]
    json: bool,
    /// Deal only solvable boards: uniformly random among them, by rejection
    /// with the exact solver (only deals proven unsolvable are rejected).
    #[arg(long)]
    solvable: bool,
    /// With --solvable: solvable under gravity.
    #[arg(long)]
    gravity: bool,
    /// With --solvable: give up on a seed after this long (500ms, 3s, 2m; a
    /// bare number is milliseconds), exiting 1. A seed's deal is fixed, so
    /// a limit never swaps it for an easier one. Without a limit a large
    /// board may take minutes.
    #[arg(long, requires = "solvable", value_parser = super::duration::millis)]
    time_limit: Option<std::time::Duration>,
}

pub fn run(command: ShisenCommand) -> Result<(), Failure> {
    match command {
        ShisenCommand::New(args) => new(args),
        ShisenCommand::Path(args) => paths::path(args),
        ShisenCommand::Moves(args) => paths::moves(args),
        ShisenCommand::Render(args) => paths::render(args),
        ShisenCommand::Solve(args) => solve::solve(args),
        ShisenCommand::Hint(args) => solve::hint(args),
        ShisenCommand::Replay(args) => replay::replay(args),
        ShisenCommand::Analyze(args) => analyze::analyze(args),
        ShisenCommand::Bench(args) => bench::bench(args),
    }
}

/// A spinner on stderr while a solvable deal of a large board is sought.
fn dealing(spec: &ShisenSpec) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    let large = spec.size.width() * spec.size.height() > 18 * 8;
    if !spec.solvable || !large || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_message(format!("dealing a solvable {} board", spec.size));
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    Some(bar)
}

fn new(args: NewArgs) -> Result<(), Failure> {
    let spec = ShisenSpec {
        size: args.size.or(args.preset).unwrap_or_default(),
        tiles: if args.chinese {
            TileSet::Chinese
        } else {
            args.tiles
        },
        gravity: args.gravity,
        solvable: args.solvable,
    };
    let size = spec.size;
    spec.tiles.tiles(size).map_err(Failure::input)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (i, seed) in args.seeds.all().enumerate() {
        // Unbounded unless asked: a budget can only turn a seed's deal
        // into none.
        let mut deadline = args.time_limit.map_or_else(Deadline::none, Deadline::after);
        let spinner = dealing(&spec);
        let dealt = spec.deal(seed, &mut deadline);
        if let Some(bar) = spinner {
            bar.finish_and_clear();
        }
        let board = dealt.map_err(|e| match e {
            DealError::Tiles(e) => Failure::input(e),
            DealError::OutOfTime => Failure::Other(format!(
                "seed {seed}: no solvable deal was proven within the time limit"
            )),
            other => Failure::Other(other.to_string()),
        })?;
        if args.json {
            let rows: Vec<String> = board.to_string().lines().map(str::to_string).collect();
            let line = json!({"seed": seed, "size": size.to_string(), "tiles": spec.tiles.to_string(), "board": rows});
            writeln!(out, "{line}")?;
        } else {
            if i > 0 {
                writeln!(out)?;
            }
            write!(out, "{board}")?;
        }
    }
    out.flush()?;
    Ok(())
}
