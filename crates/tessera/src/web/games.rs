//! What both games' APIs do with an issued game: find it open, and finish
//! it — judge the result (`play::judge`), store it with its replay, and
//! answer the client.

use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;

use super::error::ApiError;
use super::player::Player;
use super::App;
use crate::store::{Account, GameRow, IssuedGame, NewResult};

/// The open game `id` of kind `kind` (`slide`, `shisen`) of `player`.
pub async fn open_game(
    app: &App,
    id: &str,
    player: &Player,
    kind: &str,
) -> Result<GameRow, ApiError> {
    let row = app
        .store
        .game(id, &player.0, kind)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no {kind} game {id:?} for you")))?;
    if row.finished_at.is_some() {
        return Err(ApiError::conflict("this game was already submitted"));
    }
    Ok(row)
}

/// A stored game the server cannot read back: its own fault, logged.
pub fn unreadable(game: &IssuedGame, error: impl std::fmt::Display) -> ApiError {
    eprintln!("stored game {} unreadable: {error}", game.id);
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "stored game unreadable")
}

/// A solved game, as stored.
#[derive(Serialize, ToSchema)]
pub struct Finished {
    /// Always true.
    solved: bool,
    #[schema(value_type = super::edge::GameId)]
    game: String,
    /// Single-tile moves (sliding puzzle) or removals (Shisen-Sho).
    moves: i64,
    /// Single-tile moves; 0 for Shisen-Sho.
    stm: i64,
    /// Multi-tile moves; 0 for Shisen-Sho.
    mtm: i64,
    /// Playing time by the server's clock, pauses left out.
    millis: i64,
    /// Shisen-Sho's score; 0 for the sliding puzzle.
    score: i64,
    hints: i64,
    /// Whether the result goes in the records.
    ranked: bool,
    /// The same as `ranked` (older clients read this).
    record: bool,
    /// Why the result is not ranked.
    reason: Option<String>,
    variant: String,
}

/// Stores a solved game's result, ranked unless `judged` says why not (a
/// single solve's or a format's reason), it is a second attempt at a
/// day's puzzle (`play::daily`) or no account is signed in
/// (`play::judge::owned`), and answers with what
/// the player sees.
pub async fn finish(
    app: &App,
    row: &GameRow,
    mut result: NewResult,
    judged: Result<(), impl std::fmt::Display>,
    account: Option<&Account>,
) -> Result<Finished, ApiError> {
    let first = super::daily::first_attempt(app, row, account).await?;
    result.reason = match judged {
        Err(why) => Some(why.to_string()),
        Ok(()) => play::judge::owned(play::daily::judged(Ok(()), first), account.is_some())
            .err()
            .map(|why| why.to_string()),
    };
    result.account_id = account.map(|a| a.id.clone());
    app.store.finish(&row.issued, &result).await?;
    let ranked = result.reason.is_none();
    Ok(Finished {
        solved: true,
        game: row.issued.id.clone(),
        moves: result.moves,
        stm: result.stm,
        mtm: result.mtm,
        millis: result.millis,
        score: result.score,
        hints: result.hints,
        ranked,
        record: ranked,
        reason: result.reason,
        variant: row.issued.variant.clone(),
    })
}
