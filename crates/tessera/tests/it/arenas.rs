//! Arenas over HTTP and real race sockets: two entrants are paired into a
//! rated race, its settled outcome becomes their points, a paused entrant
//! is kept but not paired, and bad arenas are refused with the field.

use std::time::{Duration, Instant};

use crate::common;
use crate::ratings::solve_paced;
use common::race::{Socket, PATIENCE};
use common::server::{temp_dir, Client, Server};
use serde_json::{json, Value};

/// A new account's client of the server at `url`.
fn signed_in_at(url: &str, prefix: &str) -> (Client, String) {
    let mut client = Client::new(url);
    let (handle, _) = client.sign_up(prefix);
    (client, handle)
}

fn signed_in(server: &Server, prefix: &str) -> (Client, String) {
    signed_in_at(&server.url, prefix)
}

fn make(client: &mut Client, body: Value) -> Value {
    let reply = client.post("/api/arenas", body);
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.json()
}

fn join(client: &mut Client, arena: &str) {
    let reply = client.post(&format!("/api/arenas/{arena}/join"), json!(null));
    assert_eq!(reply.status, 204, "{}", reply.text);
}

fn view(client: &mut Client, arena: &str) -> Value {
    client.get(&format!("/api/arenas/{arena}")).json()
}

fn line<'a>(view: &'a Value, handle: &str) -> &'a Value {
    view["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["handle"] == handle)
        .unwrap_or_else(|| panic!("{handle} not in {view}"))
}

#[test]
fn entrants_race_rated_races_and_their_settled_outcomes_are_the_points() {
    let server = Server::start();
    arena_raced([&server.url, &server.url]);
}

/// An arena raced by Ada through the server at `urls[0]` and Ben through
/// `urls[1]` (one server, or two instances of one site): paired into one
/// rated race, its settled outcome their points, Ben paused and back.
pub(crate) fn arena_raced(urls: [&str; 2]) {
    let (mut ada, ada_handle) = signed_in_at(urls[0], "ada");
    let (mut ben, ben_handle) = signed_in_at(urls[1], "ben");
    let arena = make(&mut ada, json!({"pool": "slide-3x3", "minutes": 10}));
    let id = arena["id"].as_str().unwrap().to_string();
    assert_eq!(arena["url"], format!("/arena/{id}"));
    join(&mut ada, &id);
    join(&mut ben, &id);
    // Reading the arena pairs its free entrants: the two in one race.
    let seen = view(&mut ada, &id);
    assert_eq!(seen["state"], "running");
    let race = seen["my_race"].as_str().unwrap().to_string();
    assert_eq!(view(&mut ben, &id)["my_race"], race.as_str());
    assert_eq!(line(&seen, &ada_handle)["presence"], "racing");
    let room = race.strip_prefix("/race/").unwrap();

    // The pairing is a race: each is seated as they connect, and the
    // countdown starts once both are there, with no word from either.
    let mut sockets = Vec::new();
    for (client, url) in [&ada, &ben].into_iter().zip(urls) {
        let mut socket = Socket::open(url, room, client.cookie.as_deref());
        let said = socket.expect("room");
        assert_eq!(
            (&said["rated"], &said["paired"]),
            (&json!("slide-3x3"), &json!(true))
        );
        socket.expect("welcome");
        sockets.push(socket);
    }
    let puzzle = sockets[0].expect("start")["puzzle"].clone();
    sockets[1].expect("start");
    let started = Instant::now();
    solve_paced(&mut sockets[0], &puzzle, started);
    solve_paced(&mut sockets[1], &puzzle, started);
    sockets[0].expect("results");

    // Settled: Ada won the arena's first race, 2 points to none. Ben has
    // paused meanwhile: kept in the standings, not paired.
    let reply = ben.post(&format!("/api/arenas/{id}/pause"), json!(null));
    assert_eq!(reply.status, 204, "{}", reply.text);
    let deadline = Instant::now() + PATIENCE;
    let settled = loop {
        join(&mut ada, &id);
        let now = view(&mut ada, &id);
        if now["races"][0]["points"].is_array() {
            break now;
        }
        assert!(Instant::now() < deadline, "the race was not settled: {now}");
        std::thread::sleep(Duration::from_millis(100));
    };
    // The racers in their seats (the arena seats the two tied at 0 in its
    // standings' order), each with their points: Ada's 2, Ben's 0.
    let race = &settled["races"][0];
    let mut seats: Vec<(String, u64)> = race["racers"]
        .as_array()
        .unwrap()
        .iter()
        .zip(race["points"].as_array().unwrap())
        .map(|(who, points)| (who.as_str().unwrap().to_string(), points.as_u64().unwrap()))
        .collect();
    seats.sort();
    let mut expected = vec![(ada_handle.clone(), 2), (ben_handle.clone(), 0)];
    expected.sort();
    assert_eq!(seats, expected, "{race}");
    let (first, second) = (line(&settled, &ada_handle), line(&settled, &ben_handle));
    assert_eq!(
        (first["rank"].as_u64(), first["points"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(
        (first["wins"].as_u64(), first["on_fire"].as_bool()),
        (Some(1), Some(true))
    );
    assert_eq!(second["points"], 0);
    assert_eq!(second["presence"], "paused");
    assert!(settled["my_race"].is_null(), "Ada is free: {settled}");
    // Ben back: the two are paired again at once, in a new room.
    join(&mut ben, &id);
    let again = view(&mut ben, &id);
    let next = again["my_race"].as_str().unwrap();
    assert_ne!(next, race);
    assert_eq!(view(&mut ada, &id)["my_race"], next);
}

#[test]
fn bad_arenas_guests_and_an_ended_arena_are_refused() {
    let dir = temp_dir();
    let server = Server::start_in(dir.clone());
    let mut guest = server.client();
    let reply = guest.post("/api/arenas", json!({"pool": "slide-3x3", "minutes": 10}));
    assert_eq!(reply.status, 401, "{}", reply.text);
    let (mut ada, _) = signed_in(&server, "ada");
    for (body, pointer) in [
        (json!({"pool": "slide-3x3", "minutes": 9}), "/minutes"),
        (json!({"pool": "slide-3x3", "minutes": 61}), "/minutes"),
        (
            json!({"pool": "slide-3x3", "minutes": 20, "starts": 0}),
            "/starts",
        ),
    ] {
        let reply = ada.post("/api/arenas", body.clone());
        assert_eq!(reply.status, 422, "{body}: {}", reply.text);
        assert_eq!(reply.json()["pointer"], pointer, "{body}");
    }
    let reply = ada.post("/api/arenas", json!({"pool": "slide-9x9", "minutes": 20}));
    assert_eq!(reply.status, 422, "{}", reply.text);
    assert_eq!(
        ada.post("/api/arenas/nothing/join", json!(null)).status,
        404
    );
    let arena = make(&mut ada, json!({"pool": "shisen-18x8", "minutes": 10}));
    let id = arena["id"].as_str().unwrap().to_string();
    // The list holds it, and the server's own hourly arenas.
    let list = guest.get("/api/arenas").json();
    let ids: Vec<&str> = list["arenas"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&id.as_str()), "{list}");
    assert!(
        ids.iter().filter(|i| i.starts_with("hourly-")).count() >= 1,
        "{list}"
    );
    let cookie = ada.cookie.clone();
    server.stop();

    // Eleven minutes later, it has ended: joining is refused.
    let later = Server::start_shifted(dir, 11 * 60_000);
    let mut ada = later.client();
    ada.cookie = cookie;
    let reply = ada.post(&format!("/api/arenas/{id}/join"), json!(null));
    assert_eq!(reply.status, 409, "{}", reply.text);
    assert!(reply.error().contains("ended"), "{}", reply.text);
    assert_eq!(view(&mut ada, &id)["state"], "finished");
}
