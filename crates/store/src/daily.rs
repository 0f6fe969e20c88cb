//! The daily challenge: which games were dealt as a day's puzzle, each
//! player's first attempt at it, and the day's board of first attempts.

use play::format::Format;
use play::GameKind;
use sqlx::any::AnyRow;

use super::columns::{kept_at, Kept};
use super::{
    column, read_rows, record, Error, Ranking, Record, Store, Viewer, RECORD_COLUMNS, RECORD_FROM,
};

/// A day's puzzle: the day (`YYYY-MM-DD`), and the game, variant and
/// format it is dealt for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyPuzzle {
    /// The UTC day, `YYYY-MM-DD`.
    pub day: String,
    /// The game dealt.
    pub game: GameKind,
    /// The variant dealt, e.g. `4x4-row-major`.
    pub variant: String,
    /// The format dealt, e.g. `single`.
    pub format: Format,
}

impl Store {
    /// Marks `game_id` as dealt for `puzzle`, and makes it the first
    /// attempt of each of `holders` that has none at this puzzle yet.
    pub async fn issue_daily(
        &self,
        game_id: &str,
        puzzle: &DailyPuzzle,
        holders: &[String],
    ) -> Result<(), Error> {
        let written = sqlx::query(
            "INSERT INTO daily_games (game_id, day, game, variant, format) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(game_id)
        .bind(&puzzle.day)
        .bind(puzzle.game.kept())
        .bind(&puzzle.variant)
        .bind(puzzle.format.kept())
        .execute(&self.pool)
        .await;
        self.noted(written)?;
        self.claim_daily_attempts(game_id, puzzle, holders).await
    }

    /// Makes `game_id` the first attempt of each of `holders` that has
    /// none at `puzzle` yet; the first to claim wins on every instance.
    pub async fn claim_daily_attempts(
        &self,
        game_id: &str,
        puzzle: &DailyPuzzle,
        holders: &[String],
    ) -> Result<(), Error> {
        for who in holders {
            let written = sqlx::query(
                "INSERT INTO daily_attempts (day, game, variant, format, who, game_id) \
                 VALUES ($1, $2, $3, $4, $5, $6) \
                 ON CONFLICT (day, game, variant, format, who) DO NOTHING",
            )
            .bind(&puzzle.day)
            .bind(puzzle.game.kept())
            .bind(&puzzle.variant)
            .bind(puzzle.format.kept())
            .bind(who)
            .bind(game_id)
            .execute(&self.pool)
            .await;
            self.noted(written)?;
        }
        Ok(())
    }

    /// The day's puzzle `game_id` was dealt as, if it is a daily game.
    pub async fn daily_puzzle(&self, game_id: &str) -> Result<Option<DailyPuzzle>, Error> {
        let row =
            sqlx::query("SELECT day, game, variant, format FROM daily_games WHERE game_id = $1")
                .bind(game_id)
                .fetch_optional(&self.pool)
                .await?;
        let read = |r: AnyRow| -> Result<DailyPuzzle, sqlx::Error> {
            Ok(DailyPuzzle {
                day: column(&r, "day")?,
                game: kept_at(&r, "game")?,
                variant: column(&r, "variant")?,
                format: kept_at(&r, "format")?,
            })
        };
        Ok(row.map(read).transpose()?)
    }

    /// Whether `game_id` is the first attempt at `puzzle` of every one of
    /// `holders`. A holder without an attempt yet (a guest who signed in
    /// since the deal) claims this one.
    pub async fn first_daily_attempt(
        &self,
        game_id: &str,
        puzzle: &DailyPuzzle,
        holders: &[String],
    ) -> Result<bool, Error> {
        self.claim_daily_attempts(game_id, puzzle, holders).await?;
        for who in holders {
            let first: Option<String> = sqlx::query_scalar(
                "SELECT game_id FROM daily_attempts \
                 WHERE day = $1 AND game = $2 AND variant = $3 AND format = $4 AND who = $5",
            )
            .bind(&puzzle.day)
            .bind(puzzle.game.kept())
            .bind(&puzzle.variant)
            .bind(puzzle.format.kept())
            .bind(who)
            .fetch_optional(&self.pool)
            .await?;
            if first.as_deref() != Some(game_id) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The day's board: the ranked results of `puzzle` (first attempts
    /// only, the others are unranked), best first by `ranking`.
    pub async fn daily_board(
        &self,
        puzzle: &DailyPuzzle,
        ranking: Ranking,
        limit: i64,
        viewer: Option<Viewer<'_>>,
    ) -> Result<Vec<Record>, Error> {
        let sql = format!(
            "SELECT {RECORD_COLUMNS} FROM {RECORD_FROM} JOIN daily_games d ON d.game_id = r.game_id \
             WHERE d.day = $1 AND d.game = $2 AND d.variant = $3 AND d.format = $4 \
             AND r.counted = 1 AND (a.disabled IS NULL OR a.disabled = 0) \
             ORDER BY {} LIMIT $5",
            ranking.order_by()
        );
        let rows = sqlx::query(&sql)
            .bind(&puzzle.day)
            .bind(puzzle.game.kept())
            .bind(&puzzle.variant)
            .bind(puzzle.format.kept())
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        read_rows(&rows, |r| record(r, viewer))
    }
}
