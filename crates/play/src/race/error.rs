//! What the rules refuse, and why.

use slide::{GoalError, ReplayError};

use super::{FEWEST_PLAYERS, MOST_PLAYERS, MOST_SPECTATORS};
use crate::limits::{SUBMITTED_MOVES, SUBMITTED_TURNS};
use crate::shisen_game::DealError;

/// A call the rules refuse; the room is left as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RaceError {
    /// A name that is empty, too long or has control characters.
    #[error("bad name: {0}")]
    BadName(String),
    /// A player who is not signed in, in a room for accounts only (a rated
    /// race).
    #[error("this race is rated: only signed-in players may join it; sign in, or race in an unrated room")]
    SignedInOnly,
    /// The room has its eight players.
    #[error("the room is full: at most {MOST_PLAYERS} players")]
    Full,
    /// The room has as many spectators as it takes.
    #[error("the room has too many spectators: at most {MOST_SPECTATORS}")]
    TooManySpectators,
    /// Joining once the countdown has begun.
    #[error("the race has begun: you can watch, and join the rematch")]
    Begun,
    /// The caller has not joined as a player.
    #[error("you have not joined this race")]
    NotAPlayer,
    /// Only the host starts a race.
    #[error("only the host can start the race")]
    NotHost,
    /// Starting with one player.
    #[error("a race needs at least {FEWEST_PLAYERS} players")]
    TooFewPlayers,
    /// Readiness or a start outside the lobby.
    #[error("the race is not in its lobby")]
    NotInLobby,
    /// A move before the start or after the end.
    #[error("the race is not running")]
    NotRacing,
    /// A move by a racer who has finished or dropped out.
    #[error("you have finished this race")]
    AlreadyFinished,
    /// A move that cannot be made; no move of the message was played.
    #[error("illegal move: {0}")]
    IllegalMove(ReplayError),
    /// A Shisen-Sho turn that cannot be played, and why.
    #[error("illegal turn: {0}")]
    IllegalTurn(String),
    /// A turn of another game than the room's.
    #[error("this race is {0}: send its turns")]
    WrongGame(&'static str),
    /// A game longer than a submission may be.
    #[error("too many moves: at most {SUBMITTED_MOVES} in a race")]
    TooManyMoves,
    /// A Shisen-Sho game longer than a submission may be.
    #[error("too many turns: at most {SUBMITTED_TURNS} in a race")]
    TooManyTurns,
    /// A time before the start or before the racer's previous move.
    #[error("bad time {0}: milliseconds since the start, never going back")]
    BadTime(i64),
    /// A turn with no move in it.
    #[error("no moves: a turn holds at least one")]
    NoMoves,
    /// Joining, or getting ready, in a room a pairing seated: it starts on
    /// its own, with its paired racers only.
    #[error("this race is for the players it paired: it starts on its own, and you can watch")]
    Paired,
    /// A pairing of fewer than two, or of a room already in use.
    #[error("a pairing seats {FEWEST_PLAYERS} to {MOST_PLAYERS} players in a new room")]
    BadPairing,
    /// A rematch of an aborted race.
    #[error("the race was aborted: look for a new one")]
    Aborted,
    /// A rematch before the race is over.
    #[error("the race is not over")]
    NotOver,
    /// A spec that deals no puzzle.
    #[error("cannot deal: {0}")]
    Deal(#[from] GoalError),
    /// A Shisen-Sho spec that deals no board.
    #[error("cannot deal: {0}")]
    ShisenDeal(#[from] DealError),
}
