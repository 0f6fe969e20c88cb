//! The API's contract: an OpenAPI 3.1 document generated from the request
//! and response types and the handlers' annotations, served at
//! `GET /api/openapi.json`. `scripts/test` checks the live server against
//! it with schemathesis, so the document cannot drift from the code.
//!
//! Error responses come in sets (`error::BodyErrors`, …), one per way a
//! request can fail, so every operation lists each status it can answer.
//! The values inside requests are described by their own types
//! (`edge`), which check them when they are read.

use axum::Json;
use serde_json::{json, Value};
use utoipa::openapi::extensions::Extensions;
use utoipa::openapi::schema::Schema;
use utoipa::openapi::{OpenApi as Document, RefOr, Response};
use utoipa::{Modify, OpenApi};

use crate::edge::FormatName;

use super::{
    account, arenas, assets, daily, fmc, ops, profile, quick_match, race, rankings, ratings,
    records, replays, settings, shisen_api, slide_api, time_attack,
};

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
    modifiers(&Exclusions, &CamelCaseLinks),
    paths(
        slide_api::new, slide_api::solve, slide_api::hint, slide_api::submit, slide_api::colours,
        shisen_api::new, shisen_api::path, shisen_api::hint, shisen_api::check, replays::shisen_analysis,
        shisen_api::shuffle, shisen_api::pause, shisen_api::resume, shisen_api::submit,
        race::new, race::lobby, race::socket, replays::replay, replays::analysis, records::records, records::variants,
        records::history,
        daily::board, fmc::day, fmc::submit, rankings::rankings,
        records::me, records::set_name, records::stats, records::export,
        ops::readyz, ops::metrics_page, super::healthz, openapi_json,
        assets::index, assets::replay_page, assets::profile_page, assets::race_page, assets::rankings_page,
        assets::fmc_page, assets::asset,
        time_attack::start, time_attack::submit, time_attack::board, time_attack::page,
        account::signup, account::login, account::logout, account::logout_all, account::me,
        account::session,
        settings::change_password, settings::export, settings::set_country, settings::delete, profile::profile,
        ratings::leaderboard, quick_match::seek, quick_match::state, quick_match::cancel,
        arenas::new, arenas::list, arenas::view, arenas::join, arenas::pause, assets::arena_page, assets::arenas_page,
    ),
    // Each game's unfinished submission: named here, as the one generic
    // `games::Submitted` inlined at each operation does not name them.
    components(schemas(slide_api::Unsolved, shisen_api::Unsolved)),
    tags(
        (name = "slide", description = "The sliding puzzle"),
        (name = "shisen", description = "Shisen-Sho"),
        (name = "races", description = "Live races: one puzzle for every player at once, over a WebSocket (`docs/race-protocol.md`)"),
        (name = "records", description = "Records and replays"),
        (name = "player", description = "The asking player"),
        (name = "account", description = "Accounts: sign-up, sign-in and sessions (the `tessera_session` cookie)"),
        (name = "ops", description = "For operators and load balancers"),
        (name = "pages", description = "The browser game"),
        (name = "time-attack", description = "Time attack: 3 minutes of 4×4 puzzles, each at least as hard as the one before"),
    )
)]
pub struct Api;

/// Fields that exclude each other (a daily puzzle takes no seed): a `not`
/// on the request's schema, from the cases the request type lists; and
/// fields that hold each other in check (a relay down and the sizes it
/// starts at).
struct Exclusions;

impl Modify for Exclusions {
    fn modify(&self, doc: &mut Document) {
        forbid(doc, "SlideNewRequest", slide_api::NewRequest::excluded());
        forbid(doc, "ShisenNewRequest", shisen_api::NewRequest::excluded());
        forbid(doc, "RaceNewRequest", race::NewRequest::excluded());
        let starts = FormatName::descents().into_iter().map(|(format, sizes)| {
            json!({
                "if": { "properties": { "format": { "const": format } }, "required": ["format"] },
                "then": { "properties": { "size": { "enum": sizes } } },
            })
        });
        extend(doc, "SlideNewRequest", "allOf", starts.collect());
    }
}

/// Adds `not: {anyOf: cases}` to the object schema `name`. utoipa's schema
/// model has no `not`; its extensions are written into the object as they
/// are, so they carry the keyword.
fn forbid(doc: &mut Document, name: &str, cases: Vec<Value>) {
    extend(doc, name, "not", json!({ "anyOf": cases }));
}

/// Adds the keyword `key` to the object schema `name`, through its
/// extensions as [`forbid`] does: here the sizes each relay down starts
/// at, `allOf` the `if` format `then` size rules (JSON Schema's way of
/// relating one field to another).
fn extend(doc: &mut Document, name: &str, key: &str, value: Value) {
    let schema = doc
        .components
        .as_mut()
        .and_then(|components| components.schemas.get_mut(name));
    let Some(RefOr::T(Schema::Object(object))) = schema else {
        return;
    };
    let extensions = object.extensions.get_or_insert_with(Extensions::default);
    extensions.insert(key.into(), value);
}

/// The links from a response to the operations it leads to (`new` to
/// `submit`, `hint` and the replay), written as OpenAPI names their fields:
/// utoipa 5 writes a link's `operationId` and `requestBody` in snake case,
/// which no client reads. Each response's links go into its extensions,
/// which are written as they are, under the key `links`.
struct CamelCaseLinks;

impl Modify for CamelCaseLinks {
    fn modify(&self, doc: &mut Document) {
        for item in doc.paths.paths.values_mut() {
            for operation in [&mut item.get, &mut item.post, &mut item.delete]
                .into_iter()
                .flatten()
            {
                for response in operation.responses.responses.values_mut() {
                    if let RefOr::T(response) = response {
                        rewrite_links(response);
                    }
                }
            }
        }
    }
}

fn rewrite_links(response: &mut Response) {
    if response.links.is_empty() {
        return;
    }
    let mut links = serde_json::Map::new();
    for (name, link) in std::mem::take(&mut response.links) {
        let Ok(Value::Object(fields)) = serde_json::to_value(&link) else {
            continue;
        };
        let fields = fields.into_iter().map(|(k, v)| (camel_case(&k), v));
        links.insert(name, Value::Object(fields.collect()));
    }
    let extensions = response.extensions.get_or_insert_with(Extensions::default);
    extensions.insert("links".into(), Value::Object(links));
}

/// `operation_id` → `operationId`.
fn camel_case(key: &str) -> String {
    let mut words = key.split('_');
    let mut camel = words.next().unwrap_or_default().to_string();
    for word in words {
        let mut chars = word.chars();
        camel.extend(chars.next().map(|c| c.to_ascii_uppercase()));
        camel.push_str(chars.as_str());
    }
    camel
}

/// This document.
#[utoipa::path(get, path = "/api/openapi.json", tag = "ops",
    responses((status = 200, description = "The OpenAPI 3.1 document", content_type = "application/json", body = Object)))]
pub async fn openapi_json() -> Json<Document> {
    Json(Api::openapi())
}
