//! The formats speedsolvers compete in, as the sliding-puzzle community
//! ranks them: a single solve, marathons, relays and blindfold solves; how
//! one seed deals a whole format; how a format's submission is checked and
//! judged; and under which control (keyboard, mouse click, hover, touch)
//! a result is filed.
//!
//! A format is played on one clock: the next puzzle appears the moment the
//! last one is solved, and every move's time counts from when the format
//! started. Each puzzle is then judged by the same rules as a single solve
//! ([`crate::judge`]), on times counted from when *it* appeared.

use std::fmt;
use std::str::FromStr;

use slide::{GoalError, Moves, ReplayError, Size};

use crate::judge::{self, check_times, Bounds, Evidence, TimesError, Unranked};
use crate::limits::RELAY_LAST_SIDE;
use crate::slide_game::{Outcome, Puzzle, Session, SlideSpec};

/// How many puzzles a marathon may have: the lengths the community ranks.
pub const MARATHON_LENGTHS: [usize; 3] = [10, 42, 100];

// The submission limits are sized for the longest marathon.
const _: () = assert!(crate::limits::FORMAT_PUZZLES == MARATHON_LENGTHS[2]);

/// The first size of every relay (3×3): smaller is no puzzle.
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
    /// Blindfold: one puzzle, its tiles blank from the first move on.
    Blindfold,
}

/// A marathon's length, one of [`MARATHON_LENGTHS`]: no format of no
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
    #[error("{0:?} is not a format: expected single, marathon-K (K = 10, 42 or 100), relay-N (N = 4 to {RELAY_LAST_SIDE}) or bld")]
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
    #[error("marathon-{0}: a marathon is 10, 42 or 100 puzzles")]
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
    /// A marathon of boards larger than the largest it deals.
    #[error("{format} is dealt on boards up to {RELAY_LAST_SIDE}x{RELAY_LAST_SIDE}, not {size}: play a larger board as a single solve")]
    TooLarge {
        /// The format.
        format: Format,
        /// The size asked for.
        size: Size,
    },
}

impl Format {
    /// How many puzzles the format deals.
    pub fn len(self) -> usize {
        match self {
            Format::Single | Format::Blindfold => 1,
            Format::Marathon(count) => count.get(),
            Format::Relay(side) => side.get() + 1 - RELAY_FIRST_SIDE,
        }
    }

    /// Whether the format deals no puzzle (never: every format deals one
    /// at least).
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The seed of each puzzle of the format dealt from `seed`.
    ///
    /// A single or blindfold puzzle's seed is the format's own, so those
    /// deal exactly the puzzle `SlideSpec::issue(seed)` always has. A
    /// marathon's or relay's puzzle `i` (from 0) has the `i + 1`-th value
    /// of the stream `common::Rng::new(seed ^ FORMAT_STREAM)`: a longer
    /// marathon starts with the puzzles of a shorter one of the same seed.
    pub fn seeds(self, seed: u64) -> Vec<u64> {
        match self {
            Format::Single | Format::Blindfold => vec![seed],
            Format::Marathon(_) | Format::Relay(_) => {
                let mut stream = common::Rng::new(seed ^ FORMAT_STREAM);
                (0..self.len()).map(|_| stream.next_u64()).collect()
            }
        }
    }

    /// The spec of each puzzle: the spec itself, or for a relay its goal
    /// on every square size from 3×3 up.
    pub fn specs(self, spec: &SlideSpec) -> Result<Vec<SlideSpec>, DealError> {
        let Format::Relay(last) = self else {
            let size = spec.size;
            if matches!(self, Format::Marathon(_))
                && size.width().max(size.height()) > RELAY_LAST_SIDE
            {
                return Err(DealError::TooLarge { format: self, size });
            }
            return Ok(vec![spec.clone(); self.len()]);
        };
        (RELAY_FIRST_SIDE..=last.get())
            .enumerate()
            .map(|(i, side)| {
                let size = Size::square(side).expect("relay sides are sizes");
                SlideSpec::new(size, spec.goal.clone()).map_err(|error| DealError::Goal {
                    format: self,
                    puzzle: i + 1,
                    size,
                    error,
                })
            })
            .collect()
    }

    /// The records variant the format's results count under: the spec's,
    /// or for a relay its goal on the last size (`relay-5` is the same
    /// relay whatever size was asked for).
    pub fn variant(self, spec: &SlideSpec) -> Result<String, DealError> {
        let specs = self.specs(spec)?;
        Ok(specs.last().expect("every format deals a puzzle").variant())
    }

    /// Every puzzle of the format dealt from `seed`, in order: the same
    /// seed deals the same puzzles on every front end.
    pub fn deal(self, spec: &SlideSpec, seed: u64) -> Result<Vec<Puzzle>, DealError> {
        let specs = self.specs(spec)?;
        specs
            .iter()
            .zip(self.seeds(seed))
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
            Format::Blindfold => f.write_str("bld"),
        }
    }
}

impl FromStr for Format {
    type Err = FormatError;

    /// `single`, `marathon-10`, `relay-5`, `bld` (any case).
    fn from_str(s: &str) -> Result<Format, FormatError> {
        let text = s.trim().to_ascii_lowercase();
        match text.as_str() {
            "single" => return Ok(Format::Single),
            "bld" => return Ok(Format::Blindfold),
            _ => {}
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

/// How one move was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Input {
    /// A key.
    Keyboard,
    /// A click (mouse or pen) on a tile.
    Mouse,
    /// The pointer moving over a tile: the blank follows it.
    Hover,
    /// A touch on a screen.
    Touch,
}

/// What a result is filed under: the way nearly all its moves were made.
/// Keyboard, click and hover times are not comparable (hover solves are
/// the fastest by far), so records keep them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Control {
    /// More than 95 % of the moves by keyboard.
    Keyboard,
    /// More than 95 % by mouse click (named `mouse`, as results were filed
    /// before hover was told apart).
    Mouse,
    /// More than 95 % by hover.
    Hover,
    /// More than 95 % by touch.
    Touch,
    /// No way of moving made more than 95 % of the moves.
    Mixed,
}

/// The share of a result's moves, in percent, that one input must exceed
/// for the result to be filed under it: a few stray clicks in a keyboard
/// solve do not make it mixed.
pub const CONTROL_PERCENT: usize = 95;

/// Text that names no input or control.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a control: expected keyboard, mouse, hover, touch or mixed")]
pub struct ControlError(pub String);

impl Control {
    /// The control of a result whose moves were made by `inputs`: the one
    /// input that made more than [`CONTROL_PERCENT`] % of them, else mixed
    /// (no moves are mixed too: nothing says how they were made).
    pub fn of(inputs: &[Input]) -> Control {
        for (input, control) in [
            (Input::Keyboard, Control::Keyboard),
            (Input::Mouse, Control::Mouse),
            (Input::Hover, Control::Hover),
            (Input::Touch, Control::Touch),
        ] {
            let count = inputs.iter().filter(|&&i| i == input).count();
            if count * 100 > inputs.len() * CONTROL_PERCENT {
                return control;
            }
        }
        Control::Mixed
    }

    /// The control's name, as records filter by it.
    pub fn name(self) -> &'static str {
        match self {
            Control::Keyboard => "keyboard",
            Control::Mouse => "mouse",
            Control::Hover => "hover",
            Control::Touch => "touch",
            Control::Mixed => "mixed",
        }
    }
}

/// The bounds of human play ([`crate::judge`]) for a sliding-puzzle
/// result filed under `control` (`None` when its inputs were not sent) on
/// boards whose longer side is at most `side`. A mixed result may hold
/// hover moves, so it gets hover's bounds: no human mix is refused.
pub fn slide_bounds(control: Option<Control>, side: usize) -> Bounds {
    let bounds = match control {
        Some(Control::Hover | Control::Mixed) => judge::SLIDE_HOVER,
        Some(Control::Mouse) => judge::SLIDE_CLICK,
        Some(Control::Keyboard | Control::Touch) | None => judge::SLIDE,
    };
    bounds.for_side(side)
}

impl fmt::Display for Control {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Control {
    type Err = ControlError;

    fn from_str(s: &str) -> Result<Control, ControlError> {
        [
            Control::Keyboard,
            Control::Mouse,
            Control::Hover,
            Control::Touch,
            Control::Mixed,
        ]
        .into_iter()
        .find(|c| s.trim().eq_ignore_ascii_case(c.name()))
        .ok_or_else(|| ControlError(s.to_string()))
    }
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Input::Keyboard => "keyboard",
            Input::Mouse => "mouse",
            Input::Hover => "hover",
            Input::Touch => "touch",
        })
    }
}

impl FromStr for Input {
    type Err = ControlError;

    fn from_str(s: &str) -> Result<Input, ControlError> {
        match s.parse::<Control>()? {
            Control::Keyboard => Ok(Input::Keyboard),
            Control::Mouse => Ok(Input::Mouse),
            Control::Hover => Ok(Input::Hover),
            Control::Touch => Ok(Input::Touch),
            Control::Mixed => Err(ControlError(s.to_string())),
        }
    }
}

/// One puzzle of a format as submitted: its moves, and each move's time in
/// milliseconds since the *format* started.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Played {
    /// The moves, single-tile.
    pub moves: Moves,
    /// One time per single-tile move.
    pub times: Vec<i64>,
}

/// Why a format's submission is refused: it cannot be what was played.
/// Puzzles are numbered from 1, in the order dealt.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SubmissionError {
    /// Puzzles missing (or too many).
    #[error("{format} deals {dealt} puzzles but {sent} were sent: send every puzzle, in the order dealt")]
    Count {
        /// The format.
        format: Format,
        /// Puzzles dealt.
        dealt: usize,
        /// Puzzles sent.
        sent: usize,
    },
    /// One puzzle's times are malformed.
    #[error("puzzle {puzzle}: {error}")]
    Times {
        /// The puzzle.
        puzzle: usize,
        /// What is wrong with its times.
        error: TimesError,
    },
    /// A puzzle's first move is earlier than the previous puzzle's last:
    /// on one clock, puzzles follow each other.
    #[error("puzzle {puzzle} starts at {first} ms, before the puzzle ahead of it ended ({before} ms): send the puzzles in the order played")]
    Overlap {
        /// The puzzle.
        puzzle: usize,
        /// Its first move's time.
        first: i64,
        /// The previous puzzle's last move's time.
        before: i64,
    },
    /// A puzzle's moves solve another puzzle of the format.
    #[error("the moves sent as puzzle {puzzle} solve puzzle {solves}: send the puzzles in the order dealt")]
    OutOfOrder {
        /// Where the moves were sent.
        puzzle: usize,
        /// The puzzle they solve.
        solves: usize,
    },
    /// A move that cannot be played.
    #[error("puzzle {puzzle}: {error}")]
    Illegal {
        /// The puzzle.
        puzzle: usize,
        /// The move.
        error: ReplayError,
    },
    /// A puzzle left unsolved, with more after it: the next puzzle appears
    /// only once one is solved.
    #[error("puzzle {puzzle} is not solved, yet the puzzle after it was played")]
    Unsolved {
        /// The puzzle.
        puzzle: usize,
    },
}

/// What a format's submission comes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatOutcome {
    /// Each puzzle's outcome, in order.
    pub puzzles: Vec<Outcome>,
    /// Whether every puzzle was solved (only the last can be unsolved).
    pub solved: bool,
    /// Single-tile moves over all puzzles.
    pub stm: usize,
    /// Multi-tile moves over all puzzles.
    pub mtm: usize,
    /// When each puzzle ended, in milliseconds since the format started:
    /// its last move (or the previous end, if it took no moves).
    pub splits: Vec<i64>,
}

/// When each puzzle ended: its last move's time, or the end before it if
/// it took no moves.
fn ends(played: &[Played]) -> Vec<i64> {
    let mut end = 0;
    played
        .iter()
        .map(|p| {
            end = p.times.last().copied().unwrap_or(end);
            end
        })
        .collect()
}

/// Checks each puzzle's times and that the puzzles follow each other.
fn check_format_times(played: &[Played]) -> Result<(), SubmissionError> {
    let mut before = 0;
    for (i, p) in played.iter().enumerate() {
        check_times(&p.times, p.moves.len()).map_err(|error| SubmissionError::Times {
            puzzle: i + 1,
            error,
        })?;
        if let Some(&first) = p.times.first() {
            if first < before {
                return Err(SubmissionError::Overlap {
                    puzzle: i + 1,
                    first,
                    before,
                });
            }
        }
        before = p.times.last().copied().unwrap_or(before);
    }
    Ok(())
}

/// Whether `moves` solve `puzzle`.
fn solves(puzzle: &Puzzle, moves: &Moves) -> bool {
    Session::replay(&puzzle.start, &puzzle.goal_position, moves).is_ok_and(|o| o.solved)
}

/// Replays every puzzle of a format's submission, or says why it cannot
/// be what was played: puzzles missing or out of order, malformed times,
/// illegal moves, or an unsolved puzzle with more after it. The last
/// puzzle may be unsolved: the format is then unfinished.
pub fn replay(
    format: Format,
    puzzles: &[Puzzle],
    played: &[Played],
) -> Result<FormatOutcome, SubmissionError> {
    if played.len() != puzzles.len() {
        return Err(SubmissionError::Count {
            format,
            dealt: puzzles.len(),
            sent: played.len(),
        });
    }
    check_format_times(played)?;
    let mut outcomes = Vec::with_capacity(puzzles.len());
    for (i, (puzzle, p)) in puzzles.iter().zip(played).enumerate() {
        let outcome = Session::replay(&puzzle.start, &puzzle.goal_position, &p.moves);
        if !outcome.as_ref().is_ok_and(|o| o.solved) {
            if let Some(j) = (0..puzzles.len()).find(|&j| j != i && solves(&puzzles[j], &p.moves)) {
                return Err(SubmissionError::OutOfOrder {
                    puzzle: i + 1,
                    solves: j + 1,
                });
            }
        }
        let outcome = outcome.map_err(|error| SubmissionError::Illegal {
            puzzle: i + 1,
            error,
        })?;
        if !outcome.solved && i + 1 < puzzles.len() {
            return Err(SubmissionError::Unsolved { puzzle: i + 1 });
        }
        outcomes.push(outcome);
    }
    Ok(FormatOutcome {
        solved: outcomes.iter().all(|o| o.solved),
        stm: outcomes.iter().map(|o| o.stm).sum(),
        mtm: outcomes.iter().map(|o| o.mtm).sum(),
        splits: ends(played),
        puzzles: outcomes,
    })
}

/// Why a format's result is not ranked: the first puzzle that would not be
/// ranked as a single solve, and its reason.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("puzzle {puzzle}: {reason}")]
pub struct PuzzleUnranked {
    /// 1-based index of the puzzle.
    pub puzzle: usize,
    /// Why it is not ranked.
    pub reason: Unranked,
}

/// What the server knows of a finished format besides its moves.
#[derive(Clone, Debug, Default)]
pub struct FormatEvidence<'a> {
    /// The puzzles as played, times counted from the format's start
    /// (already checked by [`replay`]).
    pub played: &'a [Played],
    /// Milliseconds the server saw between dealing the format and the
    /// submission.
    pub server_millis: i64,
    /// Whether the solver helped, puzzle by puzzle.
    pub assisted: &'a [bool],
}

/// Judges every puzzle by the rules of a single solve, on times counted
/// from when it appeared (when the puzzle before it ended): `Ok(())` to
/// rank the result, else the first puzzle that unranks it all.
pub fn judge(evidence: &FormatEvidence, bounds: &Bounds) -> Result<(), PuzzleUnranked> {
    let mut shown = 0;
    for (i, (p, end)) in evidence
        .played
        .iter()
        .zip(ends(evidence.played))
        .enumerate()
    {
        let times: Vec<i64> = p.times.iter().map(|t| t - shown).collect();
        let single = Evidence {
            times: &times,
            server_millis: evidence.server_millis - shown,
            assisted: evidence.assisted.get(i).copied().unwrap_or(false),
            pauses: &[],
        };
        judge::judge(&single, bounds).map_err(|reason| PuzzleUnranked {
            puzzle: i + 1,
            reason,
        })?;
        shown = end;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marathon(count: usize) -> Format {
        Format::Marathon(MarathonLength::new(count).unwrap())
    }

    fn relay(side: usize) -> Format {
        Format::Relay(RelaySide::new(side).unwrap())
    }

    #[test]
    fn no_format_of_no_puzzles_can_be_built() {
        assert_eq!(MarathonLength::new(0), Err(FormatError::MarathonLength(0)));
        assert_eq!(
            MarathonLength::new(11),
            Err(FormatError::MarathonLength(11))
        );
        assert_eq!(RelaySide::new(3), Err(FormatError::RelaySide(3)));
        assert_eq!(RelaySide::new(0), Err(FormatError::RelaySide(0)));
        assert_eq!(
            RelaySide::new(RELAY_LAST_SIDE + 1),
            Err(FormatError::RelaySide(RELAY_LAST_SIDE + 1))
        );
        for &count in &MARATHON_LENGTHS {
            assert_eq!(marathon(count).len(), count);
        }
        assert_eq!(relay(4).len(), 2);
    }
    use crate::judge::SLIDE;

    fn spec(text: &str) -> SlideSpec {
        text.parse().unwrap()
    }

    #[test]
    fn formats_print_and_parse_back() {
        for text in [
            "single",
            "marathon-10",
            "marathon-42",
            "marathon-100",
            "relay-4",
            "relay-10",
            "bld",
        ] {
            let format: Format = text.parse().unwrap();
            assert_eq!(format.to_string(), text);
        }
        assert_eq!("Marathon-10".parse(), Ok(marathon(10)));
        assert_eq!(" BLD ".parse(), Ok(Format::Blindfold));
    }

    #[test]
    fn bad_formats_say_what_is_wrong() {
        let error = |text: &str| text.parse::<Format>().unwrap_err();
        assert_eq!(error("marathon-12"), FormatError::MarathonLength(12));
        assert_eq!(error("relay-3"), FormatError::RelaySide(3));
        assert_eq!(error("relay-11"), FormatError::RelaySide(11));
        assert!(matches!(error("marathon-x"), FormatError::Number { .. }));
        assert!(matches!(error("relay-"), FormatError::Number { .. }));
        assert!(matches!(error("sprint-5"), FormatError::Unknown(_)));
        assert!(matches!(error(""), FormatError::Unknown(_)));
        assert!(matches!(error("marathon"), FormatError::Unknown(_)));
        let message = error("marathon-12").to_string();
        assert!(message.contains("10, 42 or 100"), "{message}");
        let message = error("relay-11").to_string();
        assert!(message.contains("4 to 10"), "{message}");
    }

    #[test]
    fn single_and_blindfold_deal_todays_puzzle() {
        let spec = spec("4x4-missing");
        for format in [Format::Single, Format::Blindfold] {
            for seed in [0, 7, u64::MAX] {
                assert_eq!(
                    format.deal(&spec, seed).unwrap(),
                    vec![spec.issue(seed).unwrap()]
                );
            }
        }
    }

    #[test]
    fn one_seed_deals_a_whole_marathon_the_same_way_every_time() {
        let spec = spec("3x3-row-major");
        let ten = marathon(10).deal(&spec, 99).unwrap();
        assert_eq!(ten.len(), 10);
        assert_eq!(ten, marathon(10).deal(&spec, 99).unwrap());
        // Distinct puzzles, each the one its own seed issues.
        let starts: std::collections::HashSet<_> = ten.iter().map(|p| &p.start).collect();
        assert_eq!(starts.len(), 10);
        for puzzle in &ten {
            assert_eq!(puzzle, &spec.issue(puzzle.seed).unwrap());
        }
        // A longer marathon starts with the shorter one; another seed
        // deals another marathon.
        let forty_two = marathon(42).deal(&spec, 99).unwrap();
        assert_eq!(forty_two.len(), 42);
        assert_eq!(forty_two[..10], ten[..]);
        assert_ne!(marathon(10).deal(&spec, 100).unwrap(), ten);
    }

    #[test]
    fn the_seed_stream_is_pinned() {
        // The documented derivation, written out: changing it would change
        // every marathon ever dealt.
        let mut stream = common::Rng::new(5 ^ 0x666f_726d_6174);
        let expected: Vec<u64> = (0..3).map(|_| stream.next_u64()).collect();
        assert_eq!(relay(5).seeds(5), expected);
        assert_eq!(marathon(10).seeds(5)[..3], expected[..]);
    }

    #[test]
    fn a_relay_keeps_the_goal_and_grows_the_size() {
        let puzzles = relay(5).deal(&spec("4x4-snake"), 3).unwrap();
        let sizes: Vec<String> = puzzles.iter().map(|p| p.start.size().to_string()).collect();
        assert_eq!(sizes, ["3x3", "4x4", "5x5"]);
        for puzzle in &puzzles {
            assert_eq!(puzzle.goal, slide::Goal::Snake);
            assert!(puzzle.start.is_solvable(&puzzle.goal_position).unwrap());
        }
        // A goal that fits one size only cannot be relayed.
        let error = relay(4).deal(&spec("4x4-missing:16"), 3).unwrap_err();
        assert!(
            matches!(error, DealError::Goal { puzzle: 1, .. }),
            "{error}"
        );
        assert!(error.to_string().starts_with("puzzle 1 of relay-4 is 3x3"));
        // A drawn missing number is drawn for each size.
        assert_eq!(relay(4).deal(&spec("4x4-missing"), 3).unwrap().len(), 2);
    }

    #[test]
    fn a_relay_counts_under_its_last_size() {
        let spec = spec("4x4-missing:3");
        assert_eq!(Format::Single.variant(&spec).unwrap(), "4x4-missing");
        assert_eq!(marathon(42).variant(&spec).unwrap(), "4x4-missing");
        assert_eq!(relay(6).variant(&spec).unwrap(), "6x6-missing");
        let snake = self::spec("8x8-snake");
        assert_eq!(relay(5).variant(&snake).unwrap(), "5x5-snake");
    }

    #[test]
    fn a_result_is_filed_under_the_control_of_more_than_95_percent() {
        let inputs = |keyboard: usize, mouse: usize, touch: usize| {
            let mut v = vec![Input::Keyboard; keyboard];
            v.extend(vec![Input::Mouse; mouse]);
            v.extend(vec![Input::Touch; touch]);
            v
        };
        assert_eq!(Control::of(&inputs(20, 0, 0)), Control::Keyboard);
        assert_eq!(Control::of(&inputs(96, 4, 0)), Control::Keyboard);
        // Exactly 95 % is not more than 95 %.
        assert_eq!(Control::of(&inputs(19, 1, 0)), Control::Mixed);
        assert_eq!(Control::of(&inputs(1, 97, 2)), Control::Mouse);
        assert_eq!(Control::of(&inputs(0, 1, 199)), Control::Touch);
        assert_eq!(Control::of(&inputs(50, 50, 0)), Control::Mixed);
        assert_eq!(Control::of(&[]), Control::Mixed);
        for control in ["keyboard", "mouse", "hover", "touch", "mixed"] {
            assert_eq!(control.parse::<Control>().unwrap().to_string(), control);
        }
        assert!("joystick".parse::<Control>().is_err());
        assert_eq!("Touch".parse(), Ok(Input::Touch));
        assert_eq!("hover".parse(), Ok(Input::Hover));
        assert!("mixed".parse::<Input>().is_err());
    }

    #[test]
    fn each_control_is_judged_by_its_own_bounds() {
        assert_eq!(slide_bounds(None, 4), SLIDE);
        assert_eq!(slide_bounds(Some(Control::Keyboard), 4), SLIDE);
        assert_eq!(slide_bounds(Some(Control::Mouse), 4), judge::SLIDE_CLICK);
        assert_eq!(slide_bounds(Some(Control::Hover), 4), judge::SLIDE_HOVER);
        assert_eq!(slide_bounds(Some(Control::Mixed), 4), judge::SLIDE_HOVER);
        let wide = slide_bounds(Some(Control::Mouse), 32);
        assert_eq!(wide.burst_moves, judge::SLIDE_CLICK.burst_moves + 22);
    }

    #[test]
    fn hover_is_a_control_of_its_own() {
        let mut inputs = vec![Input::Hover; 97];
        inputs.extend([Input::Mouse, Input::Mouse, Input::Keyboard]);
        assert_eq!(Control::of(&inputs), Control::Hover);
        // Hover and clicks half and half: neither, so mixed.
        let mut inputs = vec![Input::Hover; 10];
        inputs.extend(vec![Input::Mouse; 10]);
        assert_eq!(Control::of(&inputs), Control::Mixed);
        assert!(ControlError("x".into()).to_string().contains("hover"));
    }

    /// A 3×3 marathon-10 and, for each puzzle, a solution with moves
    /// `gap` ms apart, the first puzzle's first move at `first`.
    fn solved_marathon(first: i64, gap: i64) -> (Vec<Puzzle>, Vec<Played>) {
        let puzzles = marathon(10).deal(&spec("3x3-row-major"), 11).unwrap();
        let mut at = first - gap;
        let played = puzzles
            .iter()
            .map(|puzzle| {
                let moves = slide::solve_optimal(
                    &puzzle.start,
                    &puzzle.goal_position,
                    &slide::SolveOptions::default(),
                )
                .unwrap()
                .moves;
                let times = (0..moves.len())
                    .map(|_| {
                        at += gap;
                        at
                    })
                    .collect();
                at += first; // the next puzzle is looked at before moving
                Played { moves, times }
            })
            .collect();
        (puzzles, played)
    }

    #[test]
    fn a_submission_replays_to_the_splits_and_totals() {
        let (puzzles, played) = solved_marathon(800, 250);
        let outcome = replay(marathon(10), &puzzles, &played).unwrap();
        assert!(outcome.solved);
        assert_eq!(outcome.puzzles.len(), 10);
        let stm: usize = played.iter().map(|p| p.moves.len()).sum();
        assert_eq!(outcome.stm, stm);
        assert_eq!(
            outcome.splits,
            played
                .iter()
                .map(|p| *p.times.last().unwrap())
                .collect::<Vec<_>>()
        );
        // The last puzzle unsolved: an unfinished marathon, not a refusal.
        let mut unfinished = played.clone();
        unfinished[9] = Played::default();
        let outcome = replay(marathon(10), &puzzles, &unfinished).unwrap();
        assert!(!outcome.solved);
        assert_eq!(outcome.splits[9], outcome.splits[8]);
    }

    #[test]
    fn missing_or_reordered_puzzles_are_refused() {
        let (puzzles, played) = solved_marathon(800, 250);
        let format = marathon(10);
        assert_eq!(
            replay(format, &puzzles, &played[..9]),
            Err(SubmissionError::Count {
                format,
                dealt: 10,
                sent: 9
            })
        );
        // Two puzzles swapped, times kept in order: the moves give it away.
        let mut swapped = played.clone();
        swapped.swap(3, 4);
        let (a, b) = (played[3].moves.len(), played[4].moves.len());
        let times: Vec<i64> = played[3]
            .times
            .iter()
            .chain(&played[4].times)
            .copied()
            .collect();
        swapped[3].times = times[..b].to_vec();
        swapped[4].times = times[b..b + a].to_vec();
        let error = replay(format, &puzzles, &swapped).unwrap_err();
        assert_eq!(
            error,
            SubmissionError::OutOfOrder {
                puzzle: 4,
                solves: 5
            }
        );
        assert!(error.to_string().contains("order dealt"));
        // Swapped with their times: the clock goes back at the fifth.
        let mut swapped = played.clone();
        swapped.swap(3, 4);
        assert!(matches!(
            replay(format, &puzzles, &swapped),
            Err(SubmissionError::Overlap { puzzle: 5, .. })
        ));
        // A puzzle skipped in the middle.
        let mut skipped = played.clone();
        skipped[2] = Played::default();
        assert_eq!(
            replay(format, &puzzles, &skipped),
            Err(SubmissionError::Unsolved { puzzle: 3 })
        );
        // Malformed times name their puzzle.
        let mut short = played;
        short[6].times.pop();
        assert!(matches!(
            replay(format, &puzzles, &short),
            Err(SubmissionError::Times { puzzle: 7, .. })
        ));
    }

    #[test]
    fn a_person_paced_marathon_is_ranked() {
        let (_, played) = solved_marathon(800, 250);
        let end = *played[9].times.last().unwrap();
        let evidence = FormatEvidence {
            played: &played,
            server_millis: end + 500,
            assisted: &[false; 10],
        };
        assert_eq!(judge(&evidence, &SLIDE), Ok(()));
    }

    #[test]
    fn one_puzzle_too_fast_or_assisted_unranks_the_whole_result() {
        let (_, mut played) = solved_marathon(800, 250);
        // Puzzle 6 is answered 20 ms after puzzle 5 ended, at machine pace.
        let shown = *played[4].times.last().unwrap();
        let mut at = shown + 20;
        for time in played[5].times.iter_mut() {
            *time = at;
            at += 5;
        }
        let end = *played[9].times.last().unwrap();
        let evidence = FormatEvidence {
            played: &played,
            server_millis: end + 500,
            assisted: &[false; 10],
        };
        let why = judge(&evidence, &SLIDE).unwrap_err();
        assert_eq!(why.puzzle, 6);
        assert!(matches!(why.reason, Unranked::TooFast(_)), "{why}");
        assert!(why.to_string().starts_with("puzzle 6: too fast"), "{why}");

        let (_, played) = solved_marathon(800, 250);
        let mut assisted = [false; 10];
        assisted[8] = true;
        let evidence = FormatEvidence {
            played: &played,
            server_millis: end + 500,
            assisted: &assisted,
        };
        let why = judge(&evidence, &SLIDE).unwrap_err();
        assert_eq!(
            why,
            PuzzleUnranked {
                puzzle: 9,
                reason: Unranked::Assisted
            }
        );
    }

    #[test]
    fn a_format_longer_than_the_servers_clock_is_inconsistent() {
        let (_, played) = solved_marathon(800, 250);
        let evidence = FormatEvidence {
            played: &played,
            server_millis: *played[4].times.last().unwrap(),
            assisted: &[],
        };
        let why = judge(&evidence, &SLIDE).unwrap_err();
        // Puzzles 1 to 5 fit the server's clock; puzzle 6 cannot.
        assert_eq!(why.puzzle, 6);
        assert!(matches!(why.reason, Unranked::TimesInconsistent(_)));
    }
}
