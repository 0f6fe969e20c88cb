//! `tessera slide …`: the sliding puzzle from the command line.

mod analyze;
mod bench;
mod board;
mod dataset;
pub(super) mod input;
mod render;
mod solve;

use self::board::{Board, GoalCache};
use self::input::Item;
use super::seeds::Seeds;
use super::Failure;
use clap::{Args, Subcommand};
use picture::{self, svg::Style, Scheme};
use play::format as formats;
use play::seed::random_seed;
use play::slide_game::{GoalChoice, Session, SlideSpec};
use serde_json::json;
use slide::{Goal, Moves, Position, Scramble, Size};
use std::borrow::Cow;
use std::io::Write;

#[derive(Subcommand)]
pub enum SlideCommand {
    /// Generate puzzles, one per line.
    #[command(after_help = examples!(
        "tessera slide new --size 4x4 --seed 7",
        "tessera slide new --size 3x3 --goal spiral --count 3 --json --seed 1",
        "tessera slide new --size 3x3 --optimal-length 20..22 --seed 2",
        "tessera slide new --size 3x3 --format marathon-10 --seed 5",
        "tessera slide new --format relay-5 --goal snake --json --seed 5",
        "tessera slide new --format height-relay --size 5x5 --seed 1",
    ))]
    New(NewArgs),
    /// Tell whether positions can reach the goal.
    #[command(after_help = examples!(
        "tessera slide check '1 2 3/4 5 6/8 7 0'",
        "tessera slide new --size 5x5 --goal spiral --seed 7 | tessera slide check --goal spiral -",
    ))]
    Check(CheckArgs),
    /// Apply moves to a position.
    Apply(ApplyArgs),
    /// Draw a position as SVG or PNG, its tiles coloured by a scheme, or a
    /// solution played out as a GIF.
    #[command(after_help = examples!(
        "tessera slide render '1 2 3/4 5 6/7 0 8' -o board.svg",
        "tessera slide new --size 10x10 --seed 1 | tessera slide render - --scheme gradient -o board.png",
        "tessera slide render '8 6 7/2 5 4/3 0 1' --solution \"$(tessera slide solve '8 6 7/2 5 4/3 0 1')\" -o solve.gif",
    ))]
    Render(RenderArgs),
    /// Solve positions optimally: one move string (or `unsolvable`) per line.
    #[command(after_help = examples!(
        "tessera slide solve '8 6 7/2 5 4/3 0 1'",
        "tessera slide new --size 4x4 --seed 3 | tessera slide solve --metric mtm --time-limit 2s --json -",
        "tessera slide new --size 100x100 --seed 1 | tessera slide solve --fast --count-only -",
    ))]
    Solve(solve::SolveArgs),
    /// Where a solve lost moves: the optimal distance to the goal after
    /// every move, the moves that went away, the moves lost and the
    /// costliest stretches (exact up to 4x4; bounds beyond, marked).
    #[command(after_help = examples!(
        "tessera slide analyze '8 6 7/2 5 4/3 0 1' LDDRUULDDRURULLDRRDLLURRULDDLUU",
        "tessera slide analyze --metric mtm --json '1 2 3/4 5 6/0 7 8' L2",
        "tessera slide analyze --json '1 2 3/4 5 6/7 0 8' LRRL",
    ))]
    Analyze(analyze::AnalyzeArgs),
    /// A solution never longer than the one given: an optimal one when
    /// proven in time, else the given one with its detours replaced by
    /// shortest paths.
    #[command(after_help = examples!(
        "tessera slide optimize '1 2 3/4 5 6/7 0 8' LRRLL",
        "tessera slide optimize --json --time-limit 2s '1 2 3/4 5 6/0 7 8' LL",
    ))]
    Optimize(analyze::OptimizeArgs),
    /// Cancel the back-and-forths of a move string (RRL becomes R) and
    /// write its runs compactly (RRR becomes R3).
    #[command(after_help = examples!(
        "tessera slide simplify RRLUUD",
        "tessera slide simplify --letters R2L3U",
        "tessera slide simplify --json RLRLR2R",
    ))]
    Simplify(analyze::SimplifyArgs),
    /// The moves that undo a move string: reversed, each inverted.
    #[command(after_help = examples!(
        "tessera slide invert RRDL",
        "tessera slide invert --letters R3U",
    ))]
    Invert(analyze::InvertArgs),
    /// The first move of an optimal solution.
    #[command(after_help = examples!(
        "tessera slide hint '1 2 3/4 5 6/7 0 8'",
        "tessera slide hint --metric mtm --json '1 2 3/4 5 6/0 7 8'",
    ))]
    Hint(solve::HintArgs),
    /// Write a labelled data set for machine learning: puzzles, their
    /// distances to the goal (optimal up to 16 cells) and, if asked, first
    /// moves, as a NumPy .npz file.
    Dataset(dataset::DatasetArgs),
    /// Measure the optimal solver (see BENCHMARKS.md).
    #[command(after_help = examples!(
        "tessera slide bench random3x3 --count 1000",
        "tessera slide bench random3x3 --count 200 --seed 9",
    ))]
    Bench(bench::BenchArgs),
    /// The optimal solver's pattern databases: build, status, clear.
    #[command(subcommand)]
    Tables(super::tables::TablesCommand),
}

#[derive(Args)]
pub struct NewArgs {
    #[command(flatten)]
    board: Board,
    /// uniform (uniformly random among solvable positions) or walk:K.
    #[arg(long, default_value = "uniform", value_parser = board::parse_scramble)]
    scramble: Scramble,
    #[command(flatten)]
    seeds: Seeds,
    /// One JSON object per line: {"seed":…,"position":…}; with --format
    /// one object {"format","seed","puzzles":[{"position","goal","size"}]}.
    #[arg(long)]
    json: bool,
    /// Deal a whole format from the seed, one position per line (the
    /// format on stderr): single, marathon-K (K puzzles of the size; K =
    /// 2 to 1000), relay-N (every square size from 3x3 to NxN, N = 4 to
    /// 10, with the goal), slidysim's relays down from the size (2-n-relay
    /// NxN to 2x2, height-relay WxH to Wx2, width-relay WxH to 2xH,
    /// everything-relay every size up to WxH) or bld (blindfold: one
    /// puzzle).
    #[arg(long, value_parser = parse_format, conflicts_with_all = ["count", "optimal_length", "scramble"])]
    format: Option<formats::Format>,
    /// Only positions whose optimal solution length lies in A..B (uniform
    /// among those; boards up to 16 cells).
    #[arg(long, value_parser = solve::parse_length_range)]
    optimal_length: Option<slide::LengthRange>,
    /// With --optimal-length: give up after this long per position (500ms,
    /// 3s, 2m; a bare number is seconds), exiting 1 with how many positions
    /// were drawn. Without it the search may take minutes on 4×4.
    #[arg(long, requires = "optimal_length", value_parser = super::duration::seconds)]
    time_limit: Option<std::time::Duration>,
    #[command(flatten)]
    tables: super::tables::TableArgs,
}

#[derive(Args)]
pub struct CheckArgs {
    #[command(flatten)]
    board: Board,
    /// One JSON object per line with the two parities behind the answer.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    positions: input::Positions,
}

#[derive(Args)]
#[command(after_help = examples!(
    "tessera slide apply '1 2 3/4 5 6/7 0 8' L",
    "tessera slide new --size 50x50 --seed 1 > p.txt",
    "tessera slide solve --fast @p.txt > m.txt && tessera slide apply @p.txt @m.txt",
))]
pub struct ApplyArgs {
    #[command(flatten)]
    board: Board,
    /// {"position","solved","stm","mtm"} instead of text.
    #[arg(long)]
    json: bool,
    /// The start, such as "1 2 3/4 5 6/7 0 8"; - reads it from stdin and
    /// @FILE from a file (for boards too large for a command line).
    position: String,
    /// Moves such as RDLU (the direction each tile moves); R3 = RRR; - or
    /// @FILE as for the position (one of the two may be -).
    moves: String,
}

#[derive(Args)]
pub struct RenderArgs {
    #[command(flatten)]
    board: Board,
    /// Tile colours: plain, fringe (the layers the usual reduction solves
    /// in turn), rows, columns, or gradient (by goal cell).
    #[arg(long, default_value = "plain", value_parser = parse_scheme)]
    scheme: Scheme,
    /// Leave the numbers off the tiles.
    #[arg(long)]
    no_numbers: bool,
    /// A picture puzzle: each tile shows the part of this image (PNG, JPEG,
    /// GIF, WebP or SVG) that belongs to its goal cell, numbered in a
    /// corner unless --no-numbers. The image is cropped to the board's
    /// shape. The built-in pictures of the web game are named sunset,
    /// waves and mosaic.
    #[arg(long)]
    picture: Option<std::path::PathBuf>,
    /// Moves to play out from the position (needs a .gif output): one
    /// frame for the start and one per move, with a move counter, looping.
    #[arg(long)]
    solution: Option<String>,
    /// How long each move shows in the GIF, in milliseconds.
    #[arg(long, default_value_t = 250, value_parser = clap::value_parser!(u16).range(20..=10_000))]
    frame_ms: u16,
    /// The picture to write: .svg, .png or .gif (by the file's ending), or
    /// - for SVG on standard output.
    #[arg(short, long)]
    output: String,
    /// The position to draw, such as "1 2 3/4 5 6/7 0 8"; - reads it from
    /// stdin and @FILE from a file (a 1000×1000 board is too large for a
    /// command line).
    position: String,
}

/// The kinds of file `render` writes, by the output's ending.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
    Gif,
}

impl Format {
    /// The format for `--output PATH`, or an error that lists the choices.
    pub fn of(output: &str) -> Result<Format, Failure> {
        if output == "-" {
            return Ok(Format::Svg);
        }
        let lower = output.to_ascii_lowercase();
        let ending = lower.rsplit_once('.').map_or("", |(_, e)| e);
        match ending {
            "svg" => Ok(Format::Svg),
            "png" => Ok(Format::Png),
            "gif" => Ok(Format::Gif),
            _ => Err(Failure::input(format!(
                "--output {output}: write a .svg, .png or .gif file, or - for SVG on standard output"
            ))),
        }
    }
}

fn parse_scheme(s: &str) -> Result<Scheme, String> {
    s.parse()
        .map_err(|e: picture::scheme::SchemeError| e.to_string())
}

pub fn run(command: SlideCommand) -> Result<(), Failure> {
    match command {
        SlideCommand::New(args) => new(args),
        SlideCommand::Check(args) => check(args),
        SlideCommand::Apply(args) => apply(args),
        SlideCommand::Render(args) => render(args),
        SlideCommand::Solve(args) => solve::solve(args),
        SlideCommand::Hint(args) => solve::hint(args),
        SlideCommand::Analyze(args) => analyze::analyze(args),
        SlideCommand::Optimize(args) => analyze::optimize(args),
        SlideCommand::Simplify(args) => analyze::simplify(args),
        SlideCommand::Invert(args) => analyze::invert(args),
        SlideCommand::Dataset(args) => dataset::dataset(args),
        SlideCommand::Bench(args) => bench::run(args),
        SlideCommand::Tables(command) => super::tables::run(command),
    }
}

fn parse_format(s: &str) -> Result<formats::Format, String> {
    s.parse().map_err(|e: formats::FormatError| e.to_string())
}

fn new(args: NewArgs) -> Result<(), Failure> {
    let spec = args.board.spec()?;
    let size = spec.size;
    if let Some(format) = args.format {
        let (seed, _) = args.seeds.first_and_count();
        return new_format(format, &spec, seed, args.json);
    }
    if let Some(range) = args.optimal_length {
        let (seed, count) = args.seeds.first_and_count();
        let goal = spec.issue(seed).map_err(Failure::input)?.goal_position;
        let wanted = solve::Wanted {
            range,
            seed,
            count,
            time_limit: args.time_limit,
        };
        return solve::new_with_length(&goal, wanted, &args.tables, args.json);
    }
    let drawn_goal = matches!(spec.goal, GoalChoice::Missing);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for seed in args.seeds.all() {
        let puzzle = spec.issue(seed).map_err(Failure::input)?;
        let position = match args.scramble {
            Scramble::Uniform => puzzle.start,
            walk => walk.generate(&puzzle.goal_position, seed),
        };
        if args.json {
            let line = json!({
                "seed": seed,
                "size": size.to_string(),
                "goal": puzzle.goal.to_string(),
                "position": position.to_string(),
            });
            writeln!(out, "{line}")?;
        } else {
            if drawn_goal {
                // Said where the seed is said: stdout stays one position
                // a line for the next command in the pipe.
                eprintln!("goal: {}", puzzle.goal);
            }
            writeln!(out, "{position}")?;
        }
    }
    out.flush()?;
    Ok(())
}

/// Prints every puzzle `seed` deals for `format`: one position a line
/// (the format and any drawn goals on stderr, so stdout pipes into
/// `slide check` or `slide solve`), or one JSON object.
fn new_format(
    format: formats::Format,
    spec: &SlideSpec,
    seed: u64,
    json: bool,
) -> Result<(), Failure> {
    let puzzles = format.deal(spec, seed).map_err(Failure::input)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if json {
        let puzzles: Vec<_> = puzzles
            .iter()
            .map(|p| {
                json!({
                    "position": p.start.to_string(),
                    "goal": p.goal.to_string(),
                    "size": p.start.size().to_string(),
                })
            })
            .collect();
        let line = json!({ "format": format.to_string(), "seed": seed, "puzzles": puzzles });
        writeln!(out, "{line}")?;
    } else {
        let count = puzzles.len();
        let noun = if count == 1 { "puzzle" } else { "puzzles" };
        eprintln!("format: {format} ({count} {noun})");
        let drawn_goal = matches!(spec.goal, GoalChoice::Missing);
        for puzzle in &puzzles {
            if drawn_goal {
                eprintln!("goal: {}", puzzle.goal);
            }
            writeln!(out, "{}", puzzle.start)?;
        }
    }
    out.flush()?;
    Ok(())
}

fn check(args: CheckArgs) -> Result<(), Failure> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let jobs = args.positions.jobs();
    let pool = super::pool(jobs)?;
    // Lines are checked a batch at a time: the batch in parallel, its
    // answers written in input order before the next batch is read, so
    // memory stays bounded however long the input. Typed at a terminal,
    // each line is answered as soon as it is entered.
    let interactive = args.positions.typed();
    let batch = if interactive { 1 } else { 4096 };
    let mut items = args.positions.items();
    loop {
        let (lines, stop) = input::next_batch(items.by_ref(), batch);
        if lines.is_empty() && stop.is_none() {
            break;
        }
        let answers: Vec<Result<Cow<str>, Failure>> = if jobs == 1 {
            let mut goals = GoalCache::default();
            lines
                .iter()
                .map(|item| verdict(&args, item, &mut goals))
                .collect()
        } else {
            pool.install(|| {
                use rayon::prelude::*;
                lines
                    .par_iter()
                    .map_init(GoalCache::default, |goals, item| {
                        verdict(&args, item, goals)
                    })
                    .collect()
            })
        };
        for answer in answers {
            writeln!(out, "{}", answer?)?;
        }
        if let Some(failure) = stop {
            out.flush()?;
            return Err(failure);
        }
        if interactive {
            out.flush()?;
        }
    }
    out.flush()?;
    Ok(())
}

/// The answer `check` prints for one position (the plain answers are not
/// allocated: a million lines are a million answers).
fn verdict(
    args: &CheckArgs,
    item: &Item,
    goals: &mut GoalCache,
) -> Result<Cow<'static, str>, Failure> {
    let (position, goal) = args.board.read(item, goals)?;
    let why = position.solvability(&goal).map_err(|e| item.failure(e))?;
    Ok(if args.json {
        json!({
            "solvable": why.is_solvable(),
            "permutation_parity": why.permutation_parity.to_string(),
            "blank_distance": why.blank_distance,
        })
        .to_string()
        .into()
    } else if why.is_solvable() {
        "solvable".into()
    } else {
        "unsolvable".into()
    })
}

/// The position of a command's argument and its goal.
fn read_one(board: &Board, text: &str) -> Result<(Position, Position), Failure> {
    let item = Item {
        line: None,
        text: text.to_string(),
    };
    board.read(&item, &mut GoalCache::default())
}

fn apply(args: ApplyArgs) -> Result<(), Failure> {
    if args.position == "-" && args.moves == "-" {
        return Err(Failure::input(
            "the position and the moves cannot both come from stdin: give one as @FILE",
        ));
    }
    let position = input::whole(&args.position, "the position")?;
    let (position, goal) = read_one(&args.board, &position)?;
    let moves: Moves = input::whole(&args.moves, "the moves")?
        .parse()
        .map_err(|e| Failure::input(format!("moves: {e}")))?;
    let outcome = Session::replay(&position, &goal, &moves).map_err(Failure::input)?;
    if args.json {
        let line = json!({
            "position": outcome.position.to_string(),
            "solved": outcome.solved,
            "moves": outcome.stm,
            "stm": outcome.stm,
            "mtm": outcome.mtm,
        });
        outln!("{line}");
    } else {
        outln!("{}", outcome.position);
        outln!(
            "{}",
            if outcome.solved {
                "solved"
            } else {
                "not solved"
            }
        );
        outln!("moves: {} STM, {} MTM", outcome.stm, outcome.mtm);
    }
    Ok(())
}

fn render(args: RenderArgs) -> Result<(), Failure> {
    // Everything the user typed is checked before any work, so a typo
    // costs nothing.
    let format = Format::of(&args.output)?;
    let position = input::whole(&args.position, "the position")?;
    let (position, goal) = read_one(&args.board, &position)?;
    let solution = match &args.solution {
        None if format == Format::Gif => {
            return Err(Failure::input(
                "a .gif plays a solution: give the moves with --solution",
            ))
        }
        Some(_) if format != Format::Gif => {
            return Err(Failure::input(
                "--solution is played out as an animation: write a .gif",
            ))
        }
        None => None,
        Some(text) => Some(
            text.parse::<Moves>()
                .map_err(|e| Failure::input(format!("--solution: {e}")))?,
        ),
    };
    let image = match &args.picture {
        None => None,
        Some(path) if picture::art::Art::named(&path.to_string_lossy()).is_some() => {
            let art = picture::art::Art::named(&path.to_string_lossy()).expect("named");
            Some(picture::image::Image::from_bytes(art.svg().as_bytes()).expect("an SVG"))
        }
        Some(path) => {
            let name = path.display();
            let bytes = std::fs::read(path)
                .map_err(|e| Failure::input(format!("--picture {name}: {e}")))?;
            Some(
                picture::image::Image::from_bytes(&bytes)
                    .map_err(|e| Failure::input(format!("--picture {name}: {e}")))?,
            )
        }
    };
    let style = Style {
        scheme: args.scheme,
        hide_numbers: args.no_numbers,
        caption: None,
        image,
    };
    let bytes = match (format, solution) {
        (Format::Gif, Some(moves)) => animate(&position, &goal, &moves, &style, args.frame_ms)?,
        (Format::Png, _) => picture::raster::png(&picture::svg::position(&position, &goal, &style))
            .map_err(|e| Failure::input(e.to_string()))?,
        _ => picture::svg::position(&position, &goal, &style).into_bytes(),
    };
    super::write_output(&args.output, &bytes)
}

/// The GIF of a solution, with a progress bar on a terminal.
fn animate(
    position: &Position,
    goal: &Position,
    moves: &Moves,
    style: &Style,
    frame_ms: u16,
) -> Result<Vec<u8>, Failure> {
    use picture::animation::{self, AnimationError, Timing};
    let bar = super::tables::progress_bar(moves.0.len() as u64 + 1, "drawing frames");
    let timing = Timing {
        per_move: frame_ms.div_ceil(10),
        ..Timing::default()
    };
    let gif = animation::solution_gif(position, goal, moves, style, timing, |done| {
        if let Some(bar) = &bar {
            bar.set_position(done as u64);
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    gif.map_err(|e| match e {
        AnimationError::Illegal { .. } | AnimationError::TooLarge { .. } => {
            Failure::input(format!("--solution: {e}"))
        }
        e => Failure::Other(e.to_string()),
    })
}

/// The demonstration printed when `tessera` runs with no subcommand.
pub fn demo() -> Result<(), Failure> {
    let size = Size::square(4).expect("4x4");
    let goal = Goal::RowMajor.position(size).expect("row-major");
    let seed = random_seed();
    let puzzle = Scramble::Uniform.generate(&goal, seed);
    let why = puzzle.solvability(&goal).expect("same labels");
    outln!("A fresh 4x4 puzzle (seed {seed}):\n");
    outln!("{}", render::grid(&puzzle));
    outln!(
        "{} — permutation parity {}, blank distance {} ({}).",
        if why.is_solvable() {
            "solvable"
        } else {
            "unsolvable"
        },
        why.permutation_parity,
        why.blank_distance,
        slide::Parity::of(why.blank_distance),
    );
    outln!("\nTry: tessera slide new --size 5x5 --goal spiral --seed 7 | tessera slide check --goal spiral -");
    Ok(())
}
