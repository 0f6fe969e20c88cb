//! Quick match (`/api/seeks`): signed-in players asking for the same pool
//! are put in one rated room at once; guests, a second queue and a
//! forgotten seek are refused with the reason.

use std::time::{Duration, Instant};

use crate::common;
use common::race::Socket;
use common::server::{Client, Server};
use serde_json::{json, Value};

fn signed_in(server: &Server, prefix: &str) -> (Client, String) {
    let mut client = server.client();
    let (handle, _) = client.sign_up(prefix);
    (client, handle)
}

/// Asks after the client's seek until it is paired: its room.
fn paired(client: &mut Client, within: Duration) -> Value {
    let start = Instant::now();
    loop {
        let seek = client.get("/api/seeks").json();
        if !seek["room"].is_null() {
            return seek;
        }
        assert!(start.elapsed() < within, "not paired in {within:?}: {seek}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn two_players_asking_for_one_pool_share_a_rated_room_within_two_seconds() {
    let server = Server::start();
    let (mut ada, _) = signed_in(&server, "ada");
    let (mut bob, _) = signed_in(&server, "bob");
    let (mut cy, _) = signed_in(&server, "cy");
    let asked = Instant::now();
    let first = ada.ok("/api/seeks", json!({"pool": "slide-3x3"}));
    assert_eq!(first["pool"], "slide-3x3");
    assert!(first["room"].is_null(), "alone in the queue: {first}");
    // ±100 at first, widening as the seconds pass.
    let window = first["window"].as_f64().unwrap();
    assert!((100.0..101.0).contains(&window), "{first}");
    // Another pool's player is not paired with either.
    cy.ok("/api/seeks", json!({"pool": "slide-4x4"}));
    bob.ok("/api/seeks", json!({"pool": "slide-3x3"}));
    let ada_seek = paired(&mut ada, Duration::from_secs(2));
    let bob_seek = paired(&mut bob, Duration::from_secs(2));
    assert!(asked.elapsed() < Duration::from_secs(2));
    assert_eq!(ada_seek["room"], bob_seek["room"]);
    let room = ada_seek["room"].as_str().unwrap();
    assert_eq!(ada_seek["url"], format!("/race/{room}"));
    assert!(cy.get("/api/seeks").json()["room"].is_null());

    // The room races the pool's game, rated, with the two paired players
    // seated in it (each welcomed as they connect).
    for client in [&ada, &bob] {
        let mut socket = Socket::open(&server.url, room, client.cookie.as_deref());
        let said = socket.expect("room");
        assert_eq!(
            (&said["rated"], &said["paired"]),
            (&json!("slide-3x3"), &json!(true))
        );
        socket.expect("welcome");
    }
    // Paired, a player may ask again (a new seek replaces the old one).
    ada.ok("/api/seeks", json!({"pool": "slide-4x4"}));
    let again = paired(&mut ada, Duration::from_secs(2));
    assert_eq!(
        again["room"],
        paired(&mut cy, Duration::from_secs(2))["room"]
    );
    assert_ne!(again["room"], room);
}

/// Ada and Bob asking for `pool` and paired: their clients and room.
fn pair_two(server: &Server, pool: &str) -> ((Client, String), (Client, String), String) {
    let (mut ada, ada_handle) = signed_in(server, "ada");
    let (mut bob, bob_handle) = signed_in(server, "bob");
    ada.ok("/api/seeks", json!({"pool": pool}));
    bob.ok("/api/seeks", json!({"pool": pool}));
    let room = paired(&mut ada, Duration::from_secs(2))["room"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        paired(&mut bob, Duration::from_secs(2))["room"],
        room.as_str()
    );
    ((ada, ada_handle), (bob, bob_handle), room)
}

/// A paired player's socket to `room`: the lobby names the puzzle it deals,
/// and the player is seated without a word (no name, no readiness).
fn land(server: &Server, client: &Client, handle: &str, room: &str) -> (Socket, u64, Value) {
    let mut socket = Socket::open(&server.url, room, client.cookie.as_deref());
    assert_eq!(socket.expect("you")["account"], handle);
    let said = socket.expect("room");
    assert_eq!(said["paired"], true, "{said}");
    assert_eq!(
        said["deals"],
        json!({"game": "slide", "size": "4x4", "goal": "row-major"})
    );
    let seat = socket.expect("welcome")["player"].as_u64().unwrap();
    let players = said["players"].as_array().unwrap();
    let me = players.iter().find(|p| p["player"] == seat).unwrap();
    assert_eq!(
        (&me["name"], &me["account"]),
        (&json!(handle), &json!(handle))
    );
    assert_eq!(me["ready"], true);
    (socket, seat, said)
}

#[test]
fn a_pairing_is_a_game_both_seated_and_counted_down_without_a_word() {
    let server = Server::start();
    let ((ada, ada_handle), (bob, bob_handle), room) = pair_two(&server, "slide-4x4");
    let (mut ada_socket, _, alone) = land(&server, &ada, &ada_handle, &room);
    // Alone in the room, Ada waits for Bob: no countdown yet.
    assert_eq!(alone["state"], "lobby");
    let (mut bob_socket, _, both) = land(&server, &bob, &bob_handle, &room);
    // Bob's coming starts the countdown: neither sent anything.
    assert_eq!(both["state"], "countdown");
    assert_eq!(ada_socket.expect("countdown")["ms"], 3000);
    for socket in [&mut ada_socket, &mut bob_socket] {
        let start = socket.expect("start");
        assert_eq!(start["puzzle"]["size"], "4x4");
    }
    // Nobody else sits in a pairing's room, and nobody readies it.
    let mut guest = Socket::open(&server.url, &room, None);
    guest.send(json!({"type": "join", "name": "Guest"}));
    assert!(guest.expect("error")["message"]
        .as_str()
        .unwrap()
        .contains("paired"));
    ada_socket.send(json!({"type": "ready"}));
    assert!(ada_socket.expect("error")["message"]
        .as_str()
        .unwrap()
        .contains("lobby"));
}

#[test]
fn a_pairing_where_one_player_never_moves_is_aborted_and_no_rating_moves() {
    let server = Server::start();
    let ((ada, ada_handle), (bob, bob_handle), room) = pair_two(&server, "slide-4x4");
    let (mut ada_socket, _, _) = land(&server, &ada, &ada_handle, &room);
    let (mut bob_socket, bob_seat, _) = land(&server, &bob, &bob_handle, &room);
    let start = ada_socket.expect("start");
    bob_socket.expect("start");
    let started = Instant::now();
    // Ada moves; Bob never does.
    let position: slide::Position = start["puzzle"]["position"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let first = position.legal_moves().next().unwrap();
    ada_socket.send(json!({"type": "move", "moves": first.letter().to_string(), "t": 400}));
    ada_socket.expect("progress");
    // Fifteen seconds after the start, the race is called off, naming Bob
    // (read after a wait: a socket's read gives up after ten silent seconds).
    std::thread::sleep(Duration::from_secs(12));
    let deadline = Instant::now() + Duration::from_secs(25);
    let aborted = loop {
        assert!(Instant::now() < deadline, "not aborted in time");
        let message = ada_socket.next();
        if message["type"] == "aborted" {
            break message;
        }
        assert_ne!(message["type"], "results", "{message}");
    };
    assert!(
        started.elapsed() >= Duration::from_secs(14),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(aborted["players"], json!([bob_seat]));
    assert_eq!(ada_socket.room_in("aborted")["state"], "aborted");
    bob_socket.expect("aborted");
    // Nothing moves after it, and no rating: neither has one.
    ada_socket
        .send(json!({"type": "move", "moves": first.inverse().letter().to_string(), "t": 20_000}));
    assert!(ada_socket.expect("error")["message"]
        .as_str()
        .unwrap()
        .contains("not running"));
    std::thread::sleep(Duration::from_millis(500));
    let mut guest = server.client();
    for handle in [&ada_handle, &bob_handle] {
        let profile = guest.get(&format!("/api/users/{handle}")).json();
        assert_eq!(profile["ratings"], json!([]), "{profile}");
    }
}

#[test]
fn guests_second_queues_and_unknown_pools_are_refused() {
    let server = Server::start();
    let mut guest = server.client();
    let reply = guest.post("/api/seeks", json!({"pool": "slide-3x3"}));
    assert_eq!(reply.status, 401, "{}", reply.text);
    assert_eq!(guest.get("/api/seeks").status, 401);

    let (mut ada, _) = signed_in(&server, "ada");
    let reply = ada.post("/api/seeks", json!({"pool": "slide-6x6"}));
    assert_eq!(reply.status, 422, "{}", reply.text);
    assert!(reply.error().contains("slide-3x3"), "{}", reply.text);
    assert_eq!(ada.get("/api/seeks").status, 404);

    ada.ok("/api/seeks", json!({"pool": "shisen-18x8"}));
    for pool in ["shisen-18x8", "slide-5x5"] {
        let reply = ada.post("/api/seeks", json!({"pool": pool}));
        assert_eq!(reply.status, 409, "{}", reply.text);
        assert!(reply.error().contains("shisen-18x8"), "{}", reply.text);
    }
    // Cancelled, the seek is gone and another may be made.
    assert_eq!(ada.delete("/api/seeks").status, 204);
    assert_eq!(ada.get("/api/seeks").status, 404);
    assert_eq!(ada.delete("/api/seeks").status, 404);
    ada.ok("/api/seeks", json!({"pool": "slide-5x5"}));
}

#[test]
fn the_lobby_lists_open_casual_rooms_anyone_may_join() {
    let server = Server::start();
    let mut client = server.client();
    assert_eq!(client.get("/api/races").json()["rooms"], json!([]));
    let casual = client.ok("/api/races", json!({"game": "slide", "size": "4x4"}));
    let (mut ada, _) = signed_in(&server, "ada");
    ada.ok(
        "/api/races",
        json!({"game": "slide", "size": "3x3", "rated": true}),
    );
    let lobby = client.get("/api/races").json();
    let rooms = lobby["rooms"].as_array().unwrap();
    assert_eq!(rooms.len(), 1, "only the casual room: {lobby}");
    assert_eq!(rooms[0]["room"], casual["room"]);
    assert_eq!(rooms[0]["game"], "slide:4x4-row-major");
    assert_eq!(rooms[0]["url"], casual["url"]);
    assert_eq!(rooms[0]["players"], 0);
    // A guest joins it from the lobby: the count follows.
    let mut guest = Socket::open(&server.url, casual["room"].as_str().unwrap(), None);
    guest.send(json!({"type": "join", "name": "Guest"}));
    guest.expect("welcome");
    assert_eq!(client.get("/api/races").json()["rooms"][0]["players"], 1);
}
