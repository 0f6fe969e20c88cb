//! The run's clock: three minutes, and time added for efficient solves.
//!
//! Puzzle Storm adds time for a combo of correct moves; a sliding puzzle
//! has no wrong move, only wasted ones, so here the combo is of efficient
//! solves: a puzzle solved in at most 1.5 times its optimal number of
//! single-tile moves ([`efficient`]). The first two efficient solves in a
//! row add 3 s each, and every one after them in the streak 5 s; a solve
//! over 1.5 times the optimum adds nothing and starts the streak again.
//!
//! Why these amounts: a strong player solves the run's early 4×4 puzzles
//! (10 to 20 moves) in 2 to 4 s, so 3 s about pays back an efficient
//! solve, and keeping the streak pays a little more, as Puzzle Storm's
//! combo does; the bonus stays below the time the later, longer puzzles
//! take, so a run still ends.

/// How long a run lasts before any bonus: three minutes, as Puzzle Storm.
pub const RUN_MILLIS: i64 = 180_000;

/// The time the `n`-th efficient solve in a row adds (from 1), the last
/// entry for every one after: 3 s, 3 s, then 5 s.
pub const BONUSES_MILLIS: [i64; 3] = [3_000, 3_000, 5_000];

/// The most single-tile moves that solve a puzzle of optimal length
/// `optimal` efficiently: 1.5 times it, rounded down.
pub fn efficient_within(optimal: u32) -> usize {
    3 * optimal as usize / 2
}

/// Whether `moves` single-tile moves solve a puzzle of optimal length
/// `optimal` within 1.5 times the optimum.
pub fn efficient(moves: usize, optimal: u32) -> bool {
    moves <= efficient_within(optimal)
}

/// The time an efficient solve adds, the `streak`-th efficient solve in a
/// row (1 for the first).
pub fn bonus_millis(streak: usize) -> i64 {
    BONUSES_MILLIS[streak.clamp(1, BONUSES_MILLIS.len()) - 1]
}

/// A run's clock as its puzzles are solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunClock {
    /// When the time runs out, in milliseconds since the run started.
    pub ends_at: i64,
    /// Efficient solves in a row so far.
    pub streak: usize,
    /// Time added so far.
    pub bonus_millis: i64,
}

impl Default for RunClock {
    fn default() -> RunClock {
        RunClock::new()
    }
}

impl RunClock {
    /// A run's clock before its first puzzle.
    pub fn new() -> RunClock {
        RunClock {
            ends_at: RUN_MILLIS,
            streak: 0,
            bonus_millis: 0,
        }
    }

    /// A puzzle of optimal length `optimal` solved in `moves` at `at`
    /// milliseconds: false (and nothing changes) if the time had run out
    /// by then; else true, with the bonus added if it was efficient.
    pub fn solve(&mut self, at: i64, moves: usize, optimal: u32) -> bool {
        if at > self.ends_at {
            return false;
        }
        if efficient(moves, optimal) {
            self.streak += 1;
            let bonus = bonus_millis(self.streak);
            self.ends_at += bonus;
            self.bonus_millis += bonus;
        } else {
            self.streak = 0;
        }
        true
    }
}
