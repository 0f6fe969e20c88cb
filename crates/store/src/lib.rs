//! Persistent records: players, the games the server issued, and results.
//!
//! Everything the web server knows lives here, so a restart loses nothing
//! and several servers share one database: SQLite embedded (the default, a
//! file next to the server) or PostgreSQL (one database behind many
//! servers). One set of queries serves both through sqlx's `Any` driver:
//! the SQL is portable (TEXT ids made by the server, BIGINT milliseconds,
//! `$n` parameters, `ON CONFLICT … DO NOTHING`, conditional updates inside
//! transactions so a game finishes once however many servers race). Each
//! database has its own embedded migrations, run on open.

mod accounts;
mod answers;
mod arenas;
mod averages;
mod backup;
mod bests;
mod columns;
mod daily;
mod database;
mod dealt;
mod fault;
mod fill;
mod fmc;
mod games;
mod kept;
mod migrations;
mod players;
mod powers;
mod races;
mod ratings;
mod records;
mod seeks;
mod time_attack;

pub use accounts::{Account, AccountResult, PasswordKind};
pub use answers::{Answer, Answered};
pub use arenas::{ArenaRace, ArenaRow, EntrantRow};
pub use averages::BestAverage;
pub use backup::backup;
pub use bests::{BestHistory, PlayerBest, RecordFall};
pub use daily::DailyPuzzle;
pub use database::{Database, DatabaseError};
pub use dealt::Dealt;
use fault::WriteHealth;
pub use fault::{Error, Fault};
pub use fill::FillError;
pub use fmc::FmcEntry;
pub use games::{FinishError, GameRow, IssuedGame, ReplayRow};
pub use kept::AT_ONCE as CHORES_AT_ONCE;
pub use powers::Ranked;
pub use races::{OpenedRoom, RaceNotices};
pub use ratings::RatedRacer;
use records::{record, Key, RECORD_COLUMNS, RECORD_FROM};
pub use records::{Category, Figures, Ranking, Record, Shown, Viewer};
pub use seeks::{Seek, SeekError};
pub use time_attack::{TimeAttackBest, TimeAttackRun};

use sqlx::any::{AnyPoolOptions, AnyRow};
use std::time::Duration;

use sqlx::{AnyPool, Executor, Row};

/// The database: a connection pool.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    /// Whether writes fail now (a full disk): what readiness reports.
    health: WriteHealth,
    backend: Backend,
    /// The tier tables standings are kept with (`powers`).
    tiers: std::sync::Arc<play::power::Tables>,
}

/// The database behind the pool, with what each kind needs besides it.
#[derive(Clone, Debug)]
enum Backend {
    /// SQLite: its file, whose file system must have room to write.
    Sqlite(std::path::PathBuf),
    /// PostgreSQL: its URL, which race rooms listen on.
    Postgres(String),
}

impl Backend {
    fn is_sqlite(&self) -> bool {
        matches!(self, Backend::Sqlite(_))
    }
}

/// A count of moves as stored (BIGINT): no game comes near its limit.
fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Times as stored: space-separated milliseconds.
fn times_text(times: &[i64]) -> String {
    times
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The value of column `name`.
fn column<'r, T>(r: &'r AnyRow, name: &str) -> Result<T, sqlx::Error>
where
    T: sqlx::Decode<'r, sqlx::Any> + sqlx::Type<sqlx::Any>,
{
    r.try_get(name)
}

/// Every row of `rows` read by `read`: the first that does not read is the
/// error.
fn read_rows<T>(
    rows: &[AnyRow],
    read: impl FnMut(&AnyRow) -> Result<T, sqlx::Error>,
) -> Result<Vec<T>, Error> {
    Ok(rows.iter().map(read).collect::<Result<_, _>>()?)
}

/// The text of column `name` read as what the store keeps there (`what`):
/// a row that does not read so is an error naming the column and the
/// text, never a default.
fn parsed<T>(r: &AnyRow, name: &str, what: &str) -> Result<T, sqlx::Error>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    let text: String = column(r, name)?;
    text.parse()
        .map_err(|e| bad_column(name, format!("{what} {text:?}: {e}")))
}

/// The move times kept in column `name` (milliseconds, space-separated).
/// A row that does not read so is an error naming the column, never a
/// shorter list.
fn times_at(r: &AnyRow, name: &str) -> Result<Vec<i64>, sqlx::Error> {
    let text: String = column(r, name)?;
    text.split_whitespace()
        .map(str::parse::<i64>)
        .collect::<Result<_, _>>()
        .map_err(|e| bad_column(name, format!("move times {text:?}: {e}")))
}

/// A flag kept as 0 or 1 in column `name`; anything else is an error
/// naming the column.
fn flag_at(r: &AnyRow, name: &str) -> Result<bool, sqlx::Error> {
    match column::<i64>(r, name)? {
        0 => Ok(false),
        1 => Ok(true),
        other => Err(bad_column(name, format!("flag {other}: expected 0 or 1"))),
    }
}

/// A column whose value does not decode into what the store keeps there.
fn bad_column(name: &str, message: String) -> sqlx::Error {
    sqlx::Error::ColumnDecode {
        index: name.to_string(),
        source: message.into(),
    }
}

/// How SQLite is set up on every connection: write-ahead logging (readers
/// never wait for the writer) and foreign keys enforced. The wait for the
/// write lock is the store's timeout, set after this.
const SQLITE_SETUP: &str =
    "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;";

/// The free space a SQLite file system needs to count as writable again.
const ROOM_TO_WRITE: u64 = 1 << 20;

/// How long a request waits for a connection unless told otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);

impl Store {
    /// Opens the database (creating a SQLite file, or a PostgreSQL
    /// database the user may create, if missing) and migrates it.
    pub async fn open(database: &Database, connections: u32) -> Result<Store, DatabaseError> {
        Store::open_within(database, connections, DEFAULT_TIMEOUT).await
    }

    /// [`Store::open`], with requests waiting at most `timeout` for a
    /// connection (and SQLite for its write lock), so that an unreachable
    /// or locked database answers fast rather than holding requests.
    pub async fn open_within(
        database: &Database,
        connections: u32,
        timeout: Duration,
    ) -> Result<Store, DatabaseError> {
        sqlx::any::install_default_drivers();
        let url = database.url()?;
        database.create_if_missing(&url).await?;
        let sqlite = matches!(database, Database::Sqlite(_));
        let pool = AnyPoolOptions::new()
            .max_connections(connections)
            .acquire_timeout(timeout)
            // A write that failed half-way (a full disk) can leave its
            // transaction open on the connection, and every later
            // transaction on it would fail: such a connection is closed
            // instead of going back to the pool.
            .after_release(|connection, _| {
                Box::pin(async move {
                    use sqlx::TransactionManager;
                    type Manager = <sqlx::Any as sqlx::Database>::TransactionManager;
                    Ok(Manager::get_transaction_depth(connection) == 0)
                })
            })
            .after_connect(move |connection, _| {
                Box::pin(async move {
                    if sqlite {
                        connection.execute(SQLITE_SETUP).await?;
                        let wait = format!("PRAGMA busy_timeout = {}", timeout.as_millis());
                        connection.execute(wait.as_str()).await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await?;
        migrations::migrator(sqlite).await?.run(&pool).await?;
        let backend = match database {
            Database::Sqlite(path) => Backend::Sqlite(path.clone()),
            Database::Postgres(_) => Backend::Postgres(url),
        };
        let store = Store {
            pool,
            health: WriteHealth::default(),
            backend,
            tiers: std::sync::Arc::new(play::power::Tables::built_in()),
        };
        store.do_chores().await?;
        store.powers_chore().await?;
        Ok(store)
    }

    /// Whether the database answers (the readiness check).
    pub async fn ping(&self) -> Result<(), Error> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// Whether the last write failed for want of space or storage.
    pub fn writes_failing(&self) -> bool {
        self.health.failing()
    }

    /// After writes failed: whether they succeed again. One small write
    /// must succeed and, for SQLite, its file system must have room again
    /// (a write can succeed on a full disk, in log space already held).
    /// Clears the failure when they do.
    pub async fn probe_write(&self, now: i64) -> Result<(), Fault> {
        let written = sqlx::query(
            "INSERT INTO write_probe (id, checked_at) VALUES (1, $1) \
             ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at",
        )
        .bind(now)
        .execute(&self.pool)
        .await;
        written.map_err(|e| Fault::of(&e))?;
        if let Backend::Sqlite(file) = &self.backend {
            let dir = std::path::absolute(file)
                .ok()
                .and_then(|f| f.parent().map(std::path::Path::to_path_buf));
            let room = dir.and_then(|d| rustix::fs::statvfs(&d).ok());
            if room.is_some_and(|r| r.f_bavail * r.f_frsize < ROOM_TO_WRITE) {
                return Err(Fault::DiskFull);
            }
        }
        self.health.clear();
        Ok(())
    }

    /// `result` of a write, noted in the store's health.
    fn noted<T>(&self, result: Result<T, sqlx::Error>) -> Result<T, Error> {
        self.health.note(&result.as_ref().map_err(Fault::of));
        Ok(result?)
    }

    /// Connections open, and of those idle: for the metrics.
    pub fn pool_use(&self) -> (u32, usize) {
        (self.pool.size(), self.pool.num_idle())
    }

    /// Closes every connection (at shutdown).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// A transaction that will write. SQLite takes the write lock at once
    /// (waiting for it up to the store's timeout), so that a transaction
    /// never fails to upgrade a read lock half-way.
    async fn begin(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
        if self.backend.is_sqlite() {
            self.pool.begin_with("BEGIN IMMEDIATE").await
        } else {
            self.pool.begin().await
        }
    }
}

#[cfg(test)]
mod tests;
