//! A race: players on the same puzzle at the same instant, side by side.
//!
//! The rules of a race room, as a state machine with no I/O and no clock:
//! every call takes the time now, in milliseconds, and returns the
//! [`Event`]s everyone in the room must hear. A front end holds the
//! connections, parses what players send into these calls and broadcasts
//! what comes back; it calls [`Race::tick`] at [`Race::next_deadline`] so
//! that the countdown ends and absent players lapse on time (every other
//! call ticks first as well, so a move arriving on the instant of the
//! start is played).
//!
//! A room goes lobby → countdown → racing → finished, and back to the
//! lobby on a rematch. A room a pairing opened (quick match, an arena)
//! seats its racers itself, ready: its countdown starts once they are all
//! connected, and it is aborted (no results, nothing rated) when one of
//! them makes no first move within [`FIRST_MOVE_MS`]. Players are known by a key the front end vouches
//! for (the player's cookie), so the same player coming back is the same
//! racer: a player who loses the connection keeps their place and their
//! moves for [`RECONNECT_MS`].
//!
//! The rules are one state machine, [`Race`], generic over what is raced
//! ([`RaceGame`]): a sliding puzzle ([`SlideSpec`]) or a Shisen-Sho deal
//! ([`ShisenSpec`]). A `Race<SlideSpec>` takes only sliding moves, so a
//! turn of the wrong game cannot reach it; [`AnyRace`] is a room whose
//! game is known only once it is read (from a request or a stored room),
//! and the one place a turn is checked against the room's game.
//!
//! A Shisen-Sho racer removes pairs and may shuffle (there is no undo in
//! a race); they finish by clearing the board, and are out when stuck for
//! good: no pair connects, and the shuffle the game's rules would make now
//! (seeded by the deal and the step, so the same on every replica) leaves
//! none either.

mod any;
mod entrant;
mod error;
mod event;
mod game;
mod name;
mod room;

pub use any::{AnyRace, Turn};
pub use entrant::Entrant;
pub use error::RaceError;
pub use event::{Event, Finish, Phase, Placing, Progress, RacerView, RoomView, Solve, Standing};
pub use game::{Deal, RaceGame, RaceSpec, ShisenDeal};
pub use name::RacerName;
pub use room::{Presence, Race};

#[cfg(doc)]
use crate::{shisen_game::ShisenSpec, slide_game::SlideSpec};

/// How long the countdown runs before everyone gets the puzzle.
pub const COUNTDOWN_MS: i64 = 3_000;
/// How long a racer a pairing seated (quick match, an arena) has to make
/// a first move: from the pairing to come (the countdown starts on its own
/// once all are here), and from the start to move. Past it the race is
/// aborted, unrated, as lichess aborts a game whose player never moves.
pub const FIRST_MOVE_MS: i64 = 15_000;
/// How long a player who lost the connection keeps their place.
pub const RECONNECT_MS: i64 = 30_000;
/// How long a room with nobody in it lives on.
pub const EMPTY_ROOM_MS: i64 = 60_000;
/// The fewest players a race starts with.
pub const FEWEST_PLAYERS: usize = 2;
/// The most players in a room.
pub const MOST_PLAYERS: usize = 8;
/// The most spectators in a room: each one is a connection every event
/// is written to.
pub const MOST_SPECTATORS: usize = 32;

/// A racer's number in the room, given on joining and kept until they
/// leave; never reused within the room.
pub type Seat = u32;
