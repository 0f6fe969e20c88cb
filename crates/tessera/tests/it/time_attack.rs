//! Time attack through the web API: a run's puzzles are the seed's (the
//! test deals the seed itself), harder and harder by their optimal length
//! (which the test's own solve checks); a full run played with the
//! solver's moves at a person's pace is scored as the test's own clock
//! reckons, bonuses included, and ranked; it is submitted once (409); an
//! instant run is unranked, as is a guest's until the guest signs up; bad
//! input is refused naming the field.
//!
//! The run is started on one server and submitted on another on the same
//! database whose clock is ten minutes ahead (`Server::start_shifted`), so
//! the server has seen as much time pass as the moves' times claim.

use crate::common;

use std::time::Instant;

use common::server::{Client, Server};
use play::slide_game::Solver;
use play::Deadline;
use serde_json::{json, Value};
use slide::{HeuristicKind, Moves, Position, SolveOptions};

const SHIFT: i64 = 600_000;

/// Starts a run: its reply.
fn start(c: &mut Client) -> Value {
    let began = Instant::now();
    let reply = c.post("/api/time-attack", json!({}));
    assert_eq!(reply.status, 201, "{}", reply.text);
    eprintln!("run dealt and started in {:?}", began.elapsed());
    reply.json()
}

fn puzzle(p: &Value) -> (Position, Position, u32) {
    (
        p["position"].as_str().unwrap().parse().unwrap(),
        p["goal"].as_str().unwrap().parse().unwrap(),
        p["optimal"].as_u64().unwrap() as u32,
    )
}

/// A shortest solution, by IDA* over the Manhattan distance alone.
fn solve(start: &Position, goal: &Position) -> Moves {
    let options = SolveOptions {
        heuristic: HeuristicKind::Manhattan,
        ..SolveOptions::default()
    };
    let found = slide::solver::solve_with_search(start, goal, &options).unwrap();
    assert!(found.optimal);
    found.moves
}

/// The puzzles solved with the solver's moves, `think` ms after each is
/// shown and `gap` ms a move, until `until` ms; with the time each was
/// solved.
fn play_run(
    puzzles: &[(Position, Position, u32)],
    think: i64,
    gap: i64,
    until: i64,
) -> (Value, Vec<i64>) {
    let mut at = 0;
    let mut sent = Vec::new();
    let mut solved = Vec::new();
    for (start, goal, _) in puzzles {
        if at > until {
            break;
        }
        let moves = solve(start, goal);
        let times: Vec<i64> = (0..moves.len() as i64)
            .map(|i| at + think + i * gap)
            .collect();
        at = *times.last().unwrap();
        solved.push(at);
        sent.push(json!({"moves": moves.compact(), "times": times}));
    }
    (json!({ "puzzles": sent }), solved)
}

#[test]
fn a_run_is_the_seeds_harder_and_harder_scored_by_its_clock_once_and_ranked() {
    let server = Server::start();
    let mut ann = server.client();
    let (handle, _) = ann.sign_up("ta");
    let run = start(&mut ann);
    let id = run["run"].as_str().unwrap().to_string();
    assert_eq!(run["clock_millis"], 180_000);
    let puzzles: Vec<_> = run["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(puzzle)
        .collect();
    assert_eq!(puzzles.len(), 50);
    // The seed's run, dealt here: the same puzzles.
    let seed = run["seed"].as_u64().unwrap();
    let dealt = play::time_attack::deal(seed, Solver::global(), &Deadline::none()).unwrap();
    for ((start, goal, optimal), p) in puzzles.iter().zip(&dealt.puzzles) {
        assert_eq!((start, goal, *optimal), (&p.start, &p.goal, p.optimal));
    }
    // Harder and harder: optimal lengths (the test's own solve's) never
    // decrease.
    let lengths: Vec<u32> = puzzles
        .iter()
        .map(|(start, goal, optimal)| {
            let length = solve(start, goal).len() as u32;
            assert_eq!(length, *optimal, "{start}");
            length
        })
        .collect();
    assert!(lengths.windows(2).all(|w| w[0] <= w[1]), "{lengths:?}");
    // A second run has another seed.
    let other = start(&mut ann);
    assert_ne!(other["seed"], run["seed"]);
    assert_ne!(other["run"], run["run"]);

    // Ten minutes later, on a server that saw them pass: 9 s to read each
    // puzzle and 200 ms a move, over about 8 minutes. Every solve is
    // optimal, so each adds time; the clock still runs out before the end
    // whatever the seed dealt: 50 solves earn at most 246 s over the 180,
    // and 50 readings alone take 450 s. (At 4 s a reading, a seed of short
    // puzzles let all 50 in.)
    let dir = server.stop();
    let later = Server::start_shifted(dir, SHIFT);
    let mut ann_later = Client::new(&later.url);
    ann_later.cookie = ann.cookie.clone();
    let (body, solved) = play_run(&puzzles, 9_000, 200, 480_000);
    let reply = ann_later.post(&format!("/api/time-attack/{id}"), body.clone());
    assert_eq!(reply.status, 201, "{}", reply.text);
    let scored = reply.json();
    // The test's clock: 180 s; +3 s for the first two efficient solves in
    // a row, +5 s each after; a solve counts if not after the end so far.
    let (mut end, mut score) = (180_000, 0);
    for (i, &at) in solved.iter().enumerate() {
        if at > end {
            break;
        }
        score += 1;
        end += if i >= 2 { 5_000 } else { 3_000 };
    }
    assert!(
        score < solved.len(),
        "the clock ran out: {score} of {}",
        solved.len()
    );
    assert_eq!(scored["score"], score, "{scored}");
    assert_eq!(scored["ended_at"], end);
    assert_eq!(scored["bonus_millis"], end - 180_000);
    assert_eq!(scored["ranked"], true, "{scored}");
    assert_eq!(scored["best"]["all_time"], score);
    // Once only: the same run sent again (its answer lost) is answered
    // as it was, another submission refused.
    let again = ann_later.post(&format!("/api/time-attack/{id}"), body.clone());
    assert_eq!(again.status, 201, "{}", again.text);
    assert_eq!(again.json(), scored);
    let mut changed = body;
    changed["puzzles"][0]["times"][0] = json!(1);
    let again = ann_later.post(&format!("/api/time-attack/{id}"), changed);
    assert_eq!(again.status, 409, "{}", again.text);
    assert!(
        again.error().contains("submitted already"),
        "{}",
        again.text
    );
    // The bests and the leaderboard of all time show it.
    let board = ann_later.get("/api/time-attack").json();
    assert_eq!(board["best"]["all_time"], score);
    assert_eq!(board["leaders_all_time"][0]["handle"], handle);
    assert_eq!(board["leaders_all_time"][0]["score"], score);
    assert_eq!(board["leaders_all_time"][0]["rank"], 1);
    if run["started_at"].as_i64().unwrap() / 86_400_000
        == (run["started_at"].as_i64().unwrap() + SHIFT + 5_000) / 86_400_000
    {
        assert_eq!(board["best"]["today"], score);
        assert_eq!(board["leaders_today"][0]["handle"], handle);
    }
    // Another player sees the leaderboard but has no best.
    let mut bob = Client::new(&later.url);
    let theirs = bob.get("/api/time-attack").json();
    assert_eq!(theirs["best"]["all_time"], Value::Null);
    assert_eq!(theirs["leaders_all_time"][0]["handle"], handle);
    // Nor may they submit ann's other run.
    let other_id = other["run"].as_str().unwrap();
    let reply = bob.post(
        &format!("/api/time-attack/{other_id}"),
        json!({"puzzles": []}),
    );
    assert_eq!(reply.status, 404, "{}", reply.text);
}

#[test]
fn an_instant_run_and_a_guests_are_unranked() {
    let server = Server::start();
    let mut bot = server.client();
    bot.sign_up("bot");
    let run = start(&mut bot);
    let puzzles: Vec<_> = run["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(puzzle)
        .collect();
    // Every move of twenty puzzles a millisecond apart, sent at once.
    let (body, _) = play_run(&puzzles[..20], 1, 1, i64::MAX);
    let id = run["run"].as_str().unwrap();
    let reply = bot.post(&format!("/api/time-attack/{id}"), body);
    assert_eq!(reply.status, 201, "{}", reply.text);
    let scored = reply.json();
    assert_eq!(scored["score"], 20);
    assert_eq!(scored["ranked"], false);
    let why = scored["unranked"].as_str().unwrap();
    assert!(
        why.contains("puzzle 1")
            && (why.contains("too fast") || why.contains("times inconsistent")),
        "{why}"
    );
    let board = bot.get("/api/time-attack").json();
    assert_eq!(board["best"]["all_time"], 20);
    assert_eq!(board["leaders_all_time"], json!([]));
    // A guest's run, paced like a person on a server ten minutes ahead:
    // unranked as a guest's.
    let mut guest = server.client();
    let run = start(&mut guest);
    let puzzles: Vec<_> = run["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(puzzle)
        .collect();
    let dir = server.stop();
    let later = Server::start_shifted(dir, SHIFT);
    let mut guest_later = Client::new(&later.url);
    guest_later.cookie = guest.cookie.clone();
    let (body, _) = play_run(&puzzles[..5], 2_000, 300, i64::MAX);
    let id = run["run"].as_str().unwrap();
    let scored = guest_later
        .post(&format!("/api/time-attack/{id}"), body)
        .json();
    assert_eq!(
        (scored["score"].clone(), scored["unranked"].clone()),
        (json!(5), json!("guest"))
    );
    assert_eq!(
        guest_later.get("/api/time-attack").json()["best"]["all_time"],
        5
    );
    // Signing up on that browser takes the run along, ranked now: on the
    // leaderboard under the new handle, above the bot's unranked 20.
    let (handle, _) = guest_later.sign_up("gst");
    let board = guest_later.get("/api/time-attack").json();
    assert_eq!(board["best"]["all_time"], 5);
    assert_eq!(board["leaders_all_time"][0]["handle"], handle);
    assert_eq!(board["leaders_all_time"][0]["score"], 5);
    assert_eq!(board["leaders_all_time"].as_array().unwrap().len(), 1);
}

#[test]
fn bad_submissions_are_refused_naming_the_field() {
    let server = Server::start();
    let mut c = server.client();
    let run = start(&mut c);
    let id = run["run"].as_str().unwrap();
    let path = format!("/api/time-attack/{id}");
    let puzzles: Vec<_> = run["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(puzzle)
        .collect();
    let (good, _) = play_run(&puzzles[..2], 1_000, 200, i64::MAX);
    let refused =
        |c: &mut Client, path: &str, body: Value, status: u16, pointer: &str, says: &str| {
            let reply = c.post(path, body);
            assert_eq!(reply.status, status, "{}", reply.text);
            let error = reply.json();
            assert_eq!(error["pointer"], pointer, "{error}");
            assert!(error["error"].as_str().unwrap().contains(says), "{error}");
        };
    // An illegal move: the second puzzle's moves run on from its solution
    // until a tile cannot slide.
    let (start, goal, _) = &puzzles[1];
    let solution = solve(start, goal);
    let mut position = start.clone();
    let mut moves = String::new();
    let mut index = 0;
    let blocked = loop {
        if let Some(d) = slide::Direction::ALL
            .into_iter()
            .find(|&d| !position.can_move(d))
        {
            break d;
        }
        let d = solution.iter().nth(index).unwrap();
        position.apply(d).unwrap();
        moves.push(d.letter());
        index += 1;
    };
    moves.push(blocked.letter());
    let mut illegal = good.clone();
    let shown = good["puzzles"][0]["times"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .as_i64()
        .unwrap();
    illegal["puzzles"][1] = json!({"moves": moves, "times": (0..=index as i64).map(|i| shown + 500 + 200 * i).collect::<Vec<_>>()});
    let says = format!(
        "puzzle 2: move {} ({}) is illegal",
        index + 1,
        blocked.letter()
    );
    refused(&mut c, &path, illegal, 422, "/puzzles/1/moves", &says);
    // An unsolved puzzle before the last.
    let mut unsolved = good.clone();
    unsolved["puzzles"][0]["moves"] = json!("");
    unsolved["puzzles"][0]["times"] = json!([]);
    refused(
        &mut c,
        &path,
        unsolved,
        422,
        "/puzzles/0/moves",
        "puzzle 1 is not solved",
    );
    // Times: one missing; not letters.
    let mut times = good.clone();
    times["puzzles"][1]["times"].as_array_mut().unwrap().pop();
    refused(&mut c, &path, times, 422, "/puzzles/1/times", "puzzle 2:");
    let mut letters = good.clone();
    letters["puzzles"][0]["moves"] = json!("RX");
    refused(
        &mut c,
        &path,
        letters,
        400,
        "/puzzles/0/moves",
        "puzzle 1: bad move list: character 'X' at position 1 is not one of U, D, L, R",
    );
    let mut shape = good.clone();
    shape["puzzles"][0]["times"] = json!("soon");
    refused(&mut c, &path, shape, 422, "/puzzles/0/times", "");
    refused(
        &mut c,
        &path,
        json!({"puzzles": [], "score": 50}),
        422,
        "/score",
        "unknown field",
    );
    let many: Vec<Value> = (0..51).map(|_| json!({"moves": "", "times": []})).collect();
    refused(
        &mut c,
        &path,
        json!({ "puzzles": many }),
        400,
        "/puzzles",
        "a run has 50",
    );
    // Runs that are not there, or not a run's id.
    let unknown = "0123456789abcdef0123456789abcdef";
    let reply = c.post(&format!("/api/time-attack/{unknown}"), good.clone());
    assert_eq!(reply.status, 404, "{}", reply.text);
    let reply = c.post("/api/time-attack/nope", good.clone());
    assert_eq!(reply.status, 400, "{}", reply.text);
    assert!(reply.error().starts_with("run:"), "{}", reply.text);
    // Nothing refused was kept: the good run is taken, once (sent again,
    // answered the same).
    let first = c.post(&path, good.clone());
    assert_eq!(first.status, 201, "{}", first.text);
    let again = c.post(&path, good.clone());
    assert_eq!((again.status, again.json()), (201, first.json()));
    let mut other = good;
    other["puzzles"] = json!([]);
    assert_eq!(c.post(&path, other).status, 409);
}
