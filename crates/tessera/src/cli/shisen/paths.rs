//! `tessera shisen path` and `moves`: connections and move lists.

use std::io::Write;

use clap::Args;
use serde_json::json;
use shisen::{Board, Path, Point};

use super::input::{parse_point, Input};
use crate::cli::Failure;

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
    /// Answer this many runs of boards at once (output stays in input
    /// order) [default: one per core].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: Option<u32>,
}

#[derive(Args)]
pub struct RenderArgs {
    #[command(flatten)]
    input: Input,
    /// Draw the connection from this tile, x,y (with --to).
    #[arg(long, value_parser = parse_point, allow_hyphen_values = true, requires = "to")]
    from: Option<Point>,
    /// Draw the connection to this tile, x,y (with --from).
    #[arg(long, value_parser = parse_point, allow_hyphen_values = true, requires = "from")]
    to: Option<Point>,
    /// The picture to write: .svg or .png (by the file's ending), or - for
    /// SVG on standard output.
    #[arg(short, long)]
    output: String,
}

/// Checks that `p` holds a tile of `board`.
fn tile_at(board: &Board, p: Point) -> Result<shisen::Kind, Failure> {
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

/// The shortest connection that removes the tiles at `from` and `to`, if
/// they match and one exists; an error if they are not two tiles.
fn removal(board: &Board, from: Point, to: Point) -> Result<Option<Path>, Failure> {
    let a = tile_at(board, from)?;
    let b = tile_at(board, to)?;
    if from == to {
        return Err(Failure::input(format!(
            "--from and --to are the same tile {from}"
        )));
    }
    // Only matching tiles can be joined for removal.
    Ok(if board.matching().matches(a, b) {
        board.path(from, to)
    } else {
        None
    })
}

pub fn path(args: PathArgs) -> Result<(), Failure> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    args.input.for_each(|board| {
        let path = removal(board, args.from, args.to)?;
        writeln!(out, "{}", render_path(path, args.json))?;
        Ok(())
    })?;
    out.flush()?;
    Ok(())
}

/// `tessera shisen render`: one board as SVG or PNG, with a connection.
pub fn render(args: RenderArgs) -> Result<(), Failure> {
    use crate::cli::slide::Format;
    use picture::{raster, shisen_board};
    let format = Format::of(&args.output)?;
    if format == Format::Gif {
        return Err(Failure::input(format!(
            "--output {}: a board is drawn as .svg or .png",
            args.output
        )));
    }
    let mut picture = None;
    args.input.for_each(|board| {
        if picture.is_some() {
            return Err(Failure::input(
                "render draws one board; the input has more (split at the blank line)",
            ));
        }
        let path = match (args.from, args.to) {
            (Some(from), Some(to)) => Some(removal(board, from, to)?.ok_or_else(|| {
                Failure::input(format!("no path removes the tiles at {from} and {to}"))
            })?),
            _ => None,
        };
        picture = Some(shisen_board::board(board, path.as_ref()));
        Ok(())
    })?;
    let svg = picture.ok_or_else(|| Failure::input("no board to draw"))?;
    let bytes = match format {
        Format::Png => raster::png(&svg).map_err(|e| Failure::input(e.to_string()))?,
        _ => svg.into_bytes(),
    };
    crate::cli::write_output(&args.output, &bytes)
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

pub fn moves(args: MovesArgs) -> Result<(), Failure> {
    use std::fmt::Write as _;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let jobs = crate::cli::jobs_or_cores(args.jobs);
    if args.count {
        // A count a line, formatted without the formatting machinery: a
        // batch prints one per board.
        let answer = |count: usize, text: &mut String| {
            let mut digits = itoa::Buffer::new();
            let count = digits.format(count);
            if args.json {
                text.push_str("{\"count\":");
                text.push_str(count);
                text.push_str("}\n");
            } else {
                text.push_str(count);
                text.push('\n');
            }
        };
        args.input.count_each(jobs, &mut out, answer)?;
        out.flush()?;
        return Ok(());
    }
    let answer = |board: &Board, first: bool, text: &mut String| {
        if args.json {
            let moves: Vec<[i32; 4]> = board
                .moves()
                .iter()
                .map(|m| [m.a.x, m.a.y, m.b.x, m.b.y])
                .collect();
            writeln!(text, "{}", json!({ "moves": moves }))
        } else {
            // A blank line between the boards' lists.
            if !first {
                text.push('\n');
            }
            board.moves().iter().try_for_each(|m| writeln!(text, "{m}"))
        }
        .map_err(|e| Failure::Other(e.to_string()))
    };
    args.input.answer_each(jobs, &mut out, answer)?;
    out.flush()?;
    Ok(())
}
