//! The daily fewest-moves challenge (FMC): one 4×4 and one 5×5 scramble a
//! UTC day, the same for everyone; each player sends one move sequence per
//! day and size, untimed, ranked by single-tile moves (STM) with the
//! multi-tile count (MTM) beside it. Entries stay hidden until the day is
//! over; then they are shown with the day's optimum (proven on 4×4, the
//! best known on 5×5) and what each lost against it.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use slide::{Goal, Moves, MovesError, Position, Size};

use crate::daily::Day;
use crate::slide_game::{GoalChoice, Plan, PlanError, Session, SlideSpec, Solver};
use crate::Deadline;

/// The longest move text an entry may be, in bytes.
pub const MOVES_TEXT: usize = 4096;

/// The most single-tile moves an entry may hold: a fewest-moves entry is
/// short (a 5×5 takes about 100 to 200), so this is a mistake's bound.
pub const MOST_MOVES: usize = 2000;

/// How long the solver may search for a day's optimum on 4×4: the 4×4
/// search finishes (proven) well within it.
pub const OPTIMUM_TIME_4X4: Duration = Duration::from_secs(10);

/// How long the solver may search for a day's best known 5×5 solution
/// (the bounded mode: the best solution it finds in the time).
pub const OPTIMUM_TIME_5X5: Duration = Duration::from_secs(8);

/// A board of the challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FmcSize {
    /// 4×4: the optimum is proven.
    Four,
    /// 5×5: the optimum is the best known.
    Five,
}

impl FmcSize {
    /// Both boards, in the order they are shown.
    pub const ALL: [FmcSize; 2] = [FmcSize::Four, FmcSize::Five];

    /// The board's size.
    pub fn size(self) -> Size {
        let side = match self {
            FmcSize::Four => 4,
            FmcSize::Five => 5,
        };
        Size::square(side).expect("4x4 and 5x5 are sizes")
    }

    /// `4x4` or `5x5`.
    pub fn name(self) -> &'static str {
        match self {
            FmcSize::Four => "4x4",
            FmcSize::Five => "5x5",
        }
    }

    /// How long the solver looks for the day's optimum.
    pub fn optimum_time(self) -> Duration {
        match self {
            FmcSize::Four => OPTIMUM_TIME_4X4,
            FmcSize::Five => OPTIMUM_TIME_5X5,
        }
    }
}

impl fmt::Display for FmcSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Text that names no board of the challenge.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad size {0:?}: the fewest-moves challenge is played on 4x4 and 5x5")]
pub struct SizeError(pub String);

impl FromStr for FmcSize {
    type Err = SizeError;

    /// `4x4` or `5x5`, exactly.
    fn from_str(text: &str) -> Result<FmcSize, SizeError> {
        match text {
            "4x4" => Ok(FmcSize::Four),
            "5x5" => Ok(FmcSize::Five),
            _ => Err(SizeError(text.to_string())),
        }
    }
}

/// The challenge's seed for `day`: the day's seed (`YYYYMMDD`,
/// [`Day::seed`]) followed by the digit 5, e.g. `202611275` for
/// 2026-11-27. Both boards are dealt from it as any puzzle is
/// ([`SlideSpec::issue`], row-major goal), so
/// `tessera slide new --size 4x4 --seed 202611275` shows the day's 4×4.
/// It has nine digits and a daily seed eight, so the challenge's
/// scrambles are never the timed daily puzzles.
///
/// This is the one place the challenge's stream is derived.
pub fn seed(day: Day) -> u64 {
    day.seed() * 10 + 5
}

/// A day's scramble on one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scramble {
    /// The day.
    pub day: Day,
    /// The board.
    pub size: FmcSize,
    /// The seed it is dealt from ([`seed`]).
    pub seed: u64,
    /// The position to solve.
    pub start: Position,
    /// The goal: row-major.
    pub goal: Position,
}

/// The day's scramble on `size`.
pub fn scramble(day: Day, size: FmcSize) -> Scramble {
    let seed = seed(day);
    let spec = SlideSpec::new(size.size(), GoalChoice::Goal(Goal::RowMajor))
        .expect("row-major fits every size");
    let puzzle = spec.issue(seed).expect("row-major fits every size");
    Scramble {
        day,
        size,
        seed,
        start: puzzle.start,
        goal: puzzle.goal_position,
    }
}

/// Whether entries for `day` are taken at `today`: the day itself only.
pub fn open(day: Day, today: Day) -> bool {
    day == today
}

/// Whether `day` is over at `today`: its entries and optimum are shown.
pub fn closed(day: Day, today: Day) -> bool {
    day < today
}

/// An entry as replayed: its moves and both counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The moves, single-tile.
    pub moves: Moves,
    /// Single-tile moves.
    pub stm: usize,
    /// Multi-tile moves.
    pub mtm: usize,
}

/// Why an entry is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The text is not a move list, or too long.
    #[error("bad moves: {0}")]
    Notation(String),
    /// A move no tile can make.
    #[error("move {} ({text}) is illegal: no tile can slide that way from the position the moves before it reach", .index + 1)]
    Illegal {
        /// 0-based, counted in single-tile moves.
        index: usize,
        /// The move's letter.
        text: String,
    },
    /// Every move is legal, but the board is not solved at the end.
    #[error("the moves end unsolved: after all {stm} moves the board is not the goal")]
    Unsolved {
        /// The moves played.
        stm: usize,
    },
    /// No moves at all.
    #[error("no moves: send the moves that solve the scramble")]
    Empty,
}

/// Reads an entry's text (the command line's `--moves` notation: `R2 D
/// L3`, letters in either case, a count after a letter repeating it),
/// within [`MOVES_TEXT`] bytes and [`MOST_MOVES`] moves.
pub fn parse(text: &str) -> Result<Moves, Refusal> {
    if text.len() > MOVES_TEXT {
        return Err(Refusal::Notation(format!(
            "the text is longer than {MOVES_TEXT} bytes"
        )));
    }
    Moves::parse_at_most(text, MOST_MOVES).map_err(|e| match e {
        MovesError::TooMany { .. } => {
            Refusal::Notation(format!("more than {MOST_MOVES} single-tile moves"))
        }
        other => Refusal::Notation(other.to_string()),
    })
}

/// Replays `moves` on the scramble: the entry, or why it is refused.
pub fn check(scramble: &Scramble, moves: Moves) -> Result<Entry, Refusal> {
    if moves.is_empty() {
        return Err(Refusal::Empty);
    }
    let outcome =
        Session::replay(&scramble.start, &scramble.goal, &moves).map_err(|e| Refusal::Illegal {
            index: e.index,
            text: e.direction.letter().to_string(),
        })?;
    if !outcome.solved {
        return Err(Refusal::Unsolved { stm: outcome.stm });
    }
    Ok(Entry {
        moves,
        stm: outcome.stm,
        mtm: outcome.mtm,
    })
}

/// The ranking's order of two entries' `(stm, mtm)`: fewer single-tile
/// moves first, then fewer multi-tile moves. A stable sort of the entries
/// in the order they were sent keeps the earlier of a tie first.
pub fn ranking<N: Ord>(a: (N, N), b: (N, N)) -> Ordering {
    a.cmp(&b)
}

/// A day's optimum on one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Optimum {
    /// A solution of that length.
    pub moves: Moves,
    /// Single-tile moves.
    pub stm: usize,
    /// Its multi-tile moves.
    pub mtm: usize,
    /// Proven shortest (else the best known: the solver's best within its
    /// time or the best entry, whichever is shorter).
    pub proven: bool,
}

/// The day's optimum from the solver's answer and the day's best entry:
/// a proven solution stands; else the shorter of the two (the entry on a
/// tie: a player found it).
pub fn optimum(plan: Plan, best_entry: Option<Moves>) -> Optimum {
    let from = |moves: Moves, proven| Optimum {
        stm: moves.len(),
        mtm: moves.mtm_len(),
        moves,
        proven,
    };
    match best_entry {
        Some(entry) if !plan.optimal && entry.len() <= plan.moves.len() => from(entry, false),
        _ => from(plan.moves, plan.optimal),
    }
}

/// Looks for the day's optimum with `solver` within the board's time
/// ([`FmcSize::optimum_time`]) and `deadline`, and takes the best entry
/// into account.
pub fn find_optimum(
    solver: &Solver,
    scramble: &Scramble,
    best_entry: Option<Moves>,
    deadline: &Deadline,
) -> Result<Optimum, PlanError> {
    let deadline = deadline.clone().within(scramble.size.optimum_time());
    let plan = solver.fewest(&scramble.start, &scramble.goal, &deadline)?;
    Ok(optimum(plan, best_entry))
}

/// Single-tile moves an entry of `stm` lost against the optimum.
pub fn moves_lost(stm: usize, optimum: &Optimum) -> usize {
    stm.saturating_sub(optimum.stm)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::TableConfig;

    fn day(text: &str) -> Day {
        text.parse().unwrap()
    }

    #[test]
    fn the_days_seed_is_its_date_and_a_5_and_never_a_daily_seed() {
        let d = day("2026-11-27");
        assert_eq!(seed(d), 202_611_275);
        assert_ne!(seed(d), d.seed());
        let four = scramble(d, FmcSize::Four);
        assert_eq!(four.seed, 202_611_275);
        assert_eq!(four.start.size().to_string(), "4x4");
        assert_eq!(scramble(d, FmcSize::Five).start.size().to_string(), "5x5");
        // The timed daily 4x4 of the day is another position.
        let spec: SlideSpec = "4x4-row-major".parse().unwrap();
        assert_ne!(spec.issue(d.seed()).unwrap().start, four.start);
        assert_eq!(spec.issue(four.seed).unwrap().start, four.start);
        assert_eq!(scramble(d, FmcSize::Four), four);
        assert_ne!(scramble(d.next(), FmcSize::Four).start, four.start);
        assert!(four.start.is_solvable(&four.goal).unwrap());
    }

    #[test]
    fn sizes_read_only_as_written() {
        assert_eq!("4x4".parse::<FmcSize>().unwrap(), FmcSize::Four);
        assert_eq!("5x5".parse::<FmcSize>().unwrap().to_string(), "5x5");
        for bad in ["3x3", "4X4", "4", "6x6", ""] {
            assert!(bad.parse::<FmcSize>().is_err(), "{bad}");
        }
    }

    #[test]
    fn entries_are_taken_on_their_day_and_shown_after_it() {
        let d = day("2026-11-27");
        assert!(open(d, d));
        assert!(!open(d.previous(), d));
        assert!(!open(d.next(), d));
        assert!(!closed(d, d));
        assert!(closed(d.previous(), d));
    }

    fn three_by_three() -> Scramble {
        Scramble {
            day: day("2026-11-27"),
            size: FmcSize::Four,
            seed: 0,
            start: "1 2 3/4 5 6/0 7 8".parse().unwrap(),
            goal: "1 2 3/4 5 6/7 8 0".parse().unwrap(),
        }
    }

    #[test]
    fn an_entry_is_replayed_and_a_refusal_names_the_move() {
        let s = three_by_three();
        let entry = check(&s, parse("r2").unwrap()).unwrap_err();
        assert_eq!(
            entry,
            Refusal::Illegal {
                index: 0,
                text: "R".into()
            }
        );
        let entry = check(&s, parse("L2").unwrap()).unwrap();
        assert_eq!((entry.stm, entry.mtm), (2, 1));
        let entry = check(&s, parse("L D U L").unwrap()).unwrap();
        assert_eq!((entry.stm, entry.mtm), (4, 4));
        assert_eq!(
            check(&s, parse("L").unwrap()),
            Err(Refusal::Unsolved { stm: 1 })
        );
        let illegal = check(&s, parse("L2 L").unwrap()).unwrap_err();
        assert_eq!(
            illegal,
            Refusal::Illegal {
                index: 2,
                text: "L".into()
            }
        );
        assert!(illegal.to_string().starts_with("move 3 (L) is illegal"));
        assert_eq!(check(&s, parse(" ").unwrap()), Err(Refusal::Empty));
        assert!(matches!(parse("L2 X"), Err(Refusal::Notation(_))));
        assert!(matches!(parse("R2000 L"), Err(Refusal::Notation(_))));
        assert!(matches!(
            parse(&"L".repeat(MOVES_TEXT + 1)),
            Err(Refusal::Notation(_))
        ));
    }

    #[test]
    fn a_proven_optimum_stands_and_else_the_best_entry_may_beat_the_solver() {
        let plan = |moves: &str, optimal| Plan {
            moves: moves.parse().unwrap(),
            optimal,
        };
        let entry: Moves = "LL".parse().unwrap();
        let o = optimum(plan("LLUD", false), Some(entry.clone()));
        assert_eq!((o.stm, o.mtm, o.proven), (2, 1, false));
        let o = optimum(plan("LL", true), Some(entry.clone()));
        assert!(o.proven);
        let o = optimum(plan("LR", false), Some("LLUD".parse().unwrap()));
        assert_eq!((o.moves.to_string(), o.proven), ("LR".into(), false));
        assert_eq!(moves_lost(5, &o), 3);
        assert_eq!(ranking((30, 20), (30, 21)), Ordering::Less);
        assert_eq!(ranking((31, 2), (30, 21)), Ordering::Greater);
    }

    #[test]
    fn the_solver_proves_a_small_boards_optimum() {
        let s = three_by_three();
        let solver = Solver::new(TableConfig::default());
        let o = find_optimum(&solver, &s, None, &Deadline::none()).unwrap();
        assert_eq!((o.stm, o.proven), (2, true));
    }
}
