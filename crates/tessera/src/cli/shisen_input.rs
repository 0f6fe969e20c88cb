//! The options of the Shisen-Sho commands that read boards, and the
//! parsers of the values they take.

use clap::Args;
use play::limits::STDIN_LINE_BYTES;
use shisen::{Board, Matching, Point, Size, TileSet};

use super::Failure;

/// Options of commands that read boards.
#[derive(Args)]
pub struct Input {
    /// Chinese matching: any flower matches any flower, any season any season.
    #[arg(long)]
    pub chinese: bool,
    /// Tiles fall after a removal. Accepted for uniformity: paths and move
    /// lists of a given board do not depend on it.
    #[arg(long)]
    pub gravity: bool,
    /// A board (rows separated by newlines or /), or - for boards on stdin.
    #[arg(default_value = "-")]
    pub board: String,
}

pub fn parse_size(s: &str) -> Result<Size, String> {
    s.parse().map_err(|e: shisen::SizeError| e.to_string())
}

pub fn parse_preset(s: &str) -> Result<Size, String> {
    Size::preset(s).map_err(|e| e.to_string())
}

pub fn parse_tiles(s: &str) -> Result<TileSet, String> {
    s.parse().map_err(|e: shisen::TileSetError| e.to_string())
}

pub fn parse_point(s: &str) -> Result<Point, String> {
    s.parse().map_err(|e: shisen::PointError| e.to_string())
}

impl Input {
    pub fn matching(&self) -> Matching {
        if self.chinese {
            Matching::Chinese
        } else {
            Matching::Standard
        }
    }

    /// The text to parse: the argument, or all of stdin (no line past the
    /// line limit: see [`super::input`]).
    fn text(&self) -> Result<String, Failure> {
        if self.board == "-" {
            super::input::read_all(std::io::stdin().lock(), STDIN_LINE_BYTES)
        } else if self.board.contains('\n') {
            Ok(self.board.clone())
        } else {
            Ok(self.board.replace('/', "\n"))
        }
    }

    /// Calls `each` on every board of the input, stopping at the first
    /// malformed one.
    pub fn for_each(
        &self,
        mut each: impl FnMut(Board) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        let text = self.text()?;
        let mut any = false;
        for board in shisen::parse_boards(&text, self.matching()) {
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
