//! The casual lobby: `GET /api/races` lists the open rooms anyone may
//! join (not rated, still in the lobby, with a seat free), newest first.
//! Each instance lists the rooms it holds; behind a load balancer a room
//! opened on another instance shows on the instance its players reach.

use axum::extract::State;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{Always, ApiError};
use crate::App;

/// An open room in the lobby.
#[derive(Serialize, ToSchema)]
pub struct OpenRoom {
    /// The room's id.
    room: String,
    /// Its game as a shared room names it: `slide:4x4-row-major`,
    /// `shisen:18x8`, …
    game: String,
    /// Players in it now.
    players: usize,
    /// When it was opened, milliseconds since the Unix epoch.
    opened_at: i64,
    /// Its page.
    url: String,
}

/// The casual rooms open to anyone.
#[derive(Serialize, ToSchema)]
pub struct Lobby {
    rooms: Vec<OpenRoom>,
}

/// The open casual races anyone may join, newest first.
#[utoipa::path(get, path = "/api/races", operation_id = "race_lobby", tag = "races",
    responses((status = 200, body = Lobby), Always))]
pub async fn lobby(State(app): State<App>) -> Result<Json<Lobby>, ApiError> {
    let rooms = app
        .races
        .lobby()
        .await
        .into_iter()
        .map(|(room, game, players, opened_at)| OpenRoom {
            url: format!("/race/{room}"),
            room,
            game,
            players,
            opened_at,
        })
        .collect();
    Ok(Json(Lobby { rooms }))
}
