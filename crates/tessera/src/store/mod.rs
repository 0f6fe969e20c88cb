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
mod averages;
mod backup;
mod bests;
mod daily;
mod database;
mod fault;
mod fill;
mod fmc;
mod migrations;
mod powers;
mod races;

pub use accounts::{Account, AccountResult, PasswordKind};
pub use averages::BestAverage;
pub use backup::backup;
pub use bests::{BestHistory, PlayerBest, RecordFall};
pub use daily::DailyPuzzle;
pub use database::{Database, DatabaseError};
pub use fault::Fault;
use fault::WriteHealth;
pub use fill::FillError;
pub use fmc::FmcEntry;
pub use powers::Ranked;
pub use races::OpenedRoom;

use play::format::{Control, Format};
use play::result::Finished;
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

/// A puzzle as the server issued it.
#[derive(Clone, Debug)]
pub struct IssuedGame {
    pub id: String,
    pub player_id: String,
    /// `slide` or `shisen`.
    pub game: String,
    /// What records are grouped by, e.g. `4x4-row-major`.
    pub variant: String,
    pub seed: u64,
    /// The starting position (slide) or board (shisen), as text.
    pub setup: String,
    /// The goal position (slide); empty for shisen.
    pub goal: String,
    /// The rules as text: for Shisen-Sho `shisen::Rules` (`standard`,
    /// `gravity-chinese`, …), for sliding puzzles the goal (`row-major`,
    /// `missing:7`, …).
    pub rules: String,
    /// `single`, or the format (`marathon-10`, …) the puzzles are dealt
    /// for: `setup` and `goal` are then its first puzzle, and `rules` the
    /// goal as chosen (`missing` draws a number for each puzzle), so the
    /// format is dealt again from the seed.
    pub format: Format,
    pub issued_at: i64,
}

/// The state of an issued game.
#[derive(Clone, Debug)]
pub struct GameRow {
    pub issued: IssuedGame,
    pub paused_at: Option<i64>,
    pub paused_millis: i64,
    pub hints: i64,
    pub assisted: bool,
    pub finished_at: Option<i64>,
    /// A paused game's turns so far (Shisen-Sho).
    pub progress: Option<String>,
}

impl GameRow {
    /// A game just issued: never paused, no hint, not finished (a race's
    /// solve, stored as it finishes).
    pub fn fresh(issued: IssuedGame) -> GameRow {
        GameRow {
            issued,
            paused_at: None,
            paused_millis: 0,
            hints: 0,
            assisted: false,
            finished_at: None,
            progress: None,
        }
    }

    /// Milliseconds of play between issue and `now`, pauses excluded.
    pub fn played_millis(&self, now: i64) -> i64 {
        let paused_now = self.paused_at.map_or(0, |at| now - at);
        (now - self.issued.issued_at - self.paused_millis - paused_now).max(0)
    }

    /// Milliseconds between issue and `now`, pauses included: the server's
    /// view of the span the client's move times must fit in.
    pub fn elapsed_millis(&self, now: i64) -> i64 {
        (now - self.issued.issued_at).max(0)
    }
}

/// A result with its owner's name.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema)]
pub struct Record {
    pub game_id: String,
    /// The account's handle, or for a guest the display name they chose.
    pub name: Option<String>,
    /// The handle of the account it belongs to; null for a guest's.
    pub handle: Option<String>,
    pub variant: String,
    pub moves: i64,
    pub stm: i64,
    pub mtm: i64,
    pub millis: i64,
    pub score: i64,
    pub hints: i64,
    pub ranked: bool,
    /// Why it is not ranked.
    pub reason: Option<String>,
    pub finished_at: i64,
    /// Whether this is the asking player's own result.
    pub mine: bool,
}

/// A finished game's replay.
#[derive(Clone, Debug)]
pub struct ReplayRow {
    pub issued: IssuedGame,
    pub name: Option<String>,
    pub result: Record,
    pub replay: String,
    pub times: Vec<i64>,
}

/// How records are ranked.
#[derive(Clone, Copy, Debug)]
pub enum Ranking {
    Time,
    /// Fewest single-tile moves.
    Moves,
    /// Fewest multi-tile moves.
    Mtm,
    Score,
}

impl Ranking {
    fn order_by(self) -> &'static str {
        match self {
            Ranking::Time => "r.millis ASC, r.moves ASC, r.finished_at DESC",
            Ranking::Moves => "r.moves ASC, r.millis ASC, r.finished_at DESC",
            Ranking::Mtm => "r.mtm ASC, r.millis ASC, r.finished_at DESC",
            Ranking::Score => "r.score DESC, r.millis ASC, r.finished_at DESC",
        }
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

/// The columns every issued game is read from (table `games`, as `g` or
/// alone), under the names [`issued_game`] reads.
const ISSUED_COLUMNS: &str = "id AS g_id, player_id AS g_player_id, game AS g_game, \
     variant AS g_variant, seed AS g_seed, setup AS g_setup, goal AS g_goal, rules AS g_rules, \
     issued_at AS g_issued_at, format AS g_format";

/// An issued game from the columns [`ISSUED_COLUMNS`] names.
fn issued_game(r: &AnyRow) -> Result<IssuedGame, sqlx::Error> {
    Ok(IssuedGame {
        id: column(r, "g_id")?,
        player_id: column(r, "g_player_id")?,
        game: column(r, "g_game")?,
        variant: column(r, "g_variant")?,
        // A decimal u64, as text: PostgreSQL has no unsigned 64-bit integer.
        seed: parsed(r, "g_seed", "seed")?,
        setup: column(r, "g_setup")?,
        goal: column(r, "g_goal")?,
        rules: column(r, "g_rules")?,
        issued_at: column(r, "g_issued_at")?,
        format: parsed(r, "g_format", "format")?,
    })
}

/// Why finishing a game failed.
#[derive(Debug, thiserror::Error)]
pub enum FinishError {
    #[error("game was already submitted")]
    AlreadyFinished,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
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
    pub async fn ping(&self) -> Result<(), sqlx::Error> {
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
    fn noted<T>(&self, result: Result<T, sqlx::Error>) -> Result<T, sqlx::Error> {
        self.health.note(&result.as_ref().map_err(Fault::of));
        result
    }

    /// Connections open, and of those idle: for the metrics.
    pub fn pool_use(&self) -> (u32, usize) {
        (self.pool.size(), self.pool.num_idle())
    }

    /// Closes every connection (at shutdown).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Records a player the first time it is seen.
    pub async fn ensure_player(&self, id: &str, now: i64) -> Result<(), sqlx::Error> {
        let written = sqlx::query(
            "INSERT INTO players (id, name, created_at) VALUES ($1, NULL, $2) \
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(id)
        .bind(now)
        .execute(&self.pool)
        .await;
        self.noted(written).map(|_| ())
    }

    pub async fn player_name(&self, id: &str) -> Result<Option<String>, sqlx::Error> {
        let row = sqlx::query("SELECT name FROM players WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.and_then(|r| r.get::<Option<String>, _>(0)))
    }

    pub async fn set_name(
        &self,
        id: &str,
        name: Option<&str>,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        self.ensure_player(id, now).await?;
        let written = sqlx::query("UPDATE players SET name = $1 WHERE id = $2")
            .bind(name)
            .bind(id)
            .execute(&self.pool)
            .await;
        self.noted(written).map(|_| ())
    }

    /// Stores a freshly issued puzzle.
    pub async fn issue(&self, game: &IssuedGame) -> Result<(), sqlx::Error> {
        self.issue_to(game, None).await
    }

    /// [`Store::issue`], dealt to a signed-in `account`: left unfinished
    /// for a later game of its category, it is a DNF in the account's
    /// averages.
    pub async fn issue_to(
        &self,
        game: &IssuedGame,
        account: Option<&str>,
    ) -> Result<(), sqlx::Error> {
        self.ensure_player(&game.player_id, game.issued_at).await?;
        let written = sqlx::query(
            "INSERT INTO games (id, player_id, game, variant, seed, setup, goal, rules, issued_at, \
             format, account_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(&game.id)
        .bind(&game.player_id)
        .bind(&game.game)
        .bind(&game.variant)
        .bind(game.seed.to_string())
        .bind(&game.setup)
        .bind(&game.goal)
        .bind(&game.rules)
        .bind(game.issued_at)
        .bind(game.format.to_string())
        .bind(account)
        .execute(&self.pool)
        .await;
        self.noted(written).map(|_| ())
    }

    /// The game `id` of `player` and `kind` (`slide`/`shisen`), if any.
    pub async fn game(
        &self,
        id: &str,
        player: &str,
        kind: &str,
    ) -> Result<Option<GameRow>, sqlx::Error> {
        let row = sqlx::query(&format!(
            "SELECT {ISSUED_COLUMNS}, paused_at, paused_millis, hints, assisted, finished_at, \
             progress FROM games WHERE id = $1 AND player_id = $2 AND game = $3"
        ))
        .bind(id)
        .bind(player)
        .bind(kind)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| -> Result<GameRow, sqlx::Error> {
            Ok(GameRow {
                issued: issued_game(&r)?,
                paused_at: column(&r, "paused_at")?,
                paused_millis: column(&r, "paused_millis")?,
                hints: column(&r, "hints")?,
                assisted: flag_at(&r, "assisted")?,
                finished_at: column(&r, "finished_at")?,
                progress: column(&r, "progress")?,
            })
        })
        .transpose()
    }

    /// Counts help given in an open game: `hints` more hints, and marks it
    /// assisted (a solution was shown) when `assisted`, for the records.
    pub async fn count_help(
        &self,
        id: &str,
        player: &str,
        hints: i64,
        assisted: bool,
    ) -> Result<(), sqlx::Error> {
        let written = sqlx::query(
            "UPDATE games SET hints = hints + $1, \
             assisted = CASE WHEN $2 = 1 THEN 1 ELSE assisted END \
             WHERE id = $3 AND player_id = $4 AND finished_at IS NULL",
        )
        .bind(hints)
        .bind(i64::from(assisted))
        .bind(id)
        .bind(player)
        .execute(&self.pool)
        .await;
        self.noted(written).map(|_| ())
    }

    /// Records that `player` asked the solver about `state` (a position or
    /// a board of `game` kind).
    pub async fn record_help(
        &self,
        player: &str,
        game: &str,
        state: &str,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        let written =
            sqlx::query("INSERT INTO help (player_id, game, state, at) VALUES ($1, $2, $3, $4)")
                .bind(player)
                .bind(game)
                .bind(state)
                .bind(now)
                .execute(&self.pool)
                .await;
        self.noted(written).map(|_| ())
    }

    /// The states `player` asked the solver about since `since`, with how
    /// often each was asked.
    pub async fn help_since(
        &self,
        player: &str,
        game: &str,
        since: i64,
    ) -> Result<Vec<(String, i64)>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT state, COUNT(*) FROM help WHERE player_id = $1 AND game = $2 AND at >= $3 \
             GROUP BY state",
        )
        .bind(player)
        .bind(game)
        .bind(since)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    /// Stops the clock of an open game (no effect if already paused), and
    /// keeps its turns so far (`progress`, Shisen-Sho) while the client
    /// holds no board.
    pub async fn pause(
        &self,
        id: &str,
        player: &str,
        now: i64,
        progress: Option<&str>,
    ) -> Result<(), sqlx::Error> {
        let update = sqlx::query(
            "UPDATE games SET paused_at = $1, progress = $2 \
             WHERE id = $3 AND player_id = $4 AND paused_at IS NULL AND finished_at IS NULL",
        )
        .bind(now)
        .bind(progress)
        .bind(id)
        .bind(player);
        let log = "INSERT INTO pauses (started_at, game_id) VALUES ($1, $2)";
        self.change_clock(update, log, id, now).await
    }

    /// Restarts the clock of a paused game.
    pub async fn resume(&self, id: &str, player: &str, now: i64) -> Result<(), sqlx::Error> {
        let update = sqlx::query(
            "UPDATE games SET paused_millis = paused_millis + ($1 - paused_at), paused_at = NULL \
             WHERE id = $2 AND player_id = $3 AND paused_at IS NOT NULL AND finished_at IS NULL",
        )
        .bind(now)
        .bind(id)
        .bind(player);
        let log = "UPDATE pauses SET ended_at = $1 WHERE game_id = $2 AND ended_at IS NULL";
        self.change_clock(update, log, id, now).await
    }

    /// Runs `update` on a game's clock and, when it changed the game (it
    /// was in the state to change), `log` with `now` and the game's id, in
    /// one transaction: the games row and the pauses log never disagree.
    async fn change_clock<'q>(
        &self,
        update: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
        log: &str,
        id: &str,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        let written = async {
            let mut tx = self.begin().await?;
            if update.execute(&mut *tx).await?.rows_affected() == 1 {
                sqlx::query(log)
                    .bind(now)
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await
        };
        self.noted(written.await)
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

    /// A game's pauses as (start, end) milliseconds since it was issued; a
    /// pause still running ends at `now`.
    pub async fn pauses(
        &self,
        game: &IssuedGame,
        now: i64,
    ) -> Result<Vec<(i64, i64)>, sqlx::Error> {
        let rows = sqlx::query("SELECT started_at, ended_at FROM pauses WHERE game_id = $1")
            .bind(&game.id)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(|r| {
                let end: Option<i64> = r.get(1);
                (
                    r.get::<i64, _>(0) - game.issued_at,
                    end.unwrap_or(now) - game.issued_at,
                )
            })
            .collect())
    }

    /// Closes the game and stores its result (`play`'s judged result,
    /// owned by `account`, a guest's when `None`), atomically: a game
    /// finishes once. The one place a result's types turn into columns.
    pub async fn finish(
        &self,
        game: &IssuedGame,
        result: &Finished,
        account: Option<&str>,
        finished_at: i64,
    ) -> Result<(), FinishError> {
        let finished = async {
            let mut tx = self.begin().await?;
            let closed = sqlx::query(
                "UPDATE games SET finished_at = $1 WHERE id = $2 AND finished_at IS NULL",
            )
            .bind(finished_at)
            .bind(&game.id)
            .execute(&mut *tx)
            .await?;
            if closed.rows_affected() != 1 {
                return Err(FinishError::AlreadyFinished);
            }
            let reason = result.verdict.as_ref().err().map(ToString::to_string);
            let control = result.control.map(Control::name);
            sqlx::query(
            "INSERT INTO results (game_id, player_id, game, variant, moves, millis, score, hints, \
             counted, finished_at, stm, mtm, replay, times, reason, account_id, format, control, \
             display) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, \
             $17, $18, $19)",
        )
        .bind(&game.id)
        .bind(&game.player_id)
        .bind(&game.game)
        .bind(&game.variant)
        .bind(count(result.moves))
        .bind(result.millis)
        .bind(result.score)
        .bind(result.hints)
        .bind(i64::from(result.ranked()))
        .bind(finished_at)
        .bind(count(result.stm))
        .bind(count(result.mtm))
        .bind(result.replay.to_string())
        .bind(times_text(&result.times))
        .bind(&reason)
        .bind(account)
        .bind(result.format.to_string())
        .bind(control)
        .bind(result.display.name())
        .execute(&mut *tx)
        .await?;
            if let (true, Some(account)) = (result.ranked(), account) {
                let display = result.display.name();
                averages::note_result(&mut tx, account, game, display, control).await?;
                bests::note_result(
                    &mut tx,
                    account,
                    game,
                    result,
                    display,
                    control,
                    finished_at,
                )
                .await?;
                let format = result.format.to_string();
                if powers::counts(&self.tiers, &game.game, &game.variant, &format, display) {
                    powers::note(&mut tx, account, &self.tiers).await?;
                }
            }
            tx.commit().await?;
            Ok(())
        };
        let finished = finished.await;
        match &finished {
            Err(FinishError::Db(e)) => self.health.note::<()>(&Err(Fault::of(e))),
            Ok(()) | Err(FinishError::AlreadyFinished) => {}
        }
        finished
    }

    /// A finished game with its result and replay: public, like the
    /// records that link to it.
    pub async fn replay(&self, id: &str) -> Result<Option<ReplayRow>, sqlx::Error> {
        let row = sqlx::query(&format!(
            "SELECT {RECORD_COLUMNS}, r.replay, r.times, {} FROM {RECORD_FROM} \
             JOIN games g ON g.id = r.game_id WHERE r.game_id = $1",
            qualified(ISSUED_COLUMNS, "g")
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| -> Result<ReplayRow, sqlx::Error> {
            let result = record(&r, None)?;
            Ok(ReplayRow {
                issued: issued_game(&r)?,
                name: result.name.clone(),
                replay: column(&r, "replay")?,
                times: times_at(&r, "times")?,
                result,
            })
        })
        .transpose()
    }

    /// A replay's analysis in `metric` (JSON), if one was kept.
    pub async fn analysis(
        &self,
        game_id: &str,
        metric: &str,
    ) -> Result<Option<String>, sqlx::Error> {
        let row = sqlx::query("SELECT body FROM analyses WHERE game_id = $1 AND metric = $2")
            .bind(game_id)
            .bind(metric)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.get(0)))
    }

    /// Keeps a replay's analysis. Two instances computing the same one at
    /// once write the same body; a later one replaces an analysis kept in
    /// an older shape.
    pub async fn keep_analysis(
        &self,
        game_id: &str,
        metric: &str,
        body: &str,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO analyses (game_id, metric, body) VALUES ($1, $2, $3) \
             ON CONFLICT (game_id, metric) DO UPDATE SET body = excluded.body",
        )
        .bind(game_id)
        .bind(metric)
        .bind(body)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The best counted results of a variant in a category.
    pub async fn records(
        &self,
        game: &str,
        variant: &str,
        category: Category<'_>,
        ranking: Ranking,
        limit: i64,
        viewer: Option<Viewer<'_>>,
    ) -> Result<Vec<Record>, sqlx::Error> {
        let sql = format!(
            "SELECT {RECORD_COLUMNS} FROM {RECORD_FROM} \
             WHERE r.game = $1 AND r.variant = $2 AND r.counted = 1 \
             AND r.format = $4 AND ($5 = '' OR r.control = $5) AND r.display = $6 \
             AND (a.disabled IS NULL OR a.disabled = 0) ORDER BY {} LIMIT $3",
            ranking.order_by()
        );
        let rows = sqlx::query(&sql)
            .bind(game)
            .bind(variant)
            .bind(limit)
            .bind(category.format)
            .bind(category.control.unwrap_or(""))
            .bind(category.display)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| record(r, viewer)).collect()
    }

    /// The variants of `game` that have ranked results, by name.
    pub async fn variants(&self, game: &str) -> Result<Vec<String>, sqlx::Error> {
        // Each variant found by one probe of `results_by_time` (the next
        // variant after the last one found) rather than by reading every
        // result: a loose index scan, which neither database does for
        // DISTINCT by itself.
        let rows = sqlx::query(
            "WITH RECURSIVE found (variant, k) AS ( \
               SELECT MIN(variant), 1 FROM results WHERE game = $1 AND counted = 1 \
               UNION ALL \
               SELECT (SELECT MIN(r.variant) FROM results r \
                       WHERE r.game = $1 AND r.variant > found.variant AND r.counted = 1), \
                      k + 1 \
               FROM found WHERE found.variant IS NOT NULL AND k < 1000) \
             SELECT variant FROM found WHERE variant IS NOT NULL ORDER BY variant",
        )
        .bind(game)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// A player's results, newest first; all games and variants when
    /// `filter` is `None`; single solves only, the averages kept of them.
    /// A signed-in player's are the account's, from
    /// any browser, and this browser's guest results not yet moved to an
    /// account; a guest's are this browser's guest results.
    pub async fn player_results(
        &self,
        viewer: Viewer<'_>,
        filter: Option<(&str, &str)>,
    ) -> Result<Vec<(String, Record)>, sqlx::Error> {
        let (game, variant) = filter.unwrap_or(("", ""));
        let rows = sqlx::query(&format!(
            "SELECT {RECORD_COLUMNS}, r.game FROM {RECORD_FROM} \
                 WHERE ((r.player_id = $1 AND r.account_id IS NULL) OR r.account_id = $4) \
                 AND ($2 = '' OR (r.game = $2 AND r.variant = $3)) AND r.format = 'single' \
                 ORDER BY r.finished_at DESC LIMIT 10000"
        ))
        .bind(viewer.player)
        .bind(game)
        .bind(variant)
        .bind(viewer.account.unwrap_or(""))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((column(r, "game")?, record(r, Some(viewer))?)))
            .collect()
    }

    /// Moves this browser's guest results to the account just signed in
    /// to (each result moves once: it belongs to an account after), and
    /// ranks those that were unranked only for want of an account. The
    /// number moved.
    pub async fn claim_guest_results(
        &self,
        player: &str,
        account_id: &str,
    ) -> Result<u64, sqlx::Error> {
        let written = async {
            let mut tx = self.begin().await?;
            let moved = sqlx::query(
                "UPDATE results SET account_id = $1, \
                 counted = CASE WHEN reason = $3 THEN 1 ELSE counted END, \
                 reason = CASE WHEN reason = $3 THEN NULL ELSE reason END \
                 WHERE player_id = $2 AND account_id IS NULL",
            )
            .bind(account_id)
            .bind(player)
            .bind(play::judge::Unranked::Guest.to_string())
            .execute(&mut *tx)
            .await?
            .rows_affected();
            // The moved results fall among the account's own: every
            // window of consecutive results may be new.
            if moved > 0 {
                averages::recompute(&mut tx, account_id).await?;
                bests::recompute(&mut tx, account_id).await?;
                powers::note(&mut tx, account_id, &self.tiers).await?;
            }
            tx.commit().await?;
            Ok(moved)
        };
        self.noted(written.await)
    }
}

/// Who is looking at results: their own are marked.
#[derive(Clone, Copy, Debug)]
pub struct Viewer<'a> {
    /// The browser's player id.
    pub player: &'a str,
    /// The signed-in account's id.
    pub account: Option<&'a str>,
}

/// A records category besides the game and variant: the format
/// (`single`, `marathon-10`, …) and, if any, the control.
#[derive(Clone, Copy, Debug)]
pub struct Category<'a> {
    pub format: &'a str,
    /// `None` for every control.
    pub control: Option<&'a str>,
    /// What the tiles showed: `standard` unless asked.
    pub display: &'a str,
}

/// A category as the kept bests key it (`best_averages`,
/// `personal_bests`, `pb_history`): `control` is '' for every control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key<'a> {
    pub game: &'a str,
    pub variant: &'a str,
    pub format: &'a str,
    pub display: &'a str,
    pub control: &'a str,
}

/// The tables [`RECORD_COLUMNS`] come from.
const RECORD_FROM: &str = "results r JOIN players p ON p.id = r.player_id \
     LEFT JOIN accounts a ON a.id = r.account_id";
/// The columns [`record`] reads, by name.
const RECORD_COLUMNS: &str = "r.game_id, COALESCE(a.handle, p.name) AS name, r.variant, r.moves, \
     r.millis, r.score, r.hints, r.counted, r.finished_at, r.player_id, r.stm, r.mtm, r.reason, \
     a.handle AS handle, r.account_id";

/// `columns` (as [`ISSUED_COLUMNS`] lists them) of the table `table`
/// stands for in a join.
fn qualified(columns: &str, table: &str) -> String {
    columns
        .split(", ")
        .map(|c| format!("{table}.{}", c.trim()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn record(r: &AnyRow, viewer: Option<Viewer<'_>>) -> Result<Record, sqlx::Error> {
    let account: Option<String> = column(r, "account_id")?;
    let player: String = column(r, "player_id")?;
    let mine = viewer.is_some_and(|v| match (&account, v.account) {
        (Some(owner), Some(me)) => owner == me,
        (Some(_), None) => false,
        (None, _) => player == v.player,
    });
    Ok(Record {
        game_id: column(r, "game_id")?,
        name: column(r, "name")?,
        handle: column(r, "handle")?,
        variant: column(r, "variant")?,
        moves: column(r, "moves")?,
        millis: column(r, "millis")?,
        score: column(r, "score")?,
        hints: column(r, "hints")?,
        ranked: flag_at(r, "counted")?,
        finished_at: column(r, "finished_at")?,
        mine,
        stm: column(r, "stm")?,
        mtm: column(r, "mtm")?,
        reason: column(r, "reason")?,
    })
}

#[cfg(test)]
mod tests;
