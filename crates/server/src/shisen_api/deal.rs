//! Dealing: a request's rules and size read into a `ShisenSpec`, and a
//! seeded deal issued as a game.

use axum::http::StatusCode;
use axum::Json;
use play::limits::{WEB_SHISEN_HEIGHT, WEB_SHISEN_WIDTH};
use play::seed::random_id;
use play::shisen_game::{DealError, ShisenSpec};
use serde::{Deserialize, Serialize};
use shisen::{Matching, Rules, Size, TileSet};

use crate::account::Call;
use crate::clock::now_millis;
use crate::edge::{excludes, GameId, Preset, Seed, ShisenSize};
use crate::error::{Always, ApiError, Body, BodyErrors};
use crate::issue_seed;
use store::{Dealt, IssuedGame};
use utoipa::ToSchema;

/// A deal to issue.
#[derive(Deserialize, ToSchema)]
#[schema(as = ShisenNewRequest)]
#[serde(deny_unknown_fields)]
pub struct NewRequest {
    /// A kshisen size; 18x8 when neither this nor `size` is given, and
    /// not both.
    #[serde(default)]
    preset: Option<Preset>,
    #[serde(default)]
    size: Option<ShisenSize>,
    /// Tiles fall down when the tiles below them go.
    #[serde(default)]
    gravity: bool,
    /// Chinese tiles: flowers and seasons match within their group.
    #[serde(default)]
    chinese: bool,
    /// Deal only boards that can be cleared (the default).
    #[serde(default)]
    solvable: Option<bool>,
    /// Random when absent; none with `daily`.
    #[serde(default)]
    seed: Option<Seed>,
    /// The daily deal: the seed comes from today's UTC date.
    #[serde(default)]
    daily: bool,
}

impl NewRequest {
    /// The bodies refused whatever their fields hold: a daily deal takes
    /// no seed, and a preset no size.
    pub fn excluded() -> Vec<serde_json::Value> {
        let given = serde_json::json!({ "not": { "type": "null" } });
        vec![
            excludes("daily", serde_json::json!({ "const": true }), "seed"),
            excludes("preset", given, "size"),
        ]
    }
}

pub(super) fn check_size(size: Size) -> Result<Size, ApiError> {
    if size.width() > WEB_SHISEN_WIDTH || size.height() > WEB_SHISEN_HEIGHT {
        return Err(ApiError::bad(format!(
            "board {size} is too large: at most {WEB_SHISEN_WIDTH}x{WEB_SHISEN_HEIGHT}"
        )));
    }
    if size.cells() % 2 == 1 {
        return Err(ApiError::bad(format!(
            "board {size} has an odd number of cells: tiles go in pairs"
        )));
    }
    Ok(size)
}

/// The rules a client names with its two flags.
pub(super) fn rules(gravity: bool, chinese: bool) -> Rules {
    Rules::new(Matching::from_chinese(chinese), gravity)
}

/// The deal a request asks for.
fn spec(request: &NewRequest) -> Result<ShisenSpec, ApiError> {
    deal_spec(
        request.preset,
        request.size,
        request.gravity,
        request.chinese,
        request.solvable,
    )
}

/// The deal a preset or a size, the two rule flags and solvability name
/// (a single game's or a race's).
pub(crate) fn deal_spec(
    preset: Option<Preset>,
    size: Option<ShisenSize>,
    gravity: bool,
    chinese: bool,
    solvable: Option<bool>,
) -> Result<ShisenSpec, ApiError> {
    let size = match (preset, size) {
        (Some(_), Some(_)) => return Err(ApiError::bad("give a preset or a size, not both")),
        (Some(preset), None) => preset.size(),
        (None, Some(size)) => size.0,
        (None, None) => Size::DEFAULT,
    };
    Ok(ShisenSpec {
        size: check_size(size)?,
        tiles: if chinese {
            TileSet::Chinese
        } else {
            TileSet::Standard
        },
        gravity,
        solvable: solvable.unwrap_or(true),
    })
}

pub(crate) fn deal_error(error: DealError) -> ApiError {
    match error {
        DealError::Tiles(e) => ApiError::bad(format!("bad deal: {e}")),
        DealError::OutOfTime => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the solver ran out of time finding a solvable deal: try again, a smaller board, or solvable: false",
        ),
        e @ DealError::NoneSolvable(_) => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e),
    }
}

/// An issued deal.
#[derive(Serialize, ToSchema)]
#[schema(as = ShisenIssued)]
pub struct Issued {
    /// The game's id, for pausing, shuffling, submitting and its replay.
    #[schema(value_type = GameId)]
    game: String,
    seed: u64,
    /// One character per cell, rows split by newlines, `.` empty.
    board: String,
    size: String,
    gravity: bool,
    chinese: bool,
    solvable: bool,
    /// The records table this game counts for.
    variant: String,
    daily: bool,
}

/// Deals a Shisen-Sho board.
#[utoipa::path(post, path = "/api/shisen/new", operation_id = "shisen_new", tag = "shisen", request_body = NewRequest,
    responses((status = 200, body = Issued, links(
        ("submit" = (operation_id = "shisen_submit", description = "Submit the game's turns",
            request_body = json!({"game": "$response.body#/game"}))),
        ("hint" = (operation_id = "shisen_hint", description = "A hint on the deal",
            request_body = json!({"game": "$response.body#/game", "board": "$response.body#/board",
                "gravity": "$response.body#/gravity", "chinese": "$response.body#/chinese"}))),
        ("pause" = (operation_id = "shisen_pause", description = "Stop the game's clock",
            request_body = json!({"game": "$response.body#/game"}))),
        ("resume" = (operation_id = "shisen_resume", description = "Restart the game's clock",
            request_body = json!({"game": "$response.body#/game"}))),
        ("replay" = (operation_id = "replay", description = "The game's replay, once it is cleared",
            parameters(("game" = "$response.body#/game")))),
    )), BodyErrors, (status = 422, description = "No solvable deal of this kind exists", body = crate::error::ErrorBody), Always))]
pub async fn new(call: Call<Body<NewRequest>>) -> Result<Json<Issued>, ApiError> {
    let Call(app, player, visitor, Body(request)) = call;
    let spec = spec(&request)?;
    let now = now_millis();
    let seed = issue_seed(request.daily, request.seed.map(|s| s.0), now)?;
    let board = app
        .budget
        .run(move |mut deadline| spec.deal(seed, &mut deadline))
        .await?
        .map_err(deal_error)?;
    let game = IssuedGame {
        id: random_id(),
        player_id: player.0,
        variant: spec.variant(),
        seed,
        dealt: Dealt::Shisen {
            board,
            rules: spec.rules(),
        },
        format: play::format::Format::Single,
        issued_at: now,
    };
    let account = visitor.account().map(|a| a.id.as_str());
    app.store.issue_to(&game, account).await?;
    crate::daily::dealt(&app, &game, request.daily, &visitor, now).await?;
    Ok(Json(Issued {
        game: game.id,
        seed,
        board: game.dealt.setup(),
        size: spec.size.to_string(),
        gravity: spec.gravity,
        chinese: request.chinese,
        solvable: spec.solvable,
        variant: game.variant,
        daily: request.daily,
    }))
}
