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

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use play::race::{AnyRace, Event, RaceError, RaceSpec, RacerName, Seat, Turn};
use play::seed::{derived_id, random_id};
use play::shisen_game;
use serde::{Deserialize, Serialize};
use slide::Moves;
use tokio::sync::{broadcast, watch, Notify};

use super::clock::now_millis;
use super::error::ApiError;
use super::race_log::{Hears, RoomLog};
use crate::store::OpenedRoom;

/// Events a slow connection may fall behind before it is sent the room
/// afresh instead.
const BACKLOG: usize = 1024;
/// Rooms one instance holds at once: each is a little memory and a timer,
/// and rooms nobody joins expire within a minute.
const MOST_ROOMS: usize = 10_000;
/// Sockets one room takes: its players and spectators, and as many again
/// for pages open twice and connections not yet noticed as lost.
pub const ROOM_SOCKETS: usize = 2 * (play::race::MOST_PLAYERS + play::race::MOST_SPECTATORS);

/// What changes a race, as it is logged: the same steps at the same
/// times give the same race wherever they are taken.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Step {
    /// A connection opens: a spectator until they join.
    Watch {
        key: String,
    },
    Join {
        key: String,
        #[serde(with = "as_text")]
        name: RacerName,
        account: Option<String>,
    },
    Ready {
        key: String,
        ready: bool,
    },
    Start {
        key: String,
    },
    /// Sliding moves, logged as text: `RRU`.
    Play {
        key: String,
        #[serde(with = "as_text")]
        moves: Moves,
        t: i64,
    },
    /// A Shisen-Sho turn, logged as text: `x1,y1-x2,y2` or `shuffle`.
    Turn {
        key: String,
        #[serde(with = "as_text")]
        turn: shisen_game::Turn,
        t: i64,
    },
    /// The seed is drawn by the instance that logs the step.
    Rematch {
        key: String,
        seed: u64,
    },
    Disconnect {
        key: String,
    },
    Leave {
        key: String,
    },
    /// The room's clock: a countdown ending, an absence lapsing.
    Tick,
}

/// A logged field as the text it reads from and prints to: the log
/// holds what the protocol sends, and reads back into the checked type.
mod as_text {
    use std::fmt::Display;
    use std::str::FromStr;

    use serde::{de, Deserialize, Deserializer, Serializer};

    pub fn serialize<T: Display, S: Serializer>(value: &T, out: S) -> Result<S::Ok, S::Error> {
        out.collect_str(value)
    }

    pub fn deserialize<'de, T, D>(input: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        let text = String::deserialize(input)?;
        text.parse().map_err(de::Error::custom)
    }
}

/// A step and when it was taken.
#[derive(Serialize, Deserialize)]
struct Logged {
    at: i64,
    step: Step,
}

impl Step {
    /// A racer's turn, logged as its game's step: sliding moves as
    /// `play`, a Shisen-Sho turn as `turn`.
    pub fn play(key: String, turn: Turn, t: i64) -> Step {
        match turn {
            Turn::Slide(moves) => Step::Play { key, moves, t },
            Turn::Shisen(turn) => Step::Turn { key, turn, t },
        }
    }

    /// Plays the step on `race` at `at` (after the race is moved on to
    /// `at`, which the caller does).
    fn take(&self, race: &mut AnyRace, at: i64) -> Result<Vec<Event>, RaceError> {
        match self {
            Step::Watch { key } => race.watch(key, at),
            Step::Join { key, name, account } => {
                Ok(race.join(key, name.clone(), account.clone(), at)?.1)
            }
            Step::Ready { key, ready } => race.ready(key, *ready, at),
            Step::Start { key } => race.start(key, at),
            Step::Play { key, moves, t } => race.play(key, &Turn::Slide(moves.clone()), *t, at),
            Step::Turn { key, turn, t } => race.play(key, &Turn::Shisen(*turn), *t, at),
            Step::Rematch { key, seed } => race.rematch(key, *seed, at),
            Step::Disconnect { key } => Ok(race.disconnect(key, at)),
            Step::Leave { key } => Ok(race.leave(key, at)),
            Step::Tick => Ok(Vec::new()),
        }
    }
}

/// Why a step was not taken.
#[derive(Debug, thiserror::Error)]
pub enum StepError {
    /// The rules refused it.
    #[error("{0}")]
    Rules(#[from] RaceError),
    /// The shared log could not be written or read.
    #[error("the race could not be saved: try again ({0})")]
    Store(String),
}

/// A room's race as this instance has it, and the game id of each solve.
pub struct Replica {
    pub race: AnyRace,
    pub games: Games,
    /// The time of the last step taken: a step logged by an instance whose
    /// clock is behind is taken at this time instead, so the race's clock
    /// never runs back.
    last_at: i64,
    /// The number of the last logged step taken.
    taken: i64,
}

/// The stored game of each solve, by the round's seed and the racer's
/// seat: what `finish` and `results` link to. Derived from the room, the
/// seed and the seat, so every instance announces the same id.
pub struct Games {
    room: String,
    ids: HashMap<(u64, Seat), String>,
}

impl Games {
    /// The stored game of a solve of the round dealt from `seed`.
    pub fn of(&self, seed: Option<u64>, seat: Seat) -> Option<&str> {
        self.ids.get(&(seed?, seat)).map(String::as_str)
    }

    /// Notes what `event` changes: a start forgets the rounds before, a
    /// solve gets its game's id.
    fn note(&mut self, seed: Option<u64>, event: &Event) {
        let Some(seed) = seed else { return };
        match event {
            Event::Start(_) => self.ids.retain(|(round, _), _| *round == seed),
            Event::Finish(finish) => {
                let id = derived_id(&format!("race:{}:{seed}:{}", self.room, finish.seat));
                self.ids.insert((seed, finish.seat), id);
            }
            _ => {}
        }
    }
}

/// How each event is sent: the room's messages as the web module encodes
/// them.
pub type Encode = fn(&Event, &Replica) -> Utf8Bytes;

/// An answer that asks nothing.
type Answer = fn(&Replica, &[Event], i64);

/// One room: the race, the channel its events go out on, and wake-ups for
/// the room's clock.
pub struct Room {
    id: String,
    replica: tokio::sync::Mutex<Replica>,
    pub sockets: AtomicUsize,
    pub events: broadcast::Sender<Utf8Bytes>,
    /// The next deadline may have changed.
    changed: Notify,
    /// Another instance logged a step.
    heard: Notify,
    /// Steps other instances logged, as their notifications carried them,
    /// not yet taken.
    inbox: Mutex<Vec<(i64, String)>>,
    /// The log the room's steps go through.
    log: Arc<dyn RoomLog>,
    encode: Encode,
}

impl Room {
    fn new(id: String, race: AnyRace, at: i64, log: Arc<dyn RoomLog>, encode: Encode) -> Room {
        Room {
            replica: tokio::sync::Mutex::new(Replica {
                race,
                games: Games {
                    room: id.clone(),
                    ids: HashMap::new(),
                },
                last_at: at,
                taken: 0,
            }),
            id,
            sockets: AtomicUsize::new(0),
            events: broadcast::channel(BACKLOG).0,
            changed: Notify::new(),
            heard: Notify::new(),
            inbox: Mutex::default(),
            log,
            encode,
        }
    }

    fn inbox(&self) -> MutexGuard<'_, Vec<(i64, String)>> {
        self.inbox.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The room as it stands (for a snapshot).
    pub async fn replica(&self) -> tokio::sync::MutexGuard<'_, Replica> {
        self.replica.lock().await
    }

    /// Takes `step` now, and `answer`s from the race right after it (with
    /// its events and time) while no other step can come in between: a
    /// new connection subscribes to the room there, a solve reads its
    /// moves. The step goes through the log first, and the steps other
    /// instances logged before it are taken before it.
    pub async fn execute<T>(
        &self,
        step: Step,
        answer: impl FnOnce(&Replica, &[Event], i64) -> T,
    ) -> Result<T, StepError> {
        let mut replica = self.replica.lock().await;
        let now = now_millis();
        let text = serde_json::to_string(&Logged { at: now, step }).expect("steps serialize");
        let seq = self
            .log
            .append(&self.id, &text, now)
            .await
            .map_err(|e| StepError::Store(e.to_string()))?;
        let mut mine = Some((seq, answer));
        let mut outcome = None;
        let known = vec![(seq, text)];
        self.catch_up(&mut replica, known, &mut mine, &mut outcome)
            .await?;
        let outcome =
            outcome.ok_or_else(|| StepError::Store("a step went missing from the log".into()))?;
        self.changed.notify_one();
        outcome
    }

    /// Takes the logged steps this instance has not taken yet, in order;
    /// `mine`'s answer is given right after the step it numbers.
    /// `known` are steps already at hand (one's own, or those a
    /// notification carried): when they follow on from the last step taken
    /// (and include `mine`), the log is not read.
    async fn catch_up<T, F: FnOnce(&Replica, &[Event], i64) -> T>(
        &self,
        replica: &mut Replica,
        mut known: Vec<(i64, String)>,
        mine: &mut Option<(i64, F)>,
        outcome: &mut Option<Result<T, StepError>>,
    ) -> Result<(), StepError> {
        known.retain(|(seq, _)| *seq > replica.taken);
        known.sort_by_key(|(seq, _)| *seq);
        known.dedup_by_key(|(seq, _)| *seq);
        let follows = known
            .iter()
            .enumerate()
            .all(|(i, (seq, _))| *seq == replica.taken + 1 + i as i64);
        let last = known.last().map(|(seq, _)| *seq);
        let covers_mine = mine
            .as_ref()
            .is_none_or(|(number, _)| last.is_some_and(|last| last >= *number));
        let steps = if follows && covers_mine && !known.is_empty() {
            known
        } else {
            self.log
                .after(&self.id, replica.taken)
                .await
                .map_err(|e| StepError::Store(e.to_string()))?
        };
        for (seq, text) in steps {
            replica.taken = seq;
            let Ok(Logged { at, step }) = serde_json::from_str::<Logged>(&text) else {
                tracing::warn!(room = %self.id, seq, "a race step that does not read was skipped");
                continue;
            };
            let (events, taken, at) = self.take(replica, &step, at);
            if mine.as_ref().is_some_and(|(number, _)| *number == seq) {
                let (_, answer) = mine.take().expect("checked");
                *outcome = Some(
                    taken
                        .map(|()| answer(replica, &events, at))
                        .map_err(StepError::from),
                );
            }
        }
        Ok(())
    }

    /// Takes the steps other instances logged (when told of them).
    async fn hear(&self) {
        let mut replica = self.replica.lock().await;
        let known = std::mem::take(&mut *self.inbox());
        let mut none: Option<(i64, Answer)> = None;
        if let Err(e) = self
            .catch_up(&mut replica, known, &mut none, &mut None)
            .await
        {
            tracing::warn!(room = %self.id, error = %e, "a race room could not catch up");
        }
        self.changed.notify_one();
    }

    /// Moves the race on to `at` and plays `step`, broadcasting what it
    /// comes to: the events of a deadline just passed go out even when the
    /// step is refused. Returns the step's events, whether it was taken,
    /// and the time it was taken at.
    fn take(
        &self,
        replica: &mut Replica,
        step: &Step,
        at: i64,
    ) -> (Vec<Event>, Result<(), RaceError>, i64) {
        let at = at.max(replica.last_at);
        replica.last_at = at;
        let ticked = replica.race.tick(at);
        self.send(replica, &ticked);
        match step.take(&mut replica.race, at) {
            Ok(events) => {
                self.send(replica, &events);
                (events, Ok(()), at)
            }
            Err(e) => (Vec::new(), Err(e), at),
        }
    }

    /// Broadcasts `events` (with the replica locked, so that everyone
    /// hears them in the order they happened).
    fn send(&self, replica: &mut Replica, events: &[Event]) {
        let seed = replica.race.round_seed();
        for event in events {
            replica.games.note(seed, event);
            // Nobody listening is no error: the room may be empty here.
            let _ = self.events.send((self.encode)(event, replica));
        }
    }
}

/// The rooms of this instance, by id.
impl Hears for Rooms {
    fn heard(&self, id: &str, step: Option<(i64, String)>) {
        Rooms::heard(self, id, step);
    }

    fn hear_all(&self) {
        Rooms::hear_all(self);
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
    /// The log rooms' steps go through: shared with other instances, or
    /// this one's alone.
    log: Arc<dyn RoomLog>,
    encode: Encode,
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
    ) -> Rooms {
        Rooms {
            rooms: Arc::default(),
            sockets: Arc::default(),
            most_sockets,
            ping,
            stopping: Arc::new(watch::channel(false).0),
            log,
            encode,
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

    /// Opens a room racing `game` from `seed`, with its clock running;
    /// `None` when the instance holds all the rooms it takes.
    pub async fn open(&self, game: RaceSpec, seed: u64) -> Result<Option<String>, ApiError> {
        let now = now_millis();
        let race =
            AnyRace::new(game.clone(), seed, now).map_err(|e| ApiError::bad(e).at("/goal"))?;
        if self.map().len() >= MOST_ROOMS {
            return Ok(None);
        }
        let id = random_id();
        self.log.listen(Arc::new(self.clone())).await?;
        let opened = OpenedRoom {
            game: game.to_string(),
            seed,
            opened_at: now,
        };
        self.log.open(&id, &opened).await?;
        let room = Room::new(id.clone(), race, now, self.log.clone(), self.encode);
        Ok(self.hold(room).map(|_| id))
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
        let Some(opened) = self.log.opened(id).await? else {
            return Ok(None);
        };
        let Ok(game) = opened.game.parse::<RaceSpec>() else {
            tracing::warn!(room = id, game = %opened.game, "a shared race names an unknown game");
            return Ok(None);
        };
        let Ok(race) = AnyRace::new(game, opened.seed, opened.opened_at) else {
            return Ok(None);
        };
        let room = Room::new(
            id.to_string(),
            race,
            opened.opened_at,
            self.log.clone(),
            self.encode,
        );
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
        room.heard.notify_one();
        Ok(Some(room))
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
            room.heard.notify_one();
        }
    }

    /// Tells room `id`, if held here, that another instance logged a
    /// step: the step and its number when the notification carried them.
    pub(super) fn heard(&self, id: &str, step: Option<(i64, String)>) {
        let room = self.map().get(id).cloned();
        if let Some(room) = room {
            if let Some(step) = step {
                room.inbox().push(step);
            }
            room.heard.notify_one();
        }
    }
}

/// The room's clock: takes a tick at the race's deadlines (the end of the
/// countdown, a lapsing absence), takes the steps other instances logged,
/// and forgets the room once it expires.
async fn keep_time(rooms: Rooms, room: Arc<Room>) {
    loop {
        let wake = {
            let replica = room.replica().await;
            [replica.race.next_deadline(), replica.race.expires_at()]
                .into_iter()
                .flatten()
                .min()
        };
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

#[cfg(test)]
mod tests {
    use super::super::race_log::InProcess;
    use super::*;
    use play::race::Deal;
    use play::shisen_game::Turn;
    use play::slide_game::SlideSpec;

    fn in_process() -> Arc<dyn RoomLog> {
        Arc::new(InProcess::default())
    }

    fn encode(_: &Event, _: &Replica) -> Utf8Bytes {
        Utf8Bytes::from_static("")
    }

    #[tokio::test]
    async fn sockets_are_capped_per_room_and_per_instance() {
        let log = Arc::new(InProcess::default());
        let rooms = Rooms::new(ROOM_SOCKETS + 1, Duration::from_secs(15), log, encode);
        let spec: SlideSpec = "3x3-row-major".parse().unwrap();
        let game = RaceSpec::Slide(spec);
        let a = rooms.open(game.clone(), 1).await.unwrap().unwrap();
        let b = rooms.open(game, 1).await.unwrap().unwrap();
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

    #[test]
    fn steps_read_back_as_logged() {
        let steps = [
            Step::Watch { key: "k".into() },
            Step::Join {
                key: "k".into(),
                name: "Ada".parse().unwrap(),
                account: Some("ada".into()),
            },
            Step::Ready {
                key: "k".into(),
                ready: true,
            },
            Step::Play {
                key: "k".into(),
                moves: "RRU".parse().unwrap(),
                t: 1200,
            },
            Step::Turn {
                key: "k".into(),
                turn: "0,1-3,2".parse().unwrap(),
                t: 1300,
            },
            Step::Rematch {
                key: "k".into(),
                seed: 7,
            },
            Step::Tick,
        ];
        for step in steps {
            let text = serde_json::to_string(&Logged {
                at: 5,
                step: step.clone(),
            })
            .unwrap();
            let back: Logged = serde_json::from_str(&text).unwrap();
            assert_eq!(back.at, 5);
            assert_eq!(format!("{:?}", back.step), format!("{step:?}"));
        }
    }

    /// Two replicas given the same logged steps end in the same race,
    /// with the same game ids: what lets instances share a room.
    #[test]
    fn the_same_steps_give_the_same_race_and_games() {
        let spec: SlideSpec = "3x3-row-major".parse().unwrap();
        let race = AnyRace::new(RaceSpec::Slide(spec), 11, 1_000).unwrap();
        let steps = [
            (1_000, Step::Watch { key: "a".into() }),
            (
                1_001,
                Step::Join {
                    key: "a".into(),
                    name: "A".parse().unwrap(),
                    account: None,
                },
            ),
            (
                1_002,
                Step::Join {
                    key: "b".into(),
                    name: "B".parse().unwrap(),
                    account: None,
                },
            ),
            (
                1_003,
                Step::Ready {
                    key: "a".into(),
                    ready: true,
                },
            ),
            (
                1_004,
                Step::Ready {
                    key: "b".into(),
                    ready: true,
                },
            ),
            // Logged by an instance whose clock is behind: taken at 1_004.
            (900, Step::Tick),
            (9_000, Step::Tick),
        ];
        let rooms: Vec<Room> = (0..2)
            .map(|_| Room::new("room".into(), race.clone(), 1_000, in_process(), encode))
            .collect();
        let mut views = Vec::new();
        for room in &rooms {
            let mut replica = room.replica.try_lock().unwrap();
            for (at, step) in &steps {
                let _ = room.take(&mut replica, step, *at);
            }
            assert_eq!(replica.last_at, 9_000);
            let deal = replica.race.deal();
            // Solve as racer a: the 2x2's puzzle from its seed.
            let Some(Deal::Slide(puzzle)) = deal else {
                panic!("dealt after the countdown")
            };
            let solution =
                slide::solve_fast(&puzzle.start, &puzzle.goal_position).expect("solvable");
            let play = Step::Play {
                key: "a".into(),
                moves: solution,
                t: 500,
            };
            let (_, taken, _) = room.take(&mut replica, &play, 9_500);
            taken.unwrap();
            let game = replica
                .games
                .of(replica.race.round_seed(), 1)
                .map(str::to_string);
            views.push((format!("{:?}", replica.race.view()), game));
        }
        assert_eq!(views[0], views[1]);
        assert!(views[0].1.is_some(), "the solve has a game id");
    }

    /// A Shisen-Sho room replayed from its steps: the same deal, the same
    /// shuffles (seeded by the deal and the step, never drawn when taken),
    /// the same boards.
    #[test]
    fn the_same_shisen_steps_give_the_same_boards() {
        let game: RaceSpec = "shisen:6x4-gravity".parse().unwrap();
        let race = AnyRace::new(game, 21, 0).unwrap();
        let join = |key: &str| Step::Join {
            key: key.into(),
            name: key.parse().unwrap(),
            account: None,
        };
        let ready = |key: &str| Step::Ready {
            key: key.into(),
            ready: true,
        };
        // The countdown ends with the tick.
        let steps = [
            (1_000, join("a")),
            (1_000, join("b")),
            (1_000, ready("a")),
            (1_000, ready("b")),
            (5_000, Step::Tick),
        ];
        let boards: Vec<String> = (0..2)
            .map(|_| {
                let room = Room::new("room".into(), race.clone(), 0, in_process(), encode);
                let mut replica = room.replica.try_lock().unwrap();
                for (at, step) in &steps {
                    let _ = room.take(&mut replica, step, *at);
                }
                let Some(Deal::Shisen(deal)) = replica.race.deal() else {
                    panic!("dealt after the countdown")
                };
                let pair = deal.board.moves()[0];
                for turn in [Turn::Remove(pair.a, pair.b), Turn::Shuffle] {
                    let step = Step::Turn {
                        key: "a".into(),
                        turn,
                        t: 100,
                    };
                    let (events, taken, _) = room.take(&mut replica, &step, 6_000);
                    taken.unwrap();
                    assert!(!events.is_empty());
                }
                let (session, turns, _) = replica.race.shisen_of(1).unwrap();
                assert_eq!(turns.len(), 2);
                session.game().board().to_string()
            })
            .collect();
        assert_eq!(boards[0], boards[1]);
    }
}
