//! Shisen-Sho: pairs of matching tiles are removed when a path of at most
//! three straight segments through empty cells — the ring around the board
//! included — joins them.
//!
//! A pure engine: no I/O, deterministic, no global state. Text comes in
//! through [`parse`], deals through [`Deal`]; paths ([`Board::path`]) and
//! move lists ([`Board::moves`]) run on occupancy bitboards; [`Game`] plays
//! (gravity, undo and redo, shuffles, hints, scoring hooks) and [`solve`]
//! decides exactly whether a board can be cleared.
//!
//! Seeds reproduce everywhere: a `u64` seed is expanded by splitmix64 into
//! the key of a ChaCha8 stream, sampled with Lemire's unbiased method and
//! shuffled by Fisher–Yates (the `common` crate's [`Rng`], shared with the
//! sliding-puzzle engine), so no crate upgrade changes a seeded deal.

mod batch;
mod board;
mod deal;
mod game;
mod kind;
mod line;
mod moves;
mod parse;
mod path;
mod point;
mod rules;
mod size;
mod solver;
mod tileset;

pub use board::{Board, BoardError};
pub use common::Rng;
pub use deal::{Deal, SolvableDeal};
pub use game::{Action, Game, MoveError, Stats};
pub use kind::{Dragon, Face, Kind, KindError, Suit, Wind};
pub use moves::Move;
pub use parse::{parse_board, parse_boards, Boards, ParseError, Problem};
pub use path::Path;
pub use point::{Point, PointError};
pub use rules::{Matching, Rules, RulesError};
pub use size::{Size, SizeError, MAX_HEIGHT, MAX_WIDTH, PRESETS};
pub use solver::{solve, Budget, Nodes, Solution, Verdict};
pub use tileset::{TileSet, TileSetError};
