//! A database filled with many synthetic results, to measure the records
//! page at the scale of a busy site (`tessera admin fill`,
//! `scripts/bench-records`).
//!
//! The rows are made by the database itself, one `INSERT … SELECT` per
//! table over a generated sequence, so a million results take seconds
//! rather than a million round trips. Every attribute of result `i` is a
//! hash of `i` and the seed: the same seed fills the same database. Then
//! the chores take every account's history in, as after a migration: its
//! bests are worked out in memory and written many rows to a statement
//! (`store::kept`), so PostgreSQL, where each statement is a round trip
//! to another process, fills as fast as SQLite.

use std::time::{Duration, Instant};

use super::{column, Store};

/// What a fill made, and how long each part took.
#[derive(Debug)]
pub struct Filled {
    pub results: u64,
    pub accounts: u64,
    pub guests: u64,
    /// Inserting the rows (and, on PostgreSQL, analysing the tables).
    pub rows: Duration,
    /// Computing every account's best averages, personal bests and their
    /// history, and power.
    pub averages: Duration,
}

/// Why a database was not filled.
#[derive(Debug, thiserror::Error)]
pub enum FillError {
    #[error("the database already holds {0} results: fill only an empty one")]
    /// The database is not empty: it holds this many results.
    NotEmpty(i64),
    #[error(transparent)]
    /// The database failed.
    Db(#[from] crate::Error),
}

impl From<sqlx::Error> for FillError {
    fn from(error: sqlx::Error) -> FillError {
        FillError::Db(error.into())
    }
}

/// A pseudo-random number in 0..1000003 for attribute `k` of row `i`:
/// each attribute multiplies by its own constant, so their low digits are
/// independent.
fn hash(k: u64) -> String {
    let multiplier = 2_654_435_761 + k * 97_000_007;
    format!("((i * {multiplier} + $2) % 1000003)")
}

/// The share of results in each variant, format and control: a site where
/// most play 4×4 single solves by keyboard, and every category has some.
fn columns() -> String {
    let variant = format!(
        "CASE WHEN {h} % 100 < 50 THEN '4x4-row-major' WHEN {h} % 100 < 70 THEN '3x3-row-major' \
         WHEN {h} % 100 < 80 THEN '5x5-row-major' WHEN {h} % 100 < 86 THEN '4x4-blank-first' \
         WHEN {h} % 100 < 90 THEN '6x6-row-major' WHEN {h} % 100 < 94 THEN '3x3-snake' \
         WHEN {h} % 100 < 97 THEN '4x4-spiral' ELSE '7x7-row-major' END",
        h = hash(4)
    );
    let format = format!(
        "CASE WHEN {h} % 100 < 80 THEN 'single' WHEN {h} % 100 < 90 THEN 'marathon-10' \
         WHEN {h} % 100 < 95 THEN 'relay-5' ELSE 'bld' END",
        h = hash(5)
    );
    let control = format!(
        "CASE WHEN {h} % 100 < 50 THEN 'keyboard' WHEN {h} % 100 < 80 THEN 'mouse' \
         WHEN {h} % 100 < 95 THEN 'touch' END",
        h = hash(6)
    );
    // 85 % of results are accounts', 92 % of those ranked.
    let owned = format!("{} % 100 < 85", hash(2));
    let ranked = format!("({owned} AND {} % 100 < 92)", hash(7));
    format!(
        "i, {variant} AS variant, {format} AS format, {control} AS control, \
         CASE WHEN {owned} THEN 'bp' || ({} % $3) ELSE 'bg' || ({} % $4) END AS player_id, \
         CASE WHEN {owned} THEN 'ba' || ({} % $3) END AS account_id, \
         CASE WHEN {ranked} THEN 1 ELSE 0 END AS counted, \
         CASE WHEN {ranked} THEN NULL WHEN {owned} THEN 'too fast' ELSE 'guest' END AS reason, \
         5000 + {} % 60000 AS millis, 30 + {} % 200 AS moves, \
         1700000000000 + i * 1000 AS finished_at",
        hash(1),
        hash(3),
        hash(1),
        hash(8),
        hash(9)
    )
}

impl Store {
    /// Fills an empty database with `results` synthetic sliding-puzzle
    /// results from `seed`: one account per 200 results, one guest per 100.
    pub async fn fill(&self, results: u64, seed: u64) -> Result<Filled, FillError> {
        let held = sqlx::query("SELECT COUNT(*) AS held FROM results")
            .fetch_one(&self.pool)
            .await?;
        let held: i64 = column(&held, "held")?;
        if held > 0 {
            return Err(FillError::NotEmpty(held));
        }
        let accounts = (results / 200).max(1);
        let guests = (results / 100).max(1);
        let started = Instant::now();
        let sequence = |n: &str| {
            if self.backend.is_sqlite() {
                format!(
                    "WITH RECURSIVE seq (i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq \
                     WHERE i + 1 < {n})"
                )
            } else {
                format!("WITH seq (i) AS (SELECT generate_series(0::BIGINT, {n} - 1))")
            }
        };
        let mut tx = self.begin().await?;
        let people = [
            format!(
                "{} INSERT INTO players (id, name, created_at) \
                 SELECT 'bp' || i, NULL, 0 FROM seq",
                sequence("$1")
            ),
            format!(
                "{} INSERT INTO players (id, name, created_at) \
                 SELECT 'bg' || i, NULL, 0 FROM seq",
                sequence("$1")
            ),
            format!(
                "{} INSERT INTO accounts (id, handle, handle_key, password_hash, created_at) \
                 SELECT 'ba' || i, 'bench' || i, 'bench' || i, '-', 0 FROM seq",
                sequence("$1")
            ),
        ];
        for (sql, count) in people.iter().zip([accounts, guests, accounts]) {
            sqlx::query(sql)
                .bind(count as i64)
                .execute(&mut *tx)
                .await?;
        }
        // PostgreSQL builds an index over a million rows in one sorted
        // pass far faster than it keeps it up to date row by row: the
        // secondary indexes of the two tables filled go for the load and
        // come back from their own definitions, as the database holds them.
        let mut indexes: Vec<String> = Vec::new();
        if !self.backend.is_sqlite() {
            let held = sqlx::query(
                "SELECT indexname::TEXT AS indexname, indexdef FROM pg_indexes \
                 WHERE schemaname = current_schema() AND tablename IN ('games', 'results') \
                 AND indexname NOT IN (SELECT conname FROM pg_constraint)",
            )
            .fetch_all(&mut *tx)
            .await?;
            for index in &held {
                let name: String = column(index, "indexname")?;
                sqlx::query(&format!("DROP INDEX \"{name}\""))
                    .execute(&mut *tx)
                    .await?;
                indexes.push(column(index, "indexdef")?);
            }
        }
        let rows = format!(
            "{} , made AS (SELECT {} FROM seq)",
            sequence("$1"),
            columns()
        );
        let games = format!(
            "{rows} INSERT INTO games (id, player_id, game, variant, seed, setup, goal, rules, \
             issued_at, finished_at, format, account_id) \
             SELECT 'bench' || i, player_id, 'slide', variant, '0', '', '', 'row-major', \
             finished_at - millis, finished_at, format, account_id FROM made"
        );
        let scored = format!(
            "{rows} INSERT INTO results (game_id, player_id, game, variant, moves, millis, score, \
             hints, counted, finished_at, stm, mtm, reason, account_id, format, control) \
             SELECT 'bench' || i, player_id, 'slide', variant, moves, millis, 0, 0, counted, \
             finished_at, moves, moves * 7 / 10, reason, account_id, format, control FROM made"
        );
        for sql in [games, scored] {
            sqlx::query(&sql)
                .bind(results as i64)
                .bind((seed % 1_000_003) as i64)
                .bind(accounts as i64)
                .bind(guests as i64)
                .execute(&mut *tx)
                .await?;
        }
        for index in &indexes {
            sqlx::query(index).execute(&mut *tx).await?;
        }
        sqlx::query("INSERT INTO store_chores (name) VALUES ('best_averages')")
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        if !self.backend.is_sqlite() {
            // What autovacuum does soon after a bulk load; SQLite servers
            // never analyse, so its planner is measured without statistics.
            sqlx::query("ANALYZE").execute(&self.pool).await?;
        }
        let rows = started.elapsed();
        let started = Instant::now();
        self.do_chores().await?;
        self.compute_powers(true).await?;
        let averages = started.elapsed();
        if self.backend.is_sqlite() {
            // A running server checkpoints its log as it goes; a bulk load
            // leaves it hundreds of megabytes long, which every read of the
            // server measured next would search.
            sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                .execute(&self.pool)
                .await?;
        }
        Ok(Filled {
            results,
            accounts,
            guests,
            rows,
            averages,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{fresh_database, runtime};
    use super::*;
    use crate::Database;
    use sqlx::any::AnyRow;

    /// The columns of a kept row's key.
    const KEY: [&str; 6] = [
        "account_id",
        "game",
        "variant",
        "format",
        "display",
        "control",
    ];

    /// A kept row's key, as text.
    fn key(r: &AnyRow) -> Result<Vec<String>, sqlx::Error> {
        KEY.iter().map(|name| column(r, name)).collect()
    }

    /// Every row a fill's chores make (bests, their history, averages,
    /// standings), each as text, in key order.
    async fn kept(store: &Store) -> Vec<String> {
        type Read = fn(&AnyRow) -> Result<String, sqlx::Error>;
        let tables: [(&str, Read); 4] = [
            (
                "SELECT account_id, game, variant, format, display, control, n, millis, \
                 game_ids, finished_at FROM best_averages ORDER BY 1, 2, 3, 4, 5, 6, 7",
                |r| {
                    let key = key(r)?;
                    let (n, millis): (i64, f64) = (column(r, "n")?, column(r, "millis")?);
                    let (ids, at): (String, i64) =
                        (column(r, "game_ids")?, column(r, "finished_at")?);
                    Ok(format!("average {key:?} {n} {millis} {ids} {at}"))
                },
            ),
            (
                "SELECT account_id, game, variant, format, display, control, millis, moves, mtm, \
                 game_id, finished_at FROM personal_bests ORDER BY 1, 2, 3, 4, 5, 6",
                |r| {
                    let key = key(r)?;
                    let millis: i64 = column(r, "millis")?;
                    let (moves, mtm): (i64, i64) = (column(r, "moves")?, column(r, "mtm")?);
                    let (id, at): (String, i64) =
                        (column(r, "game_id")?, column(r, "finished_at")?);
                    Ok(format!("single {key:?} {millis} {moves} {mtm} {id} {at}"))
                },
            ),
            (
                "SELECT account_id, game, variant, format, display, control, n, millis, moves, \
                 mtm, game_ids, finished_at, world_record, beat FROM pb_history \
                 ORDER BY 1, 2, 3, 4, 5, 6, 7, 12",
                |r| {
                    let key = key(r)?;
                    let (n, millis): (i64, f64) = (column(r, "n")?, column(r, "millis")?);
                    let moves: (Option<i64>, Option<i64>) =
                        (column(r, "moves")?, column(r, "mtm")?);
                    let (ids, at): (String, i64) =
                        (column(r, "game_ids")?, column(r, "finished_at")?);
                    let record: i64 = column(r, "world_record")?;
                    let beat: Option<f64> = column(r, "beat")?;
                    Ok(format!(
                        "history {key:?} {n} {millis} {moves:?} {ids} {at} {record} {beat:?}"
                    ))
                },
            ),
            (
                "SELECT account_id, power, tier, bests, tables, reached_at FROM powers ORDER BY 1",
                |r| {
                    let account: String = column(r, "account_id")?;
                    let (power, tier): (i64, i64) = (column(r, "power")?, column(r, "tier")?);
                    let (bests, tables): (String, String) =
                        (column(r, "bests")?, column(r, "tables")?);
                    let at: i64 = column(r, "reached_at")?;
                    Ok(format!(
                        "power {account} {power} {tier} {bests} {tables} {at}"
                    ))
                },
            ),
        ];
        let mut rows = Vec::new();
        for (sql, read) in tables {
            let got = sqlx::query(sql).fetch_all(&store.pool).await.unwrap();
            rows.extend(got.iter().map(read).collect::<Result<Vec<_>, _>>().unwrap());
        }
        rows
    }

    #[test]
    fn sqlite_and_postgresql_fill_the_same_rows() {
        runtime().block_on(async {
            let dir = std::env::temp_dir().join(format!("tessera_fill_{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let sqlite = Store::open(&Database::Sqlite(dir.join("fill.db")), 4)
                .await
                .unwrap();
            sqlite.fill(3_000, 11).await.unwrap();
            let rows = kept(&sqlite).await;
            // Each account's best single in a category, read from the
            // results themselves, is the one kept.
            let direct = sqlx::query(
                "SELECT account_id, variant, format, MIN(millis) AS millis FROM results \
                 WHERE counted = 1 AND account_id IS NOT NULL \
                 GROUP BY account_id, variant, format ORDER BY 1, 2, 3",
            )
            .fetch_all(&sqlite.pool)
            .await
            .unwrap();
            let kept_bests = sqlx::query(
                "SELECT account_id, variant, format, millis FROM personal_bests \
                 WHERE control = '' ORDER BY 1, 2, 3",
            )
            .fetch_all(&sqlite.pool)
            .await
            .unwrap();
            let text = |r: &AnyRow| -> Result<(String, String, String, i64), sqlx::Error> {
                let (account, variant) = (column(r, "account_id")?, column(r, "variant")?);
                Ok((account, variant, column(r, "format")?, column(r, "millis")?))
            };
            let best = |rows: &[AnyRow]| rows.iter().map(text).collect::<Result<Vec<_>, _>>();
            assert!(direct.len() > 100, "{} bests", direct.len());
            assert_eq!(best(&direct).unwrap(), best(&kept_bests).unwrap());
            assert!(rows
                .iter()
                .any(|r| r.starts_with("history") && r.ends_with(" 1 None")));
            assert!(rows
                .iter()
                .any(|r| r.starts_with("history") && r.contains(" 1 Some(")));
            // The same rows on PostgreSQL, when there is one to test on.
            let database = fresh_database();
            if let Database::Postgres(_) = database {
                let postgres = Store::open(&database, 4).await.unwrap();
                postgres.fill(3_000, 11).await.unwrap();
                let other = kept(&postgres).await;
                assert_eq!(rows.len(), other.len());
                for (a, b) in rows.iter().zip(&other) {
                    assert_eq!(a, b);
                }
                // The indexes dropped for the load are all back, as made.
                let indexes = |store: Store| async move {
                    let held = sqlx::query(
                        "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() \
                         ORDER BY indexname",
                    )
                    .fetch_all(&store.pool)
                    .await
                    .unwrap();
                    let defs = held.iter().map(|r| column(r, "indexdef"));
                    defs.collect::<Result<Vec<String>, _>>().unwrap()
                };
                let empty = Store::open(&fresh_database(), 4).await.unwrap();
                let (filled, made) = (indexes(postgres).await, indexes(empty).await);
                assert!(filled
                    .iter()
                    .any(|i| i.contains("results_by_account_format")));
                assert_eq!(filled, made);
            }
        });
    }
}
