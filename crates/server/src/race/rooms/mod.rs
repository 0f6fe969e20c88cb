//! Where race rooms live. A room is the race (`play::race`, a pure
//! function of what its racers did and when) and a broadcast channel of
//! its events for the sockets connected here.
//!
//! Everything that changes a race is a [`Step`]: a racer's message, a lost
//! connection, the room's clock. A step is first appended to the room's
//! log ([`RoomLog`]), and every instance that serves the room takes the
//! logged steps in the log's order, with the times logged: the same steps
//! give every instance the same race, the same events and the same game
//! ids, so players of one room may be connected to different instances
//! and no sticky sessions are needed. Instances hear of new steps from the
//! log, and an instance that does not hold a room yet replays its log from
//! the start. With SQLite the log is this instance's alone, and each step
//! is taken as it is appended.
//!
//! One concept a file: what changes a race and how it is logged
//! (`step`), one room and its replica of the race (`room`), and the rooms
//! this instance holds, their sockets and their clocks (`held`).

mod held;
mod room;
mod step;

pub use held::Rooms;
pub use room::{Games, Replica, Room, Settle};
pub use step::{Paired, Step, StepError};

/// A log kept by this instance alone, for the tests.
#[cfg(test)]
fn in_process() -> std::sync::Arc<dyn super::log::RoomLog> {
    std::sync::Arc::new(super::log::InProcess::default())
}

/// Events sent as nothing, for the tests.
#[cfg(test)]
fn encode_nothing(_: &play::race::Event, _: &Replica) -> axum::extract::ws::Utf8Bytes {
    axum::extract::ws::Utf8Bytes::from_static("")
}
