//! The log of a room's steps: the one order in which every instance that
//! holds a room takes its steps.
//!
//! What a log promises, whatever keeps it:
//!
//! - **Order.** [`RoomLog::append`] numbers the steps of a room 1, 2, 3, …
//!   in the order they are appended, whichever instance appends them; every
//!   instance takes them in that order, with the times they were logged
//!   at, and so holds the same race.
//! - **Replay.** [`RoomLog::after`] gives the steps of a room after a
//!   number, in order: an instance holding a room for the first time
//!   replays it from 0, and one that missed steps (its notifications were
//!   lost, and it connected again) catches up from the last step it took.
//! - **Notification.** Once [`RoomLog::listen`] has been called, the log
//!   tells the rooms ([`Hears`]) of the steps appended anywhere (the room, the number,
//!   and the step itself when it is short enough), soon after; a missed
//!   notification loses nothing, since a gap in the numbers makes the room
//!   read what it missed with `after`, and a lost listening connection is
//!   told with [`Hears::hear_all`].
//!
//! [`InProcess`] is the log of one instance alone (SQLite): a number per
//! room, nothing kept, since this instance takes every step as it appends
//! it. [`Postgres`] shares rooms between instances over one database: a
//! table of steps, and `LISTEN/NOTIFY` to tell the others. [`Redis`]
//! (`redis`) shares them over a Redis server, the live-play bus: a stream
//! of steps per room and pub/sub to tell the others, with PostgreSQL
//! keeping only what lasts (results, ratings, replays).

mod beats;
mod redis;
pub use self::redis::{shown, Redis};

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use store::{OpenedRoom, RaceNotices, Store};

/// What a log's calls come back with (a boxed future, so that the log can
/// be chosen when the server starts).
pub type Pending<'a, T> = Pin<Box<dyn Future<Output = Result<T, LogError>> + Send + 'a>>;

/// Why a log could not be written or read: the database or the bus that
/// keeps it failed.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    #[error("{0}")]
    Store(#[from] store::Error),
    #[error("the live-play bus: {0}")]
    Bus(#[from] ::redis::RedisError),
    #[error("the live-play bus did not answer in time")]
    Late,
}

impl From<LogError> for crate::error::ApiError {
    /// The database's faults as every request answers them; the bus's as
    /// a 503 to try again shortly (it reconnects by itself).
    fn from(error: LogError) -> Self {
        match error {
            LogError::Store(e) => e.into(),
            LogError::Bus(_) | LogError::Late => {
                tracing::error!(error = %error, "live-play bus error");
                crate::error::ApiError::unavailable(
                    "the live-play bus cannot be reached: try again",
                    5,
                )
            }
        }
    }
}

/// A numbered step as logged: its number in the room, and its text.
pub type Numbered = (i64, String);

/// A step to append to a room's log: the room, the step as text, and
/// when it was taken.
#[derive(Clone, Copy, Debug)]
pub struct NewStep<'a> {
    /// The room's id.
    pub room: &'a str,
    /// The step, as logged.
    pub text: &'a str,
    /// When it was taken, in Unix milliseconds.
    pub at: i64,
}

/// What appending a step gives back: its number in the room, and the
/// steps numbered before it that the appender had not taken yet.
#[derive(Debug)]
pub struct Appended {
    /// The step's number: one after the room's last.
    pub seq: i64,
    /// The steps logged by others before it, in order.
    pub missed: Vec<Numbered>,
}

/// Where the steps of rooms are put in order (see the module's page).
pub trait RoomLog: Send + Sync {
    /// Makes a new room known to every instance on this log.
    fn open<'a>(&'a self, id: &'a str, room: &'a OpenedRoom) -> Pending<'a, ()>;

    /// A room opened on another instance, if this log knows it.
    fn opened<'a>(&'a self, id: &'a str) -> Pending<'a, Option<OpenedRoom>>;

    /// Appends a step to its room: its number, the one after the room's
    /// last.
    fn append<'a>(&'a self, step: NewStep<'a>) -> Pending<'a, i64>;

    /// The steps of room `id` numbered after `seq`, in order.
    fn after<'a>(&'a self, id: &'a str, seq: i64) -> Pending<'a, Vec<Numbered>>;

    /// Appends as [`RoomLog::append`], and gives back as well the steps
    /// numbered after `taken` and before it (logged by others, not yet
    /// taken here), in order: by default read with [`RoomLog::after`] when
    /// there are any.
    fn append_after<'a>(&'a self, step: NewStep<'a>, taken: i64) -> Pending<'a, Appended> {
        Box::pin(async move {
            let seq = self.append(step).await?;
            let mut missed = Vec::new();
            if seq > taken + 1 {
                metrics::counter!("tessera_race_log_reads_total").increment(1);
                missed = self.after(step.room, taken).await?;
                missed.retain(|(number, _)| *number < seq);
            }
            Ok(Appended { seq, missed })
        })
    }

    /// Tells `rooms` of the steps other instances append, from now on
    /// (once: later calls do nothing).
    fn listen<'a>(&'a self, rooms: Arc<dyn Hears>) -> Pending<'a, ()>;

    /// Room `id` is held here from now on: the log tells of its steps
    /// (it has told of every room's until now, unless it says otherwise).
    /// A step logged before this returns is read from the log by the
    /// room's catching up, which follows.
    fn follow<'a>(&'a self, _id: &'a str) -> Pending<'a, ()> {
        Box::pin(async { Ok(()) })
    }

    /// Room `id`, followed, did not come to be held here after all.
    fn unfollow(&self, _id: &str) {}

    /// Room `id` is no longer held here.
    fn forget(&self, id: &str);

    /// A socket of the player `key` to room `id` opened (`here`) or
    /// closed on this instance: a log shared by instances that can die
    /// counts them, so that another can disconnect them (nothing by
    /// default).
    fn present(&self, _id: &str, _key: &str, _here: bool) {}
}

/// What a log tells the rooms held here (`rooms::Rooms`): a trait, so
/// the log does not import the rooms that import it.
pub trait Hears: Send + Sync + 'static {
    /// Room `id` gained a step elsewhere: its number and text when the
    /// notice carried them, `None` when the log must be read.
    fn heard(&self, id: &str, step: Option<(i64, String)>);

    /// Notices may have been lost: every room reads its log again.
    fn hear_all(&self);

    /// The player `key` was connected to room `id` through an instance
    /// that died: the room must log their disconnection.
    fn lost(&self, id: &str, key: &str);

    /// The log cannot be reached (`true`: steps cannot be taken), or can
    /// again (`false`): every socket here is told.
    fn away(&self, away: bool);

    /// The other instances took this one for dead while it could not
    /// reach them, and logged its racers disconnected: its sockets are
    /// closed, so that their pages connect again and are seen anew.
    fn cut_off(&self);
}

/// The log of rooms held by this instance alone: each room's last number.
#[derive(Default)]
pub struct InProcess {
    last: Mutex<HashMap<String, i64>>,
}

impl RoomLog for InProcess {
    fn open<'a>(&'a self, _: &'a str, _: &'a OpenedRoom) -> Pending<'a, ()> {
        Box::pin(async { Ok(()) })
    }

    fn opened<'a>(&'a self, _: &'a str) -> Pending<'a, Option<OpenedRoom>> {
        // No other instance opens rooms on this log.
        Box::pin(async { Ok(None) })
    }

    fn append<'a>(&'a self, step: NewStep<'a>) -> Pending<'a, i64> {
        let mut last = self.last.lock().unwrap_or_else(PoisonError::into_inner);
        let seq = last.entry(step.room.to_string()).or_default();
        *seq += 1;
        let seq = *seq;
        Box::pin(async move { Ok(seq) })
    }

    fn after<'a>(&'a self, _: &'a str, _: i64) -> Pending<'a, Vec<Numbered>> {
        // This instance took every step as it appended it: it never asks.
        Box::pin(async { Ok(Vec::new()) })
    }

    fn listen<'a>(&'a self, _: Arc<dyn Hears>) -> Pending<'a, ()> {
        Box::pin(async { Ok(()) })
    }

    fn forget(&self, id: &str) {
        self.last
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(id);
    }
}

/// Rooms shared over a PostgreSQL database (`store::races`).
pub struct Postgres {
    store: Store,
    /// Whether this instance listens for the others' steps yet.
    listening: tokio::sync::OnceCell<()>,
}

impl Postgres {
    /// The log kept in `store`'s database.
    pub fn new(store: Store) -> Postgres {
        Postgres {
            store,
            listening: tokio::sync::OnceCell::new(),
        }
    }
}

impl RoomLog for Postgres {
    fn open<'a>(&'a self, id: &'a str, room: &'a OpenedRoom) -> Pending<'a, ()> {
        Box::pin(async move { Ok(self.store.open_race(id, room).await?) })
    }

    fn opened<'a>(&'a self, id: &'a str) -> Pending<'a, Option<OpenedRoom>> {
        Box::pin(async move { Ok(self.store.race(id).await?) })
    }

    fn append<'a>(&'a self, step: NewStep<'a>) -> Pending<'a, i64> {
        let NewStep { room, text, at } = step;
        Box::pin(async move { Ok(self.store.log_race_step(room, text, at).await?) })
    }

    fn after<'a>(&'a self, id: &'a str, seq: i64) -> Pending<'a, Vec<Numbered>> {
        Box::pin(async move { Ok(self.store.race_steps_after(id, seq).await?) })
    }

    fn listen<'a>(&'a self, rooms: Arc<dyn Hears>) -> Pending<'a, ()> {
        Box::pin(async move {
            self.listening
                .get_or_try_init(|| async {
                    if let Some(listener) = self.store.race_listener().await? {
                        tokio::spawn(relay(rooms, self.store.clone(), listener));
                    }
                    Ok::<(), LogError>(())
                })
                .await?;
            Ok(())
        })
    }

    fn forget(&self, _: &str) {
        // The table outlives the room here: other instances may hold it.
    }
}

/// Passes the database's notifications to the rooms held here; when the
/// listening connection is lost, every room catches up once it is back.
async fn relay(rooms: Arc<dyn Hears>, store: Store, mut listener: RaceNotices) {
    loop {
        match listener.next().await {
            Ok(Some(notice)) => tell(rooms.as_ref(), &notice),
            // Lost: the next call connects again.
            Ok(None) => rooms.hear_all(),
            Err(e) => {
                tracing::warn!(error = %e, "race notifications lost: listening again");
                tokio::time::sleep(Duration::from_secs(1)).await;
                match store.race_listener().await {
                    Ok(Some(again)) => {
                        listener = again;
                        rooms.hear_all();
                    }
                    Ok(None) => return,
                    Err(e) => tracing::warn!(error = %e, "cannot listen for race steps yet"),
                }
            }
        }
    }
}

/// Tells `rooms` of a notice of a step: `room seq step`, or `room seq`
/// for a step too long to carry (then read from the log).
fn tell(rooms: &dyn Hears, notice: &str) {
    let mut parts = notice.splitn(3, ' ');
    let id = parts.next().unwrap_or_default();
    let seq = parts.next().and_then(|seq| seq.parse::<i64>().ok());
    let step = seq
        .zip(parts.next())
        .map(|(seq, step)| (seq, step.to_string()));
    rooms.heard(id, step);
}

/// The log of rooms on `store`: shared when it is PostgreSQL, this
/// instance's alone when it is SQLite.
pub fn of(store: &Store) -> Arc<dyn RoomLog> {
    if store.shares_races() {
        Arc::new(Postgres::new(store.clone()))
    } else {
        Arc::new(InProcess::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn in_process_numbers_each_rooms_steps_from_one() {
        let log = InProcess::default();
        let step = |room, text| NewStep { room, text, at: 0 };
        assert_eq!(log.append(step("a", "x")).await.unwrap(), 1);
        assert_eq!(log.append(step("a", "y")).await.unwrap(), 2);
        assert_eq!(log.append(step("b", "x")).await.unwrap(), 1);
        log.forget("a");
        assert_eq!(log.append(step("a", "z")).await.unwrap(), 1);
        assert!(log.opened("a").await.unwrap().is_none());
    }
}
