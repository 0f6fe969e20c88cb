//! Lower bounds for IDA*: Manhattan distance, and additive pattern
//! databases with the maximum over a reflected partition.
//!
//! Tiles are named by their goal cells (see the `relabel` module). A
//! partition splits the goal cells (the blank's excepted) into disjoint
//! patterns; the values of one partition add up. On square boards a second
//! partition, the first one turned on its side, gives a second sum, and the
//! heuristic is the larger of the two (Korf & Felner's "reflected lookup").
//!
//! With [`Lookups::Dual`] the dual position is looked up too (see `Dual`
//! below): about half the nodes on Korf's 100, each node dearer, so it is
//! not the default.
//!
//! A pattern is looked up in the database of a congruent pattern when a
//! symmetry of the board maps one onto the other, so the 4 × 4 board needs
//! one 8-tile and one 7-tile database for every goal with the blank in a
//! corner, both partitions included.

use super::colouring::ColourTable;
use super::grid::Grid;
use super::pdb::{full_mask, Geometry, PatternDatabase, PatternSpec};
use crate::Size;
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::{Arc, Mutex, OnceLock};

mod databases;
mod estimate;
mod kind;
mod partition;
mod patterns;
#[cfg(test)]
mod tests;

use estimate::*;
use partition::*;
use patterns::*;

pub use databases::Databases;
pub(crate) use estimate::{Estimate, Manhattan};
pub use kind::{dual_sets, HeuristicError, HeuristicKind, Lookups, LookupsError};
pub use partition::required_patterns;
pub(crate) use patterns::Patterns;
