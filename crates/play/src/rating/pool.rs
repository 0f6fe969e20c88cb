//! Rating pools: which races are rated together. A rating says how a
//! player does against others on the same puzzle, so each pool races one
//! spec, and a player has one rating per pool.

use std::fmt;
use std::str::FromStr;

use slide::Goal;

use crate::race::RaceSpec;
use crate::shisen_game::ShisenSpec;
use crate::slide_game::{GoalChoice, SlideSpec};

/// A pool of rated races.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pool {
    /// The 3×3 sliding puzzle, solved to row-major order.
    Slide3x3,
    /// The 4×4 sliding puzzle, solved to row-major order.
    Slide4x4,
    /// The 5×5 sliding puzzle, solved to row-major order.
    Slide5x5,
    /// Classic Shisen-Sho: 18 × 8, the standard tiles, no gravity,
    /// solvable deals.
    Shisen18x8,
}

/// A pool's name or a race spec that names no pool.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// A name that is not a pool's.
    #[error(
        "{0:?} is not a rating pool: expected one of slide-3x3, slide-4x4, slide-5x5, shisen-18x8"
    )]
    Name(String),
    /// A race spec no pool rates.
    #[error("{0} races are not rated: a rated race is one of slide:3x3-row-major, slide:4x4-row-major, slide:5x5-row-major, shisen:18x8")]
    Unrated(String),
}

impl Pool {
    /// Every pool, in the order they are shown.
    pub const ALL: [Pool; 4] = [
        Pool::Slide3x3,
        Pool::Slide4x4,
        Pool::Slide5x5,
        Pool::Shisen18x8,
    ];

    /// The pool's name: `slide-3x3`, `slide-4x4`, `slide-5x5`,
    /// `shisen-18x8`.
    pub fn name(self) -> &'static str {
        match self {
            Pool::Slide3x3 => "slide-3x3",
            Pool::Slide4x4 => "slide-4x4",
            Pool::Slide5x5 => "slide-5x5",
            Pool::Shisen18x8 => "shisen-18x8",
        }
    }

    /// What the pool's races race.
    pub fn spec(self) -> RaceSpec {
        let slide = |n: usize| {
            RaceSpec::Slide(
                SlideSpec::new(
                    slide::Size::square(n).expect("a pool's size is a size"),
                    GoalChoice::Goal(Goal::RowMajor),
                )
                .expect("row-major fits every size"),
            )
        };
        match self {
            Pool::Slide3x3 => slide(3),
            Pool::Slide4x4 => slide(4),
            Pool::Slide5x5 => slide(5),
            Pool::Shisen18x8 => RaceSpec::Shisen(ShisenSpec::CLASSIC),
        }
    }

    /// How long a rated race of the pool may run, in milliseconds: then
    /// whoever has not solved is out, unfinished, and the race is
    /// settled. Without a limit one racer who stays without playing would
    /// hold every other racer's rating back; each is several times what a
    /// beginner who knows how to solve takes (a 3×3 in a minute, a 4×4 in
    /// three, a 5×5 in six, a classic Shisen-Sho board in fifteen).
    pub fn time_limit_ms(self) -> i64 {
        let minutes = match self {
            Pool::Slide3x3 => 3,
            Pool::Slide4x4 => 10,
            Pool::Slide5x5 => 20,
            Pool::Shisen18x8 => 40,
        };
        minutes * 60_000
    }

    /// The pool that rates races of `spec`, or why none does.
    pub fn of(spec: &RaceSpec) -> Result<Pool, PoolError> {
        Pool::ALL
            .into_iter()
            .find(|pool| pool.spec() == *spec)
            .ok_or_else(|| PoolError::Unrated(spec.to_string()))
    }
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Pool {
    type Err = PoolError;

    fn from_str(text: &str) -> Result<Pool, PoolError> {
        Pool::ALL
            .into_iter()
            .find(|pool| pool.name() == text)
            .ok_or_else(|| PoolError::Name(text.to_string()))
    }
}
