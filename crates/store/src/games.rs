//! The games the server issued: dealt, paused and resumed, helped, and
//! finished once with their result; a finished game's replay and its
//! stored analysis.

use play::format::Format;
use play::result::Finished;
use play::GameKind;
use sqlx::any::AnyRow;

use super::answers::{self, Answer, Answered};
use super::columns::{kept_at, Kept};
use super::dealt::Dealt;
use super::{
    averages, bests, column, count, flag_at, parsed, powers, read_rows, record, times_at,
    times_text, Error, Record, Store, RECORD_COLUMNS, RECORD_FROM,
};

/// A puzzle as the server issued it.
#[derive(Clone, Debug)]
pub struct IssuedGame {
    /// The game's id.
    pub id: String,
    /// The player (browser) it was issued to.
    pub player_id: String,
    /// What records are grouped by, e.g. `4x4-row-major`.
    pub variant: String,
    /// The seed it was dealt from.
    pub seed: u64,
    /// What was dealt: for a format of several puzzles, its first puzzle
    /// and the goal as chosen, so the format is dealt again from the seed.
    pub dealt: Dealt,
    /// `single`, or the format (`marathon-10`, …) the puzzles are dealt
    /// for.
    pub format: Format,
    /// When it was issued (Unix milliseconds).
    pub issued_at: i64,
}

impl IssuedGame {
    /// The game dealt.
    pub fn game(&self) -> GameKind {
        self.dealt.game()
    }
}

/// The state of an issued game.
#[derive(Clone, Debug)]
pub struct GameRow {
    /// The game as issued.
    pub issued: IssuedGame,
    /// When it was paused, while it is.
    pub paused_at: Option<i64>,
    /// Milliseconds paused before, in all.
    pub paused_millis: i64,
    /// Hints given.
    pub hints: i64,
    /// Whether help was asked (an analysis, a solver) while it was open.
    pub assisted: bool,
    /// When it finished (Unix milliseconds); `None` while open.
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

/// A finished game's replay.
#[derive(Clone, Debug)]
pub struct ReplayRow {
    /// The game as issued.
    pub issued: IssuedGame,
    /// Its player's name, if any.
    pub name: Option<String>,
    /// Its result.
    pub result: Record,
    /// The moves (sliding) or turns (Shisen-Sho) as text.
    pub replay: String,
    /// Milliseconds since the puzzle was shown, one per move.
    pub times: Vec<i64>,
}

/// Why finishing a game failed.
#[derive(Debug, thiserror::Error)]
pub enum FinishError {
    #[error("game was already submitted")]
    /// The game was finished before.
    AlreadyFinished,
    #[error(transparent)]
    /// The database failed.
    Db(#[from] Error),
}

impl From<sqlx::Error> for FinishError {
    fn from(error: sqlx::Error) -> FinishError {
        FinishError::Db(error.into())
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
        variant: column(r, "g_variant")?,
        // A decimal u64, as text: PostgreSQL has no unsigned 64-bit integer.
        seed: parsed(r, "g_seed", "seed")?,
        dealt: Dealt::read(r, "g_")?,
        issued_at: column(r, "g_issued_at")?,
        format: kept_at(r, "g_format")?,
    })
}

/// `columns` (as [`ISSUED_COLUMNS`] lists them) of the table `table`
/// stands for in a join.
fn qualified(columns: &str, table: &str) -> String {
    columns
        .split(", ")
        .map(|c| format!("{table}.{}", c.trim()))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Store {
    /// Stores a freshly issued puzzle.
    pub async fn issue(&self, game: &IssuedGame) -> Result<(), Error> {
        self.issue_to(game, None).await
    }

    /// [`Store::issue`], dealt to a signed-in `account`: left unfinished
    /// for a later game of its category, it is a DNF in the account's
    /// averages.
    pub async fn issue_to(&self, game: &IssuedGame, account: Option<&str>) -> Result<(), Error> {
        self.ensure_player(&game.player_id, game.issued_at).await?;
        let dealt = game.dealt.columns();
        let written = sqlx::query(
            "INSERT INTO games (id, player_id, game, variant, seed, setup, goal, rules, issued_at, \
             format, account_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(&game.id)
        .bind(&game.player_id)
        .bind(dealt.game)
        .bind(&game.variant)
        .bind(game.seed.to_string())
        .bind(dealt.setup)
        .bind(dealt.goal)
        .bind(dealt.rules)
        .bind(game.issued_at)
        .bind(game.format.kept())
        .bind(account)
        .execute(&self.pool)
        .await;
        self.noted(written).map(|_| ())
    }

    /// The game `id` of `player`, if it is one of `kind`.
    pub async fn game(
        &self,
        id: &str,
        player: &str,
        kind: GameKind,
    ) -> Result<Option<GameRow>, Error> {
        let row = sqlx::query(&format!(
            "SELECT {ISSUED_COLUMNS}, paused_at, paused_millis, hints, assisted, finished_at, \
             progress FROM games WHERE id = $1 AND player_id = $2 AND game = $3"
        ))
        .bind(id)
        .bind(player)
        .bind(kind.kept())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| -> Result<GameRow, Error> {
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
    ) -> Result<(), Error> {
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
    /// a board of `game`).
    pub async fn record_help(
        &self,
        player: &str,
        game: GameKind,
        state: &str,
        now: i64,
    ) -> Result<(), Error> {
        let written =
            sqlx::query("INSERT INTO help (player_id, game, state, at) VALUES ($1, $2, $3, $4)")
                .bind(player)
                .bind(game.kept())
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
        game: GameKind,
        since: i64,
    ) -> Result<Vec<(String, i64)>, Error> {
        let rows = sqlx::query(
            "SELECT state, COUNT(*) AS asked FROM help \
             WHERE player_id = $1 AND game = $2 AND at >= $3 GROUP BY state",
        )
        .bind(player)
        .bind(game.kept())
        .bind(since)
        .fetch_all(&self.pool)
        .await?;
        read_rows(&rows, |r| Ok((column(r, "state")?, column(r, "asked")?)))
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
    ) -> Result<(), Error> {
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
    pub async fn resume(&self, id: &str, player: &str, now: i64) -> Result<(), Error> {
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
    ) -> Result<(), Error> {
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

    /// A game's pauses as (start, end) milliseconds since it was issued; a
    /// pause still running ends at `now`.
    pub async fn pauses(&self, game: &IssuedGame, now: i64) -> Result<Vec<(i64, i64)>, Error> {
        let rows = sqlx::query("SELECT started_at, ended_at FROM pauses WHERE game_id = $1")
            .bind(&game.id)
            .fetch_all(&self.pool)
            .await?;
        read_rows(&rows, |r| {
            let (start, end): (i64, Option<i64>) =
                (column(r, "started_at")?, column(r, "ended_at")?);
            Ok((start - game.issued_at, end.unwrap_or(now) - game.issued_at))
        })
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
        self.finish_answered(game, result, account, finished_at, None)
            .await
    }

    /// [`Store::finish`], keeping the `answer` the submission was given
    /// in the same transaction ([`Store::answer`]).
    pub async fn finish_answered(
        &self,
        game: &IssuedGame,
        result: &Finished,
        account: Option<&str>,
        finished_at: i64,
        answer: Option<&Answer>,
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
            let control = result.control.as_ref().map(Kept::kept);
            sqlx::query(
            "INSERT INTO results (game_id, player_id, game, variant, moves, millis, score, hints, \
             counted, finished_at, stm, mtm, replay, times, reason, account_id, format, control, \
             display, reading_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, \
             $14, $15, $16, $17, $18, $19, $20)",
        )
        .bind(&game.id)
        .bind(&game.player_id)
        .bind(game.game().kept())
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
        .bind(result.format.kept())
        .bind(&control)
        .bind(result.display.kept())
        .bind(result.reading_ms)
        .execute(&mut *tx)
        .await?;
            if let (true, Some(account)) = (result.ranked(), account) {
                let display = result.display;
                let control = result.control;
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
                let format = result.format;
                if powers::counts(&self.tiers, game.game(), &game.variant, format, display) {
                    powers::note(&mut tx, account, &self.tiers).await?;
                }
            }
            if let Some(answer) = answer {
                answers::keep(&mut tx, Answered::Game, &game.id, answer).await?;
            }
            tx.commit().await?;
            Ok(())
        };
        let finished = finished.await;
        match &finished {
            Err(FinishError::Db(e)) => self.health.note::<()>(&Err(e.fault())),
            Ok(()) | Err(FinishError::AlreadyFinished) => {}
        }
        finished
    }

    /// A finished game with its result and replay: public, like the
    /// records that link to it.
    pub async fn replay(&self, id: &str) -> Result<Option<ReplayRow>, Error> {
        let row = sqlx::query(&format!(
            "SELECT {RECORD_COLUMNS}, r.replay, r.times, {} FROM {RECORD_FROM} \
             JOIN games g ON g.id = r.game_id WHERE r.game_id = $1",
            qualified(ISSUED_COLUMNS, "g")
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| -> Result<ReplayRow, Error> {
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
    pub async fn analysis(&self, game_id: &str, metric: &str) -> Result<Option<String>, Error> {
        let row = sqlx::query("SELECT body FROM analyses WHERE game_id = $1 AND metric = $2")
            .bind(game_id)
            .bind(metric)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| column(&r, "body")).transpose()?)
    }

    /// Keeps a replay's analysis. Two instances computing the same one at
    /// once write the same body; a later one replaces an analysis kept in
    /// an older shape.
    pub async fn keep_analysis(
        &self,
        game_id: &str,
        metric: &str,
        body: &str,
    ) -> Result<(), Error> {
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
}
