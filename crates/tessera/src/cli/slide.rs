//! `tessera slide …`: the sliding puzzle from the command line.

use super::input::{self, Item};
use super::Failure;
use clap::{Args, Subcommand};
use serde_json::json;
use slide::{Goal, Moves, Position, Scramble, Size};
use std::io::Write;

#[derive(Subcommand)]
pub enum SlideCommand {
    /// Generate puzzles, one per line.
    New(NewArgs),
    /// Tell whether positions can reach the goal.
    Check(CheckArgs),
    /// Apply moves to a position.
    Apply(ApplyArgs),
    /// Solve positions optimally: one move string (or `unsolvable`) per line.
    Solve(super::solve::SolveArgs),
    /// The first move of an optimal solution.
    Hint(super::solve::HintArgs),
    /// Measure the optimal solver (see BENCHMARKS.md).
    Bench(super::bench::BenchArgs),
}

/// Board and goal options shared by the subcommands.
#[derive(Args, Clone)]
pub struct Board {
    /// Board size WxH. Needed for a flat list of numbers that is not n×n;
    /// otherwise taken from the position.
    #[arg(long, value_parser = parse_size)]
    size: Option<Size>,
    /// Goal: row-major, blank-first, snake, spiral, missing:K, or a position.
    #[arg(long, default_value = "row-major", value_parser = parse_goal)]
    goal: Goal,
}

#[derive(Args)]
pub struct NewArgs {
    #[command(flatten)]
    board: Board,
    /// uniform (uniformly random among solvable positions) or walk:K.
    #[arg(long, default_value = "uniform", value_parser = parse_scramble)]
    scramble: Scramble,
    /// Seed of the first puzzle; puzzle i uses seed + i. Random if omitted
    /// (and printed to stderr so the puzzles can be made again).
    #[arg(long)]
    seed: Option<u64>,
    /// How many puzzles.
    #[arg(long, default_value_t = 1)]
    count: u64,
    /// One JSON object per line: {"seed":…,"position":…}.
    #[arg(long)]
    json: bool,
    /// Only positions whose optimal solution length lies in A..B (uniform
    /// among those; boards up to 16 cells).
    #[arg(long, value_parser = super::solve::parse_length_range)]
    optimal_length: Option<slide::LengthRange>,
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
    /// A position such as "1 2 3/4 5 6/7 8 0", or - for one per stdin line.
    position: String,
}

#[derive(Args)]
pub struct ApplyArgs {
    #[command(flatten)]
    board: Board,
    #[arg(long)]
    json: bool,
    position: String,
    /// Moves such as RDLU (the direction each tile moves); R3 = RRR.
    moves: String,
}

pub fn run(command: SlideCommand) -> Result<(), Failure> {
    match command {
        SlideCommand::New(args) => new(args),
        SlideCommand::Check(args) => check(args),
        SlideCommand::Apply(args) => apply(args),
        SlideCommand::Solve(args) => super::solve::solve(args),
        SlideCommand::Hint(args) => super::solve::hint(args),
        SlideCommand::Bench(args) => super::bench::run(args),
    }
}

pub fn parse_size(s: &str) -> Result<Size, String> {
    s.parse().map_err(|e: slide::SizeError| e.to_string())
}

pub fn parse_goal(s: &str) -> Result<Goal, String> {
    s.parse().map_err(|e: slide::GoalError| e.to_string())
}

fn parse_scramble(s: &str) -> Result<Scramble, String> {
    s.parse().map_err(|e: slide::ScrambleError| e.to_string())
}

impl Board {
    /// The size to generate: `--size`, else a custom goal's, else 4×4.
    fn size_or_default(&self) -> Size {
        self.size
            .or(self.goal.size())
            .unwrap_or_else(|| Size::square(4).expect("4x4"))
    }

    /// Parses one input into a position and its goal laid out on its size.
    pub fn read(
        &self,
        item: &Item,
        goals: &mut GoalCache,
    ) -> Result<(Position, Position), Failure> {
        let position = Position::parse(&item.text, self.size).map_err(|e| item.failure(e))?;
        let goal = goals
            .get(&self.goal, position.size())
            .map_err(|e| item.failure(e))?;
        Ok((position, goal))
    }
}

/// Goals laid out per size, so a stream of positions lays each out once.
#[derive(Default)]
pub struct GoalCache(Option<(Size, Position)>);

impl GoalCache {
    pub fn get(&mut self, goal: &Goal, size: Size) -> Result<Position, slide::GoalError> {
        match &self.0 {
            Some((cached, position)) if *cached == size => Ok(position.clone()),
            _ => {
                let position = goal.position(size)?;
                self.0 = Some((size, position.clone()));
                Ok(position)
            }
        }
    }
}

pub fn random_seed() -> u64 {
    use std::hash::BuildHasher;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    std::collections::hash_map::RandomState::new().hash_one(now.as_nanos())
}

fn new(args: NewArgs) -> Result<(), Failure> {
    let size = args.board.size_or_default();
    let goal = args.board.goal.position(size).map_err(Failure::input)?;
    let seed = args.seed.unwrap_or_else(|| {
        let seed = random_seed();
        eprintln!("seed: {seed}");
        seed
    });
    if let Some(range) = args.optimal_length {
        return super::solve::new_with_length(
            &goal,
            range,
            seed,
            args.count,
            &args.tables,
            args.json,
        );
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for i in 0..args.count {
        let seed = seed.wrapping_add(i);
        let puzzle = args.scramble.generate(&goal, seed);
        if args.json {
            writeln!(
                out,
                "{}",
                json!({"seed": seed, "size": size.to_string(), "position": puzzle.to_string()})
            )?;
        } else {
            writeln!(out, "{puzzle}")?;
        }
    }
    out.flush()?;
    Ok(())
}

fn check(args: CheckArgs) -> Result<(), Failure> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut goals = GoalCache::default();
    for item in input::items(&args.position) {
        let item = item?;
        let (position, goal) = args.board.read(&item, &mut goals)?;
        let why = position.solvability(&goal).map_err(|e| item.failure(e))?;
        let verdict = if why.is_solvable() {
            "solvable"
        } else {
            "unsolvable"
        };
        if args.json {
            let line = json!({
                "solvable": why.is_solvable(),
                "permutation_parity": why.permutation_parity.to_string(),
                "blank_distance": why.blank_distance,
            });
            writeln!(out, "{line}")?;
        } else {
            writeln!(out, "{verdict}")?;
        }
    }
    out.flush()?;
    Ok(())
}

fn apply(args: ApplyArgs) -> Result<(), Failure> {
    let item = Item {
        line: None,
        text: args.position.clone(),
    };
    let (mut position, goal) = args.board.read(&item, &mut GoalCache::default())?;
    let moves: Moves = args
        .moves
        .parse()
        .map_err(|e| Failure::input(format!("moves: {e}")))?;
    position.apply_all(&moves).map_err(Failure::input)?;
    let solved = position == goal;
    if args.json {
        println!(
            "{}",
            json!({"position": position.to_string(), "solved": solved, "moves": moves.len()})
        );
    } else {
        println!("{position}");
        println!("{}", if solved { "solved" } else { "not solved" });
    }
    Ok(())
}

/// The demonstration printed when `tessera` runs with no subcommand.
pub fn demo() -> Result<(), Failure> {
    let size = Size::square(4).expect("4x4");
    let goal = Goal::RowMajor.position(size).expect("row-major");
    let seed = random_seed();
    let puzzle = Scramble::Uniform.generate(&goal, seed);
    let why = puzzle.solvability(&goal).expect("same labels");
    println!("A fresh 4x4 puzzle (seed {seed}):\n");
    println!("{}", super::render::grid(&puzzle));
    println!(
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
    println!("\nTry: tessera slide new --size 5x5 --goal spiral --seed 7 | tessera slide check --goal spiral -");
    Ok(())
}
