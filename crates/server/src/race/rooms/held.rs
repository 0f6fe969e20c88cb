//! The rooms this instance holds, by id: opened here or replayed from a
//! shared log, each with its clock running; and the race sockets counted
//! against the room's cap and the instance's.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use axum::http::StatusCode;
use play::race::{AnyRace, Deal, RaceError, RaceSpec};
use play::rating::Pool;
use play::seed::random_id;
use tokio::sync::watch;

use super::room::{Encode, Room, Settle};
use super::step::Step;
use crate::clock::now_millis;
use crate::error::ApiError;
use crate::race::log::{Hears, RoomLog};
use store::OpenedRoom;

/// Rooms one instance holds at once: each is a little memory and a timer,
/// and rooms nobody joins expire within a minute.
const MOST_ROOMS: usize = 10_000;
/// Sockets one room takes: its players and spectators, and as many again
/// for pages open twice and connections not yet noticed as lost.
pub const ROOM_SOCKETS: usize = 2 * (play::race::MOST_PLAYERS + play::race::MOST_SPECTATORS);

/// The rooms of this instance, by id.
impl Hears for Rooms {
    fn heard(&self, id: &str, step: Option<(i64, String)>) {
        Rooms::heard(self, id, step);
    }

    fn hear_all(&self) {
        Rooms::hear_all(self);
    }

    fn away(&self, away: bool) {
        let frame = serde_json::json!({"type": "bus", "away": away}).to_string();
        let frame = axum::extract::ws::Utf8Bytes::from(frame);
        for room in self.map().values() {
            // Nobody listening is no error: the room may be empty here.
            let _ = room.events.send(frame.clone());
        }
    }

    fn cut_off(&self) {
        self.cut.send_modify(|times| *times += 1);
    }

    fn lost(&self, id: &str, key: &str) {
        let (rooms, id, key) = (self.clone(), id.to_string(), key.to_string());
        tokio::spawn(async move {
            // Replayed here if no socket of this instance holds it yet.
            let lost = match rooms.find(&id).await {
                Ok(Some(room)) => room
                    .execute(Step::Disconnect { key }, |_, _, _| ())
                    .await
                    .map_err(|e| e.to_string()),
                Ok(None) => Ok(()),
                Err(e) => Err(e.message),
            };
            if let Err(e) = lost {
                tracing::warn!(room = %id, error = %e, "a lost racer could not be disconnected");
            }
        });
    }
}

#[derive(Clone)]
pub struct Rooms {
    rooms: Arc<Mutex<HashMap<String, Arc<Room>>>>,
    /// Race sockets open on this instance: once upgraded, a socket is no
    /// longer one of the connections the accept loop counts, so it is
    /// counted here against the same cap.
    sockets: Arc<AtomicUsize>,
    most_sockets: usize,
    /// How often race sockets are pinged.
    pub ping: Duration,
    /// Set when the server stops: every socket closes with 1001.
    pub stopping: Arc<watch::Sender<bool>>,
    /// Counts the times this instance was taken for dead by the others:
    /// every socket closes with 1012 and its page connects again.
    pub cut: Arc<watch::Sender<u64>>,
    /// The log rooms' steps go through: shared with other instances, or
    /// this one's alone.
    log: Arc<dyn RoomLog>,
    encode: Encode,
    /// Where rated rooms' races go when they end.
    settle: Settle,
}

/// One socket counted against its room's cap and the instance's;
/// uncounted when dropped with the connection.
pub struct Ticket {
    room: Arc<Room>,
    all: Arc<AtomicUsize>,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.room.sockets.fetch_sub(1, Ordering::SeqCst);
        self.all.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Counts one more on `counter` unless it is at `cap`.
fn take_one(counter: &AtomicUsize, cap: usize) -> bool {
    counter
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
            (n < cap).then_some(n + 1)
        })
        .is_ok()
}

impl Rooms {
    /// No rooms yet; at most `most_sockets` race sockets at once. Rooms'
    /// steps go through `log`.
    pub fn new(
        most_sockets: usize,
        ping: Duration,
        log: Arc<dyn RoomLog>,
        encode: Encode,
        settle: Settle,
    ) -> Rooms {
        Rooms {
            rooms: Arc::default(),
            sockets: Arc::default(),
            most_sockets,
            ping,
            stopping: Arc::new(watch::channel(false).0),
            cut: Arc::new(watch::channel(0).0),
            log,
            encode,
            settle,
        }
    }

    /// Tells every race socket that the server is going away, and waits
    /// until they have closed (the caller bounds the wait).
    pub async fn close_all(&self) {
        self.stopping.send_replace(true);
        while self.sockets.load(Ordering::SeqCst) > 0 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Counts a socket for `room`, unless the room or the instance has as
    /// many as it takes.
    pub fn admit(&self, room: &Arc<Room>) -> Result<Ticket, ApiError> {
        if !take_one(&self.sockets, self.most_sockets) {
            return Err(ApiError::unavailable(
                "the server has too many race connections open: try again",
                5,
            ));
        }
        if !take_one(&room.sockets, ROOM_SOCKETS) {
            self.sockets.fetch_sub(1, Ordering::SeqCst);
            return Err(ApiError::unavailable(
                "this race has too many connections",
                5,
            ));
        }
        Ok(Ticket {
            room: room.clone(),
            all: self.sockets.clone(),
        })
    }

    fn map(&self) -> MutexGuard<'_, HashMap<String, Arc<Room>>> {
        self.rooms.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The casual rooms this instance holds that are still in the lobby
    /// with a seat free, newest first: `(id, game, players, opened_at)`.
    /// Rated rooms are not listed: quick match and arenas fill them.
    pub async fn lobby(&self) -> Vec<(String, String, usize, i64)> {
        let rooms: Vec<Arc<Room>> = self.map().values().cloned().collect();
        let mut open = Vec::new();
        for room in rooms {
            let replica = room.replica().await;
            if replica.rated.is_some() || replica.race.phase() != play::race::Phase::Lobby {
                continue;
            }
            let players = replica.race.view().players.len();
            if players < play::race::MOST_PLAYERS {
                open.push((
                    room.id.clone(),
                    replica.race.game().to_string(),
                    players,
                    room.opened_at,
                ));
            }
        }
        open.sort_by(|a, b| b.3.cmp(&a.3).then(a.0.cmp(&b.0)));
        open
    }

    /// Opens a room racing `game`, its first puzzle `deal` (dealt by the
    /// caller, within the engine's budget), rated in its pool if `rated`,
    /// with its clock running; `None` when the instance holds all the
    /// rooms it takes.
    pub async fn open(
        &self,
        game: RaceSpec,
        deal: Deal,
        rated: bool,
    ) -> Result<Option<String>, ApiError> {
        let now = now_millis();
        let pool = rated
            .then(|| Pool::of(&game))
            .transpose()
            .map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e).at("/rated"))?;
        let seed = deal.seed();
        let race =
            AnyRace::dealt(game.clone(), deal, now).map_err(|e| ApiError::bad(e).at("/goal"))?;
        let race = limited(race, pool);
        if self.map().len() >= MOST_ROOMS {
            return Ok(None);
        }
        let id = random_id();
        self.log.listen(Arc::new(self.clone())).await?;
        self.log.follow(&id).await?;
        let opened = OpenedRoom {
            game: game.to_string(),
            seed,
            opened_at: now,
            rated,
        };
        if let Err(e) = self.log.open(&id, &opened).await {
            self.log.unfollow(&id);
            return Err(e.into());
        }
        let room = Room::new(id.clone(), race, now, self.log.clone(), self.encode);
        let room = self.rate(room, pool);
        let held = self.hold(room).map(|_| id.clone());
        if held.is_none() {
            self.log.unfollow(&id);
        }
        Ok(held)
    }

    /// `room`, rated in `pool` if any.
    fn rate(&self, room: Room, pool: Option<Pool>) -> Room {
        match pool {
            Some(pool) => room.rated(pool, self.settle.clone()),
            None => room,
        }
    }

    /// Holds `room` here, with its clock running, unless the instance
    /// holds all the rooms it takes (or holds it already: that one then).
    fn hold(&self, room: Room) -> Option<Arc<Room>> {
        let room = {
            let mut rooms = self.map();
            if let Some(held) = rooms.get(&room.id) {
                return Some(held.clone());
            }
            if rooms.len() >= MOST_ROOMS {
                return None;
            }
            let room = Arc::new(room);
            rooms.insert(room.id.clone(), room.clone());
            room
        };
        metrics::gauge!("tessera_race_rooms").increment(1.0);
        tokio::spawn(keep_time(self.clone(), room.clone()));
        Some(room)
    }

    /// The room `id`, if open: held here, or (opened on another instance)
    /// replayed from its log.
    pub async fn find(&self, id: &str) -> Result<Option<Arc<Room>>, ApiError> {
        if let Some(room) = self.map().get(id).cloned() {
            return Ok(Some(room));
        }
        // Listening before the log is read: no step falls between.
        self.log.listen(Arc::new(self.clone())).await?;
        self.log.follow(id).await?;
        let found = self.replay(id).await;
        // Not held after all (unknown, expired, or no room for it). Two
        // first finds of one room at once come to the same.
        if !matches!(found, Ok(Some(_))) && !self.map().contains_key(id) {
            self.log.unfollow(id);
        }
        found
    }

    /// Room `id` replayed from its log and held here, if it is open.
    async fn replay(&self, id: &str) -> Result<Option<Arc<Room>>, ApiError> {
        let Some(opened) = self.log.opened(id).await? else {
            return Ok(None);
        };
        let Ok(game) = opened.game.parse::<RaceSpec>() else {
            tracing::warn!(room = id, game = %opened.game, "a shared race names an unknown game");
            return Ok(None);
        };
        let pool = match opened.rated.then(|| Pool::of(&game)).transpose() {
            Ok(pool) => pool,
            Err(e) => {
                tracing::warn!(room = id, error = %e, "a shared rated race is of no pool");
                return Ok(None);
            }
        };
        let Ok(race) = dealt(game, opened.seed, opened.opened_at).await else {
            return Ok(None);
        };
        let room = Room::new(
            id.to_string(),
            limited(race, pool),
            opened.opened_at,
            self.log.clone(),
            self.encode,
        );
        let room = self.rate(room, pool);
        room.stale.store(true, Ordering::SeqCst);
        room.hear().await;
        if room.replica().await.race.expired(now_millis()) {
            return Ok(None);
        }
        let room = self.hold(room).ok_or_else(|| {
            ApiError::unavailable(
                "the server holds as many races as it can: try again later",
                60,
            )
        })?;
        // A step logged while the room was being read was not heard.
        room.stale.store(true, Ordering::SeqCst);
        room.heard.notify_one();
        Ok(Some(room))
    }

    /// A socket of the player `key` to room `id` opened (`here`) or
    /// closed on this instance, told to the log.
    pub fn present(&self, id: &str, key: &str, here: bool) {
        self.log.present(id, key, here);
    }

    fn forget(&self, id: &str) {
        if self.map().remove(id).is_some() {
            self.log.forget(id);
            metrics::gauge!("tessera_race_rooms").decrement(1.0);
        }
    }

    /// Tells every room held here to catch up (after the log's listening
    /// connection was lost: notifications may have been missed).
    pub(super) fn hear_all(&self) {
        for room in self.map().values() {
            room.stale.store(true, Ordering::SeqCst);
            room.heard.notify_one();
        }
    }

    /// Tells room `id`, if held here, that another instance logged a
    /// step: the step and its number when the notification carried them.
    pub(super) fn heard(&self, id: &str, step: Option<(i64, String)>) {
        let room = self.map().get(id).cloned();
        if let Some(room) = room {
            match step {
                Some((seq, _)) if room.has_taken(seq) => return,
                Some(step) => room.inbox().push(step),
                None => room.stale.store(true, Ordering::SeqCst),
            }
            room.heard.notify_one();
        }
    }
}

/// `race` under the rules of its pool's rated races, if rated: signed-in
/// racers only, each race limited in time.
fn limited(race: AnyRace, pool: Option<Pool>) -> AnyRace {
    match pool {
        Some(pool) => race.with_limit(pool.time_limit_ms()).signed_in_only(),
        None => race,
    }
}

/// The room's clock: takes a tick at the race's deadlines (the end of the
/// countdown, a lapsing absence), takes the steps other instances logged,
/// and forgets the room once it expires.
async fn keep_time(rooms: Rooms, room: Arc<Room>) {
    loop {
        let wake = room.wake_at(&*room.replica().await);
        let changed = room.changed.notified();
        let heard = room.heard.notified();
        let wait = wake.map(|at| Duration::from_millis((at - now_millis()).max(0) as u64));
        tokio::select! {
            () = async { match wait { Some(wait) => tokio::time::sleep(wait).await, None => std::future::pending().await } } => {}
            () = changed => continue,
            () = heard => {
                room.hear().await;
                continue;
            }
        }
        if room.replica().await.race.expired(now_millis()) {
            // Shared, another instance may have kept it alive: caught up
            // first.
            room.stale.store(true, Ordering::SeqCst);
            room.hear().await;
            if room.replica().await.race.expired(now_millis()) {
                rooms.forget(&room.id);
                return;
            }
            continue;
        }
        if let Err(e) = room.execute(Step::Tick, |_, _, _| ()).await {
            tracing::warn!(room = %room.id, error = %e, "a race's clock could not tick");
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }
}

/// A room opened elsewhere, its first puzzle dealt here off the async
/// threads: a Shisen-Sho board may take a second to find.
async fn dealt(game: RaceSpec, seed: u64, now: i64) -> Result<AnyRace, RaceError> {
    tokio::task::spawn_blocking(move || AnyRace::new(game, seed, now))
        .await
        .expect("dealing does not panic")
}

#[cfg(test)]
mod tests {
    use super::super::{encode_nothing as encode, in_process};
    use super::*;
    use play::slide_game::SlideSpec;

    #[tokio::test]
    async fn sockets_are_capped_per_room_and_per_instance() {
        let log = in_process();
        let settle: Settle = Arc::new(|_, _| {});
        let rooms = Rooms::new(
            ROOM_SOCKETS + 1,
            Duration::from_secs(15),
            log,
            encode,
            settle,
        );
        let spec: SlideSpec = "3x3-row-major".parse().unwrap();
        let game = RaceSpec::Slide(spec);
        let deal = game.deal(1).unwrap();
        let a = rooms
            .open(game.clone(), deal.clone(), false)
            .await
            .unwrap()
            .unwrap();
        let b = rooms.open(game, deal, false).await.unwrap().unwrap();
        let a = rooms.find(&a).await.unwrap().unwrap();
        let b = rooms.find(&b).await.unwrap().unwrap();
        let tickets: Vec<Ticket> = (0..ROOM_SOCKETS)
            .map(|_| rooms.admit(&a).unwrap())
            .collect();
        assert!(rooms.admit(&a).is_err(), "the room is full");
        let _one = rooms.admit(&b).unwrap();
        assert!(rooms.admit(&b).is_err(), "the instance is full");
        drop(tickets);
        assert!(rooms.admit(&a).is_ok() && rooms.admit(&b).is_ok());
    }
}
