//! `tessera shisen …`: Shisen-Sho from the command line.
//!
//! Boards are read as text (see the `shisen` crate's parse module): a BOARD
//! argument holds one board, its rows separated by newlines or, when it has
//! no newline, by `/`; `-` reads a stream of boards separated by blank lines
//! from stdin.

use std::io::{Read, Write};

use std::time::{Duration, Instant};

use ::shisen::{
    solve as solve_board, Board, Budget, Deal, Matching, Path, Point, Rules, Size, TileSet, Verdict,
};
use clap::{Args, Subcommand};
use serde_json::json;

use super::Failure;

#[derive(Subcommand)]
pub enum ShisenCommand {
    /// Deal boards, separated by blank lines.
    New(NewArgs),
    /// The shortest connection between two tiles: its corner points, or
    /// none (also when the tiles do not match).
    Path(PathArgs),
    /// Each board's connectable pairs, as `x1,y1 x2,y2` lines.
    Moves(MovesArgs),
    /// Decide each board: solvable, unsolvable or unknown (time limit hit).
    Solve(SolveArgs),
    /// Measure the solver on seeded random deals: decided share, median,
    /// p99 and worst time; with --generate, solvable-deal generation time.
    Bench(BenchArgs),
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
    /// Seed of the first board; board i uses seed + i. Random if omitted
    /// (and printed to stderr so the boards can be dealt again).
    #[arg(long)]
    seed: Option<u64>,
    /// How many boards.
    #[arg(long, default_value_t = 1)]
    count: u64,
    /// One JSON object per line: {"seed":…,"size":…,"tiles":…,"board":[rows]}.
    #[arg(long)]
    json: bool,
    /// Deal only solvable boards: uniformly random among them, by rejection
    /// with the solver (deals it cannot decide in 20k nodes are rejected).
    #[arg(long)]
    solvable: bool,
    /// With --solvable: solvable under gravity.
    #[arg(long)]
    gravity: bool,
}

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

#[derive(Args)]
pub struct BenchArgs {
    /// Board size WxH.
    #[arg(long, value_parser = parse_size, default_value = "18x8")]
    size: Size,
    /// Tile set: standard, chinese, or KxC.
    #[arg(long, default_value = "standard", value_parser = parse_tiles)]
    tiles: TileSet,
    /// Tiles fall after a removal.
    #[arg(long)]
    gravity: bool,
    /// The first deal's seed; deal i uses seed + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// How many deals.
    #[arg(long, default_value_t = 1000)]
    deals: u64,
    /// Per-deal limit in milliseconds of CPU time (on Linux; elsewhere wall
    /// time), so that a loaded machine does not turn hard deals into
    /// unknowns.
    #[arg(long, default_value_t = 10_000)]
    time_limit: u64,
    /// Time solvable-deal generation (Deal::solvable) instead.
    #[arg(long)]
    generate: bool,
}

/// Options of commands that read boards.
#[derive(Args)]
pub struct Input {
    /// Chinese matching: any flower matches any flower, any season any season.
    #[arg(long)]
    chinese: bool,
    /// Tiles fall after a removal. Accepted for uniformity: paths and move
    /// lists of a given board do not depend on it.
    #[arg(long)]
    gravity: bool,
    /// A board (rows separated by newlines or /), or - for boards on stdin.
    #[arg(default_value = "-")]
    board: String,
}

#[derive(Args)]
pub struct PathArgs {
    #[command(flatten)]
    input: Input,
    /// The first tile, x,y (0-based).
    #[arg(long, value_parser = parse_point, allow_hyphen_values = true)]
    from: Point,
    /// The second tile, x,y.
    #[arg(long, value_parser = parse_point, allow_hyphen_values = true)]
    to: Point,
    /// {"path":[[x,y],…],"length":N,"turns":N}, or {"path":null}.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct MovesArgs {
    #[command(flatten)]
    input: Input,
    /// Only the number of pairs, one line per board.
    #[arg(long)]
    count: bool,
    /// One JSON object per board: {"moves":[[x1,y1,x2,y2],…]} or {"count":N}.
    #[arg(long)]
    json: bool,
}

pub fn run(command: ShisenCommand) -> Result<(), Failure> {
    match command {
        ShisenCommand::New(args) => new(args),
        ShisenCommand::Path(args) => path(args),
        ShisenCommand::Moves(args) => moves(args),
        ShisenCommand::Solve(args) => solve(args),
        ShisenCommand::Bench(args) => bench(args),
    }
}

fn parse_size(s: &str) -> Result<Size, String> {
    s.parse().map_err(|e: ::shisen::SizeError| e.to_string())
}

fn parse_preset(s: &str) -> Result<Size, String> {
    Size::preset(s).map_err(|e| e.to_string())
}

fn parse_tiles(s: &str) -> Result<TileSet, String> {
    s.parse().map_err(|e: ::shisen::TileSetError| e.to_string())
}

fn parse_point(s: &str) -> Result<Point, String> {
    s.parse().map_err(|e: ::shisen::PointError| e.to_string())
}

impl Input {
    fn matching(&self) -> Matching {
        if self.chinese {
            Matching::Chinese
        } else {
            Matching::Standard
        }
    }

    /// The text to parse: the argument, or all of stdin.
    fn text(&self) -> Result<String, Failure> {
        if self.board == "-" {
            let mut text = String::new();
            std::io::stdin().read_to_string(&mut text)?;
            Ok(text)
        } else if self.board.contains('\n') {
            Ok(self.board.clone())
        } else {
            Ok(self.board.replace('/', "\n"))
        }
    }

    /// Calls `each` on every board of the input, stopping at the first
    /// malformed one.
    fn for_each(&self, mut each: impl FnMut(Board) -> Result<(), Failure>) -> Result<(), Failure> {
        let text = self.text()?;
        let mut any = false;
        for board in ::shisen::parse_boards(&text, self.matching()) {
            each(board.map_err(Failure::input)?)?;
            any = true;
        }
        if any {
            Ok(())
        } else {
            Err(Failure::input("no board in the input"))
        }
    }
}

fn new(args: NewArgs) -> Result<(), Failure> {
    let size = args.size.or(args.preset).unwrap_or_default();
    let tiles = if args.chinese {
        TileSet::Chinese
    } else {
        args.tiles
    };
    tiles.tiles(size).map_err(Failure::input)?;
    let seed = args.seed.unwrap_or_else(|| {
        let seed = super::slide::random_seed();
        eprintln!("seed: {seed}");
        seed
    });
    let rules = Rules {
        matching: tiles.matching(),
        gravity: args.gravity,
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for i in 0..args.count {
        let seed = seed.wrapping_add(i);
        let board = if args.solvable {
            Deal::solvable(seed, size, tiles, rules, SOLVABLE_NODES)
                .map_err(Failure::input)?
                .ok_or_else(|| {
                    Failure::Other(format!(
                        "no solvable deal found in {} draws",
                        Deal::MAX_ATTEMPTS
                    ))
                })?
                .board
        } else {
            Deal::random(seed, size, tiles).map_err(Failure::input)?
        };
        if args.json {
            let rows: Vec<String> = board.to_string().lines().map(str::to_string).collect();
            let line = json!({"seed": seed, "size": size.to_string(), "tiles": tiles.to_string(), "board": rows});
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

/// Checks that `p` holds a tile of `board`.
fn tile_at(board: &Board, p: Point) -> Result<::shisen::Kind, Failure> {
    if !board.contains(p) {
        return Err(Failure::input(format!(
            "{p} is off the {} board",
            board.size()
        )));
    }
    board
        .get(p)
        .ok_or_else(|| Failure::input(format!("no tile at {p}")))
}

fn path(args: PathArgs) -> Result<(), Failure> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    args.input.for_each(|board| {
        let a = tile_at(&board, args.from)?;
        let b = tile_at(&board, args.to)?;
        if args.from == args.to {
            return Err(Failure::input(format!(
                "--from and --to are the same tile {}",
                args.from
            )));
        }
        // Only matching tiles can be joined for removal.
        let path = if board.matching().matches(a, b) {
            board.path(args.from, args.to)
        } else {
            None
        };
        writeln!(out, "{}", render_path(path, args.json))?;
        Ok(())
    })?;
    out.flush()?;
    Ok(())
}

fn render_path(path: Option<Path>, as_json: bool) -> String {
    match (path, as_json) {
        (None, false) => "none".to_string(),
        (None, true) => json!({ "path": null }).to_string(),
        (Some(path), false) => path
            .points()
            .iter()
            .map(Point::to_string)
            .collect::<Vec<_>>()
            .join(" "),
        (Some(path), true) => {
            let points: Vec<[i32; 2]> = path.points().iter().map(|p| [p.x, p.y]).collect();
            json!({"path": points, "length": path.length(), "turns": path.turns()}).to_string()
        }
    }
}

fn moves(args: MovesArgs) -> Result<(), Failure> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut first = true;
    args.input.for_each(|board| {
        match (args.count, args.json) {
            (true, false) => writeln!(out, "{}", board.count_moves())?,
            (true, true) => writeln!(out, "{}", json!({ "count": board.count_moves() }))?,
            (false, true) => {
                let moves: Vec<[i32; 4]> = board
                    .moves()
                    .iter()
                    .map(|m| [m.a.x, m.a.y, m.b.x, m.b.y])
                    .collect();
                writeln!(out, "{}", json!({ "moves": moves }))?;
            }
            (false, false) => {
                if !first {
                    writeln!(out)?;
                }
                for m in board.moves() {
                    writeln!(out, "{m}")?;
                }
            }
        }
        first = false;
        Ok(())
    })?;
    out.flush()?;
    Ok(())
}

/// The node budget per draw of `new --solvable`.
const SOLVABLE_NODES: u64 = 20_000;

/// A budget that ends at a moment in time.
struct Deadline(Instant);

impl Deadline {
    fn after(millis: u64) -> Deadline {
        Deadline(Instant::now() + Duration::from_millis(millis))
    }
}

impl Budget for Deadline {
    fn allows(&mut self, _nodes: u64) -> bool {
        Instant::now() < self.0
    }
}

/// A budget of thread CPU time (see [`cpu_time`]): the solver's own work,
/// whatever else the machine is running. Falls back to the wall clock
/// where the CPU clock is unavailable.
struct CpuDeadline {
    limit: Duration,
    start: Option<Duration>,
    wall: Deadline,
}

impl CpuDeadline {
    fn after(millis: u64) -> CpuDeadline {
        CpuDeadline {
            limit: Duration::from_millis(millis),
            start: cpu_time(),
            wall: Deadline::after(millis),
        }
    }
}

impl Budget for CpuDeadline {
    fn allows(&mut self, nodes: u64) -> bool {
        match (self.start, cpu_time()) {
            (Some(start), Some(now)) => now.saturating_sub(start) < self.limit,
            _ => self.wall.allows(nodes),
        }
    }
}

fn verdict_name(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Solvable(_) => "solvable",
        Verdict::Unsolvable => "unsolvable",
        Verdict::Unknown => "unknown",
    }
}

fn solve(args: SolveArgs) -> Result<(), Failure> {
    let gravity = args.input.gravity;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    args.input.for_each(|board| {
        let start = Instant::now();
        let rules = Rules {
            matching: board.matching(),
            gravity,
        };
        let solution = solve_board(&board, rules, &mut Deadline::after(args.time_limit));
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

/// The time this thread has spent on a CPU, from Linux's
/// `/proc/thread-self/schedstat` (nanoseconds); `None` elsewhere. On a
/// shared machine this, unlike the wall clock, excludes time spent waiting
/// for other processes.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// The `q`-quantile of sorted `values` (nearest rank).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn bench(args: BenchArgs) -> Result<(), Failure> {
    args.tiles.tiles(args.size).map_err(Failure::input)?;
    if args.deals == 0 {
        return Err(Failure::input("--deals must be at least 1"));
    }
    let rules = Rules {
        matching: args.tiles.matching(),
        gravity: args.gravity,
    };
    let mut millis = Vec::new();
    let mut cpu_millis = Vec::new();
    let (mut solvable, mut unsolvable, mut unknown, mut attempts) = (0, 0, 0, 0);
    for i in 0..args.deals {
        let seed = args.seed.wrapping_add(i);
        let start = Instant::now();
        let cpu_start = cpu_time();
        if args.generate {
            let deal = Deal::solvable(seed, args.size, args.tiles, rules, SOLVABLE_NODES)
                .map_err(Failure::input)?;
            match deal {
                Some(deal) => {
                    solvable += 1;
                    attempts += u64::from(deal.attempts);
                }
                None => unknown += 1,
            }
        } else {
            let board = Deal::random(seed, args.size, args.tiles).map_err(Failure::input)?;
            match solve_board(&board, rules, &mut CpuDeadline::after(args.time_limit)).verdict {
                Verdict::Solvable(_) => solvable += 1,
                Verdict::Unsolvable => unsolvable += 1,
                Verdict::Unknown => unknown += 1,
            }
        }
        millis.push(start.elapsed().as_secs_f64() * 1000.0);
        if let (Some(a), Some(b)) = (cpu_start, cpu_time()) {
            cpu_millis.push((b - a).as_secs_f64() * 1000.0);
        }
    }
    let mut slowest: Vec<(f64, u64)> = millis
        .iter()
        .zip(0..)
        .map(|(&t, i)| (t, args.seed.wrapping_add(i)))
        .collect();
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    let n = args.deals;
    let what = if args.generate {
        "solvable deals generated"
    } else {
        "deals solved"
    };
    println!(
        "{n} {what}: {} board, tiles {}, gravity {}, seeds {}..{}",
        args.size,
        args.tiles,
        args.gravity,
        args.seed,
        args.seed.wrapping_add(n - 1)
    );
    if args.generate {
        println!(
            "generated {solvable}, failed {unknown}, draws per deal {:.2}",
            attempts as f64 / solvable.max(1) as f64
        );
    } else {
        let decided = solvable + unsolvable;
        println!(
            "decided {decided}/{n} ({:.1}%): solvable {solvable}, unsolvable {unsolvable}, unknown {unknown}",
            100.0 * decided as f64 / n as f64
        );
    }
    let summary = |label: &str, values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        println!(
            "{label} per deal: median {:.3} ms, p99 {:.3} ms, worst {:.3} ms, mean {:.3} ms",
            quantile(values, 0.5),
            quantile(values, 0.99),
            values[values.len() - 1],
            values.iter().sum::<f64>() / values.len() as f64
        );
    };
    summary("wall time", &mut millis);
    if cpu_millis.len() == millis.len() {
        summary("cpu time (scheduler-tick resolution)", &mut cpu_millis);
    }
    let slowest: Vec<String> = slowest
        .iter()
        .take(3)
        .map(|(t, seed)| format!("seed {seed} ({t:.1} ms)"))
        .collect();
    println!("slowest: {}", slowest.join(", "));
    Ok(())
}
