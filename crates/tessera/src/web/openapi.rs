//! The API's contract: an OpenAPI 3.1 document generated from the request
//! and response types and the handlers' annotations, served at
//! `GET /api/openapi.json`. `scripts/test` checks the live server against
//! it with schemathesis, so the document cannot drift from the code.
//!
//! Error responses come in sets (`error::BodyErrors`, …), one per way a
//! request can fail, so every operation lists each status it can answer.

use axum::Json;
use utoipa::openapi::OpenApi as Document;
use utoipa::OpenApi;

use super::{account, assets, ops, records, replays, shisen_api, slide_api};

/// The whole HTTP API.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "tessera",
        description = "Tile puzzles: the sliding puzzle and Shisen-Sho. Puzzles are issued by \
            the server and every submitted game is replayed there before it becomes a record. \
            A player is an anonymous id in the `tessera_player` cookie, set on the first reply.",
        license(name = "MIT OR Apache-2.0")
    ),
    paths(
        slide_api::new, slide_api::solve, slide_api::hint, slide_api::submit, slide_api::colours,
        shisen_api::new, shisen_api::path, shisen_api::hint, shisen_api::check,
        shisen_api::shuffle, shisen_api::pause, shisen_api::resume, shisen_api::submit,
        replays::replay, records::records, records::variants,
        records::me, records::set_name, records::stats, records::export,
        ops::readyz, ops::metrics_page, super::healthz, openapi_json,
        assets::index, assets::replay_page, assets::asset,
        account::signup, account::login, account::logout, account::logout_all, account::me,
    ),
    tags(
        (name = "slide", description = "The sliding puzzle"),
        (name = "shisen", description = "Shisen-Sho"),
        (name = "records", description = "Records and replays"),
        (name = "player", description = "The asking player"),
        (name = "account", description = "Accounts: sign-up, sign-in and sessions (the `tessera_session` cookie)"),
        (name = "ops", description = "For operators and load balancers"),
        (name = "pages", description = "The browser game"),
    )
)]
pub struct Api;

/// This document.
#[utoipa::path(get, path = "/api/openapi.json", tag = "ops",
    responses((status = 200, description = "The OpenAPI 3.1 document", content_type = "application/json", body = Object)))]
pub async fn openapi_json() -> Json<Document> {
    Json(Api::openapi())
}
