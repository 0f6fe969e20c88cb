//! The daily challenge through the web API: a day's puzzle from its seed,
//! one ranked attempt per player (browser and account), a board of first
//! attempts for every day up to today, and dates checked at the edge.

use crate::common;

use std::time::{Duration, Instant};

use common::server::{Client, Server};
use serde_json::{json, Value};
use slide::{Position, SolveOptions};

const BOARD: &str = "/api/daily?game=slide&variant=3x3-row-major";

/// Solves `game` (a dealt 3×3) with a shortest solution at a person's
/// pace, once that pace could have played it; the submission's answer.
fn solve(client: &mut Client, dealt: Instant, game: &Value) -> Value {
    let start = Position::parse(game["position"].as_str().unwrap(), None).unwrap();
    let goal = Position::parse(game["goal_position"].as_str().unwrap(), None).unwrap();
    let moves = slide::solve_optimal(&start, &goal, &SolveOptions::default())
        .unwrap()
        .moves;
    let times: Vec<i64> = (0..moves.len() as i64).map(|i| 300 + i * 80).collect();
    let last = Duration::from_millis(*times.last().unwrap() as u64 + 50);
    if let Some(left) = last.checked_sub(dealt.elapsed()) {
        std::thread::sleep(left);
    }
    client.ok(
        "/api/slide/submit",
        json!({"game": game["game"], "moves": moves.to_string(), "times": times}),
    )
}

/// Deals today's 3×3 puzzle and solves it.
fn play_daily(client: &mut Client) -> (Value, Value) {
    let dealt = Instant::now();
    let game = client.ok("/api/slide/new", json!({"size": "3x3", "daily": true}));
    let done = solve(client, dealt, &game);
    (game, done)
}

fn second_attempt(done: &Value) -> bool {
    done["ranked"] == false
        && done["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("daily: second attempt"))
}

fn game_ids(board: &Value, table: &str) -> Vec<String> {
    board[table]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["game_id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn only_the_first_attempt_at_the_days_puzzle_is_ranked_on_its_board() {
    let server = Server::start();
    let mut first = server.client();
    let (handle, password) = first.sign_up("daily");
    let (game, done) = play_daily(&mut first);
    assert_eq!(done["ranked"], true, "{done}");
    let board = first.get(BOARD).json();
    // The day's seed is the date as a number, the puzzle dealt from it.
    let date = board["date"].as_str().unwrap().to_string();
    assert_eq!(
        board["seed"].as_u64().unwrap().to_string(),
        date.replace('-', "")
    );
    assert_eq!(game["seed"], board["seed"]);
    let seeded = first.ok(
        "/api/slide/new",
        json!({"size": "3x3", "seed": board["seed"]}),
    );
    assert_eq!(seeded["position"], game["position"]);
    assert_eq!(
        (board["today"].clone(), board["next"].clone()),
        (json!(true), Value::Null)
    );
    let id = game["game"].as_str().unwrap();
    assert_eq!(game_ids(&board, "by_time"), [id]);
    assert_eq!(game_ids(&board, "by_moves"), [id]);
    assert_eq!(board["by_time"][0]["handle"], json!(handle));
    assert_eq!(board["by_time"][0]["mine"], true);

    // Again on the same browser: stored, not ranked, off the board.
    let (again, done) = play_daily(&mut first);
    assert!(second_attempt(&done), "{done}");
    let replay = first.get(&format!("/api/replays/{}", again["game"].as_str().unwrap()));
    assert_eq!(replay.status, 200, "{}", replay.text);
    // The same account on a second browser: a second attempt too.
    let mut elsewhere = server.client();
    let reply = elsewhere.post(
        "/api/account/login",
        json!({"handle": handle, "password": password}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text);
    let (_, done) = play_daily(&mut elsewhere);
    assert!(second_attempt(&done), "{done}");

    // A player who looked at today's puzzle from its seed first has had
    // their attempt: the daily deal after it is a second one.
    let mut peeker = server.client();
    peeker.sign_up("peek");
    peeker.ok(
        "/api/slide/new",
        json!({"size": "3x3", "seed": board["seed"]}),
    );
    let (_, done) = play_daily(&mut peeker);
    assert!(second_attempt(&done), "{done}");

    // Another account's first attempt is ranked beside the first.
    let mut other = server.client();
    other.sign_up("other");
    let (other_game, done) = play_daily(&mut other);
    assert_eq!(done["ranked"], true, "{done}");
    // A guest's first attempt waits for an account, like any guest result.
    let mut guest = server.client();
    let (_, done) = play_daily(&mut guest);
    assert_eq!(
        (done["ranked"].clone(), done["reason"].clone()),
        (json!(false), json!("guest"))
    );

    let board = first.get(BOARD).json();
    let mut ids = game_ids(&board, "by_time");
    ids.sort();
    let mut expected = vec![
        id.to_string(),
        other_game["game"].as_str().unwrap().to_string(),
    ];
    expected.sort();
    assert_eq!(ids, expected);
    // A day's boards are per format: no marathon was played today.
    let marathons = first.get(&format!("{BOARD}&format=marathon-10")).json();
    assert_eq!(marathons["by_time"], json!([]));
    // Nor do the daily games leave the ordinary records: the first
    // attempts are there, the second ones are not.
    let records = first
        .get("/api/records?game=slide&variant=3x3-row-major")
        .json();
    let records = game_ids(&records, "by_time");
    assert!(records.contains(&id.to_string()));
    assert!(!records.contains(&again["game"].as_str().unwrap().to_string()));

    // Yesterday's board: browsable, empty, and linked both ways.
    let yesterday = board["previous"].as_str().unwrap().to_string();
    let past = first.get(&format!("{BOARD}&date={yesterday}")).json();
    assert_eq!(past["by_time"], json!([]));
    assert_eq!(past["today"], false);
    assert_eq!(past["next"], json!(date));
    assert_eq!(
        past["seed"].as_u64().unwrap().to_string(),
        yesterday.replace('-', "")
    );
}

#[test]
fn dates_are_checked_at_the_edge() {
    let server = Server::start();
    let mut client = server.client();
    let today = client.get(BOARD).json()["date"]
        .as_str()
        .unwrap()
        .to_string();
    let named = client.get(&format!("{BOARD}&date={today}")).json();
    assert_eq!(named["date"], json!(today));
    for (date, says) in [
        ("2026-02-30", "no such day"),
        ("2026-13-01", "no such day"),
        ("2026-1-5", "YYYY-MM-DD"),
        ("yesterday", "YYYY-MM-DD"),
        ("1969-12-31", "start on 1970-01-01"),
        ("9999-12-31", "not out yet"),
    ] {
        let reply = client.get(&format!("{BOARD}&date={date}"));
        assert_eq!(reply.status, 400, "{date}: {}", reply.text);
        assert!(reply.error().contains(says), "{date}: {}", reply.error());
    }
    // The first day has no day before it.
    let first = client.get(&format!("{BOARD}&date=1970-01-01")).json();
    assert_eq!(first["previous"], Value::Null);
    assert_eq!(first["next"], "1970-01-02");
    assert_eq!(first["seed"], 19_700_101);
    let reply = client.get("/api/daily?game=slide&variant=3x3-row-major&day=2026-11-25");
    assert_eq!(reply.status, 400, "{}", reply.text);
    let reply = client.get("/api/daily?game=chess&variant=3x3-row-major");
    assert_eq!(reply.status, 400, "{}", reply.text);
}
