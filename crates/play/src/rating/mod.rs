//! Ratings: how strong a player is in one pool of rated races, as a
//! Glicko-2 rating that moves after every rated race.
//!
//! One concept a file:
//!
//! - [`Rating`] and its update ([`Rating::update`]): Glicko-2 as Glickman
//!   describes it in "Example of the Glicko-2 system" (2013), with the
//!   values lichess plays by ([`Params::LICHESS`]);
//! - [`Pool`]: which races are rated together (`slide-3x3`, `slide-4x4`,
//!   `slide-5x5`, `shisen-18x8`) and which spec each races;
//! - [`score`]: a race's outcomes as games between each pair of racers,
//!   and every racer's new rating from them ([`settle`]).
//!
//! Each rated race is one rating period for every racer in it: all its
//! games count together, against the ratings everyone had before the race.
//! Between races the rating stays and its deviation widens with the days
//! away ([`Rating::idle`]), as lichess's does: the store applies it when a
//! rating is read, so a stored rating is as of its last race.

mod glicko;
mod pool;
pub mod score;
#[cfg(test)]
mod tests;

pub use glicko::{Game, Params, Rating};
pub use pool::{Pool, PoolError};
pub use score::{settle, Outcome};
