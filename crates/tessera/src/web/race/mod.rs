//! Live races: `POST /api/races` opens a room, and each player holds one
//! WebSocket at `/api/races/{room}/ws` (the protocol is
//! `docs/race-protocol.md`).
//!
//! The rules are `play::race`; this module translates. Every frame is
//! checked at the edge (size, rate, JSON, type) before it reaches the
//! rules, and what the rules answer goes out as JSON: events to everyone
//! in the room over the room's broadcast channel, refusals as `error` to
//! the sender alone.
//!
//! One concept a file: opening a room (`open`), the frames in and out
//! (`wire`), the checks every frame meets first (`gate`), a player's
//! connection (`socket`), a finished solve judged and stored (`finish`), the open casual rooms (`lobby`),
//! a rated race's end settled through the ratings (`rated`), where
//! rooms live (`rooms`), and the log that puts a room's steps in
//! one order, this instance's or shared by many (`log`).

mod finish;
mod gate;
mod lobby;
mod log;
mod open;
mod rated;
mod rooms;
mod socket;
mod wire;

pub use lobby::{__path_lobby, lobby};
pub(super) use open::open_rated;
pub use open::{__path_new, new, NewRequest};
pub use socket::{__path_socket, socket};

pub use rooms::Rooms;

/// The race rooms of a server on `store`: shared through it when it is
/// PostgreSQL, held by this instance alone when it is SQLite.
pub(super) fn rooms(store: &store::Store, config: &super::Config) -> Rooms {
    Rooms::new(
        config.limits.max_connections,
        config.race_ping,
        log::of(store),
        wire::encode_event,
        rated::settler(store),
    )
}
