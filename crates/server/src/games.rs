//! What both games' APIs do with an issued game: find it open, tell
//! `play` what the server knows of it, and finish it — store the result
//! `play::result` judged, owned by its player, and answer the client.

use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;

use super::answers::{answered_before, kept, Digest, Reply};
use super::error::ApiError;
use super::player::Player;
use super::App;
use play::judge::check_times;
use play::result::{self, Facts};
use play::GameKind;

use store::{Account, Answered, Figures, FinishError, GameRow, IssuedGame};

/// The open game `id` of `player`, if it is one of `kind`.
pub async fn open_game(
    app: &App,
    id: &str,
    player: &Player,
    kind: GameKind,
) -> Result<GameRow, ApiError> {
    let row = game(app, id, player, kind).await?;
    if row.finished_at.is_some() {
        return Err(already_submitted());
    }
    Ok(row)
}

/// The game `id` of kind `kind` of `player` that the submission with
/// `digest` is for: open, or answered already when this very submission
/// finished it (its answer lost on the way: [`super::answers`]).
pub async fn submitted_game(
    app: &App,
    id: &str,
    player: &Player,
    kind: GameKind,
    digest: &Digest,
) -> Result<Reply<GameRow>, ApiError> {
    let row = game(app, id, player, kind).await?;
    if row.finished_at.is_some() {
        let before = answered_before(app, Answered::Game, id, digest, already_submitted);
        return Ok(Reply::Before(before.await?));
    }
    Ok(Reply::Now(row))
}

/// The game `id` of kind `kind` of `player`, open or not.
async fn game(app: &App, id: &str, player: &Player, kind: GameKind) -> Result<GameRow, ApiError> {
    app.store
        .game(id, &player.0, kind)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no {kind} game {id:?} for you")))
}

/// A game finished by another submission.
fn already_submitted() -> ApiError {
    ApiError::conflict("this game was already submitted")
}

/// `times` checked against the `count` moves or turns they time
/// (`play::judge::check_times`); else refused, naming `/times`.
pub fn timed(times: &[i64], count: usize) -> Result<(), ApiError> {
    check_times(times, count).map_err(|e| ApiError::bad(format!("bad times: {e}")).at("/times"))
}

/// A stored game the server cannot read back: its own fault, logged.
pub fn unreadable(game: &IssuedGame, error: impl std::fmt::Display) -> ApiError {
    tracing::error!(game = %game.id, %error, "stored game unreadable");
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "stored game unreadable")
}

/// A solved game, as stored.
#[derive(Serialize, ToSchema)]
pub struct Finished {
    /// Always true.
    solved: bool,
    #[schema(value_type = super::edge::GameId)]
    game: String,
    #[serde(flatten)]
    figures: Figures,
    /// Whether the result goes in the records.
    ranked: bool,
    /// The same as `ranked` (older clients read this).
    record: bool,
    /// Why the result is not ranked.
    reason: Option<String>,
    variant: String,
}

/// What a submission comes to: a stored result, or where the unfinished
/// game stands (`Unsolved`, each game's own).
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum Submitted<Unsolved> {
    Solved(Finished),
    Unsolved(Unsolved),
}

/// What the server knows of a stored game submitted at `now`: its clock,
/// the help asked naming it, and its `pauses`.
pub fn facts<'a>(row: &GameRow, now: i64, pauses: &'a [(i64, i64)]) -> Facts<'a> {
    Facts {
        played_millis: row.played_millis(now),
        elapsed_millis: row.elapsed_millis(now),
        hints: row.hints,
        assisted: row.assisted,
        pauses,
    }
}

/// Stores a solved game's result at `now`, as `play` judged it, unranked
/// besides as a second attempt at a day's puzzle (`play::daily`) or when
/// no account is signed in (`play::judge::owned`), and answers with what
/// the player sees, kept for the submission with `digest` if one was
/// made (not a race's solve): that submission again is answered the same.
pub async fn finish(
    app: &App,
    row: &GameRow,
    result: result::Finished,
    account: Option<&Account>,
    now: i64,
    digest: Option<&Digest>,
) -> Result<Reply<Finished>, ApiError> {
    let first = super::daily::first_attempt(app, row, account).await?;
    let result = result.owned(first, account.is_some());
    let owner = account.map(|a| a.id.as_str());
    let ranked = result.ranked();
    let count = |n: usize| n as i64;
    let finished = Finished {
        solved: true,
        game: row.issued.id.clone(),
        figures: Figures {
            moves: count(result.moves),
            stm: count(result.stm),
            mtm: count(result.mtm),
            millis: result.millis,
            reading_ms: result.reading_ms,
            score: result.score,
            hints: result.hints,
        },
        ranked,
        record: ranked,
        reason: result.verdict.as_ref().err().map(ToString::to_string),
        variant: row.issued.variant.clone(),
    };
    let answer = digest.map(|d| kept(&finished, d)).transpose()?;
    let stored = app
        .store
        .finish_answered(&row.issued, &result, owner, now, answer.as_ref())
        .await;
    match (stored, digest) {
        (Ok(()), _) => Ok(Reply::Now(finished)),
        // The same submission, sent again before the first was answered.
        (Err(FinishError::AlreadyFinished), Some(digest)) => {
            let id = row.issued.id.as_str();
            let before = answered_before(app, Answered::Game, id, digest, already_submitted);
            Ok(Reply::Before(before.await?))
        }
        (Err(e), _) => Err(e.into()),
    }
}
