//! A format's submission: each puzzle's moves and times replayed in the
//! order dealt, and every puzzle judged by the rules of a single solve.

use slide::{Moves, ReplayError};

use crate::judge::{self, check_times, Bounds, Evidence, TimesError, Unranked};
use crate::slide_game::{Outcome, Puzzle, Session};

use super::Format;

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
