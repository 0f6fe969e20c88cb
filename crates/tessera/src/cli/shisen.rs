//! `tessera shisen …`: Shisen-Sho from the command line.
//!
//! Boards are read as text (see the `shisen` crate's parse module): a BOARD
//! argument holds one board, its rows separated by newlines or, when it has
//! no newline, by `/`; `-` reads a stream of boards separated by blank lines
//! from stdin.

use std::io::{Read, Write};

use ::shisen::{Board, Deal, Matching, Path, Point, Size, TileSet};
use clap::{Args, Subcommand};
use serde_json::json;

use super::Failure;

#[derive(Subcommand)]
pub enum ShisenCommand {
    /// Deal boards, separated by blank lines.
    New(NewArgs),
    /// The shortest connection between two tiles: its corner points, or none.
    Path(PathArgs),
    /// Each board's connectable pairs, as `x1,y1 x2,y2` lines.
    Moves(MovesArgs),
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
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for i in 0..args.count {
        let seed = seed.wrapping_add(i);
        let board = Deal::random(seed, size, tiles).map_err(Failure::input)?;
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
