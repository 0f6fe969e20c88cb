//! Game sessions: everything between the engines and the front ends.
//!
//! The engines (`slide`, `shisen`) know the rules of a position or a
//! board. A *session* needs more: where seeds come from, which puzzle a
//! seed and a spec issue, which solver answers within which budget, what a
//! hint is, how a shuffle is seeded, how a move list replays to an outcome,
//! and how a result is judged. Each of those rules lives here once, so the
//! command line, the web server and the terminal game cannot disagree.
//!
//! No front end's types appear here: no HTTP, no terminal, no argument
//! parser. Front ends translate their input into these types and render
//! what comes back.

pub mod arena;
pub mod average;
pub mod daily;
pub mod display;
pub mod fmc;
pub mod format;
mod game;
pub mod shisen_game;
pub mod slide_game;
pub mod time_attack;

mod deadline;
pub mod judge;
pub mod limits;
pub mod pairing;
pub mod power;
pub mod race;
pub mod rating;
pub mod result;
pub mod seed;
pub mod stopwatch;

pub use deadline::{thread_cpu_time, Cancel, Deadline};
pub use game::{GameKind, GameKindError};
pub mod tables;
