//! Building a pattern database: a breadth-first search over
//! (placement, blank region) states in which only pattern-tile moves cost
//! a step (Felner, Korf & Hanan 2004).
//!
//! The search writes the final table as it goes, four bits per placement,
//! and keeps beside it one bit per (placement, free cell) — the cells whose
//! blank region has been reached — and two bits per placement for later
//! regions. For the 8-tile pattern of the 4 × 4 board that is 259 MB of
//! values, 519 MB of marks and 130 MB of flags, where two bits per
//! (placement, free cell) and a byte per value took 1.5 GB.
//!
//! Two facts keep the state that small:
//! - **Parity.** A pattern move takes one tile one cell, so it changes the
//!   pattern's Manhattan sum by exactly one: every state's distance has the
//!   parity of its placement's Manhattan sum, and the two ends of a move lie
//!   one layer apart. While layer `d` is expanded, a placement is therefore
//!   unreached, finished, or waiting with distance `d` or `d + 1`: a nibble
//!   code for each parity says which, and no distance needs storing.
//! - **The first region reached gives the value.** The lookup takes the
//!   minimum over blank regions, which is the distance of the first one
//!   reached. A region of a finished placement reached later (at a
//!   distance of the same parity, two or more layers on) is marked at
//!   once and flagged for the next layer, one flag per parity, so a layer
//!   never mistakes it for its own; that layer expands the placement's
//!   regions again, the old ones finding nothing new.
//!
//! A finished placement holds its excess over the Manhattan sum, halved
//! (the excess is even by the parity above), in 0..=12; larger excesses are
//! capped, which keeps the value a lower bound.

use super::grid::Grid;
use super::pdb::{full_mask, index, Geometry, PatternDatabase, PatternSpec};
use super::BuildProgress;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Nibble codes of a placement during the build; 0..=[`MAX_EXCESS`] are
/// finished values.
const UNSET: u64 = 15;
const WAITING_ODD: u64 = 14;
const WAITING_EVEN: u64 = 13;
/// The largest stored half excess over the Manhattan sum.
pub(super) const MAX_EXCESS: u8 = 12;
/// Words of values scanned between two progress reports.
const BATCH_WORDS: usize = 1 << 16;
/// Words set up between two questions to the stop hook (32 MB).
const SETUP_WORDS: usize = 1 << 22;
const NIBBLES: u64 = 0x1111_1111_1111_1111;
const LOW_BITS: u64 = 0x5555_5555_5555_5555;

impl PatternDatabase {
    /// Builds the database by breadth-first search; `progress` is called
    /// now and then (and once at the end).
    pub fn build(spec: &PatternSpec, progress: &mut dyn FnMut(BuildProgress)) -> PatternDatabase {
        PatternDatabase::build_until(spec, progress, &|| false).expect("a build never stopped")
    }

    /// Like [`PatternDatabase::build`], giving up (`None`) once `stop`
    /// returns true: it is asked every [`SETUP_WORDS`] words while the
    /// build's memory is set up (900 MB for the 8-tile table of 4 × 4,
    /// seconds to clear), then whenever `progress` is told, every
    /// [`BATCH_WORDS`] words of a layer (well under a second apart on
    /// 4 × 4).
    pub fn build_until(
        spec: &PatternSpec,
        progress: &mut dyn FnMut(BuildProgress),
        stop: &dyn Fn() -> bool,
    ) -> Option<PatternDatabase> {
        let (packed, capped) = Builder::new(spec, stop)?.run(progress, stop)?;
        Some(PatternDatabase::new(spec, Box::new(packed), 0, capped))
    }
}

fn waiting(depth: u32) -> u64 {
    if depth.is_multiple_of(2) {
        WAITING_EVEN
    } else {
        WAITING_ODD
    }
}

/// A word of values with anything but a finished value (a placement never
/// reached: none should be) set to 0, which is still a lower bound. The
/// words' nibbles are already the file's packing: placement `p` in nibble
/// `p % 16`, so two a byte, the even one low.
fn finished(word: u64) -> u64 {
    (0..16)
        .map(|slot| word >> (slot * 4) & 15)
        .enumerate()
        .filter(|&(_, v)| v <= MAX_EXCESS as u64)
        .fold(0, |out, (slot, v)| out | v << (slot * 4))
}

mod builder;
mod placement;
#[cfg(test)]
mod tests;

use builder::*;
use placement::*;
