//! The formats speedsolvers compete in, as the sliding-puzzle community
//! ranks them: a single solve, marathons, relays and blindfold solves; how
//! one seed deals a whole format; how a format's submission is checked and
//! judged ([`submission`]); and under which control a result is filed
//! ([`control`]).
//!
//! A format is played on one clock: the next puzzle appears the moment the
//! last one is solved, and every move's time counts from when the format
//! started. Each puzzle is then judged by the same rules as a single solve
//! ([`crate::judge`]), on times counted from when *it* appeared.

use std::fmt;
use std::str::FromStr;

use slide::{GoalError, Size};

use crate::average::DnfRule;
use crate::limits::{format_moves, FORMAT_MOVES, FORMAT_PUZZLES, RELAY_LAST_SIDE};
use crate::slide_game::{Puzzle, SlideSpec};

mod control;
mod descent;
mod submission;
#[cfg(test)]
mod tests;

pub use control::{slide_bounds, Control, ControlError, Input, CONTROL_PERCENT};
pub use descent::Descent;
pub use submission::{
    judge, replay, FormatEvidence, FormatOutcome, Played, PuzzleUnranked, SubmissionError,
};

/// How many puzzles a marathon may have: two at least (one is a single
/// solve), a thousand at most, the longest marathon the community ranks
/// (slidysim's own setting goes higher, but nobody ranks those).
pub const MARATHON_LENGTHS: std::ops::RangeInclusive<usize> = 2..=1000;

// The submission limits are sized for the longest marathon.
const _: () = assert!(FORMAT_PUZZLES == *MARATHON_LENGTHS.end());

/// The first size of every `relay-N` (3×3): tessera's own relay starts
/// where a puzzle takes some thought.
pub const RELAY_FIRST_SIDE: usize = 3;

/// Mixed into a format's seed to key the stream its puzzles' seeds are
/// drawn from (the bytes of "format"), so that stream is not the one the
/// format's seed itself scrambles a single puzzle with.
const FORMAT_STREAM: u64 = 0x666f_726d_6174;

/// A way of playing: one puzzle or many on one clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// One puzzle: the solve tessera has always had.
    Single,
    /// This many puzzles of the spec's size.
    Marathon(MarathonLength),
    /// Every square size from 3×3 up to this side, in order.
    Relay(RelaySide),
    /// One of slidysim's relays, down from the spec's size.
    Down(Descent),
    /// Blindfold: one puzzle, its tiles blank from the first move on.
    Blindfold,
}

/// A marathon's length, within [`MARATHON_LENGTHS`]: no format of no
/// puzzles can be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MarathonLength(usize);

impl MarathonLength {
    /// The length `count`, if a marathon can have it.
    pub fn new(count: usize) -> Result<Self, FormatError> {
        if MARATHON_LENGTHS.contains(&count) {
            Ok(MarathonLength(count))
        } else {
            Err(FormatError::MarathonLength(count))
        }
    }

    /// How many puzzles.
    pub fn get(self) -> usize {
        self.0
    }
}

/// The last side of a relay, from 4 to [`RELAY_LAST_SIDE`]: a relay has
/// two puzzles at least.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RelaySide(usize);

impl RelaySide {
    /// The relay up to `side`×`side`, if there is one.
    pub fn new(side: usize) -> Result<Self, FormatError> {
        if (RELAY_FIRST_SIDE + 1..=RELAY_LAST_SIDE).contains(&side) {
            Ok(RelaySide(side))
        } else {
            Err(FormatError::RelaySide(side))
        }
    }

    /// The last side.
    pub fn get(self) -> usize {
        self.0
    }
}

/// Text that names no format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// Not one of the format names.
    #[error("{0:?} is not a format: expected single, marathon-K (K = 2 to 1000), relay-N (N = 4 to {RELAY_LAST_SIDE}), 2-n-relay, height-relay, width-relay, everything-relay or bld")]
    Unknown(String),
    /// A count that is not a number.
    #[error("{text:?} in {format:?} is not a number")]
    Number {
        /// The whole format text.
        format: String,
        /// The part after the `-`.
        text: String,
    },
    /// A marathon of another length.
    #[error("marathon-{0}: a marathon is 2 to 1000 puzzles")]
    MarathonLength(usize),
    /// A relay ending below 4×4 or above the largest board the page deals.
    #[error("relay-{0}: a relay goes from 3x3 up to NxN, with N from 4 to {RELAY_LAST_SIDE}")]
    RelaySide(usize),
}

/// Why a format cannot be dealt for a spec.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    /// The spec's goal does not fit the size of one of the puzzles (a
    /// relay changes the size, and a goal written as a position or a
    /// missing number can fit only some sizes).
    #[error("puzzle {puzzle} of {format} is {size}: {error}")]
    Goal {
        /// The format.
        format: Format,
        /// 1-based index of the puzzle.
        puzzle: usize,
        /// Its size.
        size: Size,
        /// Why the goal does not fit.
        error: GoalError,
    },
    /// A marathon or a relay down from boards larger than the largest
    /// they deal.
    #[error("{format} is dealt on boards up to {RELAY_LAST_SIDE}x{RELAY_LAST_SIDE}, not {size}: play a larger board as a single solve")]
    TooLarge {
        /// The format.
        format: Format,
        /// The size asked for.
        size: Size,
    },
    /// A relay down from a size it cannot start at.
    #[error("{format} cannot start at {size}: {needs}")]
    CannotStart {
        /// The format.
        format: Format,
        /// The size asked for.
        size: Size,
        /// The sizes it starts at.
        needs: &'static str,
    },
    /// A format whose puzzles together would allow more moves than one
    /// submission holds.
    #[error("{format} of {size} would need up to {moves} moves, more than the {FORMAT_MOVES} one submission holds: play fewer puzzles or a smaller board")]
    TooLong {
        /// The format.
        format: Format,
        /// The size asked for.
        size: Size,
        /// The moves its puzzles are allowed together.
        moves: usize,
    },
}

impl Format {
    /// Whether one puzzle is the whole format.
    pub fn is_one_puzzle(self) -> bool {
        matches!(self, Format::Single | Format::Blindfold)
    }

    /// What an unfinished result does to the averages running through it:
    /// slidysim resets a blindfold session on a DNF, so a blindfold
    /// average is of solves in a row that all finished.
    pub fn dnf_rule(self) -> DnfRule {
        match self {
            Format::Blindfold => DnfRule::EndsAverages,
            _ => DnfRule::Worst,
        }
    }

    /// The seed of each of `count` puzzles of the format dealt from `seed`.
    ///
    /// A single or blindfold puzzle's seed is the format's own, so those
    /// deal exactly the puzzle `SlideSpec::issue(seed)` always has. Any
    /// other format's puzzle `i` (from 0) has the `i + 1`-th value of the
    /// stream `common::Rng::new(seed ^ FORMAT_STREAM)`: a longer marathon
    /// starts with the puzzles of a shorter one of the same seed.
    pub fn seeds(self, seed: u64, count: usize) -> Vec<u64> {
        if self.is_one_puzzle() {
            return vec![seed];
        }
        let mut stream = common::Rng::new(seed ^ FORMAT_STREAM);
        (0..count).map(|_| stream.next_u64()).collect()
    }

    /// The size of each puzzle, in order, for the spec's `size`.
    fn sizes(self, size: Size) -> Result<Vec<Size>, DealError> {
        let format = self;
        let largest = |size: Size| size.width().max(size.height()) > RELAY_LAST_SIDE;
        let sizes = match self {
            Format::Single | Format::Blindfold => vec![size],
            Format::Marathon(_) | Format::Down(_) if largest(size) => {
                return Err(DealError::TooLarge { format, size });
            }
            Format::Marathon(count) => vec![size; count.get()],
            Format::Relay(last) => (RELAY_FIRST_SIDE..=last.get())
                .map(|side| Size::square(side).expect("relay sides are sizes"))
                .collect(),
            Format::Down(descent) => {
                descent
                    .check(size)
                    .map_err(|needs| DealError::CannotStart {
                        format,
                        size,
                        needs,
                    })?;
                descent.sizes(size)
            }
        };
        let moves = format_moves(&sizes);
        if !self.is_one_puzzle() && moves > FORMAT_MOVES {
            return Err(DealError::TooLong {
                format,
                size,
                moves,
            });
        }
        Ok(sizes)
    }

    /// The spec of each puzzle: the spec itself, or for a relay its goal
    /// on each size the relay deals.
    pub fn specs(self, spec: &SlideSpec) -> Result<Vec<SlideSpec>, DealError> {
        let sizes = self.sizes(spec.size)?;
        if matches!(
            self,
            Format::Single | Format::Blindfold | Format::Marathon(_)
        ) {
            return Ok(vec![spec.clone(); sizes.len()]);
        }
        sizes
            .into_iter()
            .enumerate()
            .map(|(i, size)| {
                SlideSpec::new(size, spec.goal.clone()).map_err(|error| DealError::Goal {
                    format: self,
                    puzzle: i + 1,
                    size,
                    error,
                })
            })
            .collect()
    }

    /// The records variant the format's results count under: the spec's
    /// (a relay down counts under the size it starts at), or for a
    /// `relay-N` its goal on the last size (`relay-5` is the same relay
    /// whatever size was asked for).
    pub fn variant(self, spec: &SlideSpec) -> Result<String, DealError> {
        let specs = self.specs(spec)?;
        let counted = match self {
            Format::Relay(_) => specs.last(),
            _ => specs.first(),
        };
        Ok(counted.expect("every format deals a puzzle").variant())
    }

    /// Every puzzle of the format dealt from `seed`, in order: the same
    /// seed deals the same puzzles on every front end.
    pub fn deal(self, spec: &SlideSpec, seed: u64) -> Result<Vec<Puzzle>, DealError> {
        let specs = self.specs(spec)?;
        specs
            .iter()
            .zip(self.seeds(seed, specs.len()))
            .enumerate()
            .map(|(i, (spec, seed))| {
                spec.issue(seed).map_err(|error| DealError::Goal {
                    format: self,
                    puzzle: i + 1,
                    size: spec.size,
                    error,
                })
            })
            .collect()
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Format::Single => f.write_str("single"),
            Format::Marathon(count) => write!(f, "marathon-{}", count.get()),
            Format::Relay(side) => write!(f, "relay-{}", side.get()),
            Format::Down(descent) => f.write_str(descent.name()),
            Format::Blindfold => f.write_str("bld"),
        }
    }
}

impl FromStr for Format {
    type Err = FormatError;

    /// `single`, `marathon-10`, `relay-5`, `height-relay`, `bld` (any
    /// case).
    fn from_str(s: &str) -> Result<Format, FormatError> {
        let text = s.trim().to_ascii_lowercase();
        match text.as_str() {
            "single" => return Ok(Format::Single),
            "bld" => return Ok(Format::Blindfold),
            _ => {}
        }
        if let Some(descent) = Descent::ALL.into_iter().find(|d| d.name() == text) {
            return Ok(Format::Down(descent));
        }
        let Some((kind, count)) = text.split_once('-') else {
            return Err(FormatError::Unknown(s.to_string()));
        };
        let number = || {
            count.parse::<usize>().map_err(|_| FormatError::Number {
                format: s.to_string(),
                text: count.to_string(),
            })
        };
        match kind {
            "marathon" => Ok(Format::Marathon(MarathonLength::new(number()?)?)),
            "relay" => Ok(Format::Relay(RelaySide::new(number()?)?)),
            _ => Err(FormatError::Unknown(s.to_string())),
        }
    }
}
