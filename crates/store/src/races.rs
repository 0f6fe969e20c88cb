//! Race rooms shared across instances (PostgreSQL only): a room's opening
//! and the log of its steps, and the channel that tells the instances a
//! room has a new step. With SQLite there is one instance, and its rooms
//! live in its memory.

use sqlx::postgres::PgListener;

use super::{column, read_rows, Error, Store};

/// The channel every instance listens on; a notification's payload is
/// the room's id, the step's number and (unless too long) the step.
const RACE_CHANNEL: &str = "tessera_races";

/// The longest step a notification carries; a longer one (a solution
/// sent whole) is read from the log.
const NOTIFIED_STEP_BYTES: usize = 7_000;

/// How a shared room was opened.
pub struct OpenedRoom {
    /// What it races, as `play::race::RaceSpec` names it (`slide:3x3-row-major`,
    /// `shisen:14x6-gravity`).
    pub game: String,
    /// The seed every racer is dealt from.
    pub seed: u64,
    /// When it was opened (Unix milliseconds).
    pub opened_at: i64,
    /// Rated in the game's pool.
    pub rated: bool,
}

/// Rooms untouched this long are deleted when a new one opens: a room
/// expires a minute after the last player goes, so a day is ample.
const ROOM_KEPT_MS: i64 = 24 * 60 * 60 * 1000;

impl Store {
    /// Whether race rooms are shared through this database (PostgreSQL),
    /// rather than held by the one instance.
    pub fn shares_races(&self) -> bool {
        matches!(self.backend, super::Backend::Postgres(_))
    }

    /// Records a new shared room, and forgets rooms long untouched.
    pub async fn open_race(&self, id: &str, room: &OpenedRoom) -> Result<(), Error> {
        sqlx::query("DELETE FROM race_rooms WHERE touched_at < $1")
            .bind(room.opened_at - ROOM_KEPT_MS)
            .execute(&self.pool)
            .await?;
        let written = sqlx::query(
            "INSERT INTO race_rooms (id, game, seed, opened_at, touched_at, rated) VALUES ($1, $2, $3, $4, $4, $5)",
        )
        .bind(id)
        .bind(&room.game)
        // Seeds are below 2^53 (JSON-safe), so they fit a BIGINT.
        .bind(room.seed as i64)
        .bind(room.opened_at)
        .bind(i64::from(room.rated))
        .execute(&self.pool)
        .await;
        self.noted(written)?;
        Ok(())
    }

    /// How the shared room `id` was opened, if it exists.
    pub async fn race(&self, id: &str) -> Result<Option<OpenedRoom>, Error> {
        let row = sqlx::query("SELECT game, seed, opened_at, rated FROM race_rooms WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            Ok::<_, sqlx::Error>(OpenedRoom {
                game: column(&r, "game")?,
                seed: column::<i64>(&r, "seed")? as u64,
                opened_at: column(&r, "opened_at")?,
                rated: super::flag_at(&r, "rated")?,
            })
        })
        .transpose()
        .map_err(Error::from)
    }

    /// Appends `step` to room `id`'s log and tells every instance; its
    /// number in the log. The room's row is locked while the number is
    /// drawn, so the steps of a room commit in order.
    pub async fn log_race_step(&self, id: &str, step: &str, now: i64) -> Result<i64, Error> {
        let mut tx = self.pool.begin().await?;
        let drawn = sqlx::query(
            "UPDATE race_rooms SET last_seq = last_seq + 1, touched_at = $2 WHERE id = $1 RETURNING last_seq",
        )
        .bind(id)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        let seq: i64 = column(&drawn, "last_seq")?;
        sqlx::query("INSERT INTO race_steps (room, seq, step) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(seq)
            .bind(step)
            .execute(&mut *tx)
            .await?;
        // Delivered at commit, so a listener that hears it finds the step.
        // It carries the step, so that the instances need not read it back
        // (NOTIFY takes up to 8000 bytes: a longer step is only announced).
        let payload = if step.len() <= NOTIFIED_STEP_BYTES {
            format!("{id} {seq} {step}")
        } else {
            format!("{id} {seq}")
        };
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(RACE_CHANNEL)
            .bind(payload)
            .execute(&mut *tx)
            .await?;
        let committed = tx.commit().await;
        self.noted(committed)?;
        Ok(seq)
    }

    /// The steps of room `id` after number `seq`, in order.
    pub async fn race_steps_after(&self, id: &str, seq: i64) -> Result<Vec<(i64, String)>, Error> {
        let rows = sqlx::query(
            "SELECT seq, step FROM race_steps WHERE room = $1 AND seq > $2 ORDER BY seq",
        )
        .bind(id)
        .bind(seq)
        .fetch_all(&self.pool)
        .await?;
        read_rows(&rows, |r| Ok((column(r, "seq")?, column(r, "step")?)))
    }

    /// A connection listening for new steps of any room; `None` with
    /// SQLite.
    pub async fn race_listener(&self) -> Result<Option<RaceNotices>, Error> {
        let super::Backend::Postgres(url) = &self.backend else {
            return Ok(None);
        };
        let mut listener = PgListener::connect(url).await?;
        listener.listen(RACE_CHANNEL).await?;
        Ok(Some(RaceNotices(listener)))
    }
}

/// The notices of new race steps, as the database delivers them to one
/// listening connection.
pub struct RaceNotices(PgListener);

impl RaceNotices {
    /// The next notice: `room seq step`, or `room seq` for a step too long
    /// to carry. `None` when the connection was lost: the next call
    /// connects again, and what was announced meanwhile is missed (the
    /// rooms read their logs).
    pub async fn next(&mut self) -> Result<Option<String>, Error> {
        let notice = self.0.try_recv().await?;
        Ok(notice.map(|notice| notice.payload().to_string()))
    }
}
