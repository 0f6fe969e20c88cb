//! The JSON API, in-process: arbitrary bodies sent through the real axum
//! router (`server::fuzzing::Api`) to every POST route, over a real
//! SQLite store in a temporary directory. Property: no answer is a 5xx.
//!
//! Input: the first byte picks the route, the rest is the body. The text
//! `@slide` or `@shisen` in a body is replaced by the id of a game of that
//! kind issued just before, so submissions, pauses and shuffles reach the
//! replay and the judge instead of stopping at "no such game".
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use server::fuzzing::{Api, Method};

const ROUTES: [&str; 16] = [
    "/api/slide/new",
    "/api/slide/solve",
    "/api/slide/hint",
    "/api/slide/submit",
    "/api/shisen/new",
    "/api/shisen/path",
    "/api/shisen/hint",
    "/api/shisen/check",
    "/api/shisen/shuffle",
    "/api/shisen/pause",
    "/api/shisen/resume",
    "/api/shisen/submit",
    "/api/me/name",
    "/api/records?game=slide&variant=3x3-row-major",
    "/api/me/stats?game=shisen&variant=14x6",
    "/api/replays/0123456789abcdef0123456789abcdef",
];

const PLAYER: &str = "0123456789abcdef0123456789abcdef";

fn api() -> &'static Api {
    static API: OnceLock<Api> = OnceLock::new();
    API.get_or_init(Api::new)
}

/// The id of a fresh game issued by `route` with `body`.
fn issue(route: &str, body: &str) -> String {
    let reply = api().call(Method::POST, route, body.as_bytes(), PLAYER);
    let value: serde_json::Value = serde_json::from_slice(&reply.body).unwrap();
    value["game"].as_str().unwrap().to_string()
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let route = ROUTES[pick as usize % ROUTES.len()];
    let mut body = body.to_vec();
    for (tag, route, request) in [
        (&b"@slide"[..], "/api/slide/new", r#"{"size":"3x3","seed":7}"#),
        (&b"@shisen"[..], "/api/shisen/new", r#"{"preset":"14x6","seed":7}"#),
    ] {
        if let Some(at) = body.windows(tag.len()).position(|w| w == tag) {
            let id = issue(route, request);
            body.splice(at..at + tag.len(), id.into_bytes());
        }
    }
    let method = if route.contains('?') || route.starts_with("/api/replays") {
        Method::GET
    } else {
        Method::POST
    };
    let reply = api().call(method, route, &body, PLAYER);
    assert!(
        !reply.status.is_server_error(),
        "{route} answered {}: {}",
        reply.status,
        String::from_utf8_lossy(&reply.body)
    );
    if !reply.status.is_success() {
        let error: serde_json::Value =
            serde_json::from_slice(&reply.body).expect("errors are JSON");
        assert!(error["error"].is_string(), "{error}");
    }
});
