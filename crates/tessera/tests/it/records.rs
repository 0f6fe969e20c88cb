//! Records people can trust, against a real server and SQLite file: every
//! result carries the time of each move and is judged (`play::judge`);
//! scripts, help and impossible times end up unranked (or refused) with the
//! reason, a person-paced solve is ranked, and every result's replay is
//! public and reproduces the submission exactly.

use crate::common;

use std::time::{Duration, Instant};

use common::person::{paced, shortest, wait_for};
use common::server::{Client, Server};
use serde_json::{json, Value};
use shisen::{Matching, Nodes, Rules, Verdict};

/// A new 3×3 and the moves the server's own solver gives for it (asked
/// position-only, as a script would).
fn deal_and_solve(c: &mut Client, seed: u64) -> (Value, String) {
    let game = c.ok("/api/slide/new", json!({"size": "3x3", "seed": seed}));
    let solution = c.ok(
        "/api/slide/solve",
        json!({"position": game["position"], "goal": game["goal_position"]}),
    );
    (game, solution["moves"].as_str().unwrap().to_string())
}

fn submit(c: &mut Client, game: &Value, moves: &str, times: &[i64]) -> Value {
    c.ok(
        "/api/slide/submit",
        json!({"game": game["game"], "moves": moves, "times": times}),
    )
}

fn reason(done: &Value) -> String {
    assert_eq!(done["solved"], true, "{done}");
    assert_eq!(done["ranked"], false, "{done}");
    done["reason"].as_str().unwrap().to_string()
}

/// The multi-tile count, by its definition: runs of one letter.
fn runs(moves: &str) -> usize {
    let letters: Vec<char> = moves.chars().collect();
    letters
        .iter()
        .enumerate()
        .filter(|&(i, c)| i == 0 || letters[i - 1] != *c)
        .count()
}

#[test]
fn the_script_that_took_the_top_record_is_unranked() {
    // Deal, ask the solver for the position without naming the game, and
    // submit the answer at once — with or without honest-looking times.
    let server = Server::start();
    let mut c = server.client();
    let (game, moves) = deal_and_solve(&mut c, 1);
    let done = submit(&mut c, &game, &moves, &vec![0; moves.len()]);
    assert!(reason(&done).starts_with("assisted"), "{done}");
    let (game, moves) = deal_and_solve(&mut c, 2);
    let done = submit(&mut c, &game, &moves, &paced(moves.len(), 400, 250));
    assert!(reason(&done).starts_with("assisted"), "{done}");
    // A hint asked position-only for the game's start does the same.
    let dealt = Instant::now();
    let game = c.ok("/api/slide/new", json!({"size": "3x3", "seed": 3}));
    c.ok(
        "/api/slide/hint",
        json!({"position": game["position"], "goal": game["goal_position"]}),
    );
    let moves = shortest(&game);
    let times = paced(moves.len(), 400, 200);
    wait_for(dealt, &times);
    let done = submit(&mut c, &game, &moves, &times);
    assert!(reason(&done).starts_with("assisted"), "{done}");
    let records = c
        .get("/api/records?game=slide&variant=3x3-row-major")
        .json();
    assert_eq!(records["by_time"], json!([]), "nothing above was ranked");
}

#[test]
fn impossible_times_are_unranked_or_refused_with_the_reason() {
    let server = Server::start();
    let mut c = server.client();
    // All at once.
    let game = c.ok("/api/slide/new", json!({"size": "3x3", "seed": 11}));
    let moves = shortest(&game);
    let done = submit(&mut c, &game, &moves, &vec![0; moves.len()]);
    assert!(reason(&done).starts_with("too fast"), "{done}");
    // Longer than the server saw: a minute of moves submitted at once.
    let game = c.ok("/api/slide/new", json!({"size": "3x3", "seed": 12}));
    let moves = shortest(&game);
    let done = submit(&mut c, &game, &moves, &paced(moves.len(), 1_000, 2_000));
    assert!(reason(&done).starts_with("times inconsistent"), "{done}");
    // A burst: person-paced, then the last twelve moves in 120 ms.
    let dealt = Instant::now();
    let game = c.ok("/api/slide/new", json!({"size": "3x3", "seed": 13}));
    let moves = shortest(&game);
    assert!(moves.len() > 14, "{moves}");
    let slow = moves.len() - 13;
    let mut times = paced(slow, 400, 200);
    let at = *times.last().unwrap();
    times.extend((1..=13).map(|i| at + 10 * i));
    wait_for(dealt, &times);
    let done = submit(&mut c, &game, &moves, &times);
    let why = reason(&done);
    assert!(
        why.starts_with("too fast") && why.contains("within"),
        "{done}"
    );
    // Malformed times are refused, and the game stays open.
    let game = c.ok("/api/slide/new", json!({"size": "3x3", "seed": 14}));
    let moves = shortest(&game);
    let n = moves.len();
    for (times, problem) in [
        (paced(n - 1, 400, 200), "one time per move"),
        (
            {
                let mut t = paced(n, 400, 200);
                t.swap(2, 3);
                t
            },
            "earlier",
        ),
        (
            {
                let mut t = paced(n, 400, 200);
                t[0] = -5;
                t
            },
            "negative",
        ),
    ] {
        let refused = c.post(
            "/api/slide/submit",
            json!({"game": game["game"], "moves": moves, "times": times}),
        );
        assert!(refused.error().contains(problem), "{}", refused.text);
    }
    let done = submit(&mut c, &game, &moves, &paced(n, 400, 100));
    assert_eq!(done["solved"], true, "the game was still open");
}

#[test]
fn a_person_paced_solve_is_ranked_and_its_replay_reproduces_it() {
    let server = Server::start();
    let mut c = server.client();
    // Ranked records need an account.
    let (handle, _) = c.sign_up("ada");
    let dealt = Instant::now();
    let game = c.ok("/api/slide/new", json!({"size": "3x3", "seed": 21}));
    // A detour (a move and its undo) so the two metrics differ.
    let solution = shortest(&game);
    let start: slide::Position = game["position"].as_str().unwrap().parse().unwrap();
    let first = start.legal_moves().next().unwrap();
    let moves = format!("{}{}{solution}", first.letter(), first.inverse().letter());
    let times = paced(moves.len(), 500, 200);
    wait_for(dealt, &times);
    let done = submit(&mut c, &game, &moves, &times);
    assert_eq!(done["ranked"], true, "{done}");
    assert_eq!(done["reason"], Value::Null);
    assert_eq!(done["stm"], moves.len());
    assert_eq!(done["mtm"], runs(&moves), "MTM is the number of runs");

    let records = c
        .get("/api/records?game=slide&variant=3x3-row-major")
        .json();
    for table in ["by_time", "by_moves", "by_mtm"] {
        assert_eq!(records[table][0]["game_id"], game["game"], "{table}");
        assert_eq!(records[table][0]["mtm"], runs(&moves), "{table}");
    }

    // The replay is public: another client, no cookie of the player's.
    let mut anyone = Client::new(&server.url);
    let replay = anyone.get(&format!("/api/replays/{}", game["game"].as_str().unwrap()));
    assert_eq!(replay.status, 200, "{}", replay.text);
    let replay = replay.json();
    assert_eq!(replay["game"], game["game"]);
    assert_eq!(replay["variant"], "3x3-row-major");
    assert_eq!(replay["position"], game["position"]);
    assert_eq!(replay["goal"], game["goal_position"]);
    assert_eq!(replay["moves"], moves.as_str());
    assert_eq!(replay["times"], json!(times));
    assert_eq!(replay["stm"], moves.len());
    assert_eq!(replay["mtm"], runs(&moves));
    assert_eq!(replay["millis"], done["millis"]);
    assert_eq!(replay["name"], handle.as_str());
    assert_eq!(replay["handle"], handle.as_str());
    assert_eq!(replay["ranked"], true);
    assert_eq!(replay["reason"], Value::Null);
    // The moves replay to the goal.
    let mut position = start;
    position.apply_all(&moves.parse().unwrap()).unwrap();
    assert_eq!(
        position.to_string(),
        game["goal_position"].as_str().unwrap()
    );

    let page = anyone.get(&format!("/replay/{}", game["game"].as_str().unwrap()));
    assert_eq!(page.status, 200);
    assert!(page.text.contains("/static/replay.js"));
    assert_eq!(
        anyone
            .get("/api/replays/0123456789abcdef0123456789abcdef")
            .status,
        404
    );
    assert_eq!(anyone.get("/api/replays/not%20an%20id").status, 400);
}

/// A solvable deal's turns found by the `shisen` engine itself (no hints
/// asked of the server).
fn shisen_solution(game: &Value) -> Vec<Value> {
    let board = shisen::parse_board(game["board"].as_str().unwrap(), Matching::Standard).unwrap();
    match shisen::solve(&board, Rules::STANDARD, &mut Nodes(u64::MAX)).verdict {
        Verdict::Solvable(moves) => moves
            .iter()
            .map(|m| json!([m.a.x, m.a.y, m.b.x, m.b.y]))
            .collect(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn shisen_clears_are_judged_and_replayed_with_their_paths() {
    let server = Server::start();
    let mut c = server.client();
    c.sign_up("shisen");
    // A person-paced clear, with an undo and a redo on the way: ranked.
    let dealt = Instant::now();
    let game = c.ok("/api/shisen/new", json!({"size": "6x4", "seed": 5}));
    let mut turns = shisen_solution(&game);
    turns.insert(1, json!("undo"));
    turns.insert(2, json!("redo"));
    let times = paced(turns.len(), 400, 400);
    wait_for(dealt, &times);
    let done = c.ok(
        "/api/shisen/submit",
        json!({"game": game["game"], "turns": turns, "times": times}),
    );
    assert_eq!(done["ranked"], true, "{done}");
    let replay = c
        .get(&format!("/api/replays/{}", game["game"].as_str().unwrap()))
        .json();
    assert_eq!(replay["position"], game["board"]);
    assert_eq!(replay["times"], json!(times));
    let steps = replay["steps"].as_array().unwrap();
    assert_eq!(steps.len(), turns.len());
    assert_eq!(steps[1]["turn"], "undo");
    assert!(steps[0]["path"].is_array() && steps[1]["path"].is_null());
    let last = steps.last().unwrap();
    assert!(last["board"]
        .as_str()
        .unwrap()
        .chars()
        .all(|ch| ch == '.' || ch == '\n'));

    // The same clear at machine speed: too fast.
    let game = c.ok("/api/shisen/new", json!({"size": "6x4", "seed": 6}));
    let turns = shisen_solution(&game);
    let done = c.ok(
        "/api/shisen/submit",
        json!({"game": game["game"], "turns": turns, "times": vec![250; turns.len()]}),
    );
    assert!(reason(&done).starts_with("too fast"), "{done}");
}

#[test]
fn a_pause_hides_the_board_and_play_during_it_is_unranked() {
    let server = Server::start();
    let mut c = server.client();
    let dealt = Instant::now();
    let game = c.ok("/api/shisen/new", json!({"size": "6x4", "seed": 7}));
    let turns = shisen_solution(&game);
    // Two removals, then a pause: the server keeps the turns, the client
    // gets no board until it resumes.
    let paused = c.ok(
        "/api/shisen/pause",
        json!({"game": game["game"], "turns": &turns[..2], "times": [400, 800]}),
    );
    assert_eq!(paused, json!({"paused": true}));
    std::thread::sleep(Duration::from_millis(3_000));
    let resumed = c.ok("/api/shisen/resume", json!({"game": game["game"]}));
    assert_eq!(resumed["at"], 2);
    let boards = resumed["boards"].as_array().unwrap();
    assert_eq!(boards[0], game["board"]);
    assert_eq!(boards.len(), 3);
    // The other removals at a person's pace, but some of them timed
    // inside the pause, while the board was hidden.
    let mut times = vec![400, 800];
    times.extend((0..turns.len() as i64 - 2).map(|i| 1_000 + 600 * i));
    wait_for(dealt, &times);
    let done = c.ok(
        "/api/shisen/submit",
        json!({"game": game["game"], "turns": turns, "times": times}),
    );
    assert!(reason(&done).starts_with("played while paused"), "{done}");
    // A pause with turns that cannot be played is refused.
    let other = c.ok("/api/shisen/new", json!({"size": "6x4", "seed": 8}));
    let bad = c.post(
        "/api/shisen/pause",
        json!({"game": other["game"], "turns": [[0, 0, 0, 0]], "times": [500]}),
    );
    assert!(bad.error().contains("illegal turn 1"), "{}", bad.text);
}

#[test]
fn a_hint_for_a_board_of_the_game_counts_without_its_id() {
    let server = Server::start();
    let mut c = server.client();
    let dealt = Instant::now();
    let game = c.ok("/api/shisen/new", json!({"size": "6x4", "seed": 9}));
    c.ok("/api/shisen/hint", json!({"board": game["board"]}));
    let turns = shisen_solution(&game);
    let times = paced(turns.len(), 400, 400);
    wait_for(dealt, &times);
    let done = c.ok(
        "/api/shisen/submit",
        json!({"game": game["game"], "turns": turns, "times": times}),
    );
    assert!(reason(&done).starts_with("assisted"), "{done}");
    assert_eq!(done["hints"], 1);
}

/// A ranked 3×3 of `seed` for the client's account, a move every `gap`
/// ms: the server's answer.
fn ranked_3x3(c: &mut Client, seed: u64, gap: i64) -> Value {
    let dealt = Instant::now();
    let (game, moves) = common::person::deal_3x3(c, seed);
    let times = paced(moves.len(), 300, gap);
    wait_for(dealt, &times);
    let mut done = submit(c, &game, &moves, &times);
    assert_eq!(done["ranked"], true, "{done}");
    done["game"] = game["game"].clone();
    done
}

#[test]
fn each_fall_of_the_record_is_history_and_the_leaderboard_has_one_best_per_player() {
    let server = Server::start();
    let mut players: Vec<(Client, String)> = (0..3)
        .map(|_| {
            let mut c = server.client();
            let (handle, _) = c.sign_up("wr");
            (c, handle)
        })
        .collect();
    // (player, gap between moves): three players beat the record in turn,
    // then the first sets a personal best that is no record, and the
    // second a slower time. The gaps are far apart: the server times a
    // solve by its own clock, which a busy machine stretches by a fraction
    // of a second.
    let plan = [(0, 300), (1, 200), (2, 120), (0, 250), (1, 350)];
    let mut done: Vec<(usize, Value)> = Vec::new();
    for (who, gap) in plan {
        let answer = ranked_3x3(&mut players[who].0, 5, gap);
        done.push((who, answer));
    }
    let millis = |v: &Value| v["millis"].as_i64().unwrap();
    let handle = |who: usize| players[who].1.clone();
    let mut anyone = server.client();
    let query = "game=slide&variant=3x3-row-major";
    let history = anyone.get(&format!("/api/records/history?{query}")).json();
    let rows = history["records"].as_array().unwrap().clone();
    // The independent reference: the results in order, each a record when
    // faster than every one before it.
    let mut expected = Vec::new();
    let mut record: Option<i64> = None;
    for (who, answer) in &done {
        let m = millis(answer);
        if record.is_none_or(|r| m < r) {
            let by = record.map(|r| json!((r - m) as f64)).unwrap_or(Value::Null);
            expected.push((handle(*who), json!(m as f64), by, answer["game"].clone()));
            record = Some(m);
        }
    }
    assert_eq!(expected.len(), 3, "{done:?}");
    let got: Vec<(String, Value, Value, Value)> = rows
        .iter()
        .map(|r| {
            let handle = r["handle"].as_str().unwrap().to_string();
            (
                handle,
                r["millis"].clone(),
                r["improvement"].clone(),
                r["game_ids"][0].clone(),
            )
        })
        .collect();
    assert_eq!(got, expected, "{history}");
    assert_eq!(rows[2]["moves"], done[2].1["stm"]);
    assert!(rows
        .windows(2)
        .all(|w| w[0]["finished_at"].as_i64() <= w[1]["finished_at"].as_i64()));

    // One row per player, each its best, fastest first, as computed here.
    let records = anyone.get(&format!("/api/records?{query}")).json();
    let mut best: Vec<(String, i64, Value)> = Vec::new();
    for (who, answer) in &done {
        let m = millis(answer);
        match best.iter_mut().find(|(h, _, _)| *h == handle(*who)) {
            Some(row) if row.1 <= m => {}
            Some(row) => *row = (handle(*who), m, answer["game"].clone()),
            None => best.push((handle(*who), m, answer["game"].clone())),
        }
    }
    best.sort_by_key(|(_, m, _)| *m);
    let by_player = records["by_player"].as_array().unwrap();
    let got: Vec<(String, i64, Value)> = by_player
        .iter()
        .map(|r| {
            let handle = r["handle"].as_str().unwrap().to_string();
            (handle, r["millis"].as_i64().unwrap(), r["game_id"].clone())
        })
        .collect();
    assert_eq!(got, best, "{records}");
    let top = best[0].1 as f64;
    for row in by_player {
        let m = row["millis"].as_f64().unwrap();
        let percent = row["percent"].as_f64().unwrap();
        assert!((percent - top / m * 100.0).abs() < 1e-9, "{row}");
        // Open Slidysim's percentage tiers: alpha from 90 %, beta from 80 %, …
        let greek = [
            "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
        ];
        let tens = ((percent / 10.0).floor() as usize).min(9);
        assert_eq!(row["tier"], greek[9 - tens], "{row}");
        let tps = row["moves"].as_f64().unwrap() * 1000.0 / m;
        assert!((row["tps"].as_f64().unwrap() - tps).abs() < 1e-9, "{row}");
    }
    assert_eq!(by_player[0]["percent"], 100.0);
    assert!(records["by_time"].as_array().unwrap().len() > by_player.len());

    // The first player's history of bests: two, the second no record.
    let profile = anyone.get(&format!("/api/users/{}", handle(0))).json();
    let single = profile["bests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["of"] == 1 && b["control"].is_null())
        .unwrap()
        .clone();
    let points: Vec<(Value, Value)> = single["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["millis"].clone(), p["world_record"].clone()))
        .collect();
    let (first, second) = (millis(&done[0].1), millis(&done[3].1));
    assert_eq!(
        points,
        [
            (json!(first as f64), json!(true)),
            (json!(second as f64), json!(false))
        ],
        "{single}"
    );
    assert_eq!(single["millis"], json!(second as f64));
    assert_eq!(single["game_ids"][0], done[3].1["game"]);
}

#[test]
fn a_country_is_an_assigned_iso_code_or_nothing_is_stored() {
    let server = Server::start();
    let mut c = server.client();
    let reply = c.post("/api/account/country", json!({"country": "NL"}));
    assert_eq!(reply.status, 401, "{}", reply.text);
    let (handle, _) = c.sign_up("nl");
    let profile = |c: &mut Client| c.get(&format!("/api/users/{handle}")).json();
    for bad in ["XX", "nl", "NLD", "", "N1", "UK"] {
        let reply = c.post("/api/account/country", json!({ "country": bad }));
        assert_eq!(reply.status, 400, "{bad}: {}", reply.text);
        let error = reply.json();
        assert_eq!(error["pointer"], "/country", "{error}");
        assert!(
            error["error"]
                .as_str()
                .unwrap()
                .contains("ISO 3166-1 alpha-2"),
            "{error}"
        );
        assert_eq!(profile(&mut c)["country"], Value::Null, "nothing stored");
    }
    let reply = c.post("/api/account/country", json!({"country": "NL"}));
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(profile(&mut c)["country"], "NL");
    // Beside the player's records too.
    ranked_3x3(&mut c, 8, 150);
    let records = c
        .get("/api/records?game=slide&variant=3x3-row-major")
        .json();
    assert_eq!(records["by_player"][0]["country"], "NL", "{records}");
    let history = c
        .get("/api/records/history?game=slide&variant=3x3-row-major")
        .json();
    assert_eq!(history["records"][0]["country"], "NL", "{history}");
    // A bad code leaves the one stored; null clears it.
    let reply = c.post("/api/account/country", json!({"country": "ZZ"}));
    assert_eq!(reply.status, 400);
    assert_eq!(profile(&mut c)["country"], "NL");
    let reply = c.post("/api/account/country", json!({ "country": null }));
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(profile(&mut c)["country"], Value::Null);
}
