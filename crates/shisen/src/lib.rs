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
//! shuffled by Fisher–Yates, all written here (see [`rng`]), so no crate
//! upgrade changes a seeded deal.

pub mod board;
pub mod deal;
pub mod game;
pub mod kind;
mod line;
pub mod moves;
pub mod parse;
pub mod path;
pub mod point;
pub mod rng;
pub mod rules;
pub mod size;
pub mod solver;
pub mod tileset;

pub use board::{Board, BoardError};
pub use deal::{Deal, SolvableDeal};
pub use game::{Action, Game, MoveError, Stats};
pub use kind::{Dragon, Face, Kind, KindError, Suit, Wind};
pub use moves::Move;
pub use parse::{parse_board, parse_boards, ParseError, Problem};
pub use path::Path;
pub use point::{Point, PointError};
pub use rng::DealRng;
pub use rules::{Matching, Rules};
pub use size::{Size, SizeError, MAX_HEIGHT, MAX_WIDTH};
pub use solver::{solve, Budget, Nodes, Solution, Verdict};
pub use tileset::{TileSet, TileSetError};
