//! A submission sent again, as a page does when its answer was lost (the
//! network gone, the server restarting): the same submission gets the
//! same answer and makes one record, whether it comes after the first was
//! answered, at the same time, or after a restart; another submission for
//! a finished game is still refused (409).

use crate::common;
use crate::web_api::{play_shisen, shisen_submission};

use std::sync::{Arc, Barrier};
use std::time::Instant;

use common::person::{deal_3x3, paced, wait_for};
use common::server::{Client, Server};
use serde_json::{json, Value};

/// A solved 3×3 of `seed`, played at a person's pace: its game and the
/// submission that solves it.
fn solved(c: &mut Client, seed: u64) -> (Value, Value) {
    let dealt = Instant::now();
    let (game, moves) = deal_3x3(c, seed);
    let times = paced(moves.len(), 300, 100);
    wait_for(dealt, &times);
    let body = json!({"game": game["game"], "moves": moves, "times": times});
    (game, body)
}

/// How many results the player has of `game` `variant`.
fn results(c: &mut Client, game: &str, variant: &str) -> Value {
    let stats = c.get(&format!("/api/me/stats?game={game}&variant={variant}"));
    assert_eq!(stats.status, 200, "{}", stats.text);
    stats.json()["count"].clone()
}

#[test]
fn the_same_slide_submission_twice_is_one_record_and_one_verdict() {
    let server = Server::start();
    let mut c = server.client();
    c.sign_up("kept");
    let (game, body) = solved(&mut c, 42);
    let first = c.ok("/api/slide/submit", body.clone());
    assert_eq!(first["solved"], true, "{first}");
    assert_eq!(first["ranked"], true, "{first}");
    // Sent again, its members in another order and with a null the
    // server reads as absent: the same submission, the same answer.
    let again = format!(
        r#"{{"times": {}, "display": null, "moves": {}, "game": {}}}"#,
        body["times"], body["moves"], body["game"]
    );
    let again = c.post_raw("/api/slide/submit", "application/json", &again);
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.json(), first);
    assert_eq!(c.ok("/api/slide/submit", body.clone()), first);
    assert_eq!(results(&mut c, "slide", "3x3-row-major"), 1);
    // Another submission for the finished game is refused, as is the
    // same one from another player.
    let mut other_times = body.clone();
    other_times["times"][0] = json!(250);
    let other = c.post("/api/slide/submit", other_times);
    assert_eq!(other.status, 409, "{}", other.text);
    assert!(other.error().contains("already"), "{}", other.text);
    let stranger = server.client().post("/api/slide/submit", body);
    assert_eq!(stranger.status, 404, "{}", stranger.text);
    let replay = c.get(&format!("/api/replays/{}", game["game"].as_str().unwrap()));
    assert_eq!(replay.status, 200, "{}", replay.text);
}

#[test]
fn the_same_submission_at_once_is_recorded_once() {
    let server = Server::start();
    let mut c = server.client();
    let (_, body) = solved(&mut c, 7);
    let barrier = Arc::new(Barrier::new(3));
    let senders: Vec<_> = (0..3)
        .map(|_| {
            let (url, cookie, body, barrier) = (
                server.url.clone(),
                c.cookie.clone(),
                body.clone(),
                barrier.clone(),
            );
            std::thread::spawn(move || {
                let mut sender = Client::new(&url);
                sender.cookie = cookie;
                barrier.wait();
                let reply = sender.post("/api/slide/submit", body);
                assert_eq!(reply.status, 200, "{}", reply.text);
                reply.json()
            })
        })
        .collect();
    let answers: Vec<Value> = senders.into_iter().map(|s| s.join().unwrap()).collect();
    assert_eq!(answers[0]["solved"], true, "{}", answers[0]);
    assert!(answers.iter().all(|a| *a == answers[0]), "{answers:?}");
    assert_eq!(results(&mut c, "slide", "3x3-row-major"), 1);
}

#[test]
fn a_submission_sent_again_after_a_restart_gets_its_answer() {
    let server = Server::start();
    let mut c = server.client();
    let (_, body) = solved(&mut c, 9);
    let first = c.ok("/api/slide/submit", body.clone());
    let cookie = c.cookie.clone();
    // The answer never reached the page; the server restarts on the same
    // database and the page sends the solve again.
    let server = Server::start_in(server.stop());
    let mut c = server.client();
    c.cookie = cookie;
    assert_eq!(c.ok("/api/slide/submit", body), first);
    assert_eq!(results(&mut c, "slide", "3x3-row-major"), 1);
}

#[test]
fn the_same_shisen_sho_submission_twice_is_one_record_and_one_verdict() {
    let server = Server::start();
    let mut c = server.client();
    let deal = c.ok("/api/shisen/new", json!({"size": "6x4", "seed": 1}));
    let turns = play_shisen(&mut c, &deal);
    let body = shisen_submission(&deal, &turns);
    let first = c.ok("/api/shisen/submit", body.clone());
    assert_eq!(first["solved"], true, "{first}");
    assert_eq!(c.ok("/api/shisen/submit", body.clone()), first);
    assert_eq!(results(&mut c, "shisen", "6x4"), 1);
    let mut other = body;
    other["times"][0] = json!(301);
    let other = c.post("/api/shisen/submit", other);
    assert_eq!(other.status, 409, "{}", other.text);
}
