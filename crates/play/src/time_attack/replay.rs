//! A run as submitted: every puzzle played, replayed on the run's puzzles,
//! scored by its clock and judged like any result.
//!
//! A submission holds the puzzles played, in order, each as its moves and
//! the time of every move in milliseconds since the run started (one clock
//! for the whole run). Every puzzle but the last must be solved (the next
//! one is shown only then); the last may be left unsolved when the time ran
//! out. Moves are checked as any submission's are: an illegal one is
//! refused naming the puzzle and the move.
//!
//! Only puzzles solved before the clock ran out ([`RunClock`]) score. Each
//! puzzle is judged by `crate::judge` from the moment it was shown (the
//! solve of the one before it): a first move sooner than a person reacts,
//! bursts and rates beyond human play, or times later than the server's own
//! clock allows make the run unranked, naming the puzzle; so does playing
//! as a guest.

use slide::Moves;

use super::clock::RunClock;
use super::deal::Run;
use crate::judge::{self, Evidence, TimesError, Unranked};
use crate::slide_game::Session;

/// The most single-tile moves one puzzle of a run may hold: its puzzles
/// need at most about 45, so this bounds a mistake, not a player.
pub const MOST_MOVES: usize = 1_000;

/// One puzzle as played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// Its moves, single-tile.
    pub moves: Moves,
    /// The time of each move, in milliseconds since the run started.
    pub times: Vec<i64>,
}

/// A run replayed.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Puzzles solved before the time ran out: the run's score.
    pub score: usize,
    /// The clock at the end: when it ran out and the time added.
    pub clock: RunClock,
    /// Whether the run is ranked, or why not.
    pub judged: Result<(), Unranked>,
}

/// Why a submission is refused (puzzles and moves count from 1).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// More puzzles than the run has.
    #[error("{played} puzzles played, but the run has {dealt}")]
    TooMany {
        /// Puzzles sent.
        played: usize,
        /// Puzzles in the run.
        dealt: usize,
    },
    /// A puzzle's times are not one per move, never decreasing.
    #[error("puzzle {puzzle}: {error}")]
    Times {
        /// The puzzle.
        puzzle: usize,
        /// What is wrong with them.
        error: TimesError,
    },
    /// A puzzle's first move before the puzzle before it was solved.
    #[error("puzzle {puzzle}: its first move ({first} ms) is before puzzle {} was solved ({shown} ms)", .puzzle - 1)]
    BeforeShown {
        /// The puzzle.
        puzzle: usize,
        /// Its first move's time.
        first: i64,
        /// When the puzzle before it was solved.
        shown: i64,
    },
    /// A move no tile can make.
    #[error("puzzle {puzzle}: move {index} ({text}) is illegal: no tile can slide that way from the position the moves before it reach")]
    Illegal {
        /// The puzzle.
        puzzle: usize,
        /// The move, counted in single-tile moves.
        index: usize,
        /// Its letter.
        text: String,
    },
    /// A puzzle left unsolved with puzzles played after it.
    #[error("puzzle {puzzle} is not solved, but puzzles after it were played: only the last puzzle may be left unsolved")]
    Unsolved {
        /// The puzzle.
        puzzle: usize,
    },
}

/// Replays `played` on `run`'s puzzles. `server_millis` is the time the
/// server saw between starting the run and the submission; `signed_in`
/// whether an account plays it (a guest's run is unranked).
pub fn replay(
    run: &Run,
    played: &[Played],
    server_millis: i64,
    signed_in: bool,
) -> Result<Outcome, Refusal> {
    if played.len() > run.puzzles.len() {
        return Err(Refusal::TooMany {
            played: played.len(),
            dealt: run.puzzles.len(),
        });
    }
    let mut clock = RunClock::new();
    let mut running = true;
    let mut score = 0;
    let mut shown = 0;
    let mut judged = Ok(());
    for (i, (puzzle, game)) in run.puzzles.iter().zip(played).enumerate() {
        let number = i + 1;
        judge::check_times(&game.times, game.moves.len()).map_err(|error| Refusal::Times {
            puzzle: number,
            error,
        })?;
        if let Some(&first) = game.times.first() {
            if first < shown {
                return Err(Refusal::BeforeShown {
                    puzzle: number,
                    first,
                    shown,
                });
            }
        }
        let outcome = Session::replay(&puzzle.start, &puzzle.goal, &game.moves).map_err(|e| {
            Refusal::Illegal {
                puzzle: number,
                index: e.index + 1,
                text: e.direction.letter().to_string(),
            }
        })?;
        if !outcome.solved && number < played.len() {
            return Err(Refusal::Unsolved { puzzle: number });
        }
        if judged.is_ok() {
            let times: Vec<i64> = game.times.iter().map(|t| t - shown).collect();
            let evidence = Evidence {
                times: &times,
                server_millis: server_millis - shown,
                ..Evidence::default()
            };
            // The page moves by keys, clicks or hover: the loosest bounds,
            // hover's, so that no person's run is unranked.
            judged =
                judge::judge(&evidence, &judge::SLIDE_HOVER).map_err(|why| of_puzzle(number, why));
        }
        if outcome.solved {
            let at = game.times.last().copied().unwrap_or(shown);
            running = running && clock.solve(at, outcome.stm, puzzle.optimal);
            if running {
                score += 1;
            }
            shown = at;
        }
    }
    Ok(Outcome {
        score,
        clock,
        judged: judge::owned(judged, signed_in),
    })
}

/// The reason, naming the puzzle.
fn of_puzzle(number: usize, why: Unranked) -> Unranked {
    let named = |text: String| format!("puzzle {number}: {text}");
    match why {
        Unranked::TooFast(text) => Unranked::TooFast(named(text)),
        Unranked::TimesInconsistent(text) => Unranked::TimesInconsistent(named(text)),
        other => other,
    }
}
