//! A profile filtered by control and display, as the records are: each
//! filter keeps the results and bests of that control or display alone,
//! and a value that names none is refused as the records refuse it.

use crate::common;
use crate::formats::{deal, solutions, wait_until};

use std::time::Instant;

use common::server::{Client, Server};
use serde_json::{json, Value};

/// Plays a 3×3 from `seed`: a move every `gap` ms after a 300 ms look,
/// each made by `input` (`h` hover, `k` keyboard), under `display`.
fn play(client: &mut Client, seed: u64, gap: i64, input: &str, display: &str) -> Value {
    let dealt = Instant::now();
    let game = deal(client, "single", seed);
    let moves = &solutions(&game)[0];
    let times: Vec<i64> = (0..moves.len() as i64).map(|i| 300 + i * gap).collect();
    wait_until(dealt, *times.last().unwrap());
    let done = client.ok(
        "/api/slide/submit",
        json!({"game": game["game"], "moves": moves.to_string(), "times": times,
            "inputs": input.repeat(moves.len()), "display": display}),
    );
    assert_eq!(done["ranked"], true, "{done}");
    done
}

fn ids(list: &Value) -> Vec<String> {
    let mut ids: Vec<String> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["game_id"].as_str().unwrap().to_string())
        .collect();
    ids.sort();
    ids
}

#[test]
fn a_profile_shows_one_control_and_one_display_when_asked() {
    let server = Server::start();
    let mut client = server.client();
    let (handle, _) = client.sign_up("filtered");
    // Three ranked solves: hover and keyboard on the standard display,
    // keyboard on Manhattan.
    let solves = [
        (
            "hover",
            "standard",
            play(&mut client, 41, 25, "h", "standard"),
        ),
        (
            "keyboard",
            "standard",
            play(&mut client, 42, 70, "k", "standard"),
        ),
        (
            "keyboard",
            "manhattan",
            play(&mut client, 43, 70, "k", "manhattan"),
        ),
    ];
    let mut anyone = server.client();
    let mut profile = |query: &str| -> Value {
        let reply = anyone.get(&format!("/api/users/{handle}{query}"));
        assert_eq!(reply.status, 200, "{query}: {}", reply.text);
        reply.json()
    };
    for (query, control, display) in [
        ("", None, None),
        ("?control=hover", Some("hover"), None),
        ("?control=keyboard", Some("keyboard"), None),
        ("?display=manhattan", None, Some("manhattan")),
        (
            "?control=keyboard&display=standard",
            Some("keyboard"),
            Some("standard"),
        ),
        ("?control=touch", Some("touch"), None),
    ] {
        // What the filter should keep, from the solves as played.
        let kept: Vec<&(&str, &str, Value)> = solves
            .iter()
            .filter(|(c, d, _)| control.is_none_or(|x| x == *c) && display.is_none_or(|x| x == *d))
            .collect();
        let p = profile(query);
        assert_eq!(p["control"], json!(control), "{query}");
        assert_eq!(p["display"], json!(display), "{query}");
        assert_eq!(p["solves"], kept.len(), "{query}: {p}");
        let mut wanted: Vec<String> = kept
            .iter()
            .map(|(_, _, done)| done["game"].as_str().unwrap().to_string())
            .collect();
        wanted.sort();
        assert_eq!(ids(&p["recent"]), wanted, "{query}");
        // One single best per display kept, the fastest of its display,
        // filed under the control asked (none: every control).
        let bests: Vec<&Value> = p["bests"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b["of"] == 1)
            .collect();
        let mut displays: Vec<&str> = kept.iter().map(|(_, d, _)| *d).collect();
        displays.sort();
        displays.dedup();
        assert_eq!(bests.len(), displays.len(), "{query}: {p}");
        for shown in displays {
            let fastest = kept
                .iter()
                .filter(|(_, d, _)| *d == shown)
                .map(|(_, _, done)| done["millis"].as_f64().unwrap())
                .fold(f64::INFINITY, f64::min);
            let best = bests.iter().find(|b| b["display"] == shown).unwrap();
            assert_eq!(best["millis"].as_f64(), Some(fastest), "{query}: {best}");
            assert_eq!(best["control"], json!(control), "{query}: {best}");
        }
    }

    // A value that is none is refused naming the field and what it takes,
    // in the records' very words; an unknown parameter too.
    for (field, bad) in [
        ("control", "joystick"),
        ("control", "Hover"),
        ("display", "Manhattan"),
        ("display", ""),
    ] {
        let reply = anyone.get(&format!("/api/users/{handle}?{field}={bad}"));
        assert_eq!(reply.status, 400, "{field}={bad}: {}", reply.text);
        let records = anyone.get(&format!(
            "/api/records?game=slide&variant=3x3-row-major&{field}={bad}"
        ));
        assert_eq!(records.status, 400, "{}", records.text);
        assert_eq!(reply.error(), records.error(), "{field}={bad}");
        assert!(reply.error().contains(field), "{}", reply.text);
    }
    let reply = anyone.get(&format!("/api/users/{handle}?controls=hover"));
    assert_eq!(reply.status, 400, "{}", reply.text);
    assert!(reply.error().contains("controls"), "{}", reply.text);
}
