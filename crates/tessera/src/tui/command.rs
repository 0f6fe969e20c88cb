//! `tessera play …`: the arguments, validated at the edge into the settings
//! the games start from.

use clap::{Args, Subcommand};
use play::format::Format;
use play::limits::TERMINAL_SLIDE_SIDE;
use play::shisen_game::ShisenSpec;
use play::slide_game::{GoalChoice, SlideSpec};
use shisen::TileSet;

#[derive(Subcommand)]
pub enum PlayCommand {
    /// The sliding puzzle: arrows, hjkl or WASD (capital S, as s solves)
    /// slide tiles, a click slides a row; ? hint, s solve, u undo, n new,
    /// r restart, g goal, q quit.
    #[command(after_help = examples!(
        "tessera play slide --size 4x4 --seed 7",
        "tessera play slide --goal spiral --daily",
        "tessera play slide --format relay-5",
    ))]
    Slide(SlideArgs),
    /// Shisen-Sho: pick two matching tiles with the cursor (Enter) or the
    /// mouse; ? hint, u undo, r redo, x shuffle, n new, q quit.
    #[command(after_help = examples!(
        "tessera play shisen --preset 14x6 --gravity",
        "tessera play shisen --daily",
    ))]
    Shisen(ShisenArgs),
}

#[derive(Args)]
pub struct SlideArgs {
    /// Board size WxH, up to 100x100 [default: a custom goal's size, else
    /// 4x4].
    #[arg(long, value_parser = parse_slide_size)]
    pub size: Option<slide::Size>,
    /// Goal: row-major, blank-first, snake, spiral, missing (the seed
    /// picks the number), missing:K, or a position.
    #[arg(long, default_value = "row-major", value_parser = parse_goal)]
    pub goal: GoalChoice,
    /// Seed of the first puzzle (each new puzzle takes the next seed).
    /// Random if omitted.
    #[arg(long, conflicts_with = "daily")]
    pub seed: Option<u64>,
    /// Today's puzzle (UTC), the same as the web game's daily puzzle.
    #[arg(long)]
    pub daily: bool,
    /// single, marathon-K (K = 2 to 1000 puzzles of the size on one
    /// clock), relay-N (every square size from 3x3 to NxN, on one clock)
    /// or slidysim's 2-n-relay, height-relay, width-relay and
    /// everything-relay down from the size: dealt from the seed as the web
    /// game deals them.
    #[arg(long, default_value = "single", value_parser = parse_format)]
    pub format: Format,
}

/// A format the terminal plays: blindfold needs the page, whose tiles can
/// hide their numbers.
fn parse_format(text: &str) -> Result<Format, String> {
    match text.parse::<Format>().map_err(|e| e.to_string())? {
        Format::Blindfold => {
            Err("bld is played in the web game: the terminal shows every number".into())
        }
        format => Ok(format),
    }
}

#[derive(Args)]
pub struct ShisenArgs {
    /// kshisen size: 14x6, 16x9, 18x8 (default), 24x12, 26x14, 30x16, or
    /// small, medium, large.
    #[arg(long, default_value = "18x8", value_parser = parse_preset)]
    pub preset: shisen::Size,
    /// Tiles fall down their column after a removal.
    #[arg(long)]
    pub gravity: bool,
    /// The Chinese set: one tile of each flower and season; any flower
    /// matches any flower, any season any season.
    #[arg(long)]
    pub chinese: bool,
    /// Deal only boards the solver can clear (uniformly among them, as
    /// `tessera shisen new --solvable`).
    #[arg(long)]
    pub solvable: bool,
    /// Seed of the first deal (each new deal takes the next seed). Random
    /// if omitted.
    #[arg(long, conflicts_with = "daily")]
    pub seed: Option<u64>,
    /// Today's deal (UTC), the same as the web game's daily deal.
    #[arg(long)]
    pub daily: bool,
    /// Letters instead of mahjong glyphs, for terminals whose fonts lack
    /// them.
    #[arg(long)]
    pub ascii: bool,
}

impl SlideArgs {
    /// The puzzles to deal: `--size` (else a custom goal's size, else
    /// 4×4) and `--goal`, at most the terminal's largest board.
    pub fn spec(&self) -> Result<SlideSpec, String> {
        let spec = SlideSpec::sized(self.size, self.goal.clone()).map_err(|e| e.to_string())?;
        let size = spec.size;
        if size.width().max(size.height()) > TERMINAL_SLIDE_SIDE {
            return Err(format!(
                "a {size} board is too large to play in a terminal: at most {TERMINAL_SLIDE_SIDE}x{TERMINAL_SLIDE_SIDE}"
            ));
        }
        Ok(spec)
    }
}

impl ShisenArgs {
    /// The deals to make.
    pub fn spec(&self) -> ShisenSpec {
        ShisenSpec {
            size: self.preset,
            tiles: if self.chinese {
                TileSet::Chinese
            } else {
                TileSet::Standard
            },
            gravity: self.gravity,
            solvable: self.solvable,
        }
    }
}

/// The first seed: given, today's, or random.
pub fn first_seed(seed: Option<u64>, daily: bool, now_millis: i64) -> u64 {
    match (seed, daily) {
        (Some(seed), _) => seed,
        (None, true) => play::seed::daily_seed(now_millis),
        (None, false) => play::seed::random_seed(),
    }
}

fn parse_slide_size(s: &str) -> Result<slide::Size, String> {
    s.parse().map_err(|e: slide::SizeError| e.to_string())
}

fn parse_goal(s: &str) -> Result<GoalChoice, String> {
    s.parse().map_err(|e: slide::GoalError| e.to_string())
}

fn parse_preset(s: &str) -> Result<shisen::Size, String> {
    shisen::Size::preset(s).map_err(|e| e.to_string())
}
