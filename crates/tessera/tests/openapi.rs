//! The API's contract, `GET /api/openapi.json`: it covers every route the
//! router serves (read from the source, not from the document), describes
//! every error as `{"error": …}`, and request bodies that go wrong say
//! where with a JSON pointer. schemathesis checks the live server against
//! the document in `scripts/test`; this suite checks the document itself.

mod common;

use std::collections::BTreeSet;

use common::server::Server;
use serde_json::{json, Value};

/// Every `(method, path)` the router declares, read from `web/mod.rs`.
fn routes_in_source() -> BTreeSet<(String, String)> {
    let source = include_str!("../src/web/mod.rs");
    let mut routes = BTreeSet::new();
    for line in source.lines() {
        let Some(rest) = line.trim().strip_prefix(".route(\"") else {
            continue;
        };
        let (path, rest) = rest.split_once('"').unwrap();
        let method = rest.split_once('(').unwrap().0.trim_start_matches(", ");
        routes.insert((method.to_string(), path.to_string()));
    }
    routes
}

fn document() -> Value {
    let server = Server::start();
    let mut client = server.client();
    let reply = client.get("/api/openapi.json");
    assert_eq!(reply.status, 200);
    assert!(reply
        .header("content-type")
        .is_some_and(|t| t.starts_with("application/json")));
    reply.json()
}

#[test]
fn the_document_covers_every_route() {
    let doc = document();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let mut documented = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            documented.insert((method.clone(), path.clone()));
        }
    }
    let mut ids = BTreeSet::new();
    for item in doc["paths"].as_object().unwrap().values() {
        for operation in item.as_object().unwrap().values() {
            let id = operation["operationId"].as_str().unwrap();
            assert!(ids.insert(id.to_string()), "operationId {id} twice");
        }
    }
    let served = routes_in_source();
    assert!(served.len() >= 25, "read {} routes", served.len());
    assert_eq!(documented, served);
}

/// Follows a `$ref` to the component it names.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(reference) => {
            let name = reference.rsplit('/').next().unwrap();
            &doc["components"]["schemas"][name]
        }
        None => schema,
    }
}

#[test]
fn every_api_error_is_described_as_an_error_body() {
    let doc = document();
    let mut errors = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let responses = operation["responses"].as_object().unwrap();
            assert!(responses.contains_key("200"), "{method} {path}");
            for (status, response) in responses {
                let json_body = &response["content"]["application/json"]["schema"];
                if !status.starts_with(['4', '5']) || path.starts_with("/static") {
                    continue;
                }
                let body = resolve(&doc, json_body);
                assert_eq!(
                    body["required"],
                    json!(["error"]),
                    "{method} {path} {status}: {body}"
                );
                errors += 1;
            }
            // Every POST takes JSON, and says how a bad body is answered.
            if method == "post" {
                assert!(operation["requestBody"]["content"]["application/json"].is_object());
                for status in ["400", "413", "415", "422"] {
                    assert!(responses.contains_key(status), "{method} {path} {status}");
                }
            }
        }
    }
    assert!(errors > 60, "{errors} error responses");
}

#[test]
fn request_schemas_refuse_unknown_fields() {
    let doc = document();
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    for name in ["SubmitRequest", "NewRequest", "PathRequest", "NameRequest"] {
        let schema = schemas
            .iter()
            .find(|(n, _)| n.ends_with(name))
            .unwrap_or_else(|| panic!("no {name} in {:?}", schemas.keys()));
        assert_eq!(schema.1["additionalProperties"], json!(false), "{name}");
    }
}

#[test]
fn bad_bodies_are_pointed_at() {
    let server = Server::start();
    let mut c = server.client();
    let game = c.ok("/api/shisen/new", json!({"preset": "14x6", "seed": 3}))["game"].clone();
    let turns = json!([[0, 0, 1, 1], "shuffle", "jump"]);
    let reply = c.post(
        "/api/shisen/submit",
        json!({"game": game, "turns": turns, "times": [1, 2, 3]}),
    );
    assert_eq!(reply.status, 422);
    assert_eq!(reply.json()["pointer"], "/turns/2", "{}", reply.json());
    let reply = c.post(
        "/api/slide/submit",
        json!({"game": "x", "moves": "UD", "times": [1, "two"]}),
    );
    assert_eq!(reply.status, 422);
    assert_eq!(reply.json()["pointer"], "/times/1");
    assert!(reply.error().contains("invalid type"), "{}", reply.error());
    let reply = c.post("/api/slide/new", json!({"size": 4}));
    assert_eq!(reply.json()["pointer"], "/size");
    let reply = c.post("/api/shisen/new", json!({"preset": "12x8"}));
    assert_eq!(reply.json()["pointer"], "/preset");
    let reply = c.post("/api/slide/new", json!({}));
    assert_eq!(reply.json()["pointer"], "");
    assert!(reply.error().contains("missing field `size`"));
    // A value that parses but is off the board points at itself too.
    let board = "AB/BA";
    let reply = c.post(
        "/api/shisen/path",
        json!({"board": board, "from": [0, 0], "to": [5, 0]}),
    );
    assert_eq!(reply.status, 400);
    assert_eq!(reply.json()["pointer"], "/to");
    // Broken syntax says the line and column instead.
    let reply = c.post_raw(
        "/api/slide/new",
        "application/json",
        "{\n  \"size\": \"4x4\",\n  seed: 1\n}",
    );
    assert_eq!(reply.status, 400);
    assert!(
        reply.error().contains("line 3 column 3"),
        "{}",
        reply.error()
    );
    assert!(reply.json().get("pointer").is_none());
}
