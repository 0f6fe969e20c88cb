//! Time attack: three minutes of sliding puzzles, one after another, each
//! at least as far from solved as the one before; scored by the puzzles
//! solved, with time added for solving efficiently (lichess's Puzzle Storm,
//! on the 4×4).
//!
//! One concept a file: the run's puzzles from its seed (`deal`), the clock
//! and its bonus rule (`clock`), a submission replayed, scored and judged
//! (`replay`).

mod clock;
mod deal;
mod replay;

pub use clock::{bonus_millis, efficient, efficient_within, RunClock, BONUSES_MILLIS, RUN_MILLIS};
pub use deal::{deal, DealError, Puzzle, Run, PUZZLES};
pub use replay::{replay, Outcome, Played, Refusal, MOST_MOVES};

#[cfg(test)]
mod tests;
