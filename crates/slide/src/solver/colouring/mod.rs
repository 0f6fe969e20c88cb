//! An admissible multi-tile (MTM) bound from a colouring of the tiles.
//!
//! Additive pattern databases do not carry over to MTM: one move may slide
//! tiles of several patterns, so the sum of per-pattern MTM costs can
//! exceed the true distance. An abstraction of the whole board does carry
//! over. Paint every tile in one of a few colours by the quadrant of the
//! board it belongs to, and forget which tile of a colour is which. Every
//! multi-tile move of the real board is a multi-tile move of the painted
//! board, so the painted board's distance to the painted goal never
//! exceeds the real distance: an admissible bound. One breadth-first
//! search from the painted goal finds it for every painted board.
//!
//! On 4 × 4 with the blank's goal in a corner the colours hold 2, 4, 5 and
//! 4 tiles (the quadrant opposite the blank is split, and the blank's own
//! quadrant borrows a tile), so there are 16!/(2!·4!·5!·4!) = 151,351,200
//! painted boards. A board symmetry that fixes the goal's blank (the
//! diagonal reflection, on a square board with a corner blank) maps the
//! goal to itself and keeps every distance, so the search looks up the
//! reflected board too and takes the larger bound.
//!
//! A painted board is indexed by the rank of the colour sequence read over
//! the cells but the blank's in row-major order, then the blank's cell. A
//! horizontal move keeps that sequence, so it changes only the blank's
//! part of the index (in the search, for the reflected view, a vertical
//! move does), and the neighbour lies in the same cache line: the build's
//! and the search's horizontal look-ups cost no memory traffic.
//!
//! The table keeps each distance modulo 3 in two bits (38 MB on 4 × 4):
//! one move changes a painted distance by at most one, so the search,
//! knowing a board's distances, reads its children's from the residues.
//! The root's are found by walking down the table to the painted goal.
//! The breadth-first search fills a byte per board, expanding each level
//! while it is small and, once fewer boards are left than the level
//! holds, checking each board left for a neighbour on the level.

use super::pdb::{check_file, checksum, BuildProgress, LoadError};
use super::relabel::Canonical;
use crate::{Direction, Moves, Size};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Painted boards beyond this many are not worth a table.
const MAX_ENTRIES: usize = 300_000_000;

const UNSEEN: u8 = u8::MAX;

/// Tables of at most this many entries build in well under a second, so
/// even a search with a budget builds them.
const QUICK_ENTRIES: usize = 5_000_000;

mod build;
mod indexing;
mod paint;
mod search;
mod table;
#[cfg(test)]
mod tests;

use build::*;
use indexing::*;
use paint::*;
use table::*;

pub(crate) use search::{search, search_within};
pub use table::{ColourTable, COLOUR_FORMAT_VERSION};
