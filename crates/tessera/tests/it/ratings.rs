//! Rated races over real WebSockets: two accounts race and their new
//! ratings equal what Glicko-2, written again here from Glickman's paper,
//! makes of the race; a guest is refused from a rated room; a racer who
//! leaves loses; and a fault between the race's rows and the ratings
//! leaves neither written.

use crate::accounts::query;
use crate::common;
use crate::races::{position, replay_of, solution_from};

use std::f64::consts::PI;
use std::time::{Duration, Instant};

use common::race::{Socket, PATIENCE};
use common::server::{Client, Server};
use serde_json::{json, Value};

/// Glicko-2 for one rating period, from Glickman's "Example of the
/// Glicko-2 system": `(rating, rd, volatility)` after `games` of
/// `(opponent rating, opponent rd, score)`, τ = 0.75.
pub(crate) fn glicko2(me: (f64, f64, f64), games: &[(f64, f64, f64)]) -> (f64, f64, f64) {
    const TAU: f64 = 0.75;
    const K: f64 = 173.7178;
    let (mu, phi, sigma) = ((me.0 - 1500.0) / K, me.1 / K, me.2);
    let g = |phi: f64| 1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt();
    let (mut v_inv, mut sum) = (0.0, 0.0);
    for &(r, rd, s) in games {
        let (mu_j, phi_j) = ((r - 1500.0) / K, rd / K);
        let e = 1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp());
        v_inv += g(phi_j).powi(2) * e * (1.0 - e);
        sum += g(phi_j) * (s - e);
    }
    let v = 1.0 / v_inv;
    let delta = v * sum;
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let d = phi * phi + v + x.exp();
        x.exp() * (delta * delta - phi * phi - v - x.exp()) / (2.0 * d * d) - (x - a) / (TAU * TAU)
    };
    let mut lo = a;
    let mut hi = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut f_lo, mut f_hi) = (f(lo), f(hi));
    while (hi - lo).abs() > 1e-6 {
        let c = lo + (lo - hi) * f_lo / (f_hi - f_lo);
        let f_c = f(c);
        if f_c * f_hi <= 0.0 {
            (lo, f_lo) = (hi, f_hi);
        } else {
            f_lo /= 2.0;
        }
        (hi, f_hi) = (c, f_c);
    }
    let sigma = (lo / 2.0).exp();
    let phi_star = (phi * phi + sigma * sigma).sqrt();
    let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu = mu + phi * phi * sum;
    (K * mu + 1500.0, (K * phi).min(500.0), sigma)
}

pub(crate) const NEW: (f64, f64, f64) = (1500.0, 500.0, 0.09);

/// Opens a rated race of `body`'s game: the room.
fn open_rated(server: &Server, body: Value) -> String {
    let reply = server.client().ok("/api/races", body);
    reply["room"].as_str().unwrap().to_string()
}

/// A signed-in player's socket in `room`, joined: the socket and the
/// account's client and handle.
fn join_signed_in(server: &Server, room: &str, prefix: &str) -> (Socket, Client, String) {
    let mut client = server.client();
    let (handle, _) = client.sign_up(prefix);
    let mut socket = Socket::open(&server.url, room, client.cookie.as_deref());
    socket.send(json!({"type": "join", "name": prefix}));
    socket.expect("welcome");
    (socket, client, handle)
}

/// The account's ratings as its profile shows them, once there are some.
pub(crate) fn ratings_of_at(url: &str, handle: &str) -> Vec<Value> {
    let mut client = Client::new(url);
    let deadline = Instant::now() + PATIENCE;
    loop {
        let profile = client.get(&format!("/api/users/{handle}")).json();
        let ratings = profile["ratings"].as_array().unwrap().clone();
        if !ratings.is_empty() {
            return ratings;
        }
        assert!(Instant::now() < deadline, "no rating for {handle} in time");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Asserts a shown rating is `expected` (rating, RD, volatility) after
/// `games` races. A shown deviation widens with the time since the last
/// race, and a race starts from the deviations so widened
/// (`Rating::idle`): by about 1e-5 a minute here, so the test's seconds
/// between races and reads are within 1e-3 of the reference without them.
pub(crate) fn assert_rating(rating: &Value, expected: (f64, f64, f64), games: u64) {
    assert_eq!(rating["pool"], "slide-3x3");
    let (r, rd) = (
        rating["rating"].as_f64().unwrap(),
        rating["rd"].as_f64().unwrap(),
    );
    assert!(
        (r - expected.0).abs() < 1e-3,
        "rating {r}, expected {}",
        expected.0
    );
    assert!(
        rd >= expected.1 - 1e-9 && rd - expected.1 < 1e-3,
        "rd {rd}, expected {}",
        expected.1
    );
    assert_eq!(rating["games"], games);
    assert_eq!(rating["provisional"], expected.1 >= 110.0);
}

fn ratings_of(server: &Server, handle: &str) -> Vec<Value> {
    ratings_of_at(&server.url, handle)
}

/// Solves the puzzle at a person's pace, one timed move a message: a
/// ranked solve.
pub(crate) fn solve_paced(socket: &mut Socket, puzzle: &Value, started: Instant) {
    let solution = solution_from(&position(puzzle, "position"), puzzle);
    std::thread::sleep(Duration::from_millis(250));
    for direction in solution.iter() {
        std::thread::sleep(Duration::from_millis(65));
        let t = started.elapsed().as_millis() as u64;
        socket.send(json!({"type": "move", "moves": direction.letter().to_string(), "t": t}));
    }
}

#[test]
fn two_accounts_race_rated_and_their_ratings_follow_glicko2() {
    let server = Server::start();
    let room = open_rated(
        &server,
        json!({"game": "slide", "size": "3x3", "rated": true}),
    );
    let (mut ada, _, ada_handle) = join_signed_in(&server, &room, "ada");
    let (mut ben, _, ben_handle) = join_signed_in(&server, &room, "ben");
    assert_eq!(ben.room_in("lobby")["rated"], "slide-3x3");
    ada.send(json!({"type": "ready"}));
    ben.send(json!({"type": "ready"}));
    let puzzle = ada.expect("start")["puzzle"].clone();
    ben.expect("start");
    let started = Instant::now();
    // Both solve at a person's pace, Ada first: two ranked solves.
    solve_paced(&mut ada, &puzzle, started);
    let ada_game = ada.expect("finish")["result"]["game"].clone();
    solve_paced(&mut ben, &puzzle, started);
    let results = ada.expect("results");
    let lines = results["results"].as_array().unwrap();
    assert_eq!(lines[0]["name"], "ada");
    assert_eq!(lines[0]["game"], ada_game);
    for line in lines {
        let replay = replay_of(&server, line["game"].as_str().unwrap());
        assert_eq!(replay["ranked"], true, "{replay}");
    }
    // One game each: Ada won, from the same new ratings.
    let ada_after = glicko2(NEW, &[(NEW.0, NEW.1, 1.0)]);
    let ben_after = glicko2(NEW, &[(NEW.0, NEW.1, 0.0)]);
    assert!(ada_after.0 > 1500.0 && ben_after.0 < 1500.0);
    let ada_rating = &ratings_of(&server, &ada_handle)[0];
    assert_rating(ada_rating, ada_after, 1);
    assert_rating(&ratings_of(&server, &ben_handle)[0], ben_after, 1);
    // The profile's plot: one race, from 1500.
    let history = ada_rating["history"].as_array().unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0]["before"], 1500.0);

    // A rematch starts from the ratings the first race left: Ben wins
    // it this time, as Ada leaves.
    ada.send(json!({"type": "rematch"}));
    ada.room_in("lobby");
    ada.send(json!({"type": "ready"}));
    ben.send(json!({"type": "ready"}));
    let puzzle = ben.expect("start")["puzzle"].clone();
    let started = Instant::now();
    ada.send(json!({"type": "leave"}));
    solve_paced(&mut ben, &puzzle, started);
    ben.expect("results");
    let ada_again = glicko2(ada_after, &[(ben_after.0, ben_after.1, 0.0)]);
    let ben_again = glicko2(ben_after, &[(ada_after.0, ada_after.1, 1.0)]);
    let deadline = Instant::now() + PATIENCE;
    while ratings_of(&server, &ben_handle)[0]["games"] != 2 {
        assert!(Instant::now() < deadline, "the rematch was not settled");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_rating(&ratings_of(&server, &ada_handle)[0], ada_again, 2);
    assert_rating(&ratings_of(&server, &ben_handle)[0], ben_again, 2);
}

#[test]
fn a_racer_who_leaves_a_rated_race_loses() {
    let server = Server::start();
    let room = open_rated(
        &server,
        json!({"game": "slide", "size": "3x3", "rated": true}),
    );
    let (mut ada, _, ada_handle) = join_signed_in(&server, &room, "ada");
    let (mut ben, _, ben_handle) = join_signed_in(&server, &room, "ben");
    ada.send(json!({"type": "ready"}));
    ben.send(json!({"type": "ready"}));
    let puzzle = ada.expect("start")["puzzle"].clone();
    // Ben leaves; Ada solves at once, faster than a person could: her
    // solve is not ranked, and still beats a leaver.
    ben.send(json!({"type": "leave"}));
    let solution = solution_from(&position(&puzzle, "position"), &puzzle);
    ada.send(json!({"type": "move", "moves": solution.to_string(), "t": 1}));
    let results = ada.expect("results");
    let game = results["results"][0]["game"].as_str().unwrap().to_string();
    assert_eq!(replay_of(&server, &game)["ranked"], false);
    assert_rating(
        &ratings_of(&server, &ada_handle)[0],
        glicko2(NEW, &[(NEW.0, NEW.1, 1.0)]),
        1,
    );
    assert_rating(
        &ratings_of(&server, &ben_handle)[0],
        glicko2(NEW, &[(NEW.0, NEW.1, 0.0)]),
        1,
    );
}

#[test]
fn a_guest_is_refused_from_a_rated_room_and_unrated_games_cannot_be_rated() {
    let server = Server::start();
    let room = open_rated(
        &server,
        json!({"game": "slide", "size": "4x4", "rated": true}),
    );
    let mut guest = Socket::open(&server.url, &room, None);
    assert_eq!(guest.room_in("lobby")["rated"], "slide-4x4");
    guest.send(json!({"type": "join", "name": "Guest"}));
    let refusal = guest.expect("error")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        refusal.starts_with("this race is rated: only signed-in players may join it"),
        "{refusal}"
    );
    // Not in the room: a signed-in player joins alone.
    let (mut ada, _, ada_handle) = join_signed_in(&server, &room, "ada");
    let players = ada.room_in("lobby")["players"].as_array().unwrap().clone();
    assert_eq!(players.len(), 1);
    assert_eq!(players[0]["account"], ada_handle.as_str());
    // An unrated room takes guests, and says nothing of a pool.
    let plain = server
        .client()
        .ok("/api/races", json!({"game": "slide", "size": "4x4"}));
    let mut guest = Socket::open(&server.url, plain["room"].as_str().unwrap(), None);
    assert!(guest.room_in("lobby").get("rated").is_none());
    guest.send(json!({"type": "join", "name": "Guest"}));
    guest.expect("welcome");
    // Only a pool's game is rated; the error names what is.
    let mut client = server.client();
    for body in [
        json!({"game": "slide", "size": "6x6", "rated": true}),
        json!({"game": "slide", "size": "3x3", "goal": "snake", "rated": true}),
        json!({"game": "shisen", "gravity": true, "rated": true}),
    ] {
        let reply = client.post("/api/races", body.clone());
        assert_eq!(reply.status, 422, "{body}: {}", reply.text);
        let error = reply.json();
        assert_eq!(error["pointer"], "/rated", "{error}");
        let message = error["error"].as_str().unwrap();
        assert!(message.contains("slide:3x3-row-major"), "{message}");
    }
    // No rating moved for anyone.
    let ratings = ratings_of_now(&server, &ada_handle);
    assert!(ratings.is_empty(), "{ratings:?}");
}

fn ratings_of_now(server: &Server, handle: &str) -> Vec<Value> {
    let profile = server.client().get(&format!("/api/users/{handle}")).json();
    profile["ratings"].as_array().unwrap().clone()
}

/// Makes every insert into `rating_history` fail, behind the server's
/// back: a fault between a race's rows and its rating changes.
fn break_rating_history(server: &Server) {
    let postgres = std::env::var("TESSERA_TEST_POSTGRES").is_ok_and(|v| !v.is_empty());
    if postgres {
        query(
            server,
            "CREATE FUNCTION fail_history() RETURNS trigger AS $$ \
             BEGIN RAISE EXCEPTION 'injected fault'; END $$ LANGUAGE plpgsql",
        );
        query(
            server,
            "CREATE TRIGGER fail_history BEFORE INSERT ON rating_history \
             FOR EACH ROW EXECUTE FUNCTION fail_history()",
        );
    } else {
        query(
            server,
            "CREATE TRIGGER fail_history BEFORE INSERT ON rating_history \
             BEGIN SELECT RAISE(ABORT, 'injected fault'); END",
        );
    }
}

/// The value of the counter `name` on the metrics page (0 when absent).
fn counter(client: &mut Client, name: &str) -> f64 {
    let page = client.get("/metrics").text;
    page.lines()
        .find(|line| line.starts_with(name))
        .and_then(|line| line.rsplit(' ').next())
        .map_or(0.0, |value| value.parse().unwrap())
}

#[test]
fn a_fault_between_the_race_and_the_ratings_leaves_neither_written() {
    let server = Server::start();
    let room = open_rated(
        &server,
        json!({"game": "slide", "size": "3x3", "rated": true}),
    );
    let (mut ada, _, ada_handle) = join_signed_in(&server, &room, "ada");
    let (mut ben, _, _) = join_signed_in(&server, &room, "ben");
    break_rating_history(&server);
    ada.send(json!({"type": "ready"}));
    ben.send(json!({"type": "ready"}));
    let puzzle = ada.expect("start")["puzzle"].clone();
    ben.send(json!({"type": "leave"}));
    let solution = solution_from(&position(&puzzle, "position"), &puzzle);
    ada.send(json!({"type": "move", "moves": solution.to_string(), "t": 1}));
    ada.expect("results");
    // The settlement was tried, and failed.
    let mut client = server.client();
    let deadline = Instant::now() + PATIENCE;
    while counter(&mut client, "tessera_rated_races_unsettled_total") < 1.0 {
        assert!(Instant::now() < deadline, "the settlement was never tried");
        std::thread::sleep(Duration::from_millis(50));
    }
    for table in ["rated_races", "rated_racers", "ratings", "rating_history"] {
        let rows = query(&server, &format!("SELECT COUNT(*) FROM {table}"));
        assert_eq!(rows[0][0].as_deref(), Some("0"), "{table} was written");
    }
    assert!(ratings_of_now(&server, &ada_handle).is_empty());
}
