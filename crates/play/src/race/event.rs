//! What everyone in a room sees and hears: the phase, the racers, their
//! progress, their solves and the results.

use super::{Deal, Seat};

/// Where a room is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Players join and get ready.
    Lobby,
    /// The race starts at `starts_at`.
    Countdown {
        /// When the puzzle is dealt.
        starts_at: i64,
    },
    /// The race began at `started_at`.
    Racing {
        /// When the puzzle was dealt.
        started_at: i64,
    },
    /// Every racer has finished or dropped out.
    Finished,
    /// A pairing's race called off: a paired racer made no first move
    /// within [`FIRST_MOVE_MS`](super::FIRST_MOVE_MS) (or never came, or
    /// left first). It has no results, and no rating moves.
    Aborted,
}

impl Phase {
    /// The phase's name in the protocol: `lobby`, `countdown`, `racing`,
    /// `finished`, `aborted`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Lobby => "lobby",
            Phase::Countdown { .. } => "countdown",
            Phase::Racing { .. } => "racing",
            Phase::Finished => "finished",
            Phase::Aborted => "aborted",
        }
    }
}

/// One racer as everyone in the room sees them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RacerView {
    /// Their seat.
    pub seat: Seat,
    /// Their name.
    pub name: String,
    /// Their account's handle, if signed in.
    pub account: Option<String>,
    /// Ready to race (in the lobby).
    pub ready: bool,
    /// Whether they host the room (start it early).
    pub host: bool,
    /// Whether they are connected.
    pub connected: bool,
    /// Whether they have finished (solved or dropped out).
    pub done: bool,
}

/// The room as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomView {
    /// The phase.
    pub phase: Phase,
    /// The racers, by seat.
    pub players: Vec<RacerView>,
    /// How many watch.
    pub spectators: usize,
}

/// A racer's game so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Whose.
    pub seat: Seat,
    /// Single-tile moves made, or Shisen-Sho pairs removed.
    pub moves: usize,
    /// How far they are, as the game counts it.
    pub standing: Standing,
    /// Milliseconds since the start, by the server's clock.
    pub t: i64,
}

/// How far a racer is, by game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Standing {
    /// A sliding puzzle: the tiles on their goal cell.
    Slide {
        /// Tiles on their goal cell.
        solved_tiles: usize,
    },
    /// A Shisen-Sho board: what is left, and the score so far.
    Shisen {
        /// Tiles still on the board.
        tiles_left: usize,
        /// The game's score as of the last turn.
        score: u64,
        /// No pair connects now (a shuffle may help).
        stuck: bool,
    },
}

impl Standing {
    /// The order among racers who did not finish: most tiles in place,
    /// or fewest tiles left then best score, first.
    pub(super) fn rank(&self, moves: usize) -> (usize, u64) {
        match *self {
            Standing::Slide { solved_tiles } => (usize::MAX - solved_tiles, moves as u64),
            Standing::Shisen {
                tiles_left, score, ..
            } => (tiles_left, u64::MAX - score),
        }
    }
}

/// A racer's solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finish {
    /// Whose.
    pub seat: Seat,
    /// Their place among those who finished: 1 for the winner.
    pub place: usize,
    /// Milliseconds from the start to the solving move, by the server's
    /// clock.
    pub millis: i64,
    /// What the solve took.
    pub solve: Solve,
}

/// What a solve took, by game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solve {
    /// A sliding puzzle's moves.
    Slide {
        /// Single-tile moves.
        stm: usize,
        /// Multi-tile moves.
        mtm: usize,
    },
    /// A cleared Shisen-Sho board.
    Shisen {
        /// Pairs removed.
        removals: usize,
        /// The game's score.
        score: u64,
    },
}

/// One line of the results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placing {
    /// Whose.
    pub seat: Seat,
    /// Their name.
    pub name: String,
    /// Their solve, if they finished.
    pub finish: Option<Finish>,
    /// Where they were when the race ended without them.
    pub progress: Progress,
}

/// What everyone in the room must hear.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Who is in the room, and its phase.
    Room(RoomView),
    /// The countdown began: the race starts in `ms`.
    Countdown {
        /// Milliseconds to the start.
        ms: i64,
    },
    /// The race started with this puzzle.
    Start(Deal),
    /// A racer moved.
    Progress(Progress),
    /// A racer solved the puzzle.
    Finish(Finish),
    /// The race is over: solvers by time, then the others by progress.
    Results(Vec<Placing>),
    /// The pairing's race is called off: these racers made no first move
    /// in time (or never came, or left before one).
    Aborted {
        /// Who did not move, by seat.
        seats: Vec<Seat>,
    },
}
