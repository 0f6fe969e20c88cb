//! The API's contract, `GET /api/openapi.json`: it covers every route the
//! router serves (read from the source, not from the document), describes
//! every error as `{"error": …}`, and request bodies that go wrong say
//! where with a JSON pointer. schemathesis checks the live server against
//! the document in `scripts/test`; this suite checks the document itself,
//! and that on named cases the server takes what the document allows and
//! refuses what it forbids.

use crate::common;

use std::collections::BTreeSet;

use common::server::Server;
use serde_json::{json, Value};

/// Every `(method, path)` the router declares, read from `web/mod.rs`.
fn routes_in_source() -> BTreeSet<(String, String)> {
    let source = include_str!("../../../server/src/lib.rs");
    let mut routes = BTreeSet::new();
    for line in source.lines() {
        let Some((_, rest)) = line.split_once(".route(\"") else {
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

/// The `(method, path)` of every route that `web/mod.rs` puts behind a
/// per-client limit: the routes of a `let NAME = Router::new()…;` that a
/// later `let NAME = ops::limited(NAME, …)` wraps.
fn limited_routes_in_source() -> BTreeSet<(String, String)> {
    let source = include_str!("../../../server/src/lib.rs");
    let statements: Vec<&str> = source.split(';').collect();
    let mut routes = BTreeSet::new();
    for statement in &statements {
        let Some((_, rest)) = statement.split_once("let ") else {
            continue;
        };
        let Some((name, body)) = rest.split_once(" = Router::new()") else {
            continue;
        };
        let wrapped = format!("let {name} = ops::limited(");
        if !statements.iter().any(|s| s.contains(&wrapped)) {
            continue;
        }
        for line in body.lines() {
            let Some((_, rest)) = line.split_once(".route(\"") else {
                continue;
            };
            let (path, rest) = rest.split_once('"').unwrap();
            let method = rest.split_once('(').unwrap().0.trim_start_matches(", ");
            routes.insert((method.to_string(), path.to_string()));
        }
    }
    routes
}

/// Every `$ref` in `value`, wherever it sits.
fn refs(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(target)) = map.get("$ref") {
                found.push(target.clone());
            }
            map.values().for_each(|v| refs(v, found));
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, found)),
        _ => {}
    }
}

#[test]
fn every_reference_in_the_document_resolves() {
    // A path parameter typed by a checked value refers to its schema; a
    // schema that is no component leaves clients (and schemathesis)
    // unable to read the operation.
    let doc = document();
    let mut found = Vec::new();
    refs(&doc, &mut found);
    assert!(!found.is_empty());
    for target in found {
        let pointer = target.trim_start_matches('#');
        assert!(
            doc.pointer(pointer).is_some(),
            "{target} resolves to nothing"
        );
    }
}

#[test]
fn every_rate_limited_operation_documents_its_429() {
    let doc = document();
    let limited = limited_routes_in_source();
    assert!(limited.len() >= 7, "read {} limited routes", limited.len());
    for (method, path) in limited {
        let responses = &doc["paths"][&path][&method]["responses"];
        assert!(
            responses.get("429").is_some(),
            "{method} {path} is rate-limited but its 429 is not documented"
        );
    }
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
            // 200, or 201 for a sign-up, 204 for a sign-out; a WebSocket
            // (`…/ws`) succeeds by switching protocols.
            let switches = path.ends_with("/ws") && responses.contains_key("101");
            assert!(
                switches || responses.keys().any(|status| status.starts_with('2')),
                "{method} {path} has no success"
            );
            for (status, response) in responses {
                let json_body = &response["content"]["application/json"]["schema"];
                if !status.starts_with(['4', '5']) || path.starts_with("/static") {
                    continue;
                }
                assert_eq!(
                    json_body["$ref"], "#/components/schemas/ErrorBody",
                    "{method} {path} {status}"
                );
                let body = resolve(&doc, json_body);
                assert_eq!(
                    body["required"],
                    json!(["error"]),
                    "{method} {path} {status}: {body}"
                );
                errors += 1;
            }
            // Every POST with a body takes JSON, and says how a bad body
            // is answered (signing out, joining or pausing in an arena
            // take none).
            let bodiless = path.starts_with("/api/account/logout")
                || path.ends_with("/join")
                || path.ends_with("/pause");
            if method == "post" && !bodiless {
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
        json!({"game": "0123456789abcdef0123456789abcdef", "moves": "UD", "times": [1, "two"]}),
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

/// The schema of `name`, a component, a `$ref` to one, or nullable one.
fn component<'a>(doc: &'a Value, name: &str) -> &'a Value {
    let schema = &doc["components"]["schemas"][name];
    assert!(schema.is_object(), "no schema {name}");
    schema
}

/// A property's schema with `$ref`s followed and a nullable wrapper
/// (`oneOf: [null, T]`) taken off.
fn property<'a>(doc: &'a Value, schema: &str, name: &str) -> &'a Value {
    let property = &component(doc, schema)["properties"][name];
    let inner = property["oneOf"]
        .as_array()
        .and_then(|cases| cases.iter().find(|c| c["type"] != "null"))
        .unwrap_or(property);
    resolve(doc, inner)
}

/// A parameter's schema, `$ref` followed.
fn parameter<'a>(doc: &'a Value, path: &str, name: &str) -> &'a Value {
    let parameters = doc["paths"][path]["get"]["parameters"].as_array().unwrap();
    let found = parameters.iter().find(|p| p["name"] == name).unwrap();
    resolve(doc, &found["schema"])
}

/// Whether `value` fits a string or integer schema: enum, pattern,
/// lengths and bounds (what the request values' schemas use).
fn fits(schema: &Value, value: &Value) -> bool {
    if let Some(allowed) = schema["enum"].as_array() {
        return allowed.contains(value);
    }
    if let Some(text) = value.as_str() {
        let chars = text.chars().count() as u64;
        let pattern = schema["pattern"].as_str().unwrap();
        return regex::Regex::new(pattern).unwrap().is_match(text)
            && schema["minLength"].as_u64().is_none_or(|low| chars >= low)
            && schema["maxLength"]
                .as_u64()
                .is_none_or(|high| chars <= high);
    }
    // JSON Schema's integers include numbers written with a zero
    // fraction; every bound here is exact as a float.
    let number = value.as_f64().unwrap();
    assert_eq!(schema["type"], "integer");
    number.fract() == 0.0
        && schema["minimum"].as_f64().is_none_or(|low| number >= low)
        && schema["maximum"].as_f64().is_none_or(|high| number <= high)
}

#[test]
fn the_schemas_state_what_the_server_takes() {
    let doc = document();
    assert_eq!(
        component(&doc, "GameKind")["enum"],
        json!(["slide", "shisen"])
    );
    assert_eq!(component(&doc, "GameId")["pattern"], "^[0-9a-f]{32}$");
    assert_eq!(component(&doc, "Seed")["maximum"], json!((1u64 << 53) - 1));
    assert_eq!(component(&doc, "MetricName")["enum"], json!(["stm", "mtm"]));
    let presets = component(&doc, "Preset")["enum"].as_array().unwrap();
    for name in ["14x6", "18x8", "30x16", "small", "medium", "large"] {
        assert!(presets.contains(&json!(name)), "{name}");
    }
    let schemes = component(&doc, "SchemeName")["pattern"].as_str().unwrap();
    let schemes = regex::Regex::new(schemes).unwrap();
    for name in ["plain", "gradient", "grids", "grids:20x10,10x10,10x5,5x5"] {
        assert!(schemes.is_match(name), "{name}");
    }
    for name in ["plaid", "grids:", "Rows", "grids:20x10,"] {
        assert!(!schemes.is_match(name), "{name}");
    }
    // The same kinds wherever a game is named.
    for path in ["/api/records", "/api/records/variants", "/api/me/stats"] {
        assert_eq!(
            parameter(&doc, path, "game")["enum"],
            json!(["slide", "shisen"])
        );
    }
    assert_eq!(
        parameter(&doc, "/api/replays/{game}", "game")["pattern"],
        "^[0-9a-f]{32}$"
    );
    // Accounts state their handle and password rules too.
    let credentials = &component(&doc, "Credentials")["properties"];
    assert_eq!(credentials["handle"]["pattern"], "^[A-Za-z0-9_-]{3,20}$");
    assert_eq!(credentials["password"]["minLength"], json!(10));
    assert_eq!(credentials["password"]["maxLength"], json!(128));
    // Fields that exclude each other are stated, not only refused.
    for (schema, pairs) in [
        ("SlideNewRequest", vec![["daily", "seed"]]),
        (
            "ShisenNewRequest",
            vec![["daily", "seed"], ["preset", "size"]],
        ),
    ] {
        let cases = component(&doc, schema)["not"]["anyOf"].as_array().unwrap();
        let required: Vec<Value> = cases.iter().map(|c| c["required"].clone()).collect();
        assert_eq!(required, pairs.iter().map(|p| json!(p)).collect::<Vec<_>>());
    }
    // A race names its game, and each game's fields go with it alone.
    let race = component(&doc, "RaceNewRequest");
    assert_eq!(race["additionalProperties"], json!(false));
    assert_eq!(
        component(&doc, "RaceGameName")["enum"],
        json!(["slide", "shisen"])
    );
    let cases = race["not"]["anyOf"].as_array().unwrap();
    for (game, field) in [
        ("slide", "gravity"),
        ("slide", "preset"),
        ("shisen", "goal"),
    ] {
        assert!(
            cases
                .iter()
                .any(|c| c["properties"]["game"]["const"] == game
                    && c["required"] == json!(["game", field])),
            "{game} with {field}: {cases:?}"
        );
    }
}

/// Sends a request carrying a value; the answer's status.
type Send = Box<dyn Fn(&mut common::server::Client, &Value) -> u16>;

/// A value of a request, and the schema the document gives it.
struct Case {
    /// The schema that describes the value.
    schema: Value,
    value: Value,
    /// Sends a request carrying the value; its status.
    send: Send,
}

fn body_case(
    doc: &Value,
    (schema, field): (&str, &'static str),
    path: &'static str,
    base: Value,
    value: Value,
) -> Case {
    Case {
        schema: property(doc, schema, field).clone(),
        value,
        send: Box::new(move |c, value| {
            let mut body = base.clone();
            body[field] = value.clone();
            c.post(path, body).status
        }),
    }
}

fn query_case(doc: &Value, path: &'static str, name: &'static str, value: &str) -> Case {
    Case {
        schema: parameter(doc, path, name).clone(),
        value: json!(value),
        send: Box::new(move |c, value| {
            let value = value.as_str().unwrap();
            let other = match name {
                "game" => "variant=4x4-row-major",
                "variant" => "game=slide",
                _ => "game=slide&variant=4x4-row-major",
            };
            let query = format!("{name}={}&{other}", utf8_percent(value));
            c.get(&format!("{path}?{query}")).status
        }),
    }
}

/// Percent-encodes every byte but letters, digits and `-`.
fn utf8_percent(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn the_server_takes_what_the_schema_allows_and_refuses_what_it_forbids() {
    let doc = document();
    let slide = ("SlideNewRequest", "/api/slide/new");
    let shisen = ("ShisenNewRequest", "/api/shisen/new");
    let new = |(schema, path): (&str, &'static str), field, base: Value, value: Value| {
        body_case(&doc, (schema, field), path, base, value)
    };
    let mut cases = vec![];
    for size in [
        "3x3", "10x10", "4X4", "4", "11x4", "04x4", " 4x4", "2x2", "32x8", "33x4", "1x2",
    ] {
        cases.push(new(slide, "size", json!({"seed": 1}), json!(size)));
    }
    for goal in [
        "missing:9",
        "snake",
        "classic",
        "Snake",
        "missing:0",
        "missing:101",
    ] {
        let base = json!({"size": "3x3", "seed": 1});
        cases.push(new(slide, "goal", base, json!(goal)));
    }
    for format in [
        "single",
        "bld",
        "marathon-42",
        "relay-10",
        "Marathon-10",
        "marathon-12",
        "marathon-1000",
        "marathon-1001",
        "marathon-1",
        "marathon-02",
        "2-n-relay",
        "height-relay",
        "width-relay",
        "everything-relay",
        "Height-relay",
        "relay-3",
        "relay-11",
        "sprint",
    ] {
        let base = json!({"size": "3x3", "seed": 1});
        cases.push(new(slide, "format", base, json!(format)));
    }
    let seeds = [(1u64 << 53) - 1, 1 << 53, 1 << 63].map(|seed| json!(seed));
    for seed in seeds.into_iter().chain([json!(7.0), json!(7.5), json!(-1)]) {
        cases.push(new(slide, "seed", json!({"size": "3x3"}), seed.clone()));
        cases.push(new(shisen, "seed", json!({"size": "4x2"}), seed));
    }
    for preset in ["14x6", "small", "20x10", "14X6"] {
        cases.push(new(shisen, "preset", json!({"seed": 1}), json!(preset)));
    }
    for size in ["4x2", "40x24", "3x3", "42x2", "4x02", "4x25"] {
        cases.push(new(shisen, "size", json!({"seed": 1}), json!(size)));
    }
    let name = ("NameRequest", "/api/me/name");
    for text in [
        "  Grace  ",
        "",
        "é".repeat(24).as_str(),
        "a\u{7}b",
        "\tGrace",
        &" ".repeat(25),
    ] {
        cases.push(new(name, "name", json!({}), json!(text)));
    }
    let hint = ("SolveRequest", "/api/slide/hint");
    for metric in ["mtm", "MTM", "qtm"] {
        let base = json!({"position": "1 2 3/4 5 6/7 0 8"});
        cases.push(new(hint, "metric", base, json!(metric)));
    }
    let submit = ("SlideSubmitRequest", "/api/slide/submit");
    for id in [
        "0123456789abcdef0123456789abcdef",
        "0123456789ABCDEF0123456789ABCDEF",
        "nope",
    ] {
        let base = json!({"moves": "U", "times": [400]});
        cases.push(new(submit, "game", base, json!(id)));
    }
    for inputs in ["k", "t", "h", "x", "K"] {
        let base =
            json!({"game": "0123456789abcdef0123456789abcdef", "moves": "U", "times": [400]});
        cases.push(new(submit, "inputs", base, json!(inputs)));
    }
    for display in ["manhattan", "rows-and-columns", "Manhattan", "fancy", ""] {
        let base =
            json!({"game": "0123456789abcdef0123456789abcdef", "moves": "U", "times": [400]});
        cases.push(new(submit, "display", base, json!(display)));
        cases.push(query_case(&doc, "/api/records", "display", display));
    }
    // A profile's filters, read as the records' are (an unknown handle:
    // a value taken is a 404, one refused a 400).
    let profile = "/api/users/{handle}";
    for (name, value) in [
        ("control", "hover"),
        ("control", "joystick"),
        ("display", "manhattan"),
        ("display", "Manhattan"),
    ] {
        cases.push(Case {
            schema: parameter(&doc, profile, name).clone(),
            value: json!(value),
            send: Box::new(move |c, value| {
                let value = value.as_str().unwrap();
                c.get(&format!("/api/users/nobody_here?{name}={value}"))
                    .status
            }),
        });
    }
    for game in ["slide", "shisen", "", "Slide", "chess"] {
        cases.push(query_case(&doc, "/api/records", "game", game));
    }
    for variant in ["4x4-row-major", "", "a b", &"a".repeat(65)] {
        cases.push(query_case(&doc, "/api/records", "variant", variant));
    }
    for by in ["ao50", "ao100", "ao7", "AO5"] {
        cases.push(query_case(&doc, "/api/records", "by", by));
    }
    for date in [
        "2026-11-20",
        "1970-01-01",
        "2026-11-2",
        "2026-13-01",
        "26-11-20",
    ] {
        cases.push(query_case(&doc, "/api/daily", "date", date));
    }
    let server = Server::start();
    let mut c = server.client();
    let mut checked = 0;
    for case in &cases {
        let allowed = fits(&case.schema, &case.value);
        let status = (case.send)(&mut c, &case.value);
        let refused = matches!(status, 400 | 422);
        assert_eq!(
            refused,
            !allowed,
            "{}: the schema {} it, the server answers {status}",
            case.value,
            if allowed { "allows" } else { "forbids" }
        );
        checked += usize::from(!allowed);
    }
    assert!(checked >= 20, "{checked} refusals");
    // Replay ids, in the path.
    let schema = parameter(&doc, "/api/replays/{game}", "game");
    for (id, status) in [
        ("0123456789abcdef0123456789abcdef", 404),
        ("0123456789ABCDEF0123456789ABCDEF", 400),
    ] {
        assert_eq!(fits(schema, &json!(id)), status == 404);
        assert_eq!(c.get(&format!("/api/replays/{id}")).status, status);
    }
    // Integers written with a zero fraction are integers, as in JSON
    // Schema (no such game: the body was read); other fractions are not.
    let id = "0123456789abcdef0123456789abcdef";
    for (time, status) in [(json!(400.0), 404), (json!(400.5), 422)] {
        let body = json!({"game": id, "moves": "U", "times": [time]});
        assert_eq!(c.post("/api/slide/submit", body).status, status, "{time}");
    }
    // Fields that exclude each other: refused together, taken apart (a
    // null is no value).
    for (path, body, status) in [
        (
            "/api/slide/new",
            json!({"size": "3x3", "daily": true, "seed": 1}),
            400,
        ),
        (
            "/api/slide/new",
            json!({"size": "3x3", "daily": true, "seed": null}),
            200,
        ),
        (
            "/api/slide/new",
            json!({"size": "3x3", "daily": false, "seed": 1}),
            200,
        ),
        (
            "/api/shisen/new",
            json!({"size": "4x2", "daily": true, "seed": 1}),
            400,
        ),
        (
            "/api/shisen/new",
            json!({"preset": "14x6", "size": "4x2"}),
            400,
        ),
        (
            "/api/shisen/new",
            json!({"preset": "14x6", "size": null, "seed": 2}),
            200,
        ),
    ] {
        assert_eq!(c.post(path, body.clone()).status, status, "{path} {body}");
    }
}

/// The property a link's `$response.body#/name` expression reads.
fn response_field(expression: &Value) -> &str {
    let text = expression.as_str().unwrap();
    text.strip_prefix("$response.body#/").unwrap()
}

#[test]
fn new_games_link_to_what_can_be_done_with_them() {
    let doc = document();
    let mut operations = std::collections::BTreeMap::new();
    for item in doc["paths"].as_object().unwrap().values() {
        for operation in item.as_object().unwrap().values() {
            operations.insert(operation["operationId"].as_str().unwrap(), operation);
        }
    }
    for (source, targets) in [
        ("slide_new", vec!["slide_submit", "slide_hint", "replay"]),
        (
            "shisen_new",
            vec![
                "shisen_submit",
                "shisen_hint",
                "shisen_pause",
                "shisen_resume",
                "replay",
            ],
        ),
    ] {
        let issued = &operations[source]["responses"]["200"];
        let issued_schema = resolve(&doc, &issued["content"]["application/json"]["schema"]);
        let links = issued["links"].as_object().unwrap();
        let linked: BTreeSet<&str> = links
            .values()
            .map(|l| l["operationId"].as_str().unwrap())
            .collect();
        assert_eq!(linked, targets.into_iter().collect(), "{source}");
        for link in links.values() {
            let target = operations[link["operationId"].as_str().unwrap()];
            // Every value the link carries is read from the issued game and
            // lands in a field or parameter the target takes.
            if let Some(body) = link["requestBody"].as_object() {
                let schema = &target["requestBody"]["content"]["application/json"]["schema"];
                let properties = &resolve(&doc, schema)["properties"];
                for (field, expression) in body {
                    assert!(properties[field].is_object(), "{field} of {target}");
                    assert!(issued_schema["properties"][response_field(expression)].is_object());
                }
            }
            for (name, expression) in link["parameters"].as_object().into_iter().flatten() {
                let parameters = target["parameters"].as_array().unwrap();
                assert!(parameters.iter().any(|p| p["name"] == *name.as_str()));
                assert!(issued_schema["properties"][response_field(expression)].is_object());
            }
        }
    }
}

/// The sizes the request's schema lets a relay down start at: its
/// `if` format `then` size rule, none if it states none.
fn starts_of<'a>(request: &'a Value, format: &str) -> Option<&'a Vec<Value>> {
    let rules = request["allOf"].as_array()?;
    let rule = rules
        .iter()
        .find(|rule| rule["if"]["properties"]["format"]["const"] == format)?;
    assert_eq!(rule["if"]["required"], json!(["format"]));
    rule["then"]["properties"]["size"]["enum"].as_array()
}

#[test]
fn each_relay_down_states_the_sizes_it_starts_at() {
    let doc = document();
    let request = component(&doc, "SlideNewRequest");
    let server = Server::start();
    let mut c = server.client();
    for (format, sizes) in [
        ("2-n-relay", ["3x3", "10x10", "4x4", "2x2", "3x4", "11x11"]),
        (
            "height-relay",
            ["2x3", "10x3", "3x10", "2x2", "10x2", "3x11"],
        ),
        (
            "width-relay",
            ["3x2", "3x10", "10x3", "2x2", "2x10", "11x3"],
        ),
        (
            "everything-relay",
            ["3x2", "2x3", "10x10", "2x2", "11x2", "4x11"],
        ),
    ] {
        let starts = starts_of(request, format).unwrap_or_else(|| panic!("{format}: no rule"));
        // The first three start, the last three do not: the schema and the
        // server agree on each.
        for (i, size) in sizes.into_iter().enumerate() {
            let stated = starts.contains(&json!(size));
            assert_eq!(stated, i < 3, "{format} from {size}: the schema");
            let body = json!({"size": size, "format": format, "seed": 1});
            let status = c.post("/api/slide/new", body).status;
            assert_eq!(status == 200, stated, "{format} from {size}: {status}");
        }
    }
    // Formats that start at any size state no rule.
    for format in ["single", "bld", "marathon-10", "relay-4"] {
        assert!(starts_of(request, format).is_none(), "{format}");
    }
}
