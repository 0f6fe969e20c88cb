//! Arenas (`play::arena`): each arena, its entrants (where each is now)
//! and the races it paired. Points are never stored: they are the settled
//! outcomes of the arena's rated races (`rated_racers`), read in the order
//! they were settled, so an arena's standings cannot disagree with its
//! races.

use play::arena::Played;
use play::rating::{Outcome, Pool};
use sqlx::any::AnyRow;

use super::ratings::outcome_of;
use super::{column, parsed, read_rows, Error, Store};

/// An arena as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArenaRow {
    /// Its id.
    pub id: String,
    /// The rating pool it races in.
    pub pool: Pool,
    /// When it opens (Unix milliseconds).
    pub starts: i64,
    /// When it closes (Unix milliseconds).
    pub ends: i64,
    /// Who made it; none for the server's own.
    pub created_by: Option<String>,
}

/// An entrant as kept, with their account's handle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntrantRow {
    /// The entrant's account.
    pub account_id: String,
    /// The account's handle.
    pub handle: String,
    /// When they were last heard from (Unix milliseconds).
    pub seen: i64,
    /// Since when they wait for a pairing (Unix milliseconds).
    pub free_since: i64,
    /// The race they are in now.
    pub room: Option<String>,
}

/// A race an arena paired, with its outcomes once settled.
#[derive(Clone, Debug)]
pub struct ArenaRace {
    /// The race room's id.
    pub room: String,
    /// The racers' accounts.
    pub racers: Vec<String>,
    /// When it was paired (Unix milliseconds).
    pub paired_at: i64,
    /// When it was settled, and the settled race.
    pub settled: Option<(i64, Played)>,
    /// When it was aborted (a racer made no first move in time): worth no
    /// points.
    pub aborted: Option<i64>,
}

const ARENA_COLUMNS: &str = "id, pool, starts, ends, created_by";

fn arena(r: &AnyRow) -> Result<ArenaRow, sqlx::Error> {
    Ok(ArenaRow {
        id: column(r, "id")?,
        pool: parsed(r, "pool", "rating pool")?,
        starts: column(r, "starts")?,
        ends: column(r, "ends")?,
        created_by: column(r, "created_by")?,
    })
}

impl Store {
    /// Keeps a new arena; false (nothing written) when its id is taken,
    /// as when two instances schedule the same hourly arena.
    pub async fn create_arena(&self, arena: &ArenaRow, now: i64) -> Result<bool, Error> {
        let written = sqlx::query(
            "INSERT INTO arenas (id, pool, starts, ends, created_by, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING",
        )
        .bind(&arena.id)
        .bind(arena.pool.name())
        .bind(arena.starts)
        .bind(arena.ends)
        .bind(&arena.created_by)
        .bind(now)
        .execute(&self.pool)
        .await;
        Ok(self.noted(written)?.rows_affected() == 1)
    }

    /// Arena `id`, if there is one.
    pub async fn arena(&self, id: &str) -> Result<Option<ArenaRow>, Error> {
        let sql = format!("SELECT {ARENA_COLUMNS} FROM arenas WHERE id = $1");
        let row = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(arena).transpose()?)
    }

    /// The arenas that end after `since`, soonest start first, at most
    /// `limit`.
    pub async fn arenas(&self, since: i64, limit: i64) -> Result<Vec<ArenaRow>, Error> {
        let sql = format!(
            "SELECT {ARENA_COLUMNS} FROM arenas WHERE ends > $1 ORDER BY starts, id LIMIT $2"
        );
        let rows = sqlx::query(&sql)
            .bind(since)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        read_rows(&rows, arena)
    }

    /// `account` enters the arena, or (entered already) is seen again.
    pub async fn enter_arena(&self, arena: &str, account: &str, now: i64) -> Result<(), Error> {
        let written = sqlx::query(
            "INSERT INTO arena_entrants (arena_id, account_id, joined_at, seen, free_since, room) \
             VALUES ($1, $2, $3, $3, $3, NULL) \
             ON CONFLICT (arena_id, account_id) DO UPDATE SET seen = $3",
        )
        .bind(arena)
        .bind(account)
        .bind(now)
        .execute(&self.pool)
        .await;
        self.noted(written).map(|_| ())
    }

    /// `account` leaves the arena's page: seen long ago, so paused.
    pub async fn pause_in_arena(&self, arena: &str, account: &str) -> Result<bool, Error> {
        let written = sqlx::query(
            "UPDATE arena_entrants SET seen = 0 WHERE arena_id = $1 AND account_id = $2",
        )
        .bind(arena)
        .bind(account)
        .execute(&self.pool)
        .await;
        Ok(self.noted(written)?.rows_affected() == 1)
    }

    /// The arena's entrants, by handle.
    pub async fn arena_entrants(&self, arena: &str) -> Result<Vec<EntrantRow>, Error> {
        let rows = sqlx::query(
            "SELECT e.account_id, a.handle, e.seen, e.free_since, e.room \
             FROM arena_entrants e JOIN accounts a ON a.id = e.account_id \
             WHERE e.arena_id = $1 ORDER BY a.handle_key",
        )
        .bind(arena)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(EntrantRow {
                    account_id: column(r, "account_id")?,
                    handle: column(r, "handle")?,
                    seen: column(r, "seen")?,
                    free_since: column(r, "free_since")?,
                    room: column(r, "room")?,
                })
            })
            .collect()
    }

    /// The races the arena paired, in the order they were paired, each
    /// with its first settlement (a rematch in the same room is not the
    /// arena's). A settlement is looked for by the room's name only until
    /// it is found, then noted in the race's row: a read joins the settled
    /// races' outcomes by key, and searches only the races in play.
    pub async fn arena_races(&self, arena: &str) -> Result<Vec<ArenaRace>, Error> {
        let rows = sqlx::query(
            "SELECT a.room, a.racers, a.paired_at, a.race_id, a.settled_at, a.aborted_at, \
             x.account_id, x.outcome, x.millis \
             FROM arena_races a LEFT JOIN rated_racers x ON x.race_id = a.race_id \
             WHERE a.arena_id = $1 ORDER BY a.paired_at, a.room",
        )
        .bind(arena)
        .fetch_all(&self.pool)
        .await?;
        let mut races: Vec<ArenaRace> = Vec::new();
        let mut outcomes: Vec<Vec<(String, Outcome)>> = Vec::new();
        for r in &rows {
            let room: String = column(r, "room")?;
            if races.last().is_none_or(|last| last.room != room) {
                let racers: String = column(r, "racers")?;
                let settled_at: Option<i64> = column(r, "settled_at")?;
                races.push(ArenaRace {
                    room,
                    racers: racers.split(',').map(str::to_string).collect(),
                    paired_at: column(r, "paired_at")?,
                    aborted: column(r, "aborted_at")?,
                    settled: settled_at.map(|at| {
                        (
                            at,
                            Played {
                                racers: Vec::new(),
                                outcomes: Vec::new(),
                            },
                        )
                    }),
                });
                outcomes.push(Vec::new());
            }
            if let Some(account) = column::<Option<String>>(r, "account_id")? {
                let outcome = outcome_of(&column::<String>(r, "outcome")?, column(r, "millis")?)?;
                outcomes
                    .last_mut()
                    .expect("a race per row")
                    .push((account, outcome));
            }
        }
        for (race, found) in races.iter_mut().zip(outcomes) {
            match &mut race.settled {
                Some((_, played)) => *played = in_seat_order(&race.racers, &found),
                None if race.aborted.is_some() => {}
                None => {
                    race.settled = self
                        .first_settlement(arena, &race.room, &race.racers)
                        .await?;
                }
            }
        }
        Ok(races)
    }

    /// The first rated race settled in `room`, if any, noted in the
    /// arena's row.
    async fn first_settlement(
        &self,
        arena: &str,
        room: &str,
        racers: &[String],
    ) -> Result<Option<(i64, Played)>, Error> {
        let race = sqlx::query(
            "SELECT id, settled_at FROM rated_races WHERE id LIKE $1 ORDER BY settled_at, id LIMIT 1",
        )
        .bind(format!("{room}:%"))
        .fetch_optional(&self.pool)
        .await?;
        let Some(race) = race else {
            return Ok(None);
        };
        let id: String = column(&race, "id")?;
        let settled_at: i64 = column(&race, "settled_at")?;
        let rows =
            sqlx::query("SELECT account_id, outcome, millis FROM rated_racers WHERE race_id = $1")
                .bind(&id)
                .fetch_all(&self.pool)
                .await?;
        let mut found = Vec::new();
        for r in &rows {
            let outcome = outcome_of(&column::<String>(r, "outcome")?, column(r, "millis")?)?;
            found.push((column::<String>(r, "account_id")?, outcome));
        }
        let noted = sqlx::query(
            "UPDATE arena_races SET race_id = $1, settled_at = $2 \
             WHERE arena_id = $3 AND room = $4 AND race_id IS NULL",
        )
        .bind(&id)
        .bind(settled_at)
        .bind(arena)
        .bind(room)
        .execute(&self.pool)
        .await;
        self.noted(noted)?;
        Ok(Some((settled_at, in_seat_order(racers, &found))))
    }

    /// Puts `racers` in race `room` of the arena: all of them, or (when
    /// any is in a race already, paired by another instance) none.
    pub async fn pair_in_arena(
        &self,
        arena: &str,
        racers: &[String],
        room: &str,
        now: i64,
    ) -> Result<bool, Error> {
        let written = async {
            let mut tx = self.begin().await?;
            for racer in racers {
                let taken = sqlx::query(
                    "UPDATE arena_entrants SET room = $1 \
                     WHERE arena_id = $2 AND account_id = $3 AND room IS NULL",
                )
                .bind(room)
                .bind(arena)
                .bind(racer)
                .execute(&mut *tx)
                .await?;
                if taken.rows_affected() != 1 {
                    tx.rollback().await?;
                    return Ok(false);
                }
            }
            sqlx::query(
                "INSERT INTO arena_races (arena_id, room, racers, paired_at) VALUES ($1, $2, $3, $4)",
            )
            .bind(arena)
            .bind(room)
            .bind(racers.join(","))
            .bind(now)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(true)
        };
        self.noted(written.await)
    }

    /// Notes that race `room` was aborted (a racer made no first move in
    /// time), if an arena paired it and it is neither settled nor noted
    /// already, and frees its racers: free since `now`. Idempotent, as
    /// every instance that saw the abort notes it.
    pub async fn abort_arena_race(&self, room: &str, now: i64) -> Result<(), Error> {
        let written = async {
            let mut tx = self.begin().await?;
            sqlx::query(
                "UPDATE arena_races SET aborted_at = $1 \
                 WHERE room = $2 AND aborted_at IS NULL AND settled_at IS NULL",
            )
            .bind(now)
            .bind(room)
            .execute(&mut *tx)
            .await?;
            sqlx::query("UPDATE arena_entrants SET room = NULL, free_since = $1 WHERE room = $2")
                .bind(now)
                .bind(room)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(())
        };
        self.noted(written.await)
    }

    /// Frees `account` from race `room` (settled, aborted, or void): free
    /// since `now`.
    pub async fn free_in_arena(
        &self,
        arena: &str,
        account: &str,
        room: &str,
        now: i64,
    ) -> Result<(), Error> {
        let written = sqlx::query(
            "UPDATE arena_entrants SET room = NULL, free_since = $1 \
             WHERE arena_id = $2 AND account_id = $3 AND room = $4",
        )
        .bind(now)
        .bind(arena)
        .bind(account)
        .bind(room)
        .execute(&self.pool)
        .await;
        self.noted(written).map(|_| ())
    }
}

/// A settled race's outcomes in its racers' seat order. A racer with no
/// outcome did not join the race: they left it.
fn in_seat_order(racers: &[String], found: &[(String, Outcome)]) -> Played {
    let outcomes = racers
        .iter()
        .map(|racer| {
            found
                .iter()
                .find(|(account, _)| account == racer)
                .map_or(Outcome::Left, |(_, outcome)| *outcome)
        })
        .collect();
    Played {
        racers: racers.to_vec(),
        outcomes,
    }
}

/// Forgets a deleted account's places in arenas, in its deletion's
/// transaction (its settled races stay, as other racers' games).
pub(super) async fn forget(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    account_id: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM arena_entrants WHERE account_id = $1")
        .bind(account_id)
        .execute(&mut **tx)
        .await?;
    sqlx::query("UPDATE arenas SET created_by = NULL WHERE created_by = $1")
        .bind(account_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
