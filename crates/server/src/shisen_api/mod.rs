//! The Shisen-Sho API: deals, paths (with the board after the removal, so
//! the client needs no gravity rules of its own), hints, shuffles, pauses,
//! and replay of submitted games into results. The rules of a session —
//! which board a seed deals, how a shuffle is seeded, what a hint is — are
//! `play::shisen_game`'s.

mod deal;
mod session;
mod submit;
mod tools;
mod turns;

pub use deal::*;
pub use session::*;
pub use submit::*;
pub use tools::*;
pub use turns::*;
