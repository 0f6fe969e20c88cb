//! What both engines share, so that they cannot drift apart: the one
//! seeded random stream every deal and puzzle is drawn from ([`Rng`]), and
//! the one grammar of board dimensions ([`Dimensions`]) that each engine's
//! `Size` type reads before checking its own limits.
//!
//! Pure and deterministic, like the engines: no I/O, no clock.

mod dimensions;
mod rng;

pub use dimensions::{Dimensions, DimensionsError};
pub use rng::Rng;
