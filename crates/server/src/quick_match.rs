//! Quick match: "Play rated" puts a signed-in player in a pool's queue
//! (`POST /api/seeks`); the page asks after its seek (`GET /api/seeks`)
//! until it is paired into a rated race room, and may cancel it
//! (`DELETE /api/seeks`). Who plays whom is `play::pairing`'s rule; the
//! queue is the store's, so players on different instances are paired
//! too. A queue is paired whenever one of its players asks: the waiting
//! pages ask twice a second, which is the tick that widens their windows.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use play::pairing;
use play::rating::{Params as RatingParams, Pool, Rating};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::account::{signed_in, Call, SignedInErrors, Visitor};
use super::error::{Always, ApiError, Body, BodyErrors, ErrorBody};
use super::ratings::PoolName;
use super::App;
use store::{Seek, SeekError};

/// A seek not asked about for this long is dropped: its page is gone.
const STALE_MS: i64 = 10_000;

/// The pool to wait in.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    pool: PoolName,
}

/// A seek as its player sees it.
#[derive(Serialize, ToSchema)]
pub struct Seeking {
    /// The pool waited in.
    pool: String,
    /// How long the player has waited, in milliseconds.
    waited: i64,
    /// The rating difference the player accepts now: it widens as they
    /// wait.
    window: f64,
    /// Once paired: the race room to join.
    room: Option<String>,
    /// Once paired: the room's page.
    url: Option<String>,
}

/// The errors of a seek: those of a signed-in request, and one already
/// waiting.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)]
pub enum SeekErrors {
    /// Already waiting for a race, in this pool or another.
    #[response(status = 409)]
    Waiting(ErrorBody),
}

/// Waits for a rated race in a pool, paired with players of close rating.
#[utoipa::path(post, path = "/api/seeks", operation_id = "seek", tag = "races", request_body = SeekRequest,
    responses((status = 200, body = Seeking), BodyErrors, SignedInErrors, SeekErrors, Always))]
pub async fn seek(call: Call<Body<SeekRequest>>) -> Result<Json<Seeking>, ApiError> {
    let Call(app, _, visitor, Body(request)) = call;
    let account = signed_in(&visitor)?;
    let pool = Pool::from(request.pool);
    let rating = rating_in(&app, &account.id, pool).await?;
    let now = app.clock.now_millis();
    match app.store.seek(&account.id, pool, rating, now).await {
        Ok(()) => {}
        Err(SeekError::Waiting(held)) => {
            return Err(ApiError::conflict(format!(
                "already waiting for a race in {}: DELETE /api/seeks first",
                held.name()
            )))
        }
        Err(SeekError::Database(e)) => return Err(e.into()),
    }
    let seek = Seek {
        pool,
        since: now,
        room: None,
    };
    seeking(&app, &account.id, seek, now).await
}

/// The player's seek: still waiting, or paired into a room.
#[utoipa::path(get, path = "/api/seeks", operation_id = "seek_state", tag = "races",
    responses((status = 200, body = Seeking),
        (status = 404, description = "Not waiting for a race", body = ErrorBody),
        SignedInErrors, Always))]
pub async fn state(State(app): State<App>, visitor: Visitor) -> Result<Json<Seeking>, ApiError> {
    let account = signed_in(&visitor)?;
    let now = app.clock.now_millis();
    let Some(seek) = app.store.seek_seen(&account.id, now).await? else {
        return Err(ApiError::not_found("not waiting for a race"));
    };
    seeking(&app, &account.id, seek, now).await
}

/// Stops waiting. A seek already paired stays: its room is the player's
/// to join or leave.
#[utoipa::path(delete, path = "/api/seeks", operation_id = "seek_cancel", tag = "races",
    responses((status = 204, description = "No longer waiting"),
        (status = 404, description = "Not waiting for a race", body = ErrorBody),
        SignedInErrors, Always))]
pub async fn cancel(State(app): State<App>, visitor: Visitor) -> Result<StatusCode, ApiError> {
    let account = signed_in(&visitor)?;
    if app.store.unseek(&account.id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found("not waiting for a race"))
    }
}

/// The account's rating in `pool`: a newcomer's is the starting one.
async fn rating_in(app: &App, account: &str, pool: Pool) -> Result<f64, ApiError> {
    let rated = app
        .store
        .ratings_of(account, app.clock.now_millis())
        .await?;
    Ok(rated.into_iter().find(|r| r.pool == pool).map_or_else(
        || Rating::new(&RatingParams::LICHESS).rating,
        |r| r.rating.rating,
    ))
}

/// Pairs the player's queue if their `seek` still waits, then says
/// where it stands.
async fn seeking(
    app: &App,
    account: &str,
    seek: Seek,
    now: i64,
) -> Result<Json<Seeking>, ApiError> {
    let seek = match seek.room {
        Some(_) => seek,
        None => {
            pair(app, seek.pool, now).await?;
            app.store.seek_seen(account, now).await?.unwrap_or(seek)
        }
    };
    Ok(Json(Seeking {
        waited: now - seek.since,
        window: pairing::window(now - seek.since),
        url: seek.room.as_ref().map(|room| format!("/race/{room}")),
        room: seek.room,
        pool: seek.pool.name().to_string(),
    }))
}

/// Makes the matches `play::pairing` finds in `pool`'s queue now: a rated
/// room each, its players seated in it and its countdown starting once
/// they are connected, taken by their seeks together or not at all
/// (another instance may have paired some of them meanwhile: its room is
/// then aborted, as nobody comes).
async fn pair(app: &App, pool: Pool, now: i64) -> Result<(), ApiError> {
    let waiting = app.store.waiting(pool, now - STALE_MS).await?;
    for group in pairing::pair(&waiting, now) {
        let players: Vec<String> = group.iter().map(|&i| waiting[i].who.clone()).collect();
        let mut accounts = Vec::new();
        for who in &players {
            // An account deleted while it waited is no longer in the queue.
            let Some(handle) = app.store.handle_of(who).await? else {
                continue;
            };
            accounts.push((who.clone(), handle));
        }
        if accounts.len() < players.len() {
            continue;
        }
        let room = super::race::open_rated(app, pool, &accounts).await?;
        app.store.pair_seeks(&players, &room).await?;
    }
    Ok(())
}

impl From<PoolName> for Pool {
    fn from(name: PoolName) -> Pool {
        match name {
            PoolName::Slide3x3 => Pool::Slide3x3,
            PoolName::Slide4x4 => Pool::Slide4x4,
            PoolName::Slide5x5 => Pool::Slide5x5,
            PoolName::Shisen18x8 => Pool::Shisen18x8,
        }
    }
}
