//! `tessera shisen path` and `moves`: connections and move lists.

use std::io::Write;

use clap::Args;
use serde_json::json;
use shisen::{Board, Path, Point};

use super::shisen_input::{parse_point, Input};
use super::Failure;

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
    /// Answer this many runs of boards at once (output stays in input order).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: u32,
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

pub fn path(args: PathArgs) -> Result<(), Failure> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    args.input.for_each(|board| {
        let a = tile_at(board, args.from)?;
        let b = tile_at(board, args.to)?;
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

pub fn moves(args: MovesArgs) -> Result<(), Failure> {
    use std::fmt::Write as _;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let answer = |board: &Board, first: bool, text: &mut String| {
        match (args.count, args.json) {
            (true, false) => writeln!(text, "{}", board.count_moves()),
            (true, true) => writeln!(text, "{}", json!({ "count": board.count_moves() })),
            (false, true) => {
                let moves: Vec<[i32; 4]> = board
                    .moves()
                    .iter()
                    .map(|m| [m.a.x, m.a.y, m.b.x, m.b.y])
                    .collect();
                writeln!(text, "{}", json!({ "moves": moves }))
            }
            (false, false) => {
                // A blank line between the boards' lists.
                if !first {
                    text.push('\n');
                }
                board.moves().iter().try_for_each(|m| writeln!(text, "{m}"))
            }
        }
        .map_err(|e| Failure::Other(e.to_string()))
    };
    args.input
        .answer_each(args.jobs as usize, &mut out, answer)?;
    out.flush()?;
    Ok(())
}
