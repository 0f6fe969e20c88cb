//! The browser client: plain HTML, CSS and JavaScript modules, embedded in
//! the binary at build time (no build step, nothing to install).

use axum::extract::Path;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::picture::art;

/// Every embedded file: name, content type, content.
const FILES: &[(&str, &str, &str)] = &[
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("../../static/index.html"),
    ),
    (
        "replay.html",
        "text/html; charset=utf-8",
        include_str!("../../static/replay.html"),
    ),
    (
        "replay.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/replay.js"),
    ),
    (
        "app.css",
        "text/css; charset=utf-8",
        include_str!("../../static/app.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/app.js"),
    ),
    (
        "api.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/api.js"),
    ),
    (
        "slide.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/slide.js"),
    ),
    (
        "shisen.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/shisen.js"),
    ),
    (
        "rules.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/rules.js"),
    ),
    (
        "tiles.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/tiles.js"),
    ),
    (
        "looks.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/looks.js"),
    ),
    (
        "records.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/records.js"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_str!("../../static/favicon.svg"),
    ),
];

/// The Shisen-Sho tile faces, written once from the same code as
/// `tessera shisen render` draws with.
fn faces_module() -> &'static str {
    static MODULE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    MODULE.get_or_init(crate::picture::faces::faces_module)
}

/// The built-in pictures' names and titles, for the page's menu.
fn pictures_module() -> String {
    let list: Vec<serde_json::Value> = art::ALL
        .iter()
        .map(|a| serde_json::json!({"name": a.name, "title": a.title}))
        .collect();
    format!(
        "// Written by the server from crates/tessera/src/picture/art.rs.\nexport const PICTURES = {};\n",
        serde_json::Value::Array(list)
    )
}

/// The files written by the server's own code rather than embedded: the
/// tile faces, and the built-in pictures with their list.
fn generated(name: &str) -> Option<(&'static str, String)> {
    const JS: &str = "text/javascript; charset=utf-8";
    match name {
        "faces.js" => Some((JS, faces_module().to_string())),
        "pictures.js" => Some((JS, pictures_module())),
        _ => {
            let picture = name.strip_prefix("picture-")?.strip_suffix(".svg")?;
            Some(("image/svg+xml", art::Art::named(picture)?.svg()))
        }
    }
}

fn file(name: &str) -> Response {
    if let Some((kind, body)) = generated(name) {
        return ([(CONTENT_TYPE, kind), (CACHE_CONTROL, "no-cache")], body).into_response();
    }
    match FILES.iter().find(|(n, _, _)| *n == name) {
        Some((_, kind, body)) => {
            ([(CONTENT_TYPE, *kind), (CACHE_CONTROL, "no-cache")], *body).into_response()
        }
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

/// The game's page.
#[utoipa::path(get, path = "/", tag = "pages",
    responses((status = 200, description = "The game", content_type = "text/html", body = String)))]
pub async fn index() -> Response {
    file("index.html")
}

/// The replay page; it reads the game id from its own address.
#[utoipa::path(get, path = "/replay/{game}", tag = "pages",
    params(("game" = String, Path, description = "The game's id")),
    responses((status = 200, description = "The replay player", content_type = "text/html", body = String)))]
pub async fn replay_page() -> Response {
    file("replay.html")
}

/// The page's scripts, styles and icons.
#[utoipa::path(get, path = "/static/{name}", tag = "pages",
    params(("name" = String, Path, description = "A file name, e.g. `app.js`")),
    responses((status = 200, description = "The file", content_type = "*/*", body = String),
        (status = 404, description = "No such file", content_type = "text/plain", body = String)))]
pub async fn asset(Path(name): Path<String>) -> Response {
    file(&name)
}
