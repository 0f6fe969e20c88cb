//! Ratings ([`play::rating`]): each account's rating per pool, the rated
//! races settled with how each racer's race ended, and every rating
//! change.
//!
//! A race is settled in one transaction: its row and its racers' outcomes,
//! then every racer's new rating and history row. A fault between the two
//! leaves neither, and a race settled again (by a second instance, or a
//! retry) finds its row and changes nothing: `rated_races.id` is unique.

use play::rating::{self, Outcome, Params, Pool, Rating};
use sqlx::any::AnyRow;
use sqlx::{Any, Transaction};

use super::{column, flag_at, parsed, Error, Store};

/// The rating system's constants: lichess's.
const PARAMS: Params = Params::LICHESS;

/// A racer of a rated race, as the race ended for them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedRacer {
    /// The racer's account.
    pub account_id: String,
    /// How the race ended for them.
    pub outcome: Outcome,
}

/// One racer's rating moved by a race.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    pub account_id: String,
    pub before: Rating,
    pub after: Rating,
    /// Rated races played in the pool, this one included.
    pub games: i64,
}

/// An account's rating in one pool.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolRating {
    pub pool: Pool,
    pub rating: Rating,
    pub games: i64,
    pub provisional: bool,
}

/// A line of a pool's leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedPlayer {
    /// 1 for the highest.
    pub rank: i64,
    pub handle: String,
    pub rating: Rating,
    pub games: i64,
}

/// A rating after a race, for the history plot.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingPoint {
    pub race_id: String,
    pub at: i64,
    pub rating: f64,
    pub rd: f64,
    pub before: f64,
}

/// An outcome as stored: its name and a ranked solve's time.
fn outcome_columns(outcome: Outcome) -> (&'static str, Option<i64>) {
    match outcome {
        Outcome::Solved { millis } => ("solved", Some(millis)),
        Outcome::Unranked => ("unranked", None),
        Outcome::Unfinished => ("unfinished", None),
        Outcome::Left => ("left", None),
    }
}

/// An outcome read back from its columns.
pub(crate) fn outcome_of(name: &str, millis: Option<i64>) -> Result<Outcome, sqlx::Error> {
    match (name, millis) {
        ("solved", Some(millis)) => Ok(Outcome::Solved { millis }),
        ("unranked", _) => Ok(Outcome::Unranked),
        ("unfinished", _) => Ok(Outcome::Unfinished),
        ("left", _) => Ok(Outcome::Left),
        _ => Err(sqlx::Error::Decode(
            format!("rated_racers.outcome: {name:?} is not an outcome").into(),
        )),
    }
}

/// A stored rating as of `now`: stored as of its last race, its deviation
/// widened by the time since (`Rating::idle`).
fn rating_now(r: &AnyRow, now: i64) -> Result<Rating, sqlx::Error> {
    let stored = Rating {
        rating: column(r, "rating")?,
        rd: column(r, "rd")?,
        volatility: column(r, "volatility")?,
    };
    let updated_at: i64 = column(r, "updated_at")?;
    Ok(stored.idle(now - updated_at, &PARAMS))
}

/// Forgets an account's ratings, its rated races' rows and its history
/// (the account is being deleted).
pub(crate) async fn forget(
    tx: &mut Transaction<'static, Any>,
    account: &str,
) -> Result<(), sqlx::Error> {
    for table in ["rating_history", "rated_racers", "ratings"] {
        sqlx::query(&format!("DELETE FROM {table} WHERE account_id = $1"))
            .bind(account)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

impl Store {
    /// Settles rated race `race_id` of `pool`: its racers' outcomes and
    /// every racer's new rating (all from the ratings before the race), in
    /// one transaction. `None` when the race was settled before: nothing
    /// changes.
    pub async fn settle_race(
        &self,
        race_id: &str,
        pool: Pool,
        racers: &[RatedRacer],
        now: i64,
    ) -> Result<Option<Vec<RatingChange>>, Error> {
        let written = self.settle_in_one(race_id, pool, racers, now).await;
        self.noted(written)
    }

    async fn settle_in_one(
        &self,
        race_id: &str,
        pool: Pool,
        racers: &[RatedRacer],
        now: i64,
    ) -> Result<Option<Vec<RatingChange>>, sqlx::Error> {
        let mut tx = self.begin().await?;
        let new = sqlx::query(
            "INSERT INTO rated_races (id, pool, settled_at) VALUES ($1, $2, $3) \
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(race_id)
        .bind(pool.name())
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        if !new {
            tx.rollback().await?;
            return Ok(None);
        }
        // The race's outcome rows first …
        for racer in racers {
            let (outcome, millis) = outcome_columns(racer.outcome);
            sqlx::query(
                "INSERT INTO rated_racers (race_id, account_id, outcome, millis) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(race_id)
            .bind(&racer.account_id)
            .bind(outcome)
            .bind(millis)
            .execute(&mut *tx)
            .await?;
        }
        // … then every rating change. The rows are read in the accounts'
        // order and, on PostgreSQL, locked, so two races settling at once
        // with a racer in common apply one after the other.
        let mut order: Vec<usize> = (0..racers.len()).collect();
        order.sort_by(|&a, &b| racers[a].account_id.cmp(&racers[b].account_id));
        let lock = if self.backend.is_sqlite() {
            ""
        } else {
            " FOR UPDATE"
        };
        let start = Rating::new(&PARAMS);
        let mut before = vec![(start, 0i64); racers.len()];
        for &index in &order {
            let account = &racers[index].account_id;
            sqlx::query(
                "INSERT INTO ratings (account_id, pool, rating, rd, volatility, games, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, 0, $6) ON CONFLICT (account_id, pool) DO NOTHING",
            )
            .bind(account)
            .bind(pool.name())
            .bind(start.rating)
            .bind(start.rd)
            .bind(start.volatility)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            let row = sqlx::query(&format!(
                "SELECT rating, rd, volatility, games, updated_at FROM ratings \
                 WHERE account_id = $1 AND pool = $2{lock}"
            ))
            .bind(account)
            .bind(pool.name())
            .fetch_one(&mut *tx)
            .await?;
            before[index] = (rating_now(&row, now)?, column(&row, "games")?);
        }
        let field: Vec<(Rating, Outcome)> = racers
            .iter()
            .zip(&before)
            .map(|(racer, &(rating, _))| (rating, racer.outcome))
            .collect();
        let after = rating::settle(&field, &PARAMS);
        let mut changes = Vec::with_capacity(racers.len());
        for &index in &order {
            let account = &racers[index].account_id;
            let (old, games) = before[index];
            let new = after[index];
            sqlx::query(
                "UPDATE ratings SET rating = $1, rd = $2, volatility = $3, games = $4, \
                 updated_at = $5 WHERE account_id = $6 AND pool = $7",
            )
            .bind(new.rating)
            .bind(new.rd)
            .bind(new.volatility)
            .bind(games + 1)
            .bind(now)
            .bind(account)
            .bind(pool.name())
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO rating_history \
                 (race_id, account_id, pool, rating_before, rating, rd, volatility, at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(race_id)
            .bind(account)
            .bind(pool.name())
            .bind(old.rating)
            .bind(new.rating)
            .bind(new.rd)
            .bind(new.volatility)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            changes.push(RatingChange {
                account_id: account.clone(),
                before: old,
                after: new,
                games: games + 1,
            });
        }
        tx.commit().await?;
        changes.sort_by_key(|c| racers.iter().position(|r| r.account_id == c.account_id));
        Ok(Some(changes))
    }

    /// Whether the stored result of game `game_id` is ranked; `None`
    /// while it has no result.
    pub async fn result_ranked(&self, game_id: &str) -> Result<Option<bool>, Error> {
        let row = sqlx::query("SELECT counted FROM results WHERE game_id = $1")
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| flag_at(&r, "counted")).transpose()?)
    }

    /// Whether race `race_id` has been settled.
    pub async fn race_settled(&self, race_id: &str) -> Result<bool, Error> {
        let row = sqlx::query("SELECT COUNT(*) AS settled FROM rated_races WHERE id = $1")
            .bind(race_id)
            .fetch_one(&self.pool)
            .await?;
        Ok(column::<i64>(&row, "settled")? > 0)
    }

    /// The account's rating in each pool it has played, as of `now`, in
    /// the pools' order.
    pub async fn ratings_of(&self, account: &str, now: i64) -> Result<Vec<PoolRating>, Error> {
        let rows = sqlx::query(
            "SELECT pool, rating, rd, volatility, games, updated_at FROM ratings \
             WHERE account_id = $1",
        )
        .bind(account)
        .fetch_all(&self.pool)
        .await?;
        let mut ratings = rows
            .iter()
            .map(|row| {
                let rating = rating_now(row, now)?;
                Ok(PoolRating {
                    pool: parsed(row, "pool", "a rating pool")?,
                    provisional: rating.provisional(&PARAMS),
                    rating,
                    games: column(row, "games")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        ratings.sort_by_key(|r| r.pool);
        Ok(ratings)
    }

    /// The account's rating after each rated race in `pool`, oldest
    /// first.
    pub async fn rating_history(
        &self,
        account: &str,
        pool: Pool,
    ) -> Result<Vec<RatingPoint>, Error> {
        let rows = sqlx::query(
            "SELECT race_id, at, rating, rd, rating_before FROM rating_history \
             WHERE account_id = $1 AND pool = $2 ORDER BY at, race_id",
        )
        .bind(account)
        .bind(pool.name())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(RatingPoint {
                    race_id: column(row, "race_id")?,
                    at: column(row, "at")?,
                    rating: column(row, "rating")?,
                    rd: column(row, "rd")?,
                    before: column(row, "rating_before")?,
                })
            })
            .collect()
    }

    /// The pool's highest ratings that are not provisional as of `now`
    /// (a player long away is provisional again), from `offset`, at most
    /// `limit`.
    pub async fn top_ratings(
        &self,
        pool: Pool,
        offset: i64,
        limit: i64,
        now: i64,
    ) -> Result<Vec<RatedPlayer>, Error> {
        // `Rating::idle`'s deviation, squared, against the provisional one.
        let rows = sqlx::query(
            "SELECT a.handle, r.rating, r.rd, r.volatility, r.games, r.updated_at \
             FROM ratings r JOIN accounts a ON a.id = r.account_id \
             WHERE r.pool = $1 AND a.disabled = 0 \
             AND r.rd * r.rd + r.volatility * r.volatility * CAST($5 AS DOUBLE PRECISION) \
                 * (CAST($6 AS BIGINT) - r.updated_at) < CAST($2 AS DOUBLE PRECISION) \
             ORDER BY r.rating DESC, a.handle LIMIT $3 OFFSET $4",
        )
        .bind(pool.name())
        .bind(PARAMS.provisional_rd * PARAMS.provisional_rd)
        .bind(limit)
        .bind(offset)
        .bind(Rating::idle_growth_per_milli(&PARAMS))
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .zip(offset + 1..)
            .map(|(row, rank)| {
                Ok(RatedPlayer {
                    rank,
                    handle: column(row, "handle")?,
                    rating: rating_now(row, now)?,
                    games: column(row, "games")?,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
