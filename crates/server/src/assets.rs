//! The browser client: plain HTML, CSS and JavaScript modules, embedded in
//! the binary at build time (no build step, nothing to install).

use axum::extract::Path;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use picture::art;

// Every embedded file of `static/`: name, content type, content
// (`const FILES`, written by `build.rs`).
include!(concat!(env!("OUT_DIR"), "/static_files.rs"));

/// The app icons a phone asks for when the site is installed, drawn from
/// the favicon's three tiles on the header's colour. A maskable icon keeps
/// its tiles inside the central 80 % that every launcher's mask leaves.
fn icon_svg(size: u32, maskable: bool) -> String {
    let (inset, radius) = if maskable { (0.2, 0.0) } else { (0.12, 0.18) };
    let s = f64::from(size);
    let (pad, r) = (s * inset, s * radius);
    let scale = (s - 2.0 * pad) / 32.0;
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}"><rect width="{size}" height="{size}" rx="{r}" fill="#1d2b3a"/><g transform="translate({pad} {pad}) scale({scale})"><rect x="1" y="1" width="14" height="14" rx="3" fill="#5b8ec5"/><rect x="17" y="1" width="14" height="14" rx="3" fill="#e0574a"/><rect x="1" y="17" width="14" height="14" rx="3" fill="#3fae7a"/></g></svg>"##
    )
}

/// `icon-192.png`, `icon-512.png` and `icon-maskable-512.png`, drawn once.
fn icon(name: &str) -> Option<&'static [u8]> {
    use std::sync::OnceLock;
    static ICONS: [OnceLock<Vec<u8>>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let (slot, size, maskable) = match name {
        "icon-192.png" => (0, 192, false),
        "icon-512.png" => (1, 512, false),
        "icon-maskable-512.png" => (2, 512, true),
        _ => return None,
    };
    let png = ICONS[slot].get_or_init(|| {
        picture::raster::png(&icon_svg(size, maskable)).expect("the icon is a valid picture")
    });
    Some(png.as_slice())
}

/// The Shisen-Sho tile faces, written once from the same code as
/// `tessera shisen render` draws with.
fn faces_module() -> &'static str {
    static MODULE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    MODULE.get_or_init(picture::faces::faces_module)
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

pub(super) fn file(name: &str) -> Response {
    if let Some(png) = icon(name) {
        return (
            [(CONTENT_TYPE, "image/png"), (CACHE_CONTROL, "no-cache")],
            png,
        )
            .into_response();
    }
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

/// Declares pages' handlers, a line a page: `name: path => file, reply;`
/// answers a `GET` of `path` with the embedded HTML `file`, and documents
/// it so in the OpenAPI document (the doc comment, the `reply`'s
/// description, and `(param = about)` when the path has a parameter).
macro_rules! pages {
    ($($(#[$doc:meta])*
        $name:ident: $path:literal $(($param:literal = $about:literal))? => $file:literal, $reply:literal;
    )*) => {$(
        $(#[$doc])*
        #[utoipa::path(get, path = $path, tag = "pages",
            $(params(($param = String, Path, description = $about)),)?
            responses((status = 200, description = $reply, content_type = "text/html", body = String)))]
        pub async fn $name() -> ::axum::response::Response {
            $crate::assets::file($file)
        }
    )*};
}
pub(crate) use pages;

pages! {
    /// The game's page.
    index: "/" => "index.html", "The game";
    /// The replay page; it reads the game id from its own address.
    replay_page: "/replay/{game}" ("game" = "The game's id") => "replay.html", "The replay player";
    /// A race room's page; it reads the room from its own address and opens
    /// `/api/races/{room}/ws`.
    race_page: "/race/{room}" ("room" = "The room's id, as `POST /api/races` gave it")
        => "race.html", "The race: lobby, live boards and results";
    /// A player's profile page; it reads the handle from its own address and
    /// asks `/api/users/{handle}`.
    profile_page: "/u/{handle}" ("handle" = "The account's handle") => "profile.html", "The profile page";
    /// The rankings page: players by power, with their tiers; it asks
    /// `/api/rankings`.
    rankings_page: "/rankings" => "rankings.html", "The rankings page";
    /// The daily fewest-moves challenge's page: today's scrambles, entries,
    /// and past days' results (from `/api/fmc/{day}`).
    fmc_page: "/fmc" => "fmc.html", "The fewest-moves challenge";
    /// The arenas' page: the list, or one arena's standings and races (from
    /// `/api/arenas`).
    arena_page: "/arena/{arena}" ("arena" = "The arena's id") => "arena.html", "An arena's page";
    /// The list of arenas to come and running.
    arenas_page: "/arenas" => "arena.html", "The arenas";
}

/// The page's scripts, styles and icons.
#[utoipa::path(get, path = "/static/{name}", tag = "pages",
    params(("name" = String, Path, description = "A file name, e.g. `app.js`")),
    responses((status = 200, description = "The file", content_type = "*/*", body = String),
        (status = 404, description = "No such file", content_type = "text/plain", body = String)))]
pub async fn asset(Path(name): Path<String>) -> Response {
    file(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The manifest is JSON, and every icon it names is served with the
    /// size it states.
    #[test]
    fn the_manifest_names_icons_that_exist_at_their_sizes() {
        let (_, _, text) = FILES
            .iter()
            .find(|(n, _, _)| *n == "manifest.webmanifest")
            .expect("the manifest is embedded");
        let manifest: serde_json::Value = serde_json::from_str(text).expect("the manifest is JSON");
        assert_eq!(manifest["display"], "standalone");
        let icons = manifest["icons"].as_array().expect("icons");
        assert!(icons.len() >= 3);
        for icon in icons {
            let src = icon["src"].as_str().unwrap();
            let name = src
                .strip_prefix("/static/")
                .expect("icons are static files");
            if icon["type"] == "image/png" {
                let png = super::icon(name).unwrap_or_else(|| panic!("{name} is served"));
                let (w, h) = png_size(png);
                assert_eq!(icon["sizes"], format!("{w}x{h}"), "{name}");
            } else {
                assert!(FILES.iter().any(|(n, _, _)| *n == name), "{name} is served");
            }
        }
        assert!(icons.iter().any(|i| i["purpose"] == "maskable"));
    }

    /// Every module a script of the page imports (`from './x.js'`) is
    /// served: one left out breaks every script that imports it.
    #[test]
    fn every_module_the_page_imports_is_served() {
        let mut imported = 0;
        for (name, _, text) in FILES.iter().filter(|(n, _, _)| n.ends_with(".js")) {
            for part in text.split("from './").skip(1) {
                let module = &part[..part.find('\'').expect("a closing quote")];
                let status = file(module).status();
                assert_eq!(status, StatusCode::OK, "{name} imports {module}");
                imported += 1;
            }
        }
        assert!(imported > 10, "the scripts import each other");
        for file_name in [
            "display.js",
            "rules.js",
            "slide.js",
            "index.html",
            "app.css",
        ] {
            assert!(FILES.iter().any(|(n, _, _)| *n == file_name), "{file_name}");
        }
    }

    /// Width and height from a PNG's header chunk.
    fn png_size(png: &[u8]) -> (u32, u32) {
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let be = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
        (be(16), be(20))
    }
}
