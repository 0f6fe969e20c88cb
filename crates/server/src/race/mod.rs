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

/// The key a signed-in player races under in a rated room: their account,
/// whichever device or cookie they come with (a rated race is between
/// accounts; a pairing seats them by it).
pub(super) fn account_key(account_id: &str) -> String {
    format!("account:{account_id}")
}

/// The race rooms of a server on `store`: shared through it when it is
/// PostgreSQL, held by this instance alone when it is SQLite.
pub(super) fn rooms(store: &store::Store, config: &super::Config) -> Rooms {
    rooms_on(store, config, log::of(store))
}

/// The race rooms of a server on `store` whose steps go through `log`.
fn rooms_on(
    store: &store::Store,
    config: &super::Config,
    log: std::sync::Arc<dyn log::RoomLog>,
) -> Rooms {
    Rooms::new(
        config.limits.max_connections,
        config.race_ping,
        log,
        wire::encode_event,
        rated::settler(store),
    )
}

/// The race rooms of a server starting: shared over the live-play bus
/// when `config.bus` names one, which must answer now; as [`rooms`]
/// otherwise.
pub(super) async fn rooms_serving(
    store: &store::Store,
    config: &super::Config,
) -> anyhow::Result<Rooms> {
    let Some(bus) = &config.bus else {
        return Ok(rooms(store, config));
    };
    let shown = log::shown(bus);
    let log = log::Redis::connect(bus)
        .await
        .map_err(|e| anyhow::anyhow!("cannot reach the live-play bus at {shown}: {e}"))?;
    let log = std::sync::Arc::new(log);
    let rooms = rooms_on(store, config, log.clone());
    // Beating on the bus from the start, so that this instance takes its
    // part in disconnecting the racers of a dead one.
    log::RoomLog::listen(log.as_ref(), std::sync::Arc::new(rooms.clone()))
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on the live-play bus at {shown}: {e}"))?;
    tracing::info!(bus = %shown, "race rooms shared over the live-play bus");
    Ok(rooms)
}
