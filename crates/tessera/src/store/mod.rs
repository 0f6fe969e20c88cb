//! Persistent records: players, the games the server issued, and results.
//!
//! Everything the web server knows lives here, so a restart loses nothing and
//! several servers could share one database. The SQL is kept portable
//! (TEXT ids made by the server, BIGINT milliseconds, `$n` parameters,
//! `ON CONFLICT … DO NOTHING`) so that Postgres can replace SQLite; the
//! migrations are embedded in the binary and run on open.

use std::path::Path;
use std::str::FromStr;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlitePool};

/// The database: a small connection pool.
#[derive(Clone)]
pub struct Store {
    pool: SqlitePool,
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
}

impl GameRow {
    /// Milliseconds of play between issue and `now`, pauses excluded.
    pub fn played_millis(&self, now: i64) -> i64 {
        let paused_now = self.paused_at.map_or(0, |at| now - at);
        (now - self.issued.issued_at - self.paused_millis - paused_now).max(0)
    }
}

/// A solved game to record.
#[derive(Clone, Debug)]
pub struct NewResult {
    pub moves: i64,
    pub millis: i64,
    pub score: i64,
    pub hints: i64,
    /// Whether it counts for the records (no solver help was used).
    pub counted: bool,
    pub finished_at: i64,
}

/// A result with the player's display name.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Record {
    pub game_id: String,
    pub name: Option<String>,
    pub variant: String,
    pub moves: i64,
    pub millis: i64,
    pub score: i64,
    pub hints: i64,
    pub counted: bool,
    pub finished_at: i64,
    /// Whether this is the asking player's own result.
    pub mine: bool,
}

/// How records are ranked.
#[derive(Clone, Copy, Debug)]
pub enum Ranking {
    Time,
    Moves,
    Score,
}

impl Ranking {
    fn order_by(self) -> &'static str {
        match self {
            Ranking::Time => "r.millis ASC, r.moves ASC, r.finished_at DESC",
            Ranking::Moves => "r.moves ASC, r.millis ASC, r.finished_at DESC",
            Ranking::Score => "r.score DESC, r.millis ASC, r.finished_at DESC",
        }
    }
}

/// Why finishing a game failed.
#[derive(Debug, thiserror::Error)]
pub enum FinishError {
    #[error("game was already submitted")]
    AlreadyFinished,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

impl Store {
    /// Opens (creating if needed) the SQLite file at `path` and migrates it.
    pub async fn open(path: &Path) -> Result<Store, sqlx::Error> {
        let options = SqliteConnectOptions::from_str("sqlite:")?
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(std::time::Duration::from_secs(5))
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .connect_with(options)
            .await?;
        MIGRATOR.run(&pool).await?;
        Ok(Store { pool })
    }

    /// Records a player the first time it is seen.
    pub async fn ensure_player(&self, id: &str, now: i64) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO players (id, name, created_at) VALUES ($1, NULL, $2) \
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(id)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
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
        sqlx::query("UPDATE players SET name = $1 WHERE id = $2")
            .bind(name)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Stores a freshly issued puzzle.
    pub async fn issue(&self, game: &IssuedGame) -> Result<(), sqlx::Error> {
        self.ensure_player(&game.player_id, game.issued_at).await?;
        sqlx::query(
            "INSERT INTO games (id, player_id, game, variant, seed, setup, goal, rules, issued_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
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
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The game `id` of `player` and `kind` (`slide`/`shisen`), if any.
    pub async fn game(
        &self,
        id: &str,
        player: &str,
        kind: &str,
    ) -> Result<Option<GameRow>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT id, player_id, game, variant, seed, setup, goal, rules, issued_at, \
             paused_at, paused_millis, hints, assisted, finished_at \
             FROM games WHERE id = $1 AND player_id = $2 AND game = $3",
        )
        .bind(id)
        .bind(player)
        .bind(kind)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| GameRow {
            issued: IssuedGame {
                id: r.get(0),
                player_id: r.get(1),
                game: r.get(2),
                variant: r.get(3),
                seed: r.get::<String, _>(4).parse().unwrap_or(0),
                setup: r.get(5),
                goal: r.get(6),
                rules: r.get(7),
                issued_at: r.get(8),
            },
            paused_at: r.get(9),
            paused_millis: r.get(10),
            hints: r.get(11),
            assisted: r.get::<i64, _>(12) != 0,
            finished_at: r.get(13),
        }))
    }

    /// Counts a hint given for an open game.
    pub async fn add_hint(&self, id: &str, player: &str) -> Result<(), sqlx::Error> {
        sqlx::query(
            "UPDATE games SET hints = hints + 1 \
             WHERE id = $1 AND player_id = $2 AND finished_at IS NULL",
        )
        .bind(id)
        .bind(player)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Marks an open game as solved with the solver's help: it will not count
    /// for the records.
    pub async fn mark_assisted(&self, id: &str, player: &str) -> Result<(), sqlx::Error> {
        sqlx::query(
            "UPDATE games SET assisted = 1 \
             WHERE id = $1 AND player_id = $2 AND finished_at IS NULL",
        )
        .bind(id)
        .bind(player)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Stops the clock of an open game (no effect if already paused).
    pub async fn pause(&self, id: &str, player: &str, now: i64) -> Result<(), sqlx::Error> {
        sqlx::query(
            "UPDATE games SET paused_at = $1 \
             WHERE id = $2 AND player_id = $3 AND paused_at IS NULL AND finished_at IS NULL",
        )
        .bind(now)
        .bind(id)
        .bind(player)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Restarts the clock of a paused game.
    pub async fn resume(&self, id: &str, player: &str, now: i64) -> Result<(), sqlx::Error> {
        sqlx::query(
            "UPDATE games SET paused_millis = paused_millis + ($1 - paused_at), paused_at = NULL \
             WHERE id = $2 AND player_id = $3 AND paused_at IS NOT NULL AND finished_at IS NULL",
        )
        .bind(now)
        .bind(id)
        .bind(player)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Closes the game and stores its result, atomically: a game finishes
    /// once.
    pub async fn finish(&self, game: &IssuedGame, result: &NewResult) -> Result<(), FinishError> {
        let mut tx = self.pool.begin().await?;
        let closed =
            sqlx::query("UPDATE games SET finished_at = $1 WHERE id = $2 AND finished_at IS NULL")
                .bind(result.finished_at)
                .bind(&game.id)
                .execute(&mut *tx)
                .await?;
        if closed.rows_affected() != 1 {
            return Err(FinishError::AlreadyFinished);
        }
        sqlx::query(
            "INSERT INTO results (game_id, player_id, game, variant, moves, millis, score, hints, \
             counted, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(&game.id)
        .bind(&game.player_id)
        .bind(&game.game)
        .bind(&game.variant)
        .bind(result.moves)
        .bind(result.millis)
        .bind(result.score)
        .bind(result.hints)
        .bind(i64::from(result.counted))
        .bind(result.finished_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The best counted results of a variant.
    pub async fn records(
        &self,
        game: &str,
        variant: &str,
        ranking: Ranking,
        limit: i64,
        viewer: Option<&str>,
    ) -> Result<Vec<Record>, sqlx::Error> {
        let sql = format!(
            "SELECT r.game_id, p.name, r.variant, r.moves, r.millis, r.score, r.hints, r.counted, \
             r.finished_at, r.player_id FROM results r JOIN players p ON p.id = r.player_id \
             WHERE r.game = $1 AND r.variant = $2 AND r.counted = 1 ORDER BY {} LIMIT $3",
            ranking.order_by()
        );
        let rows = sqlx::query(&sql)
            .bind(game)
            .bind(variant)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(|r| record(r, viewer)).collect())
    }

    /// The variants of `game` that have ranked results, by name.
    pub async fn variants(&self, game: &str) -> Result<Vec<String>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT DISTINCT variant FROM results WHERE game = $1 AND counted = 1 \
             ORDER BY variant LIMIT 1000",
        )
        .bind(game)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// A player's results, newest first; all games and variants when
    /// `filter` is `None`.
    pub async fn player_results(
        &self,
        player: &str,
        filter: Option<(&str, &str)>,
    ) -> Result<Vec<(String, Record)>, sqlx::Error> {
        let (game, variant) = filter.unwrap_or(("", ""));
        let rows = sqlx::query(
            "SELECT r.game_id, p.name, r.variant, r.moves, r.millis, r.score, r.hints, r.counted, \
             r.finished_at, r.player_id, r.game FROM results r JOIN players p ON p.id = r.player_id \
             WHERE r.player_id = $1 AND ($2 = '' OR (r.game = $2 AND r.variant = $3)) \
             ORDER BY r.finished_at DESC LIMIT 10000",
        )
        .bind(player)
        .bind(game)
        .bind(variant)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| (r.get::<String, _>(10), record(r, Some(player))))
            .collect())
    }
}

fn record(r: &sqlx::sqlite::SqliteRow, viewer: Option<&str>) -> Record {
    Record {
        game_id: r.get(0),
        name: r.get(1),
        variant: r.get(2),
        moves: r.get(3),
        millis: r.get(4),
        score: r.get(5),
        hints: r.get(6),
        counted: r.get::<i64, _>(7) != 0,
        finished_at: r.get(8),
        mine: viewer == Some(r.get::<&str, _>(9)),
    }
}
